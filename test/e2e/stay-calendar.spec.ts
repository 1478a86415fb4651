import { expect, test } from "@playwright/test";
import { hotelUrl, taipeiDay, waitForHydration } from "./helpers";

/**
 * The guest's price calendar (decision 157): two taps, check-in then check-out, and the search
 * shows that stay, with JavaScript off and on. Four guests in one room fit only taipei's family
 * rooms, which its file sells out on the night of today+11: that day is not a link and says so.
 */
test("a guest picks check-in then check-out on the calendar and the search shows that stay @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const start = taipeiDay(javaScriptEnabled ? 14 : 16);
  const end = taipeiDay(javaScriptEnabled ? 16 : 18);
  const soldOut = taipeiDay(11);
  await page.goto(hotelUrl("taipei", "/en-US/hxa/booking?room=1&adults=4&children=0"));
  if (javaScriptEnabled) await waitForHydration(page);
  const calendar = page.locator("#stay-calendar");
  await expect(calendar.getByText("Choose a check-in date")).toBeVisible();
  // A day's accessible name says date, weekday and price; the sold-out one is words, not a link.
  await expect(calendar.locator(`a[href*="pick=${start}"]`)).toHaveAttribute(
    "aria-label",
    /^\w{3}, \w{3} \d{1,2}, \d{4}, from NT\$[\d,]+$/,
  );
  await expect(calendar.locator(`a[href*="pick=${soldOut}"]`)).toHaveCount(0);
  await expect(calendar.locator(".visually-hidden", { hasText: "sold out" }).first()).toBeAttached();

  await calendar.locator(`a[href*="pick=${start}"]`).click();
  await expect(page).toHaveURL(new RegExp(`pick=${start}`));
  await expect(calendar.getByText(/now choose a check-out date/)).toBeVisible();
  const checkOut = calendar.locator(`a[href*="end=${end}"]`);
  await expect(checkOut).toHaveAttribute("aria-label", /NT\$[\d,]+ for 2 nights$/);

  await checkOut.click();
  await expect(page).toHaveURL(new RegExp(`start=${start}&end=${end}`));
  await expect(page.locator("#search-start")).toHaveValue(start);
  await expect(page.locator("#search-end")).toHaveValue(end);
  await expect(page.locator(".booking-room").first()).toBeVisible();
});

test("the calendar looks right on a phone and a desktop in zh-TW, ja-JP and ko-KR", async ({ page }) => {
  test.slow();
  // A calendar whose server HTML and hydrated render differ (a date, a word) logs an error.
  const pageErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  for (const [prefix, lang] of [
    ["", "zh-TW"],
    ["/ja-JP", "ja-JP"],
    ["/ko-KR", "ko-KR"],
  ] as const) {
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(hotelUrl("taipei", `${prefix}/hxa/booking?room=1&adults=4&children=0&pick=${taipeiDay(3)}`));
      await waitForHydration(page);
      const calendar = page.locator("#stay-calendar");
      await expect(calendar.locator("table").first()).toBeVisible();
      await calendar.screenshot({ path: test.info().outputPath(`stay-calendar-${lang}-${width}.png`) });
    }
  }
  expect(pageErrors).toEqual([]);
});
