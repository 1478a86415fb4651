import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { fetchText, hotelUrl } from "./helpers";
import { formatDate } from "~/i18n/format";

const LANGUAGES = ["zh-TW", "zh-CN", "en-US", "ja-JP", "ko-KR"] as const;
const prefix = (lang: string) => (lang === "zh-TW" ? "" : `/${lang}`);

/** The demo city hotel as its file defines it: expected prices come from here, not from the page. */
const TAIPEI = JSON.parse(readFileSync(new URL("../../demo/hotels/taipei.json", import.meta.url), "utf8")) as {
  room_classes: { room_code: string; name: Record<string, string>; people: number; children: number }[];
  rate_plans: {
    rate_plan_code: string;
    is_special?: boolean;
    rooms: { room_code: string; weekday: number; weekend: number; holiday: number }[];
  }[];
  inventory: { weekend_nights: number[]; holidays: string[] };
};

/** Today in Taipei, the demo hotels' time zone. */
const taipeiToday = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

/** The lowest price of a night for a room class over its plans (holiday over weekend over weekday). */
function lowestNightPrice(roomCode: string, night: string): number {
  const kind = TAIPEI.inventory.holidays.includes(night)
    ? "holiday"
    : TAIPEI.inventory.weekend_nights.includes(new Date(`${night}T00:00:00Z`).getUTCDay())
      ? "weekend"
      : "weekday";
  // A guest's calendar counts no members-only plan (decision 037).
  const prices = TAIPEI.rate_plans
    .filter((plan) => !(plan as { members_only?: boolean }).members_only)
    .flatMap((plan) => plan.rooms.filter((room) => room.room_code === roomCode).map((room) => room[kind]));
  return Math.min(...prices);
}

async function firstIds() {
  const xml = (await fetchText("taipei", "/sitemap.xml")).body;
  const room = /\/room\/(\d+)</.exec(xml)?.[1];
  const event = /event\?id=(\d+)</.exec(xml)?.[1];
  if (!room || !event) throw new Error("sitemap lists no room or event");
  return { room, event };
}

/** Pages of a content route ship no JavaScript: no script but structured data. */
async function expectNoJavaScript(page: Page) {
  await expect(page.locator('script:not([type="application/ld+json"])')).toHaveCount(0);
}

test("every content route answers in every language, with hreflang alternates and no JavaScript", async ({ page }) => {
  test.setTimeout(120_000);
  const { room, event } = await firstIds();
  const paths = ["/", `/room/${room}`, "/facilities", "/event", `/event?id=${event}`, "/about", "/follow"];
  for (const lang of LANGUAGES) {
    for (const path of paths) {
      const url = hotelUrl("taipei", `${prefix(lang)}${path === "/" && lang !== "zh-TW" ? "" : path}`);
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      expect((await page.title()).length, url).toBeGreaterThan(2);
      await expect(page.locator("h1").first()).toBeVisible();
      await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(6);
      await expectNoJavaScript(page);
    }
    const notFound = await page.goto(hotelUrl("taipei", `${prefix(lang)}/404`));
    expect(notFound?.status()).toBe(404);
    await expect(page).toHaveTitle("404");
  }
});

test("the 404 page has the exact error box in English, an unknown language prefix is a 404, and an unpublished language is the main one", async ({
  page,
}) => {
  const response = await page.goto(hotelUrl("taipei", "/en-US/404"));
  expect(response?.status()).toBe(404);
  await expect(page.locator(".error-box")).toHaveText("Oops! Page not found, Please try to refresh or confirm whether the link is correct");
  expect((await page.goto(hotelUrl("taipei", "/fr-FR/about")))?.status()).toBe(404);
  // A language the hotel does not publish: the same page in its main language, not a 404 whose links are 404s too.
  expect((await page.goto(hotelUrl("lakeside", "/ko-KR/about")))?.status()).toBe(200);
  await expect(page).toHaveURL(hotelUrl("lakeside", "/about"));
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-TW");
});

