import { expect, test } from "@playwright/test";
import { hotelUrl, taipeiDay, waitForHydration } from "./helpers";

// Runs with JavaScript on and off: the search form and the cart behave the same way for both.

test("check-out can never be set before the night after check-in @js-matters", async ({ page, javaScriptEnabled }) => {
  const start = taipeiDay(160);
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${start}&end=${taipeiDay(162)}`));
  // In the HTML as served: the earliest check-out is the night after the searched check-in.
  await expect(page.locator("#search-end")).toHaveAttribute("min", taipeiDay(161));
  if (!javaScriptEnabled) {
    // The browser itself refuses a check-out on the check-in day.
    await page.locator("#search-end").fill(start);
    expect(await page.locator("#search-end").evaluate((input: HTMLInputElement) => input.validity.rangeUnderflow)).toBe(true);
    expect(await page.locator(".booking-search").evaluate((form: HTMLFormElement) => form.checkValidity())).toBe(false);
    return;
  }
  // With JavaScript the earliest check-out follows check-in as it changes, and a check-out left
  // behind moves to the night after the new check-in.
  await waitForHydration(page);
  await page.locator("#search-start").fill(taipeiDay(170));
  await expect(page.locator("#search-end")).toHaveAttribute("min", taipeiDay(171));
  await expect(page.locator("#search-end")).toHaveValue(taipeiDay(171));
  await page.locator(".booking-search button[type=submit]").click();
  await expect(page).toHaveURL(new RegExp(`start=${taipeiDay(170)}&end=${taipeiDay(171)}&`));
  await expect(page.locator("#search-end")).toHaveAttribute("min", taipeiDay(171));
});

test("after adding a room the page shows the cart, where the next step is @js-matters", async ({ page, javaScriptEnabled }) => {
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${taipeiDay(164)}&end=${taipeiDay(165)}`));
  const add = page.locator(".booking-results > .booking-room").last().locator(".add-form button[type=submit]").first();
  await add.scrollIntoViewIfNeeded();
  await add.click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await expect(page).toHaveURL(/#cart$/);
  await expect(page.locator("#cart-checkout")).toBeInViewport();
  if (!javaScriptEnabled) {
    // The keyboard carries on from the cart, not from the top of the page.
    await page.keyboard.press("Tab");
    await expect(page.locator("#cart :focus")).toHaveCount(1);
  }
});
