import { expect, test } from "@playwright/test";
import { hotelUrl, taipeiDay } from "./helpers";

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
        elements.flatMap((element) => {
          const select = element as HTMLSelectElement;
          const copy = select.cloneNode(true) as HTMLSelectElement;
          copy.style.cssText = "position:absolute;left:0;top:0;width:auto;min-width:0;max-width:none;flex:none";
          select.parentElement!.append(copy);
          const needed = copy.getBoundingClientRect().width;
          copy.remove();
          const width = select.getBoundingClientRect().width;
          return width + 0.5 < needed ? [`"${select.selectedOptions[0]?.text}" ${Math.round(width)} px of ${Math.round(needed)}`] : [];
        }),
      );
      expect(cut, url).toEqual([]);
    }
  });
}
