import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { hotelUrl, placeOrder, taipeiDay } from "./helpers";

// Issue 25, items 1–5: how the pages look on a 360 px phone, in each language, signed in or not.

const PHONE = { width: 360, height: 740 };
const LANGS = ["zh-TW", "zh-CN", "en-US", "ja-JP", "ko-KR"] as const;
const prefix = (lang: string) => (lang === "zh-TW" ? "" : `/${lang}`);

function message(lang: string, key: string): string {
  const messages = JSON.parse(readFileSync(new URL(`../../locales/${lang}/common.json`, import.meta.url), "utf8")) as Record<
    string,
    string
  >;
  const text = messages[key];
  if (text === undefined) throw new Error(`no ${lang} message ${key}`);
  return text;
}

/** Elements that reach past the screen's right or left edge, outside any element that scrolls them (a carousel). */
async function overflow(page: Page): Promise<{ width: number; wide: string[] }> {
  return page.evaluate(() => {
    const scrolls = (element: Element | null): boolean => {
      for (let node = element?.parentElement; node && node !== document.body; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.overflowX !== "visible" && style.overflowX !== "clip") return true;
      }
      return false;
    };
    const wide = [...document.body.querySelectorAll("*")]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && (box.right > window.innerWidth + 0.5 || box.left < -0.5) && !scrolls(element);
      })
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().right)}`);
    return { width: document.documentElement.scrollWidth, wide: wide.slice(0, 5) };
  });
}

async function signIn(page: Page) {
  await page.goto(hotelUrl("taipei", "/en-US/hxa/login"));
  await page.getByLabel("Email").fill("member@portico.example");
  await page.getByLabel("Password").fill("portico-demo-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".member-menu summary")).toBeVisible();
}

// Item 2: en-US signed in was 382 px wide at 360 px ("BOOK NOW" clipped). Every language, signed in and not.
for (const lang of LANGS) {
  test(`at 360 px no page is wider than the screen, signed in or not (${lang})`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    const paths = ["", "/about", "/event", "/news", "/facilities", `/hxa/booking?start=${taipeiDay(60)}&end=${taipeiDay(61)}`];
    const wide: string[] = [];
    for (const signedIn of [false, true]) {
      if (signedIn) await signIn(page);
      for (const path of paths) {
        await page.goto(hotelUrl("taipei", `${prefix(lang)}${path}`));
        const found = await overflow(page);
        if (found.width > PHONE.width || found.wide.length > 0)
          wide.push(`${signedIn ? "signed in" : "guest"} ${path || "/"}: ${found.width} px ${found.wide.join(", ")}`);
      }
      await expect(page.locator(".site-header__book")).toBeInViewport({ ratio: 1 });
    }
    expect(wide, "pages wider than a 360 px phone").toEqual([]);
  });
}

// Item 3: Korean is written with spaces between words, and lines break there ("찾/는" was broken).
test("at 360 px Korean lines break between words, never inside one", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const broken: string[] = [];
  let measured = 0;
  for (const path of ["/ko-KR/about", `/ko-KR/hxa/booking?start=${taipeiDay(62)}&end=${taipeiDay(63)}`]) {
    await page.goto(hotelUrl("taipei", path));
    broken.push(
      ...(
        await page
          .evaluate(() => {
            const hangul = /[\uAC00-\uD7A3]/;
            const found: string[] = [];
            const walker = document.createTreeWalker(document.getElementById("main") ?? document.body, NodeFilter.SHOW_TEXT);
            let lines = 0;
            for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
              const text = node.data;
              if (!hangul.test(text) || node.parentElement?.closest(".visually-hidden")) continue;
              const range = document.createRange();
              let lastTop: number | null = null;
              for (let index = 0; index < text.length; index++) {
                range.setStart(node, index);
                range.setEnd(node, index + 1);
                const box = range.getClientRects()[0];
                if (!box || /\s/.test(text[index] ?? "")) continue;
                // A character that starts a new line inside a word: the one before it is Hangul, not a space.
                if (lastTop !== null && box.top > lastTop + 2) {
                  lines += 1;
                  if (hangul.test(text[index - 1] ?? "") && hangul.test(text[index] ?? ""))
                    found.push(`${text.slice(Math.max(0, index - 6), index)}/${text.slice(index, index + 6)}`);
                }
                lastTop = box.top;
              }
            }
            return { found, lines };
          })
          .then(({ found, lines }) => {
            measured += lines;
            return found;
          })
      ).map((at) => `${path}: ${at}`),
    );
  }
  expect(measured, "Korean text that wraps onto more lines, to measure").toBeGreaterThan(3);
  expect(broken, "Korean words broken across lines").toEqual([]);
});

// Item 1: the campsite's whole-site plan in the cart disables the other plans.
// The campsite demo speaks zh-TW and en-US.
for (const lang of ["en-US", "zh-TW"] as const) {
  test(`a campsite plan that cannot be added says why on a line above controls of normal size (${lang}) @js-matters`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto(hotelUrl("camp", `${prefix(lang)}/hxa/booking?start=${taipeiDay(64)}&end=${taipeiDay(65)}`));
    if (javaScriptEnabled) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    const whole = page.locator(".plan").filter({ hasText: message(lang, "booking.entire_rent") });
    await whole.locator(".add-form button[type=submit]").click();
    await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
    // The other plans say the whole site is booked; another whole-site plan, that it is booked alone;
    // the one in the booking, that it is there (issue 37 item 17e).
    const reasons = [
      message(lang, "cart.normal_disabled"),
      message(lang, "cart.entire_rent_disabled"),
      message(lang, "cart.entire_rent_in_booking"),
    ];
    const disabled = page.locator(".add-form").filter({ has: page.locator(".add-form__note") });
    expect(await disabled.count()).toBeGreaterThan(0);
    for (const form of await disabled.all()) {
      const note = form.locator(".add-form__note");
      const reason = ((await note.textContent()) ?? "").trim();
      expect(reasons).toContain(reason);
      const button = form.locator("button[type=submit]");
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(reason);
      const [noteBox, buttonBox, selectBox, formBox] = await Promise.all([
        note.boundingBox(),
        button.boundingBox(),
        form.locator("select").boundingBox(),
        form.boundingBox(),
      ]);
      if (!noteBox || !buttonBox || !selectBox || !formBox) throw new Error("a part of the form is not shown");
      expect(noteBox.y + noteBox.height, "the reason is above the button").toBeLessThanOrEqual(buttonBox.y + 0.5);
      expect(noteBox.y + noteBox.height, "the reason is above the count").toBeLessThanOrEqual(selectBox.y + 0.5);
      expect(noteBox.width, "the reason takes the form's width").toBeGreaterThanOrEqual(formBox.width - 1);
      expect(buttonBox.height, "the button keeps its height").toBeLessThanOrEqual(56);
      expect(selectBox.height, "the count keeps its height").toBeLessThanOrEqual(56);
      expect(selectBox.width, "the count is wide enough to read").toBeGreaterThanOrEqual(72);
    }
  });
}

/** Links that stand alone (their text is all of their parent's text) under `root`, smaller than 24x24 CSS px (WCAG 2.5.8). */
async function smallStandaloneLinks(page: Page, root = "#main"): Promise<{ count: number; small: string[] }> {
  return page.locator(root).evaluate((main) => {
    const links = [...main.querySelectorAll("a")].filter(
      (link) => link.getClientRects().length > 0 && (link.parentElement?.textContent ?? "").trim() === (link.textContent ?? "").trim(),
    );
    const small = links
      .map((link) => ({ text: (link.textContent ?? "").trim(), box: link.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(({ text, box }) => `${text} ${Math.round(box.width)}x${Math.round(box.height)}`);
    return { count: links.length, small };
  });
}

// Items 4 and 5: the pay page, the confirmation, the order page and My orders at 360 px.
test("after booking, standalone links are at least 24x24 px and the hotel's phone is one tel: link on one line", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.setViewportSize(PHONE);
  const offset = javaScriptEnabled ? 66 : 68;
  const card = await placeOrder("credit", 1, offset);
  const transfer = await placeOrder("remittance", 8, offset + 1);
  const small: string[] = [];
  const phones: string[] = [];
  for (const lang of LANGS) {
    for (const [name, path] of [
      ["pay", `${prefix(lang)}${card.redirect_path}`],
      ["confirmation", `${prefix(lang)}${transfer.redirect_path}`],
    ] as const) {
      await page.goto(hotelUrl("taipei", path));
      const found = await smallStandaloneLinks(page);
      expect(found.count, `${name} has standalone links`).toBeGreaterThan(0);
      small.push(...found.small.map((link) => `${lang} ${name}: ${link}`));
      const phone = page.locator('#main a[href^="tel:"]');
      await expect(phone).toHaveCount(1);
      await expect(phone).toHaveAttribute("href", "tel:+886225008800");
      const lines = await phone.evaluate((link) => link.getClientRects().length);
      if (lines !== 1) phones.push(`${lang} ${name}: the phone is on ${lines} lines`);
      // A room line reads as one text beside its amount: the occupant's name is not a column of its own.
      const columns = await page
        .locator(".order-summary__lines li")
        .evaluateAll((items) =>
          items.map((item) => [...item.childNodes].filter((node) => node.nodeType === 1 || node.textContent?.trim()).length),
        );
      expect(columns, `${lang} ${name}: each room line is its words and its amount`).toEqual(columns.map(() => 2));
    }
    await page.getByRole("link", { name: message(lang, "receipt.order_page") }).click();
    await expect(page).toHaveURL(/\/hxa\/orders\//);
    small.push(...(await smallStandaloneLinks(page)).small.map((link) => `${lang} order page: ${link}`));
  }
  await signIn(page);
  await page.goto(hotelUrl("taipei", "/en-US/hxa/orders"));
  const orders = await smallStandaloneLinks(page);
  small.push(...orders.small.map((link) => `my orders: ${link}`));
  expect(small, "standalone links smaller than 24x24 CSS px").toEqual([]);
  expect(phones).toEqual([]);
});

// Item 6 (decision 093): the account service's sign-in and sign-up pages, in the hotel's colours, with
// its logo, a language switch and a way back: every link a 24x24 px target, nothing wider than the screen.
test("at 360 px the sign-in and sign-up pages' links are at least 24x24 px and nothing is wider than the screen", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const small: string[] = [];
  const wide: string[] = [];
  for (const lang of LANGS) {
    await page.goto(hotelUrl("taipei", `${prefix(lang)}/hxa/login`));
    for (const name of ["sign-in", "sign-up"] as const) {
      if (name === "sign-up") await page.locator('main a[href^="/account/signup"]').click();
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      const found = await smallStandaloneLinks(page, "body");
      // The five languages of the hotel, the other form, and the way back to the site.
      expect(found.count, `${lang} ${name}: standalone links`).toBe(7);
      small.push(...found.small.map((link) => `${lang} ${name}: ${link}`));
      const home = await page.locator(".brand__home").boundingBox();
      if (!home || home.width < 24 || home.height < 24) small.push(`${lang} ${name}: the hotel's logo link ${home?.width}x${home?.height}`);
      await expect(page.locator(".brand__home img")).toHaveJSProperty("complete", true);
      expect(
        await page.locator(".brand__home img").evaluate((image: HTMLImageElement) => image.naturalWidth),
        `${lang} ${name}: the logo loads`,
      ).toBeGreaterThan(0);
      const overflowing = await overflow(page);
      if (overflowing.width > PHONE.width || overflowing.wide.length > 0)
        wide.push(`${lang} ${name}: ${overflowing.width} px ${overflowing.wide.join(", ")}`);
    }
  }
  expect(small, "links smaller than 24x24 CSS px").toEqual([]);
  expect(wide, "pages wider than a 360 px phone").toEqual([]);
});
