import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { fetchText, hotelUrl, taipeiDay, waitForHydration } from "./helpers";

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
    expect(
      results.violations.map((violation) => `${path}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
});

test("the booking results of both booking layouts have no accessibility violations", async ({ page }) => {
  // Three full axe scans of long pages: on a slow machine this takes longer than one page's budget.
  test.slow();
  for (const [hotel, path] of [
    ["taipei", "/en-US/hxa/booking"],
    ["lakeside", "/en-US/hxa/booking"],
    ["taipei", "/hxa/booking"],
    // The price calendar with a check-in picked: its check-outs' totals and refusals (decision 157).
    ["taipei", `/en-US/hxa/booking?room=1&adults=4&children=0&pick=${taipeiDay(3)}`],
  ] as const) {
    await page.goto(hotelUrl(hotel, path));
    await expect(page.locator(".booking-room").first()).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map(
        (violation) => `${hotel}${path}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      ),
    ).toEqual([]);
  }
});

const PAGE_LAYOUTS = [
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
];
const BOOKING_LAYOUTS = ["booking_100", "booking_200"];
const PHONE = { width: 412, height: 823 };

/** Links of the selector that are shown and smaller than 24x24 CSS px (WCAG 2.5.8), as "text WxH". */
async function smallTargets(page: import("@playwright/test").Page, selector: string): Promise<string[]> {
  const boxes = await page.locator(selector).evaluateAll((links) =>
    links
      .filter((link) => link.getClientRects().length > 0)
      .map((link) => ({
        text: (link.textContent ?? "").trim(),
        width: link.getBoundingClientRect().width,
        height: link.getBoundingClientRect().height,
      })),
  );
  expect(boxes.length, `${selector} is on the page`).toBeGreaterThan(0);
  return boxes
    .filter((box) => box.width < 24 || box.height < 24)
    .map((box) => `${box.text} ${Math.round(box.width)}x${Math.round(box.height)}`);
}

/** Share of the viewport covered by fixed or sticky elements once the guest has scrolled into the page. */
async function stuckShare(page: import("@playwright/test").Page): Promise<number> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
  await page.waitForFunction(() => window.scrollY > 0);
  return page.evaluate(() => {
    // Rows of the viewport covered by something that stays put (the union, so overlaps count once).
    const covered = new Array<boolean>(window.innerHeight).fill(false);
    for (const element of document.body.querySelectorAll("*")) {
      const position = getComputedStyle(element).position;
      if ((position !== "fixed" && position !== "sticky") || element.getClientRects().length === 0) continue;
      const box = element.getBoundingClientRect();
      for (let row = Math.max(0, Math.floor(box.top)); row < Math.min(window.innerHeight, Math.ceil(box.bottom)); row++)
        covered[row] = true;
    }
    return covered.filter(Boolean).length / window.innerHeight;
  });
}

// One test a layout (a few page loads each), not one long test: a slow machine gets each test's own time.
for (const layout of PAGE_LAYOUTS) {
  test(`on a phone, ${layout}'s links are big enough to tap and little of the screen is stuck in place`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    const small: string[] = [];
    const stuck: string[] = [];
    for (const path of [`/en-US/about?preview=${layout}`, `/en-US/hxa/booking?preview=${layout}`]) {
      await page.goto(hotelUrl("taipei", path));
      small.push(...(await smallTargets(page, ".site-footer a")).map((target) => `${path}: footer ${target}`));
      if (path.includes("booking"))
        small.push(...(await smallTargets(page, ".booking-room h3 a")).map((target) => `${path}: room ${target}`));
      else small.push(...(await smallTargets(page, ".facts-list dd > a")).map((target) => `${path}: contact ${target}`));
      const share = await stuckShare(page);
      if (share > 0.1) stuck.push(`${path}: ${Math.round(share * 100)} %`);
    }
    await page.goto(hotelUrl("taipei", `/en-US?preview=${layout}`));
    small.push(...(await smallTargets(page, ".news-list a")).map((target) => `home: news ${target}`));
    expect.soft(small, "links smaller than 24x24 CSS px").toEqual([]);
    expect(stuck, "fixed and sticky elements covering more than a tenth of a 412x823 screen").toEqual([]);
  });
}

