import { expect, test, type Page } from "@playwright/test";
import { bookTaipeiRoom, hotelUrl, placeOrder, taipeiDay } from "./helpers";
import { signInToDesk } from "./desk-helpers";

/**
 * Issue 39's journeys, as the front desk lives them (decisions 150–152). The guest's side is clicked
 * through the booking page and the checkout, with and without JavaScript; the desk's pages ship no
 * JavaScript, so their half is the same in both runs (decision 145).
 */

/** The Taipei hotel's reservation addresses (its hotel file's `reservation_emails`). */
const HOTEL_INBOX = "frontdesk@portico-taipei.example";

/** The emails of one kind to an address in the development outbox that name a booking. */
async function mailsAbout(page: Page, to: string, kind: string, orderDoc: string) {
  await page.goto(hotelUrl("taipei", `/dev/outbox?to=${encodeURIComponent(to)}`));
  return page.locator(`article[data-kind="${kind}"]`).filter({ hasText: orderDoc });
}

/** Opens a booking at the desk from a search, as staff would type it. */
async function findAtDesk(page: Page, text: string, orderDoc: string) {
  await page.getByLabel("Search bookings").fill(text);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: orderDoc }).first().click();
  await expect(page).toHaveURL(hotelUrl("taipei", `/en-US/desk/bookings/${orderDoc}`));
}

