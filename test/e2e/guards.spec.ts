import { expect, test, type Page } from "@playwright/test";
import { PORT, fetchText, hotelUrl } from "./helpers";

/** The status of a link of a demo hotel, fetched from Node (which does not resolve *.localhost). */
async function statusOf(hotel: string, link: string): Promise<number> {
  const url = new URL(link);
  return (await fetchText(hotel, `${url.pathname}${url.search}`)).status;
}

const TAIPEI_ORIGIN = new URL(hotelUrl("taipei", "/")).origin;

/** Pages of a content route ship no JavaScript: no script but structured data. */
async function expectNoJavaScript(page: Page) {
  await expect(page.locator('script:not([type="application/ld+json"])')).toHaveCount(0);
}

test("a 404 of the zh-TW site is the whole site, and its link goes home", async ({ page }) => {
  for (const path of ["/nope", "/a/b", "/room/99999", "/room/abc", "/event?id=99999"]) {
    const response = await page.goto(hotelUrl("taipei", path));
    expect(response?.status(), path).toBe(404);
    await expect(page.locator(".site-header"), path).toBeVisible();
    await expect(page.locator(".site-footer"), path).toBeVisible();
    await expect(page.locator(".error-box"), path).toHaveText("糟糕！找不到頁面，請嘗試重新整理，或確認連結是否正確");
    await expect(page.locator('link[rel="alternate"][hreflang]'), path).toHaveCount(0);
  }
  await page.getByRole("main").getByRole("link").click();
  await expect(page).toHaveURL(`${TAIPEI_ORIGIN}/`);
  await expect(page.locator(".hero")).toBeVisible();
});

test("every hero slide of Taipei links to a page that exists, in every language", async ({ page }) => {
  for (const lang of ["", "/en-US", "/ja-JP"]) {
    await page.goto(hotelUrl("taipei", lang || "/"));
    const links = await page
      .locator(".hero__slide a")
      .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
    expect(links.length, lang).toBeGreaterThanOrEqual(2);
    for (const link of links) {
      expect(await statusOf("taipei", link), link).toBe(200);
    }
  }
});

test("the fifth news item is reached from the home page through the news list", async ({ page }) => {
  await page.goto(hotelUrl("taipei", "/en-US"));
  await expect(page.locator(".home-news li")).toHaveCount(4);
  await page.getByRole("link", { name: "See all news" }).click();
  await expect(page).toHaveURL(`${TAIPEI_ORIGIN}/en-US/news`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("News");
  await expect(page.locator(".news-list li")).toHaveCount(5);
  await expectNoJavaScript(page);
  const last = page.locator(".news-list li a").last();
  const title = (await last.textContent()) ?? "";
  await last.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  // Its way back is the news list, not the offers.
  await page.locator(".breadcrumb a").click();
  await expect(page).toHaveURL(`${TAIPEI_ORIGIN}/en-US/news`);
});

test("attraction cards open their pages", async ({ page }) => {
  await page.goto(hotelUrl("taipei", "/en-US"));
  const card = page.locator(".attraction-card a").first();
  const title = (await card.textContent()) ?? "";
  await card.click();
  await expect(page).toHaveURL(/\/en-US\/event\?id=\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
});

test("every footer link opens a page with content, and a hotel without offers has no offers link", async ({ page }) => {
  for (const hotel of ["taipei", "lakeside", "soon"]) {
    await page.goto(hotelUrl(hotel, "/en-US"));
    const links = await page
      .locator(".site-footer a[href^='/']")
      .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
    for (const link of links) expect(await statusOf(hotel, link), link).toBe(200);
    if (hotel === "soon") {
      await expect(page.locator(".site-footer").getByRole("link", { name: "Offers" })).toHaveCount(0);
      await expect(page.locator(".site-footer").getByRole("link", { name: "News" })).toHaveCount(0);
    } else {
      await expect(page.locator(".site-footer").getByRole("link", { name: "News" })).toHaveCount(1);
    }
  }
});

test("a guest sent to //evil.com-style addresses stays on the hotel's site", async ({ page }) => {
  for (const path of ["/zh-TW//evil.com", "/zh-TW///evil.com?x=1", "/en-us//%65vil.com", "/About//evil.com#x"]) {
    await page.goto(`http://taipei.localhost:${PORT}${path}`);
    expect(new URL(page.url()).origin, path).toBe(TAIPEI_ORIGIN);
  }
});

test("other spellings of a page land on its one address", async ({ page }) => {
  for (const [from, to] of [
    ["/en-US/", "/en-US"],
    ["/en-us/about/", "/en-US/about"],
    ["/About", "/about"],
    ["/en-US/booking?adults=2", "/en-US/hxa/booking?adults=2"],
  ]) {
    await page.goto(hotelUrl("taipei", from));
    expect(page.url(), from).toBe(`${TAIPEI_ORIGIN}${to}`);
  }
});
