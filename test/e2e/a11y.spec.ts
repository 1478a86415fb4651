import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { fetchText, hotelUrl } from "./helpers";

// axe runs inside the page, so this file runs in the JavaScript-on project only (playwright.config.ts).

async function firstRoom() {
  const xml = (await fetchText("taipei", "/sitemap.xml")).body;
  return /\/room\/(\d+)</.exec(xml)?.[1] ?? "0";
}

test("home, room, about, news and 404 pages have no accessibility violations", async ({ page }) => {
  const room = await firstRoom();
  for (const path of ["/en-US", `/en-US/room/${room}`, "/en-US/about", "/about", "/en-US/news", "/news", "/nope"]) {
    await page.goto(hotelUrl("taipei", path));
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${path}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  }
});

test("the booking results of both booking layouts have no accessibility violations", async ({ page }) => {
  for (const [hotel, path] of [
    ["taipei", "/en-US/hxa/booking"],
    ["lakeside", "/en-US/hxa/booking"],
    ["taipei", "/hxa/booking"],
  ] as const) {
    await page.goto(hotelUrl(hotel, path));
    await expect(page.locator(".booking-room").first()).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${hotel}${path}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  }
});
