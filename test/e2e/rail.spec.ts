import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { guestPhone, hotelUrl, taipeiDay, waitForHydration } from "./helpers";

// Issue 27: a guest books a Taipei room with two add-ons (breakfast for two over two nights, an
// airport pickup) and return high-speed rail tickets (from Zuoying on the check-in day, back to
// Taichung on the check-out day), pays at the test gateway, and finds the add-ons and the tickets —
// booked, with their PNR — on the order page, in the confirmation PDF and in the email, in the
// language booked in. With JavaScript off, each step is a form.
// Breakfast: NT$450 an adult a night, two adults, two nights; the pickup NT$1,400 once.
const BREAKFAST = "NT$1,800";
const PICKUP = "NT$1,400";

const WORDS = {
  "en-US": {
    prefix: "/en-US",
    plan: "Best Available Rate (room only)",
    title: "High-speed rail tickets",
    add: "Add rail tickets",
    station: "Your station",
    find: "Find trains",
    choose: /^Choose train \d+ at \d\d:\d\d$/,
    outbound: "To the hotel",
    /** The emails' label colon: full-width after Chinese words (issue 37 item 17). */
    colon: ": ",
    back: "From the hotel",
    zuoying: "Zuoying",
    taichung: "Taichung",
    taipei: "Taipei",
    priceLine: "Rail tickets",
    pay: /^Pay NT\$[\d,]+ now$/,
    continue: "Continue to payment",
    gateway: "Test payment gateway",
    gatewayPay: "Pay",
    orderPage: "See your booking, download the confirmation or cancel",
    booked: "Booked",
    pnr: /PNR [A-Z0-9]{6,}/,
    breakfastField: "Adults: Buffet breakfast",
    pickupField: "How many: Taoyuan airport pickup",
    addons: "Add-ons",
    breakfast: "Buffet breakfast × 2",
    pickup: "Taoyuan airport pickup × 1",
  },
  "zh-TW": {
    prefix: "",
    plan: "官網最優惠房價（不含早餐）",
    title: "高鐵車票",
    add: "加購高鐵車票",
    station: "起訖站",
    find: "查詢車次",
    choose: /^選擇 \d\d:\d\d \d+ 車次$/,
    outbound: "去程",
    colon: "：",
    back: "回程",
    zuoying: "左營",
    taichung: "台中",
    taipei: "台北",
    priceLine: "高鐵車票",
    pay: /^立即付款 NT\$[\d,]+$/,
    continue: "前往付款頁面",
    gateway: "測試付款閘道",
    gatewayPay: "付款",
    orderPage: "查看訂單、下載確認書或取消訂單",
    booked: "已訂位",
    pnr: /訂位代號 [A-Z0-9]{6,}/,
    breakfastField: "大人：自助早餐",
    pickupField: "數量：桃園機場接送",
    addons: "加購項目",
    breakfast: "自助早餐 2 份",
    pickup: "桃園機場接送 1 份",
  },
} as const;

const downloads = mkdtempSync(join(tmpdir(), "rail-documents-"));

async function chooseTrain(page: Page, words: (typeof WORDS)[keyof typeof WORDS], station: string, javaScriptEnabled: boolean) {
  await page.getByLabel(words.station).selectOption({ label: station });
  await page.getByRole("button", { name: words.find }).click();
  const choose = page.getByRole("button", { name: words.choose });
  await expect(choose.first()).toBeVisible();
  const amount = Number(((await page.locator(".rail-train__price").first().textContent()) ?? "").replace(/ .*/, "").replace(/\D/g, ""));
  await choose.first().click();
  if (javaScriptEnabled) await waitForHydration(page);
  return amount;
}

