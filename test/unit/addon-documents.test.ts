/**
 * Issue 27: the confirmation PDF and the emails list the order's add-ons as the order page does —
 * each item's name, count and amount, in the order's language — and the PDF's cache key follows them.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { labelled, renderOrderMail, type PresentedOrder } from "~/backend/mail/render.server";
import { confirmationContent, type ConfirmationHotel, type ConfirmationOrder } from "~/documents/confirmation-content";
import { buildConfirmationPdf } from "~/documents/confirmation-pdf";
import { paymentText } from "~/documents/labels";
import { pdfCacheKey } from "~/features/orders/pdf-cache.server";
import { formatPrice } from "~/i18n/format";
import { LANGUAGES, type Language } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { createTranslator } from "~/i18n/translate";

const hotel: ConfirmationHotel = {
  hotel_name: "Portico Taipei",
  address: "Taipei",
  phone: "+886-2-0000-0000",
  email: "stay@example.com",
  checkin_start_time: "15:00",
  checkout_time: "11:00",
  booking_policy: "",
  cancel_policy: "",
  time_zone: "Asia/Taipei",
  kind: 1,
};
// As the API lists them (attachment_list): a breakfast for two adults and a child over two nights, one airport pickup.
const addons = [
  { adds_id: 1, name: "早餐", unit: "person_night", quantity: 2, child_quantity: 1, nights: 2, amount: 2_000, room_index: null },
  { adds_id: 2, name: "機場接送", unit: "stay", quantity: 1, child_quantity: 0, nights: 2, amount: 1_200, room_index: null },
];
const order: ConfirmationOrder = {
  order_doc: "PT261220-ADDONS",
  display_status: "Confirmed",
  status: "confirmed",
  booker_name: "Lin Mei",
  booker_first_name: "Mei",
  booker_last_name: "Lin",
  booker_phone: "0912345678",
  booker_email: "mei@example.com",
  check_in_day: "2026-12-20",
  check_out_day: "2026-12-22",
  adults_count: 2,
  children_count: 1,
  orders: [{ num: 1, room_class_name: "Deluxe Double", rate_plan_name: "Room only", occupant_name: "", amount: 6_000 }],
  pay_way: "credit",
  pay_option: "all",
  payment_status: 2,
  sum: 6_000,
  couponDiscount: 0,
  used_coupon: "",
  usedPoint: 0,
  final_amount: 9_200,
  deposit_amount: 0,
  pay_amount: 9_200,
  paid_amount: 9_200,
  free_cancel_before_date: null,
  attachment_list: addons,
};

/** An item's line as the order page writes it (common.json's checkout.addons.item) and its amount. */
function pageLine(lang: Language, item: (typeof addons)[number]): [string, string] {
  const t = createTranslator(lang, resources[lang]);
  return [t("checkout.addons.item", { name: item.name, count: item.quantity + item.child_quantity }), formatPrice(item.amount, lang)];
}
const heading = (lang: Language) => createTranslator(lang, resources[lang])("order_page.addons");

const mailOf = (lang: Language, listed: unknown[] = addons) =>
  renderOrderMail({
    kind: "order_confirmation",
    lang,
    hotel: { name: hotel.hotel_name, phone: "", email: "", address: "", timeZone: "Asia/Taipei", kind: 1 },
    order: {
      ...order,
      attachment_list: listed,
      payment_vendor: 1,
      remain_total_amount: 0,
      pay_deadline: null,
      support_client_cancel: false,
      payment_attempts: [],
    } as unknown as PresentedOrder,
    links: { view: "https://taipei.example/o", cancel: null, pay: null, pdf: "https://taipei.example/p" },
    cancellation: null,
  });

