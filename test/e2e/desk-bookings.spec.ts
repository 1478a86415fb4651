import { expect, test } from "@playwright/test";
import { signInToDesk } from "./desk-helpers";

/**
 * The desk's bookings at 360 px (decision 152): the demo owner signs in, the lists and the search
 * fit the phone's width (rows are cards), and the month report opens from the navigation. The
 * desk's pages ship no JavaScript: one run tests them (decision 145).
 */
test.use({ viewport: { width: 360, height: 740 } });

test("the bookings and the report fit a 360 px phone @js-matters", async ({ page }) => {
  // Its own hotel: the sign-in test signs in at taipei (each code is accepted once).
  const hotel = "lakeside";
  await signInToDesk(page, hotel);
  await expect(page.locator("h1")).toHaveText("Bookings");
  await page.getByRole("link", { name: "Awaiting payment" }).click();
  await expect(page.locator("h2")).toHaveText("Awaiting payment");
  await page.getByLabel("Search bookings").fill("zz-nobody");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No bookings.")).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByRole("link", { name: "Reports" }).click();
  await expect(page.locator("h1")).toHaveText("Reports");
  await expect(page.getByRole("heading", { name: "Occupancy by room type" })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
});