test("the language switcher keeps the current page", async ({ page }) => {
  await page.goto(hotelUrl("taipei", "/en-US/about"));
  await page.locator(".site-header .language-switcher summary").click();
  await page.locator(".site-header .language-switcher").getByRole("link", { name: "日本語" }).click();
  await expect(page).toHaveURL(/\/ja-JP\/about$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "ja-JP");
});

test("a non-numeric event id gives an empty event", async ({ page }) => {
  const response = await page.goto(hotelUrl("taipei", "/en-US/event?id=abc"));
  expect(response?.status()).toBe(200);
  await expect(page.getByText("There is no such offer.")).toBeVisible();
  await expect(page.locator("h1")).toHaveText("Offer not found");
});

test("structured data parses and matches the page", async ({ page }) => {
  for (const [hotel, type] of [
    ["taipei", "Hotel"],
    ["lakeside", "Resort"],
    ["camp", "Campground"],
  ] as const) {
    await page.goto(hotelUrl(hotel, "/en-US"));
    const data = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}");
    const file = JSON.parse(readFileSync(new URL(`../../demo/hotels/${hotel}.json`, import.meta.url), "utf8")).hotel;
    expect(data["@type"]).toBe(type);
    expect(data.name).toBe(file.hotel_name["en-US"]);
    expect(data.address.streetAddress).toBe(file.address["en-US"]);
    expect(data.checkinTime).toBe(file.checkin_start_time);
  }
  const { room } = await firstIds();
  await page.goto(hotelUrl("taipei", `/en-US/room/${room}`));
  const roomData = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}");
  // The sitemap's first room is the demo's first room class, Standard Double (2 adults and 1 child),
  // which has rooms to sell in the demo whatever the day: the page always offers it.
  expect(roomData).toMatchObject({ "@type": "HotelRoom", name: TAIPEI.room_classes[0]!.name["en-US"] });
  expect(roomData.offers, "the room is offered").toMatchObject({ "@type": "Offer", priceCurrency: "TWD" });
  await expect(page.locator("h1")).toHaveText(roomData.name);
  expect(roomData.occupancy.maxValue).toBe(TAIPEI.room_classes[0]!.people + TAIPEI.room_classes[0]!.children);
  if (roomData.offers) {
    expect(roomData.offers.priceCurrency).toBe("TWD");
    await expect(page.locator(".room-page__from")).toContainText(roomData.offers.price.toLocaleString("en-US"));
  }
});

test('a room\'s "from" price is one price: its home card, its page and its structured offer', async ({ page }) => {
  // Deluxe King: NT$4,800 on the flexible rate (its show_price), NT$4,200 on weekdays on the advance-purchase rate.
  await page.goto(hotelUrl("taipei", "/en-US"));
  const name = "Deluxe King City View";
  const card = page.locator(".card").filter({ has: page.getByRole("link", { name, exact: true }) });
  await expect(card.locator(".card__price")).toHaveText("From NT$4,200");
  await card.getByRole("link", { name, exact: true }).click();
  await expect(page.locator("h1")).toHaveText(name);
  await expect(page.locator(".room-page__from")).toHaveText("From NT$4,200");
  const roomData = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}");
  expect(roomData.offers).toMatchObject({ "@type": "Offer", price: 4200, priceCurrency: "TWD" });
  // The same rule in another language.
  await page.goto(hotelUrl("taipei", "/ja-JP"));
  await expect(
    page
      .locator(".card")
      .filter({ has: page.getByRole("link", { name: "デラックスキング シティビュー" }) })
      .locator(".card__price"),
  ).toHaveText("NT$4,200〜");
});

test("every phone number can be tapped to call, and descriptions read as written", async ({ page }) => {
  await page.goto(hotelUrl("taipei", "/en-US/about"));
  await expect(page.locator('main a[href="tel:+886225008800"]')).toHaveText("+886-2-2500-8800");
  await expect(page.locator('main a[href="tel:+886225008801"]')).toHaveText("+886-2-2500-8801");

  // "A <strong>soaking tub</strong>, coffee machine": the text of the description keeps the comma on its word.
  await page.goto(hotelUrl("taipei", "/en-US"));
  await page.getByRole("link", { name: "Deluxe King City View", exact: true }).first().click();
  const sentence = "A soaking tub, coffee machine and bathrobes are all included.";
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", new RegExp(`${sentence.replace(/\./g, "\\.")}$`));
  const roomData = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}");
  expect(roomData.description).toContain(sentence);
  expect(roomData.description).not.toMatch(/\s[,.;:!?]/);
});

