/**
 * What a guest reads, held as rules (issue 25 items 8, 9, 13, 14, 15): the unit of what the hotel
 * sells, names, percentages, the party, one date style and the zone of every deadline — the same on
 * the pages, in the emails and in the confirmation PDF.
 */
import { describe, expect, it } from "vitest";
import { confirmationContent, type ConfirmationHotel, type ConfirmationOrder } from "~/documents/confirmation-content";
import { docText, paymentText } from "~/documents/labels";
import { refundRuleLines } from "~/documents/refund-text";
import { renderOrderMail, type PresentedOrder } from "~/backend/mail/render.server";
import { withUnitWords } from "~/domain/units";
import { formatDate, formatDateTime, formatPercent } from "~/i18n/format";
import { LANGUAGES } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { createTranslator } from "~/i18n/translate";

const campsite: ConfirmationHotel = {
  hotel_name: "Camp",
  address: "Hsinchu",
  phone: "+886-3-000-0000",
  email: "camp@example.com",
  checkin_start_time: "14:00",
  checkout_time: "11:00",
  booking_policy: "",
  cancel_policy: "",
  time_zone: "Asia/Taipei",
  kind: 2,
};
const order: ConfirmationOrder = {
  order_doc: "PT261218-CAMP01",
  display_status: "Confirmed",
  status: "confirmed",
  booker_name: "Lin Mei",
  booker_first_name: "Mei",
  booker_last_name: "Lin",
  booker_phone: "0912345678",
  booker_email: "mei@example.com",
  check_in_day: "2026-12-18",
  check_out_day: "2026-12-20",
  adults_count: 2,
  children_count: 0,
  orders: [{ num: 1, room_class_name: "Lakeside tent site", rate_plan_name: "Whole site", occupant_name: "", amount: 3_600 }],
  pay_way: "credit",
  pay_option: "all",
  payment_status: 2,
  sum: 3_600,
  couponDiscount: 0,
  used_coupon: "",
  usedPoint: 0,
  final_amount: 3_600,
  deposit_amount: 0,
  pay_amount: 3_600,
  paid_amount: 3_600,
  free_cancel_before_date: null,
};
const rows = (lang: (typeof LANGUAGES)[number], hotel = campsite) =>
  confirmationContent(order, hotel, lang, paymentText(lang, "credit", 1)).sections.flatMap((section) => [
    section.heading,
    ...section.rows.flat(),
  ]);

describe("one unit vocabulary by the hotel's kind (item 8)", () => {
  it("a campsite's PDF speaks of sites, never rooms", () => {
    const zh = confirmationContent(order, campsite, "zh-TW", "").title + rows("zh-TW").join(" ");
    expect(zh).toContain("營位");
    expect(zh).not.toMatch(/訂房|房間|房價/);
    expect(rows("en-US").join(" ")).not.toMatch(/\bRooms?\b/);
    // A hotel keeps its rooms.
    expect(rows("zh-TW", { ...campsite, kind: 1 }).join(" ")).toContain("房價");
  });

  it("a campsite's email speaks of sites, subject included", () => {
    const mail = renderOrderMail({
      kind: "order_confirmation",
      lang: "zh-TW",
      hotel: { name: "Camp", phone: "", email: "", address: "", timeZone: "Asia/Taipei", kind: 2 },
      order: {
        ...order,
        payment_vendor: 1,
        remain_total_amount: 0,
        pay_deadline: null,
        support_client_cancel: false,
        payment_attempts: [],
      } as unknown as PresentedOrder,
      links: { view: "https://camp.example/o", cancel: null, pay: null, pdf: "https://camp.example/p" },
      cancellation: null,
    });
    expect(mail.subject).toBe("【Camp】預訂確認 PT261218-CAMP01");
    expect(mail.text).toContain("營位：Lakeside tent site");
    expect(`${mail.subject}${mail.text}`).not.toMatch(/訂房|房間|房價|房型/);
  });

  it("every page text a campsite's guest reads is the site word where one exists", () => {
    for (const lang of LANGUAGES) {
      const t = createTranslator(lang, withUnitWords(resources[lang], "site"));
      const plain = createTranslator(lang, resources[lang]);
      const common = resources[lang].common;
      for (const key of Object.keys(common).filter((name) => name.includes(".site"))) {
        const base = key.replace(/\.site(?=_|$)/, "");
        if (/_(zero|one|two|few|many|other)$/.test(base)) continue;
        expect(t(base), `${lang} ${base}`).toBe(plain(key));
      }
    }
    const en = createTranslator("en-US", withUnitWords(resources["en-US"], "site"));
    expect(en("checkout.room_price")).toBe("Sites");
    expect(en("pay.deadline", { deadline: "x" })).toContain("the sites released");
    expect(en("cart.rooms", { count: 2 })).toBe("2 sites");
  });
});

