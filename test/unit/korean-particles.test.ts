import { describe, expect, it } from "vitest";
import { particle, resolveParticles } from "~/i18n/korean";
import { createTranslator } from "~/i18n/translate";
import { resources } from "~/i18n/resources";
import { docText, type DocumentKey } from "~/documents/labels";
import koDocuments from "../../locales/ko-KR/documents.json";

describe("Korean particles follow the word before them (issue 25 item 10)", () => {
  it.each([
    ["NT$7,600", "을(를)", "을"], // 영: final ㅇ
    ["NT$7,602", "을(를)", "를"], // 이: no final
    ["NT$3,601", "(으)로", "로"], // 일: final ㄹ takes 로
    ["NT$3,600", "(으)로", "으로"],
    ["신용카드(ECPay)", "(으)로", "로"], // the brackets are read aside
    ["계좌이체", "(으)로", "로"],
    ["현장 결제", "(으)로", "로"],
    ["mei@example.com", "(으)로", "으로"], // 컴
    ["guest@example.mail", "(으)로", "로"], // 메일
    ["타이베이 호텔", "을(를)", "을"],
    ["레이크사이드", "을(를)", "를"],
    ["NT$1,000", "이(가)", "이"],
    ["NT$1,005", "이(가)", "가"],
    ["NT$2,400", "은(는)", "은"],
    ["NT$2,409", "은(는)", "는"],
  ])("%s + %s → %s", (before, notation, expected) => {
    expect(particle(before, notation)).toBe(expected);
  });

  it("leaves no two-form particle in any Korean message once its values are in", () => {
    const t = createTranslator("ko-KR", resources["ko-KR"]);
    expect(t("pay.paid_by", { method: "신용카드(ECPay)", amount: "NT$7,600" })).toBe("신용카드(ECPay)로 NT$7,600 결제 완료");
    expect(t("receipt.thanks", { email: "mei@example.com" })).toContain("mei@example.com으로 보냈습니다");
    expect(t("pay.part_paid", { amount: "NT$2,400" })).toContain("잔액 NT$2,400은 호텔에서");
    expect(docText("ko-KR", "mail.pay_online", { amount: "NT$7,602" })).toBe("NT$7,602를 온라인으로 결제해 주세요:");
    const values = {
      hotel: "호텔",
      amount: "NT$100",
      email: "a@b.com",
      method: "카드",
      name: "김민지",
      paid: "NT$1",
      fee: "NT$3",
      date: "1일",
    };
    const hedge = /을\(를\)|이\(가\)|은\(는\)|\(으\)로|와\(과\)/;
    const pages: Record<string, Record<string, string>> = resources["ko-KR"];
    for (const [ns, table] of Object.entries(pages)) {
      for (const key of Object.keys(table)) expect(t(key, { ns, ...values }), `${ns}:${key}`).not.toMatch(hedge);
    }
    for (const key of Object.keys(koDocuments) as DocumentKey[]) expect(docText("ko-KR", key, values), key).not.toMatch(hedge);
  });

  it("touches nothing else", () => {
    expect(resolveParticles("예약(확정)")).toBe("예약(확정)");
  });
});
