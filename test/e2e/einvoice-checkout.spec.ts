import { expect, test, type Page } from "@playwright/test";
import { hotelUrl, taipeiDay, waitForHydration } from "./helpers";

/**
 * The e-invoice at the checkout of the Taipei demo hotel, which issues at payment through the
 * sandbox (issue 41, decision 159): the three kinds of buyer, a wrong input of each refused beside
 * its field with the rest kept, then the order page saying how and when the invoice comes. With
 * and without JavaScript (@js-matters), in zh-TW and en-US. The number itself on the order page,
 * in the email and the PDF is the Worker test's (test/worker/einvoice-checkout.test.ts): nothing a
 * browser does runs the issuing queue yet (the Cron pass is the hotel side's).
 */

const WORDS = {
  "zh-TW": {
    prefix: "",
    mobile: "手機條碼為 / 加 7 碼（數字、大寫英文字母、+、-、.）",
    love: "捐贈碼為 3 至 7 碼數字",
    checksum: "統一編號有誤，請檢查號碼",
    afterPayment: "付款完成後開立",
    beingIssued: "開立中：發票號碼稍後會顯示於訂單頁面",
    sentAs: {
      carrier: "雲端發票，手機條碼載具 /AB+1234",
      donation: "捐贈發票，捐贈碼 919",
      company: "公司發票，統一編號 04595257，公司抬頭 林氏貿易",
    },
  },
  "en-US": {
    prefix: "/en-US",
    mobile: "A mobile barcode is / followed by 7 characters: digits, capital letters, + - or .",
    love: "A donation code is 3 to 7 digits",
    checksum: "This tax ID number does not exist: check its digits",
    afterPayment: "Issued once the booking is paid",
    beingIssued: "Being issued: the number will show on your booking page",
    sentAs: {
      carrier: "Cloud invoice, mobile barcode /AB+1234",
      donation: "Donated, donation code 919",
      company: "Company invoice, tax ID number 04595257, 林氏貿易",
    },
  },
} as const;

type Kind = "carrier" | "donation" | "company";

/** One Taipei room for the night `offset` days ahead, at the checkout with the booker filled in. */
async function openCheckout(page: Page, prefix: string, javaScriptEnabled: boolean, offset: number) {
  await page.goto(hotelUrl("taipei", `${prefix}/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 1)}`));
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator(".booking-results > .booking-room li.plan").first().locator(".add-form button[type=submit]").click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await page.locator(".booking-cart a.button").click();
  await expect(page).toHaveURL(/\/hxa\/checkout\?/);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator("#booker_last_name").fill("林");
  await page.locator("#booker_first_name").fill("美");
  await page.locator("#booker_phone").fill("0912345678");
  await page.locator("#booker_email").fill(`einv+${offset}@example.com`);
}

/** Fills a kind of buyer's fields: `wrong` the refused value of its field, else the right one. */
async function fillBuyer(page: Page, kind: Kind, wrong: boolean) {
  await page.locator(`input[name="invoice_kind"][value="${kind}"]`).check();
  if (kind === "carrier") {
    await page.locator('input[name="carrier_kind"][value="mobile"]').check();
    await page.locator("#mobile_barcode").fill(wrong ? "AB+1234" : "/ab+1234");
  } else if (kind === "donation") {
    await page.locator("#love_code").fill(wrong ? "91" : "919");
  } else {
    await page.locator("#company_reg_number").fill(wrong ? "12345678" : "04595257");
    await page.locator("#company_name").fill("林氏貿易");
    await page.locator("#company_address").fill("台北市信義區市府路 1 號");
  }
}

const FIELD: Record<Kind, string> = { carrier: "mobile_barcode", donation: "love_code", company: "company_reg_number" };

for (const lang of ["zh-TW", "en-US"] as const) {
  const words = WORDS[lang];
  test(`${lang}: the three kinds of buyer at the checkout, each wrong input refused beside its field, then the order page @js-matters`, async ({
    page,
    javaScriptEnabled,
  }) => {
    // Nights no other browser test books: 110–115 with JavaScript, 120–125 without.
    const base = (javaScriptEnabled ? 110 : 120) + (lang === "en-US" ? 3 : 0);
    const kinds: Kind[] = ["carrier", "donation", "company"];
    for (const [index, kind] of kinds.entries()) {
      await openCheckout(page, words.prefix, javaScriptEnabled, base + index);
      // The demo city hotel issues at payment: no check-out note.
      await expect(page.locator(".invoice-fields legend").first()).toHaveText(lang === "zh-TW" ? "電子發票" : "E-invoice");
      await fillBuyer(page, kind, true);
      // With JavaScript only the chosen kind's fields are shown; without it every kind's are.
      const other = kind === "company" ? "#mobile_barcode" : "#company_reg_number";
      if (javaScriptEnabled) await expect(page.locator(other)).toBeHidden();
      else await expect(page.locator(other)).toBeVisible();
      // The company invoice is paid by card in English: the order page then says it is being issued.
      const byCard = kind === "company" && lang === "en-US";
      await page.locator(`input[name="payment"][value="${byCard ? "1:credit" : "8:remittance"}"]`).check();
      await page.locator('button[name="intent"][value="order"]').click();

      const message = kind === "carrier" ? words.mobile : kind === "donation" ? words.love : words.checksum;
      await expect(page.locator(`#${FIELD[kind]}-error`)).toHaveText(message);
      await expect(page.locator(`#${FIELD[kind]}`)).toHaveAttribute("aria-invalid", "true");
      // What was typed stays: the booker, the wrong value to correct, the kind chosen.
      await expect(page.locator("#booker_last_name")).toHaveValue("林");
      await expect(page.locator(`#${FIELD[kind]}`)).toHaveValue(kind === "carrier" ? "AB+1234" : kind === "donation" ? "91" : "12345678");
      await expect(page.locator(`input[name="invoice_kind"][value="${kind}"]`)).toBeChecked();

      await fillBuyer(page, kind, false);
      await page.locator('button[name="intent"][value="order"]').click();
      if (byCard) {
        await expect(page).toHaveURL(/\/pay\/\d+\/PT\d{6}-[A-Z0-9]{6}\?valid_hash=/);
        await page.getByRole("button", { name: /^Pay NT\$[\d,]+ now$/ }).click();
        if (!javaScriptEnabled) await page.getByRole("button", { name: "Continue to payment" }).click();
        await expect(page.locator("h1")).toHaveText("Test payment gateway");
        await page.getByRole("button", { name: "Pay", exact: true }).click();
        await expect(page.getByRole("status")).toHaveText("This booking is paid in full. Thank you!");
      } else {
        await expect(page).toHaveURL(/\/redirect\/receipt\/PT\d{6}-[A-Z0-9]{6}\?valid_hash=/);
      }
      const url = new URL(page.url());
      const doc = /\/(PT\d{6}-[A-Z0-9]{6})/.exec(url.pathname)?.[1] ?? "";
      await page.goto(
        hotelUrl("taipei", `${words.prefix}/hxa/orders/${doc}?valid_hash=${encodeURIComponent(url.searchParams.get("valid_hash") ?? "")}`),
      );
      const invoice = page.locator(".order-page__invoice");
      await expect(invoice.locator("h2")).toHaveText(lang === "zh-TW" ? "電子發票" : "E-invoice");
      await expect(invoice.locator("dd")).toHaveText([byCard ? words.beingIssued : words.afterPayment, words.sentAs[kind]]);
    }
  });
}
