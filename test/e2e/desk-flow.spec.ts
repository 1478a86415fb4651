import { expect, test } from "@playwright/test";
import { apiCall, hotelUrl, placeOrder } from "./helpers";
import { signInToDesk } from "./desk-helpers";

/**
 * Issue 39's first journey, as the front desk lives it (decisions 150–152): a guest books by bank
 * transfer and the hotel is told; staff sign in with password and code, find the booking by the
 * guest's email, record the transfer; the guest's own order then says paid. The desk's pages ship
 * no JavaScript: one run tests them (decision 145).
 */
test("a bank transfer recorded at the desk settles the guest's booking", async ({ page }) => {
  const order = await placeOrder("remittance", 8, 190);
  const hash = new URL(order.redirect_path, "http://x").searchParams.get("valid_hash")!;
  const guestView = async () =>
    (
      await apiCall<{ data: { payment_status: number; paid_amount: number; pay_amount: number } }>(
        "GET",
        `/api/ota/order/personal-history?domain=taipei.localhost&hash_code=${encodeURIComponent(hash)}&lang=en-US`,
      )
    ).json.data;
  const before = await guestView();
  expect(before.payment_status).toBe(-1);

  await signInToDesk(page, "taipei");
  await page.getByLabel("Search bookings").fill("mei+190@example.com");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: order.order_doc }).first().click();
  await expect(page).toHaveURL(hotelUrl("taipei", `/en-US/desk/bookings/${order.order_doc}`));

  const form = page.getByRole("form", { name: "Record a bank transfer received" });
  await expect(form.getByLabel("Amount (NT$)")).toHaveValue(String(before.pay_amount));
  await form.getByLabel("Transfer date").fill(new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10));
  await form.getByLabel("Payer's account: last five digits").fill("12345");
  await form.getByRole("button", { name: "Record the transfer" }).click();
  await expect(page.getByText("Bank transfer: done.")).toBeVisible();

  const after = await guestView();
  expect(after.payment_status).toBe(2);
  expect(after.paid_amount).toBe(before.pay_amount);
  // Paid in full: the booking no longer offers to record a transfer.
  await expect(form).toHaveCount(0);
});