test("a guest's bank-transfer booking reaches the hotel, is found by name, and its transfer recorded at the desk makes it paid @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const offset = javaScriptEnabled ? 230 : 232;
  const firstName = javaScriptEnabled ? "雅婷" : "雅琪";
  const email = `desk-flow-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  const orderDoc = await bookTaipeiRoom(page, { prefix: "/en-US", javaScriptEnabled, offset, email, lastName: "鄭", firstName });

  // The hotel heard of it: the new booking's email, to each reservation address, linking to the desk.
  const told = await mailsAbout(page, HOTEL_INBOX, "hotel_new_booking", orderDoc);
  await expect(told).toHaveCount(1);
  await expect(told.locator(`a[href$="/desk/bookings/${orderDoc}"]`).first()).toBeAttached();

  // The guest's own page, from the confirmation's link: waiting for the transfer.
  const confirmation = await mailsAbout(page, email, "order_confirmation", orderDoc);
  const guestPage = await confirmation.locator('pre a[href*="?valid_hash="]').first().getAttribute("href");
  await page.goto(guestPage!);
  const paidOnGuestPage = page.locator("dt", { hasText: /^Paid$/ }).locator("xpath=following-sibling::dd[1]");
  await expect(page.getByText("Confirmed", { exact: true })).toHaveCount(0);

  await signInToDesk(page, "taipei");
  await findAtDesk(page, `鄭${firstName}`, orderDoc);
  const form = page.getByRole("form", { name: "Record a bank transfer received" });
  const owed = await form.getByLabel("Amount (NT$)").inputValue();
  expect(Number(owed)).toBeGreaterThan(0);
  await form.getByLabel("Transfer date").fill(taipeiDay(0));
  await form.getByLabel("Payer's account: last five digits").fill("12345");
  await form.getByRole("button", { name: "Record the transfer" }).click();
  await expect(page.getByText("Bank transfer: done.")).toBeVisible();
  // Paid in full: nothing more to record, and the timeline says who recorded it.
  await expect(form).toHaveCount(0);
  await expect(page.locator('li[data-timeline-kind="staff"]').first()).toContainText("by ");

  await page.goto(guestPage!);
  await expect(page.getByText("Confirmed", { exact: true })).toBeVisible();
  await expect(paidOnGuestPage).toHaveText(`NT$${Number(owed).toLocaleString("en-US")}`);
  await expect(await mailsAbout(page, email, "paid_receipt", orderDoc)).toHaveCount(1);
  await expect(await mailsAbout(page, HOTEL_INBOX, "hotel_payment_received", orderDoc)).toHaveCount(1);
});

test("a pay-at-arrival guest is checked in and their payment at the front desk recorded @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = `desk-arrival-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  // Arriving today, paying at the hotel.
  const orderDoc = await bookTaipeiRoom(page, { prefix: "/en-US", javaScriptEnabled, offset: 0, email, payment: "14:pay_arrival" });

  await signInToDesk(page, "taipei");
  await page.getByRole("link", { name: "Arriving today" }).click();
  await page.getByRole("link", { name: orderDoc }).first().click();
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByText("Check-in: done.")).toBeVisible();
  await expect(page.getByText("In house").first()).toBeVisible();

  const form = page.getByRole("form", { name: "Record a payment at the hotel" });
  const owed = Number(await form.getByLabel("Amount (NT$)").inputValue());
  expect(owed).toBeGreaterThan(0);
  await form.getByLabel("Card terminal").check();
  await form.getByLabel("Slip or receipt number (optional)").fill("T-0042");
  await form.getByRole("button", { name: "Record the payment" }).click();
  await expect(page.getByText("Payment at the hotel: done.")).toBeVisible();
  await expect(form).toHaveCount(0);
  await expect(page.locator('[data-money="owed"] dd')).toHaveText("NT$0");
  await expect(page.getByText(/^Still owed: /)).toHaveCount(0);

  // The guest's page says paid, and the paid receipt is on its way.
  const confirmation = await mailsAbout(page, email, "order_confirmation", orderDoc);
  await page.goto((await confirmation.locator('pre a[href*="?valid_hash="]').first().getAttribute("href"))!);
  await expect(page.locator("dt", { hasText: /^Paid$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText(
    `NT$${owed.toLocaleString("en-US")}`,
  );
  await expect(await mailsAbout(page, email, "paid_receipt", orderDoc)).toHaveCount(1);
});

test("a paid booking cancelled on the guest's behalf is refunded by hand, once @js-matters", async ({ page, javaScriptEnabled }) => {
  const offset = javaScriptEnabled ? 236 : 238;
  const order = await placeOrder("remittance", 8, offset);
  await signInToDesk(page, "taipei");
  await findAtDesk(page, order.order_doc, order.order_doc);

  const transfer = page.getByRole("form", { name: "Record a bank transfer received" });
  const paid = Number(await transfer.getByLabel("Amount (NT$)").inputValue());
  await transfer.getByLabel("Transfer date").fill(taipeiDay(0));
  await transfer.getByLabel("Payer's account: last five digits").fill("54321");
  await transfer.getByRole("button", { name: "Record the transfer" }).click();
  await expect(page.getByText("Bank transfer: done.")).toBeVisible();

  // Months ahead, the rules refund everything paid.
  const cancel = page.getByRole("form", { name: "Cancel on the guest's behalf" });
  await cancel.getByLabel("Reason").fill("The guest called: the trip is off.");
  await cancel.getByRole("button", { name: "Cancel the booking" }).click();
  await expect(page.getByText("Cancellation: done.")).toBeVisible();
  const price = `NT$${paid.toLocaleString("en-US")}`;
  await expect(page.getByText(`Due back to the guest: ${price}`)).toBeVisible();

  const refund = page.getByRole("form", { name: "Refund" });
  await expect(refund.getByLabel("Amount (NT$)")).toHaveValue(String(paid));
  await refund.getByLabel("Paid back by hand (bank transfer, cash)").check();
  await refund.getByLabel("Reference (required when paid back by hand)").fill("TW-REF-0236");
  await refund.getByRole("button", { name: "Record the refund" }).click();
  await expect(page.getByText("Refund: done.")).toBeVisible();
  // Nothing is due back any more: the refund cannot be recorded twice.
  await expect(refund).toHaveCount(0);
  await expect(page.getByText(/Due back to the guest/)).toHaveCount(0);
  await expect(page.locator('[data-money="refunded"] dd')).toHaveText(price);

  // The guest was told of the cancellation; the hotel of the cancellation with its refund.
  await expect(await mailsAbout(page, `mei+${offset}@example.com`, "order_cancellation", order.order_doc)).toHaveCount(1);
  await expect(await mailsAbout(page, HOTEL_INBOX, "hotel_cancellation", order.order_doc)).toHaveCount(1);
});
