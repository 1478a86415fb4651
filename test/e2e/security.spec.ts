import { expect, test, type Response } from "@playwright/test";
import { fetchText, hotelUrl, taipeiDay, waitForHydration } from "./helpers";

/**
 * Every response a guest's browser gets carries the security headers, the static files that the
 * platform serves without the Worker (CSS, scripts, pictures) as much as the pages.
 */
test("every response of the home and booking pages, static files included, says nosniff and forbids framing", async ({ page }) => {
  const responses: Response[] = [];
  page.on("response", (response) => responses.push(response));
  for (const path of ["/en-US", "/en-US/hxa/booking"]) {
    await page.goto(hotelUrl("taipei", path));
    await page.waitForLoadState("load");
  }
  const ours = responses.filter((response) => new URL(response.url()).hostname === "taipei.localhost");
  const staticFiles = ours.filter((response) => /^\/(build|demo)\//.test(new URL(response.url()).pathname));
  expect(staticFiles.map((response) => new URL(response.url()).pathname)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^\/build\/_assets\/.+\.css$/)]),
  );
  expect(staticFiles.some((response) => new URL(response.url()).pathname.startsWith("/demo/"))).toBe(true);
  for (const response of ours) {
    const headers = await response.allHeaders();
    const where = `${response.status()} ${new URL(response.url()).pathname}`;
    expect(headers["x-content-type-options"], where).toBe("nosniff");
    expect(headers["content-security-policy"], where).toContain("frame-ancestors 'none'");
    expect(headers["strict-transport-security"], where).toBe("max-age=31536000; includeSubDomains");
  }
});

test("a route's script chunk, fetched by the Worker rather than the platform, carries them too", async () => {
  const booking = await fetchText("taipei", "/en-US/hxa/booking");
  const chunk = /href="(\/build\/routes\/[^"]+\.js)"/.exec(booking.body)?.[1] ?? "";
  expect(chunk).toMatch(/^\/build\/routes\/.+\.js$/);
  const response = await fetchText("taipei", chunk);
  expect(response.status).toBe(200);
  expect(response.headers["x-content-type-options"]).toBe("nosniff");
  expect(response.headers["content-type"]).toContain("javascript");
});

test("a guest who pastes a control character into a name or types a date as the phone is told at each field, and books once they are corrected @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const offset = javaScriptEnabled ? 100 : 104;
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${taipeiDay(offset)}&end=${taipeiDay(offset + 1)}&adults=2`));
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator(".booking-results > .booking-room .add-form").first().locator("button[type=submit]").click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await page.locator(".booking-cart a.button").click();
  await expect(page.locator(".checkout-line")).toHaveCount(1);
  if (javaScriptEnabled) await waitForHydration(page);

  await page.locator("#booker_last_name").fill("Lin");
  await page.locator("#booker_first_name").fill("Mei\u0007");
  await page.locator("#booker_phone").fill("2026-12-10");
  await page.locator("#booker_email").fill("mei@example.com");
  await page.locator('input[name="payment"][value="8:remittance"]').check();
  await page.locator('button[name="intent"][value="order"]').click();

  await expect(page.locator("#booker_first_name-error")).toHaveText(
    "This contains hidden control characters that cannot be used; please type it again.",
  );
  await expect(page.locator("#booker_phone-error")).toHaveText("Enter a valid phone number");
  await expect(page.locator("#booker_first_name")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/en-US\/hxa\/checkout/);

  // Corrected, the same form books.
  await page.locator("#booker_first_name").fill("Mei");
  await page.locator("#booker_phone").fill("0912-345-678");
  await page.locator('button[name="intent"][value="order"]').click();
  await expect(page).toHaveURL(/\/redirect\/receipt\/PT\d{6}-[A-Z0-9]{6}\?valid_hash=PT\d{6}-[A-Z0-9]{6}\.\d{10}\.[A-Za-z0-9_-]{43}$/);
});
