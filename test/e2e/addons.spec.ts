import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { lakesideCheckout } from "./helpers";

// Issue 27: the checkout's extras, with JavaScript on and off. Lakeside offers a lake tour priced per
// person (NT$600 an adult, NT$300 a child), once for the stay.

test("the guest adds a lake tour for two: the price check shows it for the party, and the pay page asks for rooms and tour @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const offset = javaScriptEnabled ? 250 : 254;
  await lakesideCheckout(page, javaScriptEnabled, offset, `lake-tour-${javaScriptEnabled ? "js" : "nojs"}@example.com`);
  const extras = page.getByRole("group", { name: "Extras" });
  await expect(extras).toContainText("NT$600 per adult, NT$300 per child");
  const roomsOnly = Number(((await page.locator(".price-summary__total dd").textContent()) ?? "").replace(/\D/g, ""));
  if (javaScriptEnabled) {
    const axe = await new AxeBuilder({ page }).include("fieldset.addons").analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
  }

  await extras.getByLabel("Adults: Sun Moon Lake boat tour").fill("2");
  await page.getByRole("button", { name: "Check the price" }).click();
  await expect(page.locator(".price-summary")).toContainText("Sun Moon Lake boat tour × 2");
  await expect(page.locator(".price-summary__addon dd")).toHaveText("NT$1,200");
  const total = `NT$${(roomsOnly + 1200).toLocaleString("en-US")}`;
  await expect(page.locator(".price-summary__total dd")).toHaveText(total);
  // What was typed is kept across the price check.
  await expect(extras.getByLabel("Adults: Sun Moon Lake boat tour")).toHaveValue("2");

  await page.getByRole("button", { name: "Place booking" }).click();
  await expect(page).toHaveURL(/\/en-US\/pay\//);
  await expect(page.getByRole("status")).toHaveText(`Amount due now: ${total}`);
});
