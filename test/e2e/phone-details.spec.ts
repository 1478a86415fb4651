import { expect, test } from "@playwright/test";
import { hotelUrl, lakesideCheckout, taipeiDay } from "./helpers";

// Issue 37, item 17: smaller things each seen on a 360 px phone.

const PHONE = { width: 360, height: 780 };
const LAYOUTS = [
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
] as const;

// 17a: the overlay headers (300, 702, 900) were drawn over the test-mode banner, which sat under them.
for (const layout of LAYOUTS) {
  test(`the test-mode banner is never covered by the header (${layout})`, async ({ page }) => {
    for (const size of [PHONE, { width: 1280, height: 800 }]) {
      await page.setViewportSize(size);
      await page.goto(hotelUrl("taipei", `/?preview=${layout}`));
      const banner = page.locator(".test-mode-banner");
      await expect(banner).toBeVisible();
      const seen = await page.evaluate(() => {
        const bannerBox = document.querySelector(".test-mode-banner")!.getBoundingClientRect();
        const headerBox = document.querySelector(".site-header")!.getBoundingClientRect();
        const centre = document.elementFromPoint(bannerBox.left + bannerBox.width / 2, bannerBox.top + bannerBox.height / 2);
        return {
          overlap: bannerBox.bottom > headerBox.top + 0.5 && headerBox.bottom > bannerBox.top + 0.5,
          atCentre: centre?.closest(".test-mode-banner") ? "banner" : (centre?.className ?? "nothing"),
        };
      });
      expect(seen, `${layout} at ${size.width} px`).toEqual({ overlap: false, atCentre: "banner" });
    }
  });
}

const LANGS = ["zh-TW", "zh-CN", "en-US", "ja-JP", "ko-KR"] as const;
const prefix = (lang: string) => (lang === "zh-TW" ? "" : `/${lang}`);

// 17b: a plan's room-count select was cut to "2 ro" at 360 px. Each select must be at least as wide
// as the same select needs on its own (its widest option, its arrow and padding).
for (const lang of LANGS) {
  test(`at 360 px a plan's room count shows its whole text (${lang})`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    const search = `start=${taipeiDay(40)}&end=${taipeiDay(41)}&room=2&adults=2`;
    const pages = [
      hotelUrl("taipei", `${prefix(lang)}/hxa/booking?${search}`),
      hotelUrl("taipei", `${prefix(lang)}/hxa/booking?${search}&preview=booking_200`),
      ...(lang === "zh-TW" || lang === "en-US" ? [hotelUrl("camp", `${prefix(lang)}/hxa/booking?${search}`)] : []),
    ];
    for (const url of pages) {
      await page.goto(url);
      const selects = page.locator(".add-form select");
      await expect(selects.first()).toBeVisible();
      const cut = await selects.evaluateAll((elements) =>
        elements.flatMap((select) => {
          const copy = select.cloneNode(true) as HTMLElement;
          copy.style.cssText = "position:absolute;left:0;top:0;width:auto;min-width:0;max-width:none;flex:none";
          select.parentNode!.appendChild(copy);
          const needed = copy.getBoundingClientRect().width;
          copy.parentNode!.removeChild(copy);
          const width = select.getBoundingClientRect().width;
          const chosen = select.querySelector("option:checked")?.textContent;
          return width + 0.5 < needed ? [`"${chosen}" ${Math.round(width)} px of ${Math.round(needed)}`] : [];
        }),
      );
      expect(cut, url).toEqual([]);
    }
  });
}

// 17d: on the way to the card gateway, before the guest has tried to pay, the page said "Payment not
// received yet". It says the payment is due; coming back without paying, it says not received.
test("the way to the card gateway says the payment is due @js-matters", async ({ page, javaScriptEnabled }) => {
  await page.setViewportSize(PHONE);
  const offset = javaScriptEnabled ? 260 : 262;
  await lakesideCheckout(page, javaScriptEnabled, offset, `pay-due-${offset}@example.com`);
  await page.getByRole("button", { name: "Place booking" }).click();
  await expect(page.locator("#main h1")).toHaveText("Payment due");
  const payPage = page.url();
  // The gateway answers 204 (no page), so that the page taking the guest there stays to be read.
  const sent: string[] = [];
  await page.route("**/sandbox-gateway/**", (route) => {
    sent.push(route.request().url());
    return route.fulfill({ status: 204 });
  });
  await page.getByRole("button", { name: /^Pay NT\$[\d,]+ now$/ }).click();
  if (javaScriptEnabled) await expect.poll(() => sent.length).toBe(1);
  else await expect(page.getByRole("button", { name: "Continue to payment" })).toBeVisible();
  await expect(page.getByText("Taking you to the secure payment page…")).toBeVisible();
  await expect(page.locator("#main h1")).toHaveText("Payment due");
  await expect(page).toHaveTitle(/^Payment due \| /);
  // Back without paying: nothing was received yet.
  await page.goto(payPage);
  await expect(page.locator("#main h1")).toHaveText("Payment not received yet");
});

// 17e: the whole-site plan in the booking said it must be booked alone, and "包場" broke into 包 / 場.
for (const [lang, inBooking, word] of [
  ["en-US", "This whole-property plan is in your booking", "Whole property"],
  ["zh-TW", "這個包場方案已在訂單中", "包場"],
] as const) {
  test(`the camp's whole-site plan in the booking says so, its name on one line (${lang}) @js-matters`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize(PHONE);
    const day = javaScriptEnabled ? 270 : 272;
    await page.goto(hotelUrl("camp", `${prefix(lang)}/hxa/booking?start=${taipeiDay(day)}&end=${taipeiDay(day + 1)}`));
    const whole = page
      .locator(".plan")
      .filter({ has: page.locator(".keep-together", { hasText: word }) })
      .first();
    const planName = (await whole.locator(".plan__name").textContent()) ?? "";
    await whole.locator(".add-form button[type=submit]").click();
    await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
    const added = page.locator(".plan").filter({ hasText: planName }).first();
    await expect(added.locator(".add-form__note")).toHaveText(inBooking);
    const lines = await page
      .locator(".plan .keep-together")
      .evaluateAll((words) => words.map((element) => element.getClientRects().length));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((count) => count === 1)).toBe(true);
  });
}
