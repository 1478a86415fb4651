import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { guestPhone, hotelUrl, taipeiDay, waitForHydration } from "./helpers";

// Issue 27: a guest books a Taipei room with two add-ons (breakfast for two over two nights, an airport
// pickup), pays at the test gateway, and finds both — name, count, amount — on the order page, in the
// confirmation PDF and in the confirmation email, in the language booked in.

const WORDS = {
  "en-US": {
    prefix: "/en-US",
    plan: "Best Available Rate (room only)",
    breakfastField: "Adults: Buffet breakfast",
    pickupField: "How many: Taoyuan airport pickup",
    pay: /^Pay NT\$[\d,]+ now$/,
    continue: "Continue to payment",
    gateway: "Test payment gateway",
    gatewayPay: "Pay",
    orderPage: "See your booking, download the confirmation or cancel",
    heading: "Add-ons",
    /** The emails' label colon: full-width after Chinese words (issue 37 item 17). */
    colon: ": ",
    breakfast: "Buffet breakfast × 2",
    pickup: "Taoyuan airport pickup × 1",
  },
  "zh-TW": {
    prefix: "",
    plan: "官網最優惠房價（不含早餐）",
    breakfastField: "大人：自助早餐",
    pickupField: "數量：桃園機場接送",
    pay: /^立即付款 NT\$[\d,]+$/,
    continue: "前往付款頁面",
    gateway: "測試付款閘道",
    gatewayPay: "付款",
    orderPage: "查看訂單、下載確認書或取消訂單",
    heading: "加購項目",
    colon: "：",
    breakfast: "自助早餐 2 份",
    pickup: "桃園機場接送 1 份",
  },
} as const;
// Breakfast: NT$450 an adult a night, two adults, two nights; the pickup NT$1,400 once.
const BREAKFAST = "NT$1,800";
const PICKUP = "NT$1,400";

const downloads = mkdtempSync(join(tmpdir(), "addons-documents-"));

for (const lang of ["en-US", "zh-TW"] as const) {
  test(`${lang}: two add-ons booked and paid are on the order page, in the PDF and in the email @js-matters`, async ({
    page,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    const words = WORDS[lang];
    const offset = 230 + (lang === "zh-TW" ? 4 : 0) + (javaScriptEnabled ? 0 : 2);
    const email = `addons-${lang}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;

    await page.goto(hotelUrl("taipei", `${words.prefix}/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 2)}`));
    if (javaScriptEnabled) await waitForHydration(page);
    await page.locator("li.plan").filter({ hasText: words.plan }).first().locator(".add-form button[type=submit]").click();
    await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
    await page.locator(".booking-cart a.button").click();
    await expect(page).toHaveURL(/\/hxa\/checkout\?/);
    if (javaScriptEnabled) await waitForHydration(page);
    await page.locator("#booker_last_name").fill("林");
    await page.locator("#booker_first_name").fill("美");
    await page.locator("#booker_phone").fill(guestPhone(7_000 + offset));
    await page.locator("#booker_email").fill(email);
    await page.getByLabel(words.breakfastField).fill("2");
    await page.getByLabel(words.pickupField).fill("1");
    await page.locator('button[name="intent"][value="price"]').click();
    await expect(page.locator(".price-summary")).toContainText(words.breakfast);
    await expect(page.locator(".price-summary")).toContainText(words.pickup);
    await page.locator('input[name="payment"][value="1:credit"]').check();
    await page.locator('button[name="intent"][value="order"]').click();

    // The pay page, then the test gateway.
    await expect(page).toHaveURL(/\/pay\//);
    await page.getByRole("button", { name: words.pay }).click();
    if (!javaScriptEnabled) await page.getByRole("button", { name: words.continue }).click();
    await expect(page.locator("h1")).toHaveText(words.gateway);
    await page.getByRole("button", { name: words.gatewayPay, exact: true }).click();
    // Back on the pay page, paid: nothing is left to pay.
    await expect(page).toHaveURL(/\/pay\//);
    await expect(page.getByRole("button", { name: words.pay })).toHaveCount(0);
    await page.getByRole("link", { name: words.orderPage }).click();
    const orderDoc = /\/orders\/(PT\d{6}-[A-Z0-9]{6})\?/.exec(page.url())?.[1] ?? "";
    expect(orderDoc).not.toBe("");

    // The order page.
    const section = page.locator("section").filter({ has: page.getByRole("heading", { name: words.heading, exact: true }) });
    await expect(section.locator("li")).toHaveText([`${words.breakfast}: ${BREAKFAST}`, `${words.pickup}: ${PICKUP}`]);
    // The money lines add up: rooms + add-ons = total (the add-ons' sum has a line of its own).
    const amount = async (row: ReturnType<typeof page.locator>) =>
      Number(((await row.locator("dd").textContent()) ?? "").replace(/\D/g, ""));
    const money = page.locator(".order-summary ~ .price-summary > div, .order-summary .price-summary > div");
    const rows = await money.count();
    const byLabel = new Map<string, number>();
    for (let index = 0; index < rows; index++)
      byLabel.set(((await money.nth(index).locator("dt").textContent()) ?? "").trim(), await amount(money.nth(index)));
    expect(byLabel.get(words.heading), "the add-ons line").toBe(Number(BREAKFAST.replace(/\D/g, "")) + Number(PICKUP.replace(/\D/g, "")));

    // The PDF.
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator(".order-page__actions a[download]").click()]);
    const file = join(downloads, `${lang}-${javaScriptEnabled}.pdf`);
    await download.saveAs(file);
    // Compared without white space: a long item's name wraps in the PDF's label column ("Taoyuan airport pickup" / "× 1").
    const squeezed = (said: string) => said.replace(/\s+/g, "");
    const pdfText = squeezed(execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }));
    expect(pdfText).toContain(orderDoc);
    for (const said of [words.heading, words.breakfast, BREAKFAST, words.pickup, PICKUP]) expect(pdfText, said).toContain(squeezed(said));

    // The confirmation email.
    await page.goto(hotelUrl("taipei", `/dev/outbox?to=${encodeURIComponent(email)}`));
    const confirmation = page.locator('article[data-kind="order_confirmation"]');
    await expect(confirmation.locator("h2")).toContainText(orderDoc);
    await expect(confirmation.locator("pre")).toContainText(`${words.heading}${words.colon}${words.breakfast} · ${BREAKFAST}`);
    await expect(confirmation.locator("pre")).toContainText(`${words.heading}${words.colon}${words.pickup} · ${PICKUP}`);
  });
}
