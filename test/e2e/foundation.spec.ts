import { expect, test } from "@playwright/test";
import { hotelUrl } from "./helpers";

test("the default demo hotel answers on plain localhost", async ({ page }) => {
  const response = await page.goto(hotelUrl(null, "/"));
  expect(response?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-TW");
  await expect(page.locator(".site-header")).toBeVisible();
});

test("the same hotel answers at taipei.localhost, in English under /en-US", async ({ page }) => {
  const response = await page.goto(hotelUrl("taipei", "/en-US"));
  expect(response?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page.locator(".site-header__book")).toHaveText("Book now");
});

for (const name of ["closed", "nosite"]) {
  test(`${name}.localhost answers 404 with the not-found page`, async ({ page }) => {
    const response = await page.goto(hotelUrl(name, "/"));
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("404");
  });
}

test("an unknown path shows the 404 page with its error box", async ({ page }) => {
  const response = await page.goto(hotelUrl("taipei", "/en-US/no-such-page"));
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("404");
  await expect(page.getByRole("alert")).toContainText("Oops! Page not found");
  await expect(page.getByRole("alert")).toContainText("Please try to refresh or confirm whether the link is correct");
});

test("a hotel under preparation shows the banner", async ({ page }) => {
  await page.goto(hotelUrl("soon", "/en-US"));
  await expect(page.getByText("This hotel is still under preparation, please stay tuned for the opening of reservations!")).toBeVisible();
});