for (const [index, layout] of BOOKING_LAYOUTS.entries()) {
  test(`on a phone, ${layout} with a room in the cart and its checkout keep links big enough and the screen free`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    const small: string[] = [];
    // With a room in the cart, the cart is at its largest; the checkout has the way back to the rooms.
    const search = `start=${taipeiDay(140 + index * 3)}&end=${taipeiDay(141 + index * 3)}`;
    await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?${search}&preview=${layout}`));
    await waitForHydration(page);
    await page.locator(".add-form button[type=submit]").first().click();
    await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
    small.push(...(await smallTargets(page, ".booking-room h3 a")).map((target) => `room ${target}`));
    const share = await stuckShare(page);
    await page.goto(hotelUrl("taipei", `/en-US/hxa/checkout?${search}&preview=${layout}`));
    small.push(...(await smallTargets(page, ".breadcrumb a")).map((target) => `checkout ${target}`));
    expect.soft(small, "links smaller than 24x24 CSS px").toEqual([]);
    expect(share, "share of a 412x823 screen covered by fixed and sticky elements").toBeLessThanOrEqual(0.1);
  });
}

function zhTW(key: string): string {
  const messages = JSON.parse(readFileSync(new URL("../../locales/zh-TW/common.json", import.meta.url), "utf8")) as Record<string, string>;
  const message = messages[key];
  if (message === undefined) throw new Error(`no zh-TW message ${key}`);
  return message;
}

test("adding a room announces the cart's change and takes focus to the next step; a refusal takes focus to its message", async ({
  page,
}) => {
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${taipeiDay(150)}&end=${taipeiDay(151)}`));
  await waitForHydration(page);
  const status = page.getByRole("status");
  await expect(status).toHaveText("");

  await page.locator(".add-form button[type=submit]").first().click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  const item = (await page.locator(".cart-line__name").textContent())?.trim();
  const total = (await page.locator(".booking-cart__total strong").textContent())?.trim();
  await expect(status).toHaveText(`Added to your booking: ${item}, 1 room. Total ${total}.`);
  await expect(page.getByRole("link", { name: "Continue to checkout" })).toBeFocused();

  await page.locator(".booking-cart").getByRole("button", { name: "Remove" }).click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(0);
  await expect(status).toHaveText("Your booking is now empty.");
  await expect(page.locator("#cart-heading")).toBeFocused();

  // A refusal from the server (the plan is altered on its way, as a stale or edited form would be).
  await page.route("**/hxa/booking**", async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    await route.continue({ postData: (request.postData() ?? "").replace(/proposal_id=\d+/, "proposal_id=999999") });
  });
  await page.locator(".add-form button[type=submit]").first().click();
  const alert = page.getByRole("alert");
  await expect(alert).toHaveText("This plan is not available for these dates, please choose again.");
  await expect(alert).toBeFocused();
});

test("with JavaScript the search answers bad input with the site's own message, in the page's language, and focuses the field", async ({
  page,
}) => {
  await page.goto(hotelUrl("taipei", `/hxa/booking?start=${taipeiDay(152)}&end=${taipeiDay(153)}`));
  await waitForHydration(page);
  await page.locator("#search-adults").fill("0");
  await page.getByRole("button", { name: zhTW("search.submit") }).click();
  // Not the browser's bubble ("Value must be greater than or equal to 1"), in whatever language the browser speaks.
  await expect(page.locator("#search-adults-error")).toHaveText(zhTW("search.error.adults"));
  await expect(page.locator("#search-adults")).toBeFocused();
});

test("with JavaScript the checkout shows its own messages beside the fields, in the page's language, and focuses the first one", async ({
  page,
}) => {
  await page.goto(hotelUrl("taipei", `/hxa/booking?start=${taipeiDay(154)}&end=${taipeiDay(155)}`));
  await waitForHydration(page);
  await page.locator(".add-form button[type=submit]").first().click();
  await page.getByRole("link", { name: zhTW("cart.checkout") }).click();
  await expect(page).toHaveURL(/\/hxa\/checkout\?/);
  await waitForHydration(page);
  await page.locator("#booker_first_name").fill("美");
  await page.getByRole("button", { name: zhTW("checkout.place_order") }).click();
  await expect(page.locator("#booker_last_name-error")).toHaveText(zhTW("form.error.required"));
  await expect(page.locator("#booker_email-error")).toHaveText(zhTW("form.error.required"));
  await expect(page.locator("#booker_last_name")).toBeFocused();
  await expect(page.locator("#booker_first_name")).toHaveValue("美");
});

