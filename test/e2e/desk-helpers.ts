import { expect, type BrowserContext, type Page } from "@playwright/test";
import { totpCode } from "~/backend/desk/totp";
import { hotelUrl } from "./helpers";

/** Every demo hotel's demo owner (README, "The desk"; decision 149). */
export const DEMO_OWNER = { email: "owner@portico.example", password: "portico-desk-1", secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" };

/** The desk session of each hotel this browser worker has signed in at (its server is its own). */
const sessions = new Map<string, Awaited<ReturnType<BrowserContext["cookies"]>>>();

/**
 * Signs the demo owner in at a hotel's desk, as a newcomer would with an authenticator app, and
 * lands on the bookings. A code is accepted once (decision 149), so one staff member cannot sign in
 * twice within a 30 s step: the first sign-in of this worker at a hotel goes through the password
 * and the code (the next step's when another test spent this step's: one step of drift is
 * accepted), and later tests carry on that session, as staff keep theirs open through the day.
 */
export async function signInToDesk(page: Page, hotel: string, lang = "en-US"): Promise<void> {
  const bookings = hotelUrl(hotel, `/${lang}/desk/bookings`);
  const kept = sessions.get(hotel);
  if (kept) {
    await page.context().addCookies(kept);
    await page.goto(bookings);
    if (page.url() === bookings) return;
  }
  await page.goto(hotelUrl(hotel, `/${lang}/desk`));
  await page.getByLabel("Email").fill(DEMO_OWNER.email);
  await page.getByLabel("Password").fill(DEMO_OWNER.password);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.locator("h1")).toHaveText("Enter your code");
  await page.getByLabel("Code").fill(await totpCode(DEMO_OWNER.secret, new Date()));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const heading = page.getByRole("heading", { name: "Bookings", exact: true });
  await expect(heading.or(page.getByRole("alert"))).toBeVisible();
  if (!(await heading.isVisible())) {
    await page.getByLabel("Code").fill(await totpCode(DEMO_OWNER.secret, new Date(Date.now() + 30_000)));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
  }
  await expect(page).toHaveURL(bookings);
  sessions.set(hotel, await page.context().cookies(hotelUrl(hotel)));
}
