import { expect, test } from "@playwright/test";
import { totpCode } from "~/backend/desk/totp";
import { hotelUrl } from "./helpers";

/**
 * The desk's bookings at 360 px (decision 152): the demo owner signs in, the lists and the search
 * fit the phone's width (rows are cards), and the month report opens from the navigation. The
 * desk's pages ship no JavaScript: one run tests them (decision 145).
 */
const DEMO_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

test.use({ viewport: { width: 360, height: 740 } });

test("the bookings and the report fit a 360 px phone @js-matters", async ({ page }) => {
  const hotel = "taipei";
  await page.goto(hotelUrl(hotel, "/en-US/desk"));
  await page.getByLabel("Email").fill("owner@portico.example");
  await page.getByLabel("Password").fill("portico-desk-1");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.locator("h1")).toHaveText("Enter your code");
  // The next step's code: the sign-in test may have spent this one (a code is never accepted twice).
  await page.getByLabel("Code").fill(await totpCode(DEMO_SECRET, new Date(Date.now() + 30_000)));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(hotelUrl(hotel, "/en-US/desk/bookings"));
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
