import { expect, test } from "@playwright/test";
import { totpCode } from "~/backend/desk/totp";
import { hotelUrl } from "./helpers";

/**
 * The desk's sign-in in Chromium (decision 149), as the README tells a newcomer: the demo owner's
 * email and password, then a code of the demo TOTP secret as an authenticator app would show it.
 * The desk's cookie is `__Host-`, Secure and SameSite=Strict: Chromium keeps it on
 * http://<name>.localhost, a secure context. The desk's pages ship no JavaScript, so one run tests
 * them (decision 145); a second would also reuse the demo code, which is accepted once.
 */
const DEMO_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

test("the demo owner signs in to the desk with password and TOTP and sees the desk", async ({ page, context }) => {
  // Its own hotel: the desk flow test signs in at taipei (each code is accepted once).
  const hotel = "camp";
  await page.goto(hotelUrl(hotel, "/en-US/desk"));
  await expect(page).toHaveURL(hotelUrl(hotel, "/en-US/desk/sign-in"));
  await expect(page.locator("h1")).toHaveText("Sign in to the desk");
  await page.getByLabel("Email").fill("owner@portico.example");
  await page.getByLabel("Password").fill("portico-desk-1");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.locator("h1")).toHaveText("Enter your code");
  await page.getByLabel("Code").fill(await totpCode(DEMO_SECRET, new Date()));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(hotelUrl(hotel, "/en-US/desk/bookings"));
  await expect(page.getByRole("navigation", { name: "Desk" })).toContainText("Audit log");
  const [cookie] = (await context.cookies()).filter((each) => each.name === "__Host-desk");
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict", path: "/" });
  await page.getByRole("link", { name: "Staff" }).click();
  await expect(page.locator("h1")).toHaveText("Staff");
  await expect(page.locator("[data-staff='owner@portico.example']")).toContainText("Owner");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.locator("[role=status]")).toHaveText("You are signed out.");
  await page.goto(hotelUrl(hotel, "/en-US/desk/staff"));
  await expect(page.locator("h1")).toHaveText("Sign in to the desk");
});

test("Chromium keeps the desk's Secure cookie on plain http://localhost too (a secure context)", async ({ page, context }) => {
  await page.goto("/en-US/desk/sign-in");
  await page.getByLabel("Email").fill("owner@portico.example");
  await page.getByLabel("Password").fill("portico-desk-1");
  await page.getByRole("button", { name: "Continue" }).click();
  // The code's step is read from the cookie the password's answer set: kept, it shows.
  await expect(page.locator("h1")).toHaveText("Enter your code");
  expect((await context.cookies()).map((cookie) => cookie.name)).toContain("__Host-desk");
  await page.getByRole("button", { name: "Start again" }).click();
  await expect(page.locator("h1")).toHaveText("Sign in to the desk");
});
