import { expect, test, type Page } from "@playwright/test";
import { formatDate } from "~/i18n/format";
import { signInToDesk } from "./desk-helpers";
import { hotelUrl, taipeiDay, waitForHydration } from "./helpers";

/**
 * The desk's calendar (issue 40, decision 156) as staff use it, then as a guest meets it: the owner
 * closes a night and sets a two-night minimum on another by bulk change (preview, then apply) for
 * every room type of lakeside, sees both in the month's grid; the guest's calendar on the booking
 * page then shows the night closed and the minimum, and books a two-night stay from that day in two
 * taps. The desk's pages ship no JavaScript; the booking page does: with JavaScript off and on, each
 * run on nights of its own, 50 to 57 days ahead, where no other test books at lakeside.
 */
const HOTEL = "lakeside";
const ROOMS = ["Lake View King", "Lake View Twin", "Garden Family Room", "Lakeside Pool Villa"];
const CODES = ["LAKE-KING", "LAKE-TWIN", "GARDEN-FAM", "VILLA"];

async function bulkChange(page: Page, night: string, change: string, value: string, cells: string) {
  await page.goto(hotelUrl(HOTEL, `/en-US/desk/calendar?month=${night.slice(0, 7)}`));
  await page.getByLabel("First night").fill(night);
  await page.getByLabel("Last night").fill(night);
  for (const room of ROOMS) await page.getByLabel(`${room}: room type`).check();
  await page.locator('select[name="change"]').selectOption(change);
  await page.locator('input[name="value"]').fill(value);
  await page.getByRole("button", { name: "Preview" }).click();
  // The preview lists each room type's night, from what to what; nothing is written yet.
  const preview = page.locator(".desk-cal__preview");
  await expect(preview.getByRole("status")).toHaveText("4 rows change. Nothing is written until you apply them.");
  await expect(preview.locator("tbody tr")).toHaveCount(4);
  for (const room of ROOMS) await expect(preview.locator("tbody tr", { hasText: room })).toContainText(night);
  const grid = (code: string) => page.locator(`section[data-room="${code}"] tr[data-row="rooms"] td[data-night="${night}"]`);
  await expect(grid(CODES[0]!)).not.toContainText(cells);
  await page.getByRole("button", { name: "Apply to 4 rows" }).click();
  await expect(page.getByRole("status")).toHaveText("Applied: 4 rows changed.");
  await expect(page).toHaveURL(hotelUrl(HOTEL, `/en-US/desk/calendar?month=${night.slice(0, 7)}`));
  for (const code of CODES) await expect(grid(code)).toContainText(cells);
}

test("staff close a night and set a two-night minimum at the desk; the guest's calendar shows both and books a valid stay in two taps @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  test.slow();
  const closed = taipeiDay(javaScriptEnabled ? 50 : 54);
  const minimum = taipeiDay(javaScriptEnabled ? 52 : 56);
  const checkOut = taipeiDay(javaScriptEnabled ? 54 : 58);
  await signInToDesk(page, HOTEL);
  await page.getByRole("navigation", { name: "Desk" }).getByRole("link", { name: "Calendar" }).click();
  await expect(page.locator("h1")).toContainText("Calendar");

  await bulkChange(page, closed, "close", "", "closed");
  await bulkChange(page, minimum, "min_stay_set", "2", "minimum 2 nights");
  await page.locator(`section[data-room="${CODES[0]}"] tr[data-row="rooms"] td[data-night="${minimum}"]`).scrollIntoViewIfNeeded();
  await page.locator(`section[data-room="${CODES[0]}"]`).screenshot({ path: test.info().outputPath("desk-calendar-marks.png") });
  // Written once: the audit log says who did what.
  await page.goto(hotelUrl(HOTEL, "/en-US/desk/audit"));
  await expect(page.locator("[data-audit-action=calendar_bulk_change]").first()).toContainText("owner@portico.example");

  // The guest's calendar on the booking page.
  await page.goto(hotelUrl(HOTEL, `/en-US/hxa/booking?room=1&adults=2&children=0&cal=${closed.slice(0, 7)}`));
  if (javaScriptEnabled) await waitForHydration(page);
  const calendar = page.locator("#stay-calendar");
  await expect(calendar.locator(`button[value="${closed}"]`)).toHaveCount(0);
  await expect(calendar.locator(".visually-hidden", { hasText: `${formatDate(closed, "en-US")}, closed` })).toBeAttached();
  if (minimum.slice(0, 7) !== closed.slice(0, 7)) {
    await calendar.getByRole("link", { name: /Next month/ }).click();
    await expect(page).toHaveURL(new RegExp(`cal=${minimum.slice(0, 7)}`));
  }
  const arrival = calendar.locator(`button[name="pick"][value="${minimum}"]`);
  await expect(arrival).toHaveAttribute("aria-label", new RegExp(`^${formatDate(minimum, "en-US")}, from NT\\$[\\d,]+, minimum 2 nights$`));
  // Tap one: the check-in. One night is too short: no button, and it says why.
  await arrival.click();
  await expect(page).toHaveURL(new RegExp(`pick=${minimum}`));
  const oneNight = taipeiDay(javaScriptEnabled ? 53 : 57);
  await expect(calendar.locator(`button[value="${oneNight}"]`)).toHaveCount(0);
  await expect(calendar.locator(".visually-hidden", { hasText: `${formatDate(oneNight, "en-US")}, minimum 2 nights` })).toBeAttached();
  // Tap two: the check-out two nights on; the search shows that stay.
  await calendar.locator(`button[name="end"][value="${checkOut}"]`).click();
  await expect(page).toHaveURL(new RegExp(`start=${minimum}&end=${checkOut}`));
  await expect(page.locator("#search-start")).toHaveValue(minimum);
  await expect(page.locator("#search-end")).toHaveValue(checkOut);
  await expect(page.locator(".booking-room").first()).toBeVisible();
});

test("the desk's month grid on a desktop and on a phone, one room type at a time", async ({ page }) => {
  await signInToDesk(page, HOTEL);
  const month = taipeiDay(50).slice(0, 7);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(hotelUrl(HOTEL, `/en-US/desk/calendar?month=${month}`));
  await expect(page.locator("section.desk-cal__room")).toHaveCount(4);
  await page
    .locator("section.desk-cal__room")
    .first()
    .screenshot({ path: test.info().outputPath("desk-calendar-1280.png") });
  await page.setViewportSize({ width: 360, height: 800 });
  // All four are in the page; a phone shows the first, and links to each of the others.
  await expect(page.locator("section.desk-cal__room:visible")).toHaveCount(1);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(360);
  await page.getByRole("navigation", { name: "Room types" }).getByRole("link", { name: "Lake View Twin" }).click();
  await expect(page.locator("section.desk-cal__room:visible h2")).toHaveText("Lake View Twin");
  await page.locator("section.desk-cal__room:visible").screenshot({ path: test.info().outputPath("desk-calendar-360.png") });
});
