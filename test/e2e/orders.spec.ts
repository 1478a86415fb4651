import { expect, test, type Page } from "@playwright/test";
import { apiCall, hotelUrl, placeOrder, taipeiDay, waitForHydration } from "./helpers";

/** "NT$6,300" → 6300, "−NT$630" → −630. */
function amount(shown: string | null): number {
  const value = Number((shown ?? "").replace(/[^0-9]/g, ""));
  return /^\s*[−-]/.test(shown ?? "") ? -value : value;
}

async function fillBooker(page: Page, email = "mei@example.com") {
  await page.locator("#booker_last_name").fill("Lin");
  await page.locator("#booker_first_name").fill("Mei");
  await page.locator("#booker_phone").fill("0912345678");
  await page.locator("#booker_email").fill(email);
}

/** Adds the first plan whose name contains `planName` to the cart and goes to checkout. */
async function checkoutWith(page: Page, javaScriptEnabled: boolean, offset: number, planName: RegExp) {
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 1)}`));
  if (javaScriptEnabled) await waitForHydration(page);
  await page
    .locator(".booking-results > .booking-room li.plan")
    .filter({ hasText: planName })
    .first()
    .locator(".add-form button[type=submit]")
    .click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await page.locator(".booking-cart a.button").click();
  await expect(page).toHaveURL(/\/en-US\/hxa\/checkout\?/);
  if (javaScriptEnabled) await waitForHydration(page);
}

test("a refused coupon is cleared from the form, and placing the booking then goes through @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  await checkoutWith(page, javaScriptEnabled, javaScriptEnabled ? 170 : 172, /Advance Purchase/);
  await fillBooker(page);
  await page.locator('input[name="payment"][value="8:remittance"]').check();
  const total = await page.locator(".price-summary__total dd").textContent();

  // The advance-purchase plan takes no coupon: the check refuses WELCOME10 and clears it.
  await page.locator("#coupon_code").fill("WELCOME10");
  await page.locator('button[name="intent"][value="price"]').click();
  await expect(page.getByRole("alert")).toHaveText("The chosen plans cannot be combined with a coupon");
  await expect(page.locator("#coupon_code")).toHaveValue("");
  await expect(page.locator(".price-summary__total dd")).toHaveText(total ?? "");
  await expect(page.locator("#booker_email")).toHaveValue("mei@example.com");

  await page.locator('button[name="intent"][value="order"]').click();
  await expect(page).toHaveURL(/\/en-US\/redirect\/receipt\/PT\d{6}-[A-Z0-9]{6}\?valid_hash=/);
  await expect(page.locator("h1")).toHaveText("Booking confirmed");
  await expect(page.locator(".price-summary")).not.toContainText("WELCOME10");
});

test("the payment page after checkout tells the guest what is booked, what to pay and how @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  await checkoutWith(page, javaScriptEnabled, javaScriptEnabled ? 174 : 176, /Best Available Rate/);
  // A guest of its own: one email may hold only a few unpaid orders at a hotel (docs/decisions/032).
  await fillBooker(page, "mei.card@example.com");
  // Checkout starts on card payment (spec §4's default), which goes to the payment page.
  await expect(page.locator('input[name="payment"][value="1:credit"]')).toBeChecked();
  const dueAtCheckout = amount(await page.locator(".price-summary__due dd").textContent());
  const roomAtCheckout = await page.locator(".checkout-line__name").textContent();
  await page.locator('button[name="intent"][value="order"]').click();

  await expect(page).toHaveURL(/\/en-US\/pay\/\d+\/PT\d{6}-[A-Z0-9]{6}\?valid_hash=/);
  const orderDoc = /\/pay\/\d+\/([^?]+)/.exec(page.url())?.[1] ?? "";
  // The title and heading say the payment's state (issue 25 item 20).
  await expect(page).toHaveTitle(/^Payment due \| /);
  await expect(page.locator("h1")).toHaveText("Payment due");
  await expect(page.getByRole("status")).toHaveText(`Amount due now: NT$${dueAtCheckout.toLocaleString("en-US")}`);
  await expect(page.locator("#order-heading")).toHaveText(`Booking ${orderDoc}`);
  await expect(page.locator(".order-summary__status")).toHaveText("Awaiting payment");
  await expect(page.locator(".order-summary")).toContainText("0912345678 · mei.card@example.com");
  await expect(page.locator(".order-summary")).toContainText("Credit card (ECPay)");
  // The room booked, as checkout named it: room, plan, count and amount.
  await expect(page.locator(".order-summary__lines li")).toHaveText([roomAtCheckout ?? "-"]);
  await expect(page.locator(".order-summary")).toContainText(/Free cancellation until/);

  // The money lines: rooms = total = what is to pay, the same as checkout said was due.
  const labels = await page.locator(".price-summary dt").allTextContents();
  const values = (await page.locator(".price-summary dd").allTextContents()).map(amount);
  expect(labels).toEqual(["Rooms", "Total", "To pay"]);
  expect(values[0]).toBe(values[1]);
  expect(values[2]).toBe(values[1]);
  expect(values[2]).toBe(dueAtCheckout);
});

test("a cancelled order's pages say it is cancelled and ask for nothing", async ({ page }, testInfo) => {
  const offset = testInfo.project.name === "js-on" ? 178 : 180;
  const created = await placeOrder("credit", 1, offset);
  const { order_doc: orderDoc, redirect_path: payPath, order } = created;
  expect(payPath).toMatch(/^\/pay\//);
  const cancelled = await apiCall("POST", `/api/wota/order/cancel-via-hash/${orderDoc}?lang=en-US`, {
    domain: "taipei.localhost",
    valid_hash: order.cancel_hash,
  });
  expect(cancelled.status).toBe(200);

  for (const path of [`/en-US${payPath}`, `/en-US/redirect/receipt/${orderDoc}?valid_hash=${encodeURIComponent(order.valid_hash)}`]) {
    await page.goto(hotelUrl("taipei", path));
    await expect(page.locator(".order-summary__status")).toHaveText("Cancelled");
    await expect(page.getByRole("status")).toHaveText("This booking has been cancelled. There is nothing to pay.");
    await expect(page.locator("main")).not.toContainText(/To pay|Free cancellation|not open yet|Booking confirmed/);
    const labels = await page.locator(".price-summary dt").allTextContents();
    expect(labels).toEqual(["Rooms", "Total"]);
  }
  await expect(page.locator("h1")).toHaveText("Booking cancelled");
});
