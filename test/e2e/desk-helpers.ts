import { expect, type Page } from "@playwright/test";
import { totpCode } from "~/backend/desk/totp";
import { hotelUrl } from "./helpers";

/** Every demo hotel's demo owner (README, "The desk"; decision 149). */
export const DEMO_OWNER = { email: "owner@portico.example", password: "portico-desk-1", secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" };

/**
 * Signs the demo owner in at a hotel's desk, as a newcomer would with an authenticator app, and
 * lands on the bookings. A code is accepted once (decision 149): when another test of this hotel has
 * spent this step's code, the next step's is used (one step of drift is accepted).
 */
export async function signInToDesk(page: Page, hotel: string, lang = "en-US"): Promise<void> {
  await page.goto(hotelUrl(hotel, `/${lang}/desk`));
  await page.getByLabel("Email").fill(DEMO_OWNER.email);
  await page.getByLabel("Password").fill(DEMO_OWNER.password);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.locator("h1")).toHaveText("Enter your code");
  await page.getByLabel("Code").fill(await totpCode(DEMO_OWNER.secret, new Date()));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const bookings = page.getByRole("heading", { name: "Bookings", exact: true });
  await expect(bookings.or(page.getByRole("alert"))).toBeVisible();
  if (!(await bookings.isVisible())) {
    await page.getByLabel("Code").fill(await totpCode(DEMO_OWNER.secret, new Date(Date.now() + 30_000)));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
  }
  await expect(page).toHaveURL(hotelUrl(hotel, `/${lang}/desk/bookings`));
}