describe("the confirmation PDF's add-ons", () => {
  it.each(LANGUAGES)(
    "%s: a section under the order page's heading, each item's name, count and amount as the order page has them",
    (lang) => {
      const content = confirmationContent(order, hotel, lang, paymentText(lang, "credit", 1));
      const section = content.sections.find((candidate) => candidate.heading === heading(lang));
      expect(section, `${lang}: an add-ons section`).toBeDefined();
      expect(section?.rows).toEqual(addons.map((item) => pageLine(lang, item)));
      // Between the rooms and the amounts.
      const headings = content.sections.map((candidate) => candidate.heading);
      expect(headings.indexOf(heading(lang))).toBeGreaterThan(1);
      expect(headings.indexOf(heading(lang))).toBeLessThan(headings.length - 2);
    },
  );

  it("an order without add-ons has no such section", () => {
    for (const listed of [undefined, []]) {
      const content = confirmationContent({ ...order, attachment_list: listed }, hotel, "en-US", "");
      expect(content.sections.map((section) => section.heading)).not.toContain("Add-ons");
    }
  });

  it("an item another back end sent without a price is listed by its name; one with no name is left out", () => {
    const content = confirmationContent({ ...order, attachment_list: [{ name: "Late checkout" }, { code: 7 }, "x"] }, hotel, "en-US", "");
    expect(content.sections.find((section) => section.heading === "Add-ons")?.rows).toEqual([["Late checkout", ""]]);
  });

  it("the drawn PDF reads back with the items and their amounts (en-US, ja-JP)", async () => {
    const font = (pkg: string, file: string) =>
      new Uint8Array(readFileSync(join(process.cwd(), "node_modules/@expo-google-fonts", pkg, "400Regular", file)));
    const fonts = { tc: font("noto-sans-tc", "NotoSansTC_400Regular.ttf"), kr: font("noto-sans-kr", "NotoSansKR_400Regular.ttf") };
    const dir = mkdtempSync(join(tmpdir(), "addons-pdf-"));
    for (const lang of ["en-US", "ja-JP"] as const) {
      const file = join(dir, `${lang}.pdf`);
      writeFileSync(file, await buildConfirmationPdf(confirmationContent(order, hotel, lang, paymentText(lang, "credit", 1)), fonts));
      const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/[ \t]+/g, " ");
      expect(text).toContain(heading(lang));
      for (const item of addons) for (const part of pageLine(lang, item)) expect(text, `${lang}: ${part}`).toContain(part);
    }
  });

  it("the cached PDF's key changes with the add-ons (decision 113)", async () => {
    const key = async (listed: unknown[]) =>
      pdfCacheKey(
        "taipei.example",
        order.order_doc,
        confirmationContent({ ...order, attachment_list: listed }, hotel, "en-US", ""),
        "/logo.svg",
      );
    const both = await key(addons);
    expect(await key(addons)).toBe(both);
    expect(await key(addons.slice(0, 1))).not.toBe(both);
    expect(await key([{ ...addons[0], quantity: 3, amount: 2_800 }, addons[1]])).not.toBe(both);
    expect(await key([])).not.toBe(both);
  });
});

describe("the email's add-ons", () => {
  it.each(LANGUAGES)("%s: text and HTML list each item's name, count and amount as the order page has them", (lang) => {
    const mail = mailOf(lang);
    for (const item of addons) {
      const [words, amount] = pageLine(lang, item);
      expect(mail.text).toContain(labelled(lang, heading(lang), `${words} · ${amount}`));
      expect(mail.html).toContain(`${words} · ${amount}`);
    }
    // Before the total.
    expect(mail.text.indexOf(pageLine(lang, addons[1]!)[0])).toBeLessThan(mail.text.indexOf(formatPrice(order.final_amount, lang)));
  });

  it("an order without add-ons says nothing of them; names are escaped in the HTML", () => {
    expect(mailOf("en-US", []).text).not.toContain("Add-ons");
    const mail = mailOf("en-US", [{ ...addons[1], name: "<b>Pickup</b>" }]);
    expect(mail.html).toContain("&lt;b&gt;Pickup&lt;/b&gt; × 1");
    expect(mail.html).not.toContain("<b>Pickup");
  });
});

describe("the confirmation email of a deposit (issue 37 item 17)", () => {
  const depositMail = (lang: Language) =>
    renderOrderMail({
      kind: "order_confirmation",
      lang,
      hotel: { name: hotel.hotel_name, phone: "", email: "", address: "", timeZone: "Asia/Taipei", kind: 1 },
      order: {
        ...order,
        attachment_list: [],
        final_amount: 7_800,
        sum: 7_800,
        pay_option: "part",
        payment_status: -1,
        deposit_amount: 2_340,
        pay_amount: 2_340,
        paid_amount: 0,
        payment_vendor: 1,
        remain_total_amount: 7_800,
        pay_deadline: null,
        support_client_cancel: false,
        payment_attempts: [],
      } as unknown as PresentedOrder,
      links: { view: "https://taipei.example/o", cancel: null, pay: "https://taipei.example/pay", pdf: "https://taipei.example/p" },
      cancellation: null,
    });

  it.each([
    ["en-US", "NT$2,340 is the 30 % deposit of the NT$7,800 total; the remaining NT$5,460 is paid later."],
    ["ja-JP", "NT$2,340 はご利用総額 NT$7,800 の 30% の予約金で、残りの NT$5,460 は後日お支払いいただきます。"],
    ["zh-TW", "NT$2,340 為總金額 NT$7,800 的 30% 定金，其餘 NT$5,460 於之後支付。"],
  ] as const)("%s says what the deposit is of the total and what remains", (lang, said) => {
    expect(depositMail(lang).text).toContain(said);
  });

  it("an order paid in full says nothing of a deposit", () => {
    expect(mailOf("en-US").text).not.toContain("deposit");
  });
});
