import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/i18n/languages";
import { resolveParticles } from "~/i18n/korean";
import { SERVER_NAMESPACES, serverText, type ServerNamespace } from "~/i18n/server-text";
import { apiMessage } from "~/backend/messages";
import { accountText } from "~/backend/account/pages.server";
import { captchaText } from "~/backend/captcha/captcha.server";
import { docText } from "~/documents/labels";
import { sandboxTexts } from "~/backend/payments/sandbox/texts";

// Decisions 094 and 144: the server's text comes from the locale files through the pages' translator's code.

const file = (lang: string, ns: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../locales/${lang}/${ns}.json`, import.meta.url), "utf8"));

/** What the file says, its placeholders filled by hand: the text a guest must read. */
function expected(lang: string, template: string, values: Record<string, string>): string {
  const text = template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? "");
  return lang === "ko-KR" ? resolveParticles(text) : text;
}

describe("server text", () => {
  it.each(SERVER_NAMESPACES)("gives every key of %s in every language word for word, placeholders filled", (ns: ServerNamespace) => {
    for (const lang of LANGUAGES) {
      for (const [key, template] of Object.entries(file(lang, ns))) {
        const values = Object.fromEntries([...template.matchAll(/\{\{(\w+)\}\}/g)].map(([, name]) => [name, `<${name} & 'x'>`]));
        expect(serverText(lang, ns, key as never, values), `${lang} ${ns}:${key}`).toBe(expected(lang, template, values));
      }
    }
  });

  it("reads a placeholder given no value as nothing, and a value named like an i18next option as a value", () => {
    expect(apiMessage("body_too_large", "en-US")).toBe("The request body is too large (at most  bytes)");
    expect(apiMessage("stay_too_long", "en-US", { max: 30, count: 1, lng: "ja-JP", ns: "common" })).toBe("A stay can be at most 30 nights");
  });

  it("the catalogue wrappers give the same text as serverText", () => {
    expect(accountText("ja-JP", "title.signin")).toBe(file("ja-JP", "account")["title.signin"]);
    expect(captchaText("zh-CN", "new")).toBe(file("zh-CN", "captcha").new);
    expect(docText("en-US", "mail.pay_online", { amount: "NT$1" })).toBe(
      expected("en-US", file("en-US", "documents")["mail.pay_online"] ?? "", { amount: "NT$1" }),
    );
  });

  it("picks a document's words for what the hotel sells, else the room words", () => {
    const words = file("en-US", "documents");
    const unitKey = Object.keys(words).find((key) => key.endsWith(".site"));
    expect(unitKey).toBeDefined();
    const base = (unitKey ?? "").replace(/\.site$/, "");
    const template = (name: string) => words[name] ?? "";
    const values = Object.fromEntries([...template(unitKey ?? "").matchAll(/\{\{(\w+)\}\}/g)].map(([, name]) => [name, "2"]));
    expect(docText("en-US", base as never, values, "site")).toBe(expected("en-US", template(unitKey ?? ""), values));
    expect(docText("en-US", base as never, values, "room")).toBe(expected("en-US", template(base), values));
  });

  it("resolves Korean particles in the account service's text too (decision 087)", () => {
    expect(accountText("ko-KR", "signup.sent.body", { email: "mei@example.com" })).toContain("mei@example.com으로 메일을 보냈습니다");
  });

  it("the test gateway speaks ECPay's five Language values, Traditional Chinese by default", () => {
    expect(sandboxTexts("ENG")).toMatchObject({
      lang: "en-US",
      title: "Test payment gateway",
      invalid: "CheckMacValue error: this trade is not valid.",
    });
    expect(sandboxTexts("KOR").atmIssued).toBe("ATM 이체 계좌가 발급되었습니다.");
    expect(sandboxTexts("JPN").transferNow).toBe("振込完了をシミュレート");
    expect(sandboxTexts("CHI")).toMatchObject({ lang: "zh-Hans-CN", payBy: "缴费期限" });
    expect(sandboxTexts(undefined)).toMatchObject({ lang: "zh-Hant-TW", title: "測試付款閘道" });
    expect(sandboxTexts("XYZ").back).toBe("返回飯店網站");
  });
});
