import { expect, test, type Page } from "@playwright/test";
import { hotelUrl, taipeiDay, waitForHydration } from "./helpers";

// Issue 37 item 12: checkout → "Add rail tickets" → back, by the rail page's link and by the
// browser's back, keeps what the guest typed and chose at the checkout, with JavaScript on and off;
// and the rail page starts from the stay's children as well as its adults.

async function expectKept(page: Page) {
  await expect(page).toHaveURL(/\/hxa\/checkout\?/);
  await expect(page.locator("#booker_last_name")).toHaveValue("Lin");
  await expect(page.locator("#booker_first_name")).toHaveValue("Mei");
  await expect(page.locator("#booker_phone")).toHaveValue("0923456789");
  await expect(page.locator("#booker_email")).toHaveValue("round-trip@example.com");
  await expect(page.locator("#memo")).toHaveValue("A cot for our daughter, please");
  await expect(page.getByLabel("How many: Taoyuan airport pickup")).toHaveValue("1");
  // The price shown is for what is kept: the pickup is in it.
  await expect(page.locator(".price-summary")).toContainText("Taoyuan airport pickup × 1");
}

test("the booker's details, the note and an extra survive a trip to the rail page and back, and children are carried over @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const offset = javaScriptEnabled ? 337 : 339;
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 1)}&adults=2&children=1`));
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

  await page.locator("#booker_last_name").fill("Lin");
  await page.locator("#booker_first_name").fill("Mei");
  await page.locator("#booker_phone").fill("0923456789");
  await page.locator("#booker_email").fill("round-trip@example.com");
  await page.locator("#memo").fill("A cot for our daughter, please");
  await page.getByLabel("How many: Taoyuan airport pickup").fill("1");

  // To the rail page: the stay's two adults and one child are its passengers.
  await page.locator(".rail-section").getByText("Add rail tickets").click();
  await expect(page.locator("h1")).toHaveText("High-speed rail tickets");
  const passengers = page.getByRole("group", { name: "Passengers" });
  await expect(passengers.getByLabel("Adults")).toHaveValue("2");
  await expect(passengers.getByLabel("Children")).toHaveValue("1");

  // Back by the page's link.
  await page.getByRole("link", { name: "← Back to your booking" }).click();
  await expectKept(page);

  // And by the browser's back.
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator(".rail-section").getByText("Add rail tickets").click();
  await expect(page.locator("h1")).toHaveText("High-speed rail tickets");
  await page.goBack();
  await expectKept(page);
});
