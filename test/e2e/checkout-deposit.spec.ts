import { expect, test, type Page } from "@playwright/test";
import { lakesideCheckout } from "./helpers";

// Issue 22, item 8: at a deposit hotel, what the checkout shows as due now is what the pay page
// asks and what the gateway charges, whichever way the guest changes the choice, with JavaScript
// on and off.

const dueNow = (page: Page) => page.locator(".price-summary__due dd");
const total = (page: Page) => page.locator(".price-summary__total dd");
const deposit = (page: Page) => page.locator(".price-summary div").filter({ hasText: "deposit" }).locator("dd");
const payOption = (page: Page, option: "all" | "part") => page.locator(`input[name="pay_option"][value="${option}"]`);

/**
 * The guest has changed the choice and now looks at "Due now" before placing the booking. With
 * JavaScript the page follows the choice by itself. Without it nothing on the page can change
 * before a post, so "Place booking" does not book: the page comes back with the amount for the
 * choice, saying so, and the guest places the booking again.
 */
async function placeAsShown(page: Page, javaScriptEnabled: boolean, expected: "total" | "deposit") {
  const amountForChoice = expected === "total" ? total(page) : deposit(page);
  if (javaScriptEnabled) {
    await expect(dueNow(page)).toHaveText((await amountForChoice.textContent()) ?? "");
  } else {
    await page.getByRole("button", { name: "Place booking" }).click();
    await expect(page.getByRole("alert")).toContainText("The amount due now has changed");
    await expect(page).toHaveURL(/\/hxa\/checkout\?/);
    await expect(dueNow(page)).toHaveText((await amountForChoice.textContent()) ?? "");
  }
  const shown = (await dueNow(page).textContent()) ?? "";
  expect(shown).toMatch(/^NT\$[\d,]+$/);
  await page.getByRole("button", { name: "Place booking" }).click();
  await expect(page).toHaveURL(/\/en-US\/pay\//);
  await expect(page.getByRole("status")).toHaveText(`Amount due now: ${shown}`);
  await page.getByRole("button", { name: `Pay ${shown} now` }).click();
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.locator("h1")).toHaveText("Test payment gateway");
  await expect(page.locator("dd").nth(1)).toHaveText(shown);
  return shown;
}

test("deposit checked, then back to full: the checkout's due now is what the pay page and the gateway ask @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  await lakesideCheckout(
    page,
    javaScriptEnabled,
    javaScriptEnabled ? 230 : 234,
    `deposit-to-full-${javaScriptEnabled ? "js" : "nojs"}@example.com`,
  );
  const full = (await total(page).textContent()) ?? "";
  await expect(dueNow(page)).toHaveText(full);

  await payOption(page, "part").check();
  await page.getByRole("button", { name: "Check the price" }).click();
  await expect(dueNow(page)).toHaveText((await deposit(page).textContent()) ?? "");
  await expect(dueNow(page)).not.toHaveText(full);

  await payOption(page, "all").check();
  expect(await placeAsShown(page, javaScriptEnabled, "total")).toBe(full);
});

test("deposit chosen without checking the price: the checkout's due now is what the pay page and the gateway ask @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  await lakesideCheckout(
    page,
    javaScriptEnabled,
    javaScriptEnabled ? 238 : 242,
    `full-to-deposit-${javaScriptEnabled ? "js" : "nojs"}@example.com`,
  );
  const full = (await total(page).textContent()) ?? "";
  await expect(dueNow(page)).toHaveText(full);

  await payOption(page, "part").check();
  expect(await placeAsShown(page, javaScriptEnabled, "deposit")).not.toBe(full);
});
