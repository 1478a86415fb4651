import { expect, test } from "@playwright/test";
import { fetchText, hotelUrl } from "./helpers";

// Runs in the JavaScript-on project only (playwright.config.ts): it is about how the scripts arrive.

test("booking pages start their JavaScript only after the page has loaded, and hydrate", async ({ page }) => {
  const served = (await fetchText("taipei", "/en-US/hxa/booking")).body;
  expect(served.includes("data-deferred-rel"), "the page was rendered with scripts to defer").toBe(true);
  expect(/<link[^>]*\srel="modulepreload"/.test(served), "no module preload competes with the page").toBe(false);
  expect(/<script[^>]*\stype="module"/.test(served), "no module script runs before load").toBe(false);

  const chunkStatuses: number[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/build/")) chunkStatuses.push(response.status());
  });
  await page.goto(hotelUrl("taipei", "/en-US/hxa/booking"));
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");

  const timing = await page.evaluate(() => {
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const scripts = performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith(".js"));
    return { load: navigation.loadEventStart, scripts: scripts.length, firstScript: Math.min(...scripts.map((entry) => entry.startTime)) };
  });
  expect(timing.scripts).toBeGreaterThan(0);
  expect(timing.firstScript, "the first script request starts after the load event").toBeGreaterThanOrEqual(timing.load);
  expect(chunkStatuses.length).toBeGreaterThan(0);
  expect(chunkStatuses.filter((status) => status !== 200), "every chunk answers directly, without a redirect").toEqual([]);
});

test("the client build is served with a long cache life", async () => {
  const served = (await fetchText("taipei", "/en-US/hxa/booking")).body;
  const chunk = /href="(\/build\/routes\/[^"]+\.js)"/.exec(served)?.[1];
  expect(chunk, "a route chunk is linked").toBeTruthy();
  const response = await fetchText("taipei", chunk!);
  expect(response.status, "the chunk answers directly, without a redirect").toBe(200);
  expect(response.headers["cache-control"]).toContain("immutable");
});
