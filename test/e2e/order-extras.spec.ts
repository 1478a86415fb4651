import { expect, test } from "@playwright/test";
import { hotelUrl, placeOrder } from "./helpers";

// Issue 27, decision 126: extras added to an unpaid booking from its order page (plain forms on a
// page that ships no JavaScript: one run, decision 145). Taipei's airport pickup costs NT$1,400 once
// for the stay.

test("the guest adds an airport pickup to an unpaid booking and finds it on the order page with the new amount to pay", async ({
  page,
  javaScriptEnabled,
}) => {
  const created = await placeOrder("remittance", 8, javaScriptEnabled ? 321 : 322);
  await page.goto(
    hotelUrl("taipei", `/en-US/hxa/orders/${created.order_doc}?cancel_hash=${encodeURIComponent(created.order.cancel_hash)}`),
  );
  const due = page.locator(".price-summary__due dd");
  const before = Number(((await due.textContent()) ?? "").replace(/\D/g, ""));
  const extras = page.getByRole("region", { name: "Add extras" });
  await expect(extras).toContainText("NT$1,400 each, once for the stay");

  await extras.getByLabel("How many: Taoyuan airport pickup").fill("1");
  await extras.getByRole("button", { name: "Add to my booking" }).click();

  await expect(page.getByRole("status")).toHaveText("Your extras were added to the booking; the amount to pay is updated.");
  await expect(page.locator("main")).toContainText("Taoyuan airport pickup × 1: NT$1,400");
  await expect(due).toHaveText(`NT$${(before + 1400).toLocaleString("en-US")}`);
  await expect(page.getByRole("region", { name: "Add extras" })).toContainText("Already in your booking: 1");
});