test("sitemap.xml lists every page per language with hreflang, and robots.txt points to it", async () => {
  const sitemap = (await fetchText("taipei", "/sitemap.xml")).body;
  expect(sitemap).toContain("<urlset");
  expect(sitemap).toContain('hreflang="ko-KR"');
  expect(sitemap).toContain("/ja-JP/facilities</loc>");
  const robots = (await fetchText("taipei", "/robots.txt")).body;
  expect(robots).toContain("Sitemap: http://taipei.localhost");
  expect((await fetchText("closed", "/sitemap.xml")).status).toBe(404);
});

test("every page layout renders via ?preview=, with only its own theme stylesheet", async ({ page }) => {
  for (const layout of [
    "layout_100",
    "layout_200",
    "layout_300",
    "layout_400",
    "layout_500",
    "layout_501",
    "layout_600",
    "layout_700",
    "layout_701",
    "layout_702",
    "layout_800",
    "layout_900",
    "layout_1000",
  ]) {
    const response = await page.goto(hotelUrl("taipei", `/en-US?preview=${layout}`));
    expect(response?.status()).toBe(200);
    await expect(page.locator(`.site--${layout}`)).toHaveCount(1);
    const themes = await page
      .locator('link[rel="stylesheet"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    expect(themes.filter((href) => /layout_\d+/.test(href))).toHaveLength(1);
    expect(themes.some((href) => href.includes(layout))).toBe(true);
  }
  // An unknown preview code follows the template lookup reading: layout_300.
  await page.goto(hotelUrl("taipei", "/en-US?preview=layout_999"));
  await expect(page.locator(".site--layout_300")).toHaveCount(1);
});

test("?preview= on the booking page serves that booking layout's stylesheet only", async ({ page }) => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const search = `start=${day(14)}&end=${day(15)}&adults=2&children=0&room=1`;
  for (const [wanted, other] of [
    ["booking_200", "booking_100"],
    ["booking_100", "booking_200"],
  ] as const) {
    const response = await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?${search}&preview=${wanted}`));
    expect(response?.status()).toBe(200);
    const stylesheets = await page
      .locator('link[rel="stylesheet"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    expect(
      stylesheets.filter((href) => href.includes(wanted)),
      wanted,
    ).toHaveLength(1);
    expect(
      stylesheets.filter((href) => href.includes(other)),
      wanted,
    ).toEqual([]);
    await expect(page.locator(`main.booking--${wanted}`)).toHaveCount(1);
    // The hotel's page layout stays (taipei: layout_700).
    expect(stylesheets.filter((href) => href.includes("layout_700"))).toHaveLength(1);
  }
});

test("book links follow the hotel's booking state", async ({ page }) => {
  await page.goto(hotelUrl("taipei", "/en-US"));
  await expect(page.locator(".site-header__book")).toHaveAttribute(
    "href",
    /^\/en-US\/hxa\/booking\?start=\d{4}-\d\d-\d\d&end=\d{4}-\d\d-\d\d&adults=2&children=0&room=1$/,
  );
  await page.goto(hotelUrl("maintain", "/en-US"));
  await expect(page.locator(".site-header__book")).toHaveAttribute("href", "/en-US/hxa/maintain");
  await page.goto(hotelUrl("external", "/en-US"));
  const external = await page.locator(".site-header__book").getAttribute("href");
  expect(external).toMatch(/^https:\/\/booking\.owlting\.com\/portico-inn-demo\?start=.*&adult=2&child=0&infant=0&lang=zh_TW$/);
});

test("the custom menu link opens in a new tab", async ({ page }) => {
  await page.goto(hotelUrl("taipei", "/en-US"));
  const custom = page.locator('.site-nav--wide a[target="_blank"]');
  await expect(custom.first()).toHaveAttribute("rel", /noopener/);
});

test("the header shows the hotel's white logo on a dark header and over a hero, the dark one elsewhere", async ({ page }) => {
  const visibleLogo = () => page.locator(".site-header__logo:visible");
  // layout_700: a dark header on every page.
  await page.goto(hotelUrl("taipei", "/en-US/about"));
  await expect(visibleLogo()).toHaveAttribute("src", "/demo/taipei/logo-white.svg");
  // layout_300: the header lies over the home page's hero, and is light where there is no hero.
  await page.goto(hotelUrl("lakeside", "/en-US"));
  await expect(visibleLogo()).toHaveAttribute("src", "/demo/lakeside/logo-white.svg");
  await expect(visibleLogo()).toHaveJSProperty("complete", true);
  // layout_100: a light header.
  await page.goto(hotelUrl("taipei", "/en-US?preview=layout_100"));
  await expect(visibleLogo()).toHaveAttribute("src", "/demo/taipei/logo-dark.svg");
});

test("on a 360 px phone the hotel's logo keeps its size in every language, beside a menu, above the buttons", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const lang of ["", "/zh-CN", "/en-US", "/ja-JP", "/ko-KR"]) {
    for (const path of ["", "/hxa/booking"]) {
      await page.goto(hotelUrl("taipei", `${lang}${path}`));
      // The demo logo is 180×48: at the header's 32 px height it is 120 px wide (it was squeezed to 7 px).
      const logo = await page.locator(".site-header__logo:visible").boundingBox();
      expect(logo?.width, `${lang}${path}`).toBeGreaterThanOrEqual(119);
      const book = await page.locator(".site-header__book").boundingBox();
      expect(book && logo && book.y > logo.y + logo.height, `${lang}${path}: the buttons below the brand`).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${lang}${path}`).toBeLessThanOrEqual(360);
    }
  }
  // The language list opens inside the screen (in English it was cut off at the left edge).
  await page.goto(hotelUrl("taipei", "/en-US/about"));
  await page.locator(".site-header .language-switcher summary").click();
  const list = await page.locator(".site-header .language-switcher ul").boundingBox();
  expect(list && list.x >= 0 && list.x + list.width <= 360).toBe(true);
});