describe("names in the language's order (item 9)", () => {
  it("the PDF and the email name the booker as the header does", () => {
    expect(rows("en-US").join(" ")).toContain("Mei Lin · 0912345678");
    expect(rows("zh-TW").join(" ")).toContain("Lin Mei · 0912345678");
    const korean = confirmationContent(
      { ...order, booker_first_name: "민지", booker_last_name: "김", booker_name: "민지 김" },
      campsite,
      "ko-KR",
      "",
    );
    expect(korean.sections.flatMap((s) => s.rows.flat()).join(" ")).toContain("김민지 · ");
  });
});

describe("English reads as English (item 13)", () => {
  it("percentages have no space before the sign, in every language", () => {
    for (const lang of LANGUAGES) expect(formatPercent(70, lang)).toBe("70%");
    const line = refundRuleLines("en-US", {
      refund: 700,
      fee: 300,
      parts: [
        {
          kind: "deposit",
          amount: 1_000,
          percent: 70,
          refund: 700,
          fee: 300,
          schedule: "deposit",
          steps: [{ days_before: 10, percent: 70 }],
        },
      ],
    })[0];
    expect(line).toContain("70% back");
    expect(line).not.toMatch(/\d %/);
  });

  it("the party is counted with plurals, as on the pages", () => {
    expect(rows("en-US").join(" ")).toContain("2 adults");
    expect(rows("en-US").join(" ")).not.toMatch(/Adults: \d/);
  });

  it("money paid online is named by what paid it, not by the checkout choice", () => {
    expect(paymentText("en-US", "credit", 1)).toBe("Credit card (ECPay)");
    const t = createTranslator("en-US", resources["en-US"]);
    expect(t("pay.paid_by", { amount: "NT$3,600", method: paymentText("en-US", "credit", 1) })).toBe("NT$3,600 paid: Credit card (ECPay)");
    expect(paymentText("zh-TW", "credit", 1)).toBe("ECPay 綠界信用卡");
    expect(paymentText("en-US", "remittance", 8)).toBe("Bank transfer");
  });
});

describe("one date style, and every time in a named zone (items 14, 15)", () => {
  it("the PDF prints stay dates as the pages do", () => {
    for (const lang of LANGUAGES) expect(rows(lang)).toContain(formatDate("2026-12-18", lang));
    expect(formatDate("2026-12-18", "ko-KR")).toBe("2026년 12월 18일 (금)");
  });

  it("a deadline is in the hotel's zone, with the date in the same style and the zone named", () => {
    const at = "2026-11-24T11:50:00Z";
    expect(formatDateTime(at, "en-US", "Asia/Taipei")).toBe("Tue, Nov 24, 2026 19:50 (Taiwan Standard Time)");
    expect(formatDateTime(at, "ja-JP", "Asia/Taipei")).toBe("2026年11月24日(火) 19:50（台湾標準時）");
    expect(formatDateTime(at, "ko-KR", "Asia/Taipei")).toBe("2026년 11월 24일 (화) 19:50 (대만 표준시)");
    expect(formatDateTime(at, "ja-JP", "Asia/Tokyo")).toBe("2026年11月24日(火) 20:50（日本標準時）");
    for (const lang of LANGUAGES) expect(formatDateTime(at, lang, "Asia/Taipei").startsWith(formatDate("2026-11-24", lang))).toBe(true);
  });
});

describe("zh-TW and Japanese wording (items 11, 12)", () => {
  it("zh-TW asks to pay online grammatically and calls the balance one thing", () => {
    expect(docText("zh-TW", "mail.pay_online", { amount: "NT$10,220" })).toBe("請線上付款 NT$10,220：");
    const zh = resources["zh-TW"].common;
    expect(Object.values(zh).join("")).not.toContain("餘款");
    expect(Object.values(resources["zh-CN"].common).join("")).not.toContain("余款");
  });

  it("Japanese names the deposit one way and the receipt naturally", () => {
    expect(Object.values(resources["ja-JP"].common).join("")).not.toContain("前金");
    expect(docText("ja-JP", "mail.subject.paid_receipt", { hotel: "湖畔", number: "1" })).toBe("【湖畔】お支払い完了のお知らせ 1");
  });
});
