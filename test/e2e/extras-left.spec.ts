import { expect, test } from "@playwright/test";
import { apiCall, hotelUrl, placeOrder, taipeiDay, waitForHydration } from "./helpers";

// Issue 37 item 11: a limited extra says how many are left for the stay, and asking for more is
// refused with the item's name and how many are left, with JavaScript on and off. Taipei has four
// airport pickups a day; another booking takes three on the check-in day, so one is left.

test("the checkout says one airport pickup is left, refuses two by name, and never shows a price without it @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const offset = javaScriptEnabled ? 331 : 333;
  const pickup = await apiCall<{ data: { adds_id: number } }>("GET", "/api/xtra/adds/airport-pickup?domain=taipei.localhost&lang=en-US");
  await placeOrder("remittance", 8, offset, { room_attachment_detail: [{ adds_id: pickup.json.data.adds_id, quantity: 3 }] });

  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 1)}`));
  if (javaScriptEnabled) await waitForHydration(page);
  await page
    .locator("li.plan")
    .filter({ hasText: "Best Available Rate (room only)" })
    .first()
    .locator(".add-form button[type=submit]")
    .click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await page.locator(".booking-cart a.button").click();
  await expect(page).toHaveURL(/\/hxa\/checkout\?/);
  if (javaScriptEnabled) await waitForHydration(page);

  const item = page.locator(".addon").filter({ hasText: "Taoyuan airport pickup" });
  await expect(item).toContainText("Only 1 left for your dates");
  const count = item.getByLabel("How many: Taoyuan airport pickup");
  await expect(count).toHaveAttribute("max", "1");

  await count.fill("2");
  await page.locator('button[name="intent"][value="price"]').click();
  await expect(page.getByRole("alert").filter({ hasText: "Only 1 Taoyuan airport pickup left for your dates" })).toBeVisible();
  await expect(item.locator(".field__error")).toHaveText("Only 1 Taoyuan airport pickup left for your dates");
  await expect(count).toHaveValue("2");
  // No amount without the pickup stands in for what would be charged (Taipei takes coupons: its price check is "Apply").
  await expect(page.locator(".price-summary")).toHaveCount(0);

  await count.fill("1");
  await page.locator('button[name="intent"][value="price"]').click();
  await expect(page.locator(".price-summary")).toContainText("Taoyuan airport pickup × 1");
  await expect(page.locator(".price-summary__addon dd")).toHaveText("NT$1,400");
});