test("a room's price calendar links each open night to booking that room, for a party that fills the room", async ({ page }) => {
  const { room } = await firstIds();
  await page.goto(hotelUrl("taipei", `/en-US/room/${room}`));
  const capacity = await page.locator(".room-page__facts").textContent();
  const adults = Number(/(\d+) adults?/.exec(capacity ?? "")?.[1] ?? "0");
  // Standard Double sleeps 2 adults (demo file), and a link books it for a party that fills it.
  expect(adults).toBe(TAIPEI.room_classes[0]!.people);
  const open = page.locator("#stay-calendar td > a").first();
  // On screen the day's number and its price (the currency is said once, above the months); its
  // name says the date with its weekday and the price from.
  const label = (await open.textContent()) ?? "";
  const name = (await open.getAttribute("aria-label")) ?? "";
  await open.click();
  const url = new URL(page.url());
  expect(url.pathname).toBe("/en-US/hxa/booking");
  const start = url.searchParams.get("start") ?? "";
  // The first open night is tonight, labelled with its lowest price.
  expect(start).toBe(taipeiToday());
  const lowest = lowestNightPrice(TAIPEI.room_classes[0]!.room_code, start).toLocaleString("en-US");
  expect(label).toBe(`${Number(start.slice(8))} ${lowest}`);
  expect(name).toBe(`${formatDate(start, "en-US")}, from NT$${lowest}`);
  const nextDay = new Date(Date.parse(`${start}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  expect(url.searchParams.get("end")).toBe(nextDay);
  expect(Number(url.searchParams.get("adults"))).toBe(adults);
  expect(url.searchParams.get("room")).toBe("1");
  // The room is chosen on the booking page, and its calendar has the check-outs from that night.
  expect(url.searchParams.get("room_id")).toBe(String(room));
  expect(url.searchParams.get("pick")).toBe(start);
  await expect(page.locator("#search-start")).toHaveValue(start);
  await expect(page.locator(`.booking-results [id^="plan-${room}-"]`).first()).toBeVisible();
});
