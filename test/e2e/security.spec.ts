import { expect, test, type Response } from "@playwright/test";
import { fetchText, hotelUrl } from "./helpers";

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
  expect(staticFiles.map((response) => new URL(response.url()).pathname)).toEqual(expect.arrayContaining([expect.stringMatching(/^\/build\/_assets\/.+\.css$/)]));
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
