import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { bookTaipeiRoom, hotelUrl, taipeiDay } from "./helpers";
import { signInToDesk } from "./desk-helpers";

/**
 * The booking's e-invoice at the desk (issue 41, decision 159): the Taipei demo hotel issues at
 * payment through the invoice sandbox. A payment recorded at the desk is invoiced before the desk
 * answers (no Cron pass needed: the guest may be at the desk): staff see the number at once, then
 * correct it (void and issue again), all by plain forms (the desk's pages ship no JavaScript: one run tests them, decision 145). Screenshots
 * at 360 px wide go to /tmp/einv3-shots/ to be looked at.
 */

const SHOTS = "/tmp/einv3-shots";

test("staff record a transfer and see its invoice issued at once, then correct it by a void", async ({ page, javaScriptEnabled }) => {
  const orderDoc = await bookTaipeiRoom(page, {
    prefix: "/en-US",
    javaScriptEnabled,
    offset: 244,
    email: "desk-einvoice@example.com",
    lastName: "林",
    firstName: "發票",
  });
  await signInToDesk(page, "taipei");
  await page.setViewportSize({ width: 360, height: 800 });
  const bookingUrl = hotelUrl("taipei", `/en-US/desk/bookings/${orderDoc}`);
  await page.goto(bookingUrl);

  const panel = page.getByRole("region", { name: "E-invoice" });
  await expect(panel).toContainText("This booking system, when the booking is paid");
  // Not paid yet: nothing to issue.
  await expect(panel.getByRole("button", { name: "Issue now" })).toHaveCount(0);

  const transfer = page.getByRole("form", { name: "Record a bank transfer received" });
  await transfer.getByLabel("Transfer date").fill(taipeiDay(0));
  await transfer.getByLabel("Payer's account: last five digits").fill("24680");
  await transfer.getByRole("button", { name: "Record the transfer" }).click();
  await expect(page.getByText("Bank transfer: done.")).toBeVisible();

  // Paid: the desk issued the invoice before answering, with no Cron pass.
  await expect(panel.locator('[data-invoice-field="status"]')).toHaveText("Issued");
  mkdirSync(SHOTS, { recursive: true });
  const number = panel.locator('[data-invoice-field="number"]');
  await expect(number).toHaveText(/^[A-Z]{2}\d{8}$/);
  await expect(panel.locator('[data-invoice-field="random_number"]')).toHaveText(/^\d{4}$/);
  const first = (await number.textContent()) ?? "";
  await expect(panel.getByRole("button", { name: "Issue now" })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/2-issued-360.png`, fullPage: true });

  // A correction: void and issue again; the old number voided, a new one issued, the history newest first.
  await panel.locator(`li[data-invoice-number="${first}"]`).getByRole("button", { name: "Void and issue again" }).click();
  await expect(panel.getByRole("status")).toHaveText("Void the invoice: done.");
  await expect(number).not.toContainText(first);
  await expect(panel.locator(`li[data-invoice-number="${first}"]`)).toContainText("voided");
  await panel.getByText(/^History/).click();
  await expect(panel.locator("[data-invoice-history]").first()).toContainText("Issue");
  await panel.screenshot({ path: `${SHOTS}/3-corrected-360.png` });

  // The same panel in Traditional Chinese.
  await page.goto(hotelUrl("taipei", `/desk/bookings/${orderDoc}`));
  await expect(page.getByRole("region", { name: "電子發票" })).toContainText("已開立");
  await page.getByRole("region", { name: "電子發票" }).screenshot({ path: `${SHOTS}/4-zh-TW-360.png` });
  // Nothing on the page is wider than the phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
