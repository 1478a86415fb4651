import { expect, test } from "@playwright/test";
import { hotelUrl } from "./helpers";

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