for (const lang of ["en-US", "zh-TW"] as const) {
  test(`${lang}: two add-ons and return rail tickets booked and paid are on the order page (tickets with their PNR), in the PDF and in the email @js-matters`, async ({
    page,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    const words = WORDS[lang];
    // Within THSR's 28-day booking window.
    const offset = 14 + (lang === "zh-TW" ? 6 : 0) + (javaScriptEnabled ? 0 : 3);
    const email = `rail-${lang}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;

    await page.goto(hotelUrl("taipei", `${words.prefix}/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 2)}&adults=2`));
    if (javaScriptEnabled) await waitForHydration(page);
    await page.locator("li.plan").filter({ hasText: words.plan }).first().locator(".add-form button[type=submit]").click();
    await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
    await page.locator(".booking-cart a.button").click();
    await expect(page).toHaveURL(/\/hxa\/checkout\?/);

    // The rail page: to the hotel from Zuoying on the check-in day, then back to Taichung on the check-out day.
    await page.getByRole("button", { name: words.add }).click();
    await expect(page.locator("h1")).toHaveText(words.title);
    if (javaScriptEnabled) await waitForHydration(page);
    const outbound = await chooseTrain(page, words, words.zuoying, javaScriptEnabled);
    await expect(page).toHaveURL(/direction=return/);
    await expect(page.locator(".rail-page__chosen .rail-line")).toHaveCount(1);
    const back = await chooseTrain(page, words, words.taichung, javaScriptEnabled);
    await expect(page).toHaveURL(/\/hxa\/checkout\?/);

    // The checkout lists both and prices them: the summary has their line.
    const lines = page.locator(".rail-section .rail-line");
    await expect(lines).toHaveCount(2);
    await expect(lines.nth(0)).toContainText(words.outbound);
    await expect(lines.nth(0)).toContainText(`${words.zuoying} `);
    await expect(lines.nth(1)).toContainText(words.back);
    await expect(lines.nth(1)).toContainText(`${words.taichung} `);
    const railLine = page.locator(".price-summary__rail dd").first();
    await expect(railLine).toHaveText(`NT$${(outbound + back).toLocaleString("en-US")}`);

    if (javaScriptEnabled) await waitForHydration(page);
    await page.locator("#booker_last_name").fill("林");
    await page.locator("#booker_first_name").fill("美");
    await page.locator("#booker_phone").fill(guestPhone(7_500 + offset));
    await page.locator("#booker_email").fill(email);
    await page.locator("#occupant_name_0").fill("林美");
    await page.getByLabel(words.breakfastField).fill("2");
    await page.getByLabel(words.pickupField).fill("1");
    await page.locator('button[name="intent"][value="price"]').click();
    await expect(page.locator(".price-summary")).toContainText(words.breakfast);
    await expect(page.locator(".price-summary")).toContainText(words.pickup);
    await expect(railLine).toHaveText(`NT$${(outbound + back).toLocaleString("en-US")}`);
    await page.locator('input[name="payment"][value="1:credit"]').check();
    await page.locator('button[name="intent"][value="order"]').click();

    // The pay page, then the test gateway.
    await expect(page).toHaveURL(/\/pay\//);
    await page.getByRole("button", { name: words.pay }).click();
    if (!javaScriptEnabled) await page.getByRole("button", { name: words.continue }).click();
    await expect(page.locator("h1")).toHaveText(words.gateway);
    await page.getByRole("button", { name: words.gatewayPay, exact: true }).click();
    await expect(page).toHaveURL(/\/pay\//);
    await expect(page.getByRole("button", { name: words.pay })).toHaveCount(0);
    await page.getByRole("link", { name: words.orderPage }).click();
    const orderDoc = /\/orders\/(PT\d{6}-[A-Z0-9]{6})\?/.exec(page.url())?.[1] ?? "";
    expect(orderDoc).not.toBe("");

    // The order page: both lines booked, each with a PNR.
    const section = page.locator("section.order-rail");
    await expect(section.locator("h2")).toHaveText(words.title);
    const booked = section.locator(".rail-line");
    await expect(booked).toHaveCount(2);
    for (const index of [0, 1]) {
      await expect(booked.nth(index).locator(".rail-line__status")).toContainText(words.booked);
      await expect(booked.nth(index).locator(".rail-line__status")).toContainText(words.pnr);
    }
    const pnrs = await booked.locator(".rail-line__status").allInnerTexts();
    const addons = page.locator("section").filter({ has: page.getByRole("heading", { name: words.addons, exact: true }) });
    await expect(addons.locator("li")).toHaveText([`${words.breakfast}: ${BREAKFAST}`, `${words.pickup}: ${PICKUP}`]);

    // The PDF.
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator(".order-page__actions a[download]").click()]);
    const file = join(downloads, `${lang}-${javaScriptEnabled}.pdf`);
    await download.saveAs(file);
    const squeezed = (said: string) => said.replace(/\s+/g, "");
    const pdfText = squeezed(execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }));
    expect(pdfText).toContain(orderDoc);
    for (const said of [words.title, words.zuoying, words.taichung, words.addons, words.breakfast, BREAKFAST, words.pickup, PICKUP])
      expect(pdfText, said).toContain(squeezed(said));
    for (const status of pnrs) expect(pdfText).toContain(squeezed(words.pnr.exec(status)?.[0] ?? "missing PNR"));

    // The confirmation email (sent when the booking was placed: the tickets, not yet their PNR).
    await page.goto(hotelUrl("taipei", `/dev/outbox?to=${encodeURIComponent(email)}`));
    const confirmation = page.locator('article[data-kind="order_confirmation"]');
    await expect(confirmation.locator("h2")).toContainText(orderDoc);
    await expect(confirmation.locator("pre")).toContainText(`${words.title}${words.colon}${words.outbound}`);
    await expect(confirmation.locator("pre")).toContainText(`${words.title}${words.colon}${words.back}`);
    await expect(confirmation.locator("pre")).toContainText(`${words.addons}${words.colon}${words.breakfast} · ${BREAKFAST}`);
    await expect(confirmation.locator("pre")).toContainText(`${words.addons}${words.colon}${words.pickup} · ${PICKUP}`);
    // The receipt, sent when it was paid: the tickets booked, with their PNR.
    const receipt = page.locator('article[data-kind="paid_receipt"]');
    await expect(receipt.locator("pre")).toContainText(words.pnr);
  });
}

// Issue 37 item 13: a checkout opened before rail tickets were chosen (in another tab) still offers
// paying at the hotel. "Check the price" with it chosen was accepted, and only the order refused it;
// the page then had no way of paying chosen. Now the price check refuses it in the order's words,
// and a card is chosen instead.
test("a checkout from before the rail tickets refuses paying at the hotel at the price check, and chooses a card @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const words = WORDS["en-US"];
  const offset = javaScriptEnabled ? 24 : 26;
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 1)}&adults=2`));
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator("li.plan").filter({ hasText: words.plan }).first().locator(".add-form button[type=submit]").click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await page.locator(".booking-cart a.button").click();
  await expect(page).toHaveURL(/\/hxa\/checkout\?/);
  const checkout = page.url();
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator('input[name="payment"][value="14:pay_arrival"]').check();

  // Another tab chooses a train to the hotel.
  const other = await page.context().newPage();
  await other.goto(checkout);
  // "Add rail tickets" keeps what the checkout holds on its way (decision 138): a button of its form.
  await other.getByRole("button", { name: words.add }).click();
  if (javaScriptEnabled) await waitForHydration(other);
  await chooseTrain(other, words, words.zuoying, javaScriptEnabled);
  await expect(other).toHaveURL(/direction=return/);
  await other.close();

  // Back in the first tab, paying at the hotel still chosen: the price check refuses it.
  await page.locator('button[name="intent"][value="price"]').click();
  await expect(page.locator("#payment-error")).toHaveText("Rail tickets must be paid when booking; choose another way to pay");
  await expect(page.locator('input[name="payment"][value="14:pay_arrival"]')).toHaveCount(0);
  await expect(page.locator('input[name="payment"][value="1:credit"]')).toBeChecked();
  await expect(page.locator(".price-summary__rail dd").first()).toHaveText(/^NT\$[\d,]+$/);
});