function message(lang: string, key: string, params: Record<string, string> = {}): string {
  const messages = JSON.parse(readFileSync(new URL(`../../locales/${lang}/common.json`, import.meta.url), "utf8")) as Record<
    string,
    string
  >;
  const text = messages[key];
  if (text === undefined) throw new Error(`no ${lang} message ${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? "");
}

// Issue 22, item 11: the page after "Place booking" is a new page. With JavaScript it is shown
// without a reload, and it opens as a full load would: at its top, where its heading and its
// Pay button are, with focus on the heading so that a screen reader says where the guest is.
const PLACED: { lang: string; payment: "1:credit" | "8:remittance"; title: string }[] = [
  { lang: "zh-TW", payment: "1:credit", title: "pay.heading.due" },
  { lang: "zh-CN", payment: "1:credit", title: "pay.heading.due" },
  { lang: "en-US", payment: "1:credit", title: "pay.heading.due" },
  { lang: "ja-JP", payment: "1:credit", title: "pay.heading.due" },
  { lang: "ko-KR", payment: "1:credit", title: "pay.heading.due" },
  { lang: "en-US", payment: "8:remittance", title: "receipt.title" },
];
for (const [index, { lang, payment, title }] of PLACED.entries()) {
  test(`on a phone, the page after "Place booking" opens at its top with focus on its heading (${lang}, ${payment})`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    const prefix = lang === "zh-TW" ? "" : `/${lang}`;
    await page.goto(hotelUrl("taipei", `${prefix}/hxa/booking?start=${taipeiDay(160 + index * 2)}&end=${taipeiDay(161 + index * 2)}`));
    await page.locator(".add-form button[type=submit]").first().click();
    await page.getByRole("link", { name: message(lang, "cart.checkout") }).click();
    await waitForHydration(page);
    await page.locator("#booker_last_name").fill("Lin");
    await page.locator("#booker_first_name").fill("Mei");
    await page.locator("#booker_phone").fill("0912345678");
    await page.locator("#booker_email").fill(`scroll-${index}@example.com`);
    await page.locator("#occupant_name_0").fill("Mei Lin");
    await page.locator(`input[name="payment"][value="${payment}"]`).check();
    const place = page.getByRole("button", { name: message(lang, "checkout.place_order") });
    await place.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY), "the guest has scrolled down to the button").toBeGreaterThan(0);
    const loads: string[] = [];
    page.on("load", () => loads.push(page.url()));
    await place.click();

    const heading = page.locator("#main h1");
    await expect(heading).toHaveText(message(lang, title));
    await expect.poll(() => page.evaluate(() => window.scrollY), { message: "the page opens at its top" }).toBe(0);
    await expect(heading).toBeInViewport();
    if (payment === "1:credit") await expect(page.locator("main form button[type=submit]").first()).toBeInViewport();
    await expect(heading).toBeFocused();
    // The route announcer says the new page's title, which begins with the heading focus went to (issue 25 item 20).
    await expect(page).toHaveTitle(new RegExp(`^${message(lang, title)} \\| `));
    await expect(page.locator("#route-announcer")).toHaveText(await page.title());
    expect(loads, "the page came without a reload").toEqual([]);
  });
}

// Issue 25 item 20: a search answers in place, so the page says how many results it found.
test("with JavaScript a search announces how many results it found", async ({ page }) => {
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${taipeiDay(170)}&end=${taipeiDay(171)}`));
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const status = page.locator("#main p.visually-hidden[role=status]");
  await expect(status).toHaveText("");
  await page.locator("#search-adults").fill("1");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/adults=1/);
  const rooms = await page.locator(".booking-room").count();
  expect(rooms).toBeGreaterThan(1);
  await expect(status).toHaveText(`${rooms} results for your search`);
});

// Issue 25 item 20: back shows a page without a reload too, and says its title as a load would. (The
// checkout that back returns to sends the guest on to the booking page, and that redirect leaves no
// forward entry, so forward is not tested in this journey.)
test("with JavaScript, back announces the page it shows", async ({ page }) => {
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${taipeiDay(174)}&end=${taipeiDay(175)}`));
  const bookingTitle = await page.title();
  await page.locator(".add-form button[type=submit]").first().click();
  await page.getByRole("link", { name: message("en-US", "cart.checkout") }).click();
  await waitForHydration(page);
  await expect(page).toHaveTitle(/^Checkout \| /);
  await page.locator("#booker_last_name").fill("Lin");
  await page.locator("#booker_first_name").fill("Mei");
  await page.locator("#booker_phone").fill("0912345678");
  await page.locator("#booker_email").fill("back-forward@example.com");
  await page.locator("#occupant_name_0").fill("Mei Lin");
  await page.locator('input[name="payment"][value="1:credit"]').check();
  const loads: string[] = [];
  page.on("load", () => loads.push(page.url()));
  await page.getByRole("button", { name: message("en-US", "checkout.place_order") }).click();
  const announcer = page.locator("#route-announcer");
  await expect(page).toHaveTitle(new RegExp(`^${message("en-US", "pay.heading.due")} \\| `));
  const payTitle = await page.title();
  await expect(announcer).toHaveText(payTitle);

  // Back to the checkout, whose cart the booking emptied: it sends the guest on to the booking page.
  await page.goBack();
  await expect(page).toHaveTitle(bookingTitle);
  await expect(announcer).toHaveText(bookingTitle);
  expect(loads, "back came without a reload").toEqual([]);
});

// Issue 27: the rail page, with the trains of a day and a ticket chosen, in both booking layouts (lakeside's is booking_200).
test("the rail tickets page has no accessibility violations", async ({ page }) => {
  test.slow();
  for (const [hotel, station] of [
    ["taipei", "1070"],
    ["lakeside", "1000"],
  ] as const) {
    const stay = `start=${taipeiDay(12)}&end=${taipeiDay(13)}`;
    await page.goto(hotelUrl(hotel, `/en-US/hxa/booking?${stay}`));
    await page.locator(".add-form button[type=submit]").first().click();
    await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
    await page.goto(hotelUrl(hotel, `/en-US/hxa/rail?${stay}&station=${station}`));
    await waitForHydration(page);
    await page.locator(".rail-train__choose button").first().click();
    await expect(page.locator(".rail-page__chosen .rail-line")).toHaveCount(1);
    await page.locator("#rail-station").selectOption(station);
    await page.getByRole("button", { name: "Find trains" }).click();
    await expect(page.locator(".rail-train").first()).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((violation) => `${hotel}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
});
