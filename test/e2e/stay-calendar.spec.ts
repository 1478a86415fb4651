import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { addMonths } from "~/domain/dates";
import { formatDate, formatMonth } from "~/i18n/format";
import { hotelUrl, taipeiDay, waitForHydration } from "./helpers";

/**
 * The guest's price calendar (decisions 157, 162): two taps, check-in then check-out, and the search
 * shows that stay, with JavaScript off and on. Four guests in one room fit only taipei's family
 * rooms, which its file sells out on the night of today+11: that day is no button and says so.
 */

/** The table of a date's month, found by its caption as a guest reads it. */
const monthOf = (calendar: Locator, date: string) =>
  calendar.locator("table").filter({ has: calendar.page().locator("caption", { hasText: formatMonth(date, "en-US") }) });
/** A date's cell: its day number, then its price or why it cannot be picked. */
const cellOf = (calendar: Locator, date: string) =>
  monthOf(calendar, date)
    .locator("td")
    .filter({ hasText: new RegExp(`^${Number(date.slice(8))}( |$)`) });
/** A day's accessible name as a screen reader says it: date with weekday, price from, its rule. */
const priced = (date: string, rest = "") => new RegExp(`^${formatDate(date, "en-US")}, from NT\\$[\\d,]+${rest}$`);
/** A check-out day's accessible name: date with weekday and the whole stay's total. */
const total = (date: string) => new RegExp(`^${formatDate(date, "en-US")}, NT\\$[\\d,]+ for \\d+ nights?$`);

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
  await expect(calendar.getByText("Choose a check-in date. Prices are in NT$")).toBeVisible();
  // A day is a button named by its date, weekday and price, in the table of its month; the
  // sold-out one is words, not a button.
  const checkIn = monthOf(calendar, start).locator(`button[name="pick"][value="${start}"]`);
  await expect(checkIn).toHaveAccessibleName(priced(start));
  await expect(calendar.locator(`button[value="${soldOut}"]`)).toHaveCount(0);
  await refused(calendar, soldOut, "sold out");

  // The page's announcement of a search: none for a check-in (the hint says what comes next).
  const announced = page.locator("#main p.visually-hidden[role=status]");
  await checkIn.click();
  await expect(page).toHaveURL(new RegExp(`pick=${start}`));
  await expect(calendar.getByText(/now choose a check-out date. Each day shows the whole stay's total/)).toBeVisible();
  await expect(announced).toHaveText("");
  const checkOut = calendar.locator(`button[name="end"][value="${end}"]`);
  await expect(checkOut).toHaveAccessibleName(total(end));
  // A check-out shows the whole stay's total: two nights cost more than the first night's "from".
  const amount = async (day: Locator) => Number(((await day.locator("small").textContent()) ?? "").replace(/\D/g, ""));
  expect(await amount(checkOut)).toBeGreaterThan(await amount(monthOf(calendar, start).locator(`button[value="${start}"]`)));

  await checkOut.click();
  await expect(page).toHaveURL(new RegExp(`start=${start}&end=${end}`));
  await expect(page.locator("#search-start")).toHaveValue(start);
  await expect(page.locator("#search-end")).toHaveValue(end);
  await expect(page.locator(".booking-room").first()).toBeVisible();
  // With JavaScript the check-out is a search like the form's, and says how many results it found.
  if (javaScriptEnabled) await expect(announced).toHaveText(/^\d+ results? for your search$/);
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

/**
 * The demo's stay rules (demo/hotels/taipei.json, 31 to 38 days ahead; README): the Standard Double
 * is closed 33 days ahead; its Best Available Rate takes no arrivals 31 days ahead and needs two
 * nights from 35 and 36 days ahead. The room's other plans are cheaper or open those days, so the
 * guest meets the rate's rules by filtering the results to that room and rate, as the calendar
 * follows the filters. Nothing here books: other tests rely on those nights as they are.
 */
const NO_ARRIVAL = taipeiDay(31);
const CLOSED = taipeiDay(33);
const MINIMUM = [taipeiDay(35), taipeiDay(36)] as const;
/** The date's cell says why it cannot be picked, and is no link or button. */
async function refused(calendar: Locator, date: string, why: string) {
  // On screen its number and why; to a screen reader its date with weekday and why.
  await expect(cellOf(calendar, date).locator("[aria-hidden=true]")).toHaveText(`${Number(date.slice(8))} ${why}`);
  await expect(cellOf(calendar, date).locator(".visually-hidden")).toHaveText(`${formatDate(date, "en-US")}, ${why}`);
  await expect(cellOf(calendar, date).locator("a, button")).toHaveCount(0);
}

/** Shows the months from the no-arrival day's on, by the calendar's own "Next month" link. */
async function toRuleMonths(page: Page, calendar: Locator) {
  for (let month = taipeiDay(0).slice(0, 7); month < NO_ARRIVAL.slice(0, 7); ) {
    await calendar.getByRole("link", { name: /Next month/ }).click();
    month = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)).toISOString().slice(0, 7);
    await expect(page).toHaveURL(new RegExp(`cal=${month}`));
  }
}

test("the guest's calendar shows the demo's closed night, no-arrival day and two-night minimum, and a refused check-out cannot be picked @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  // The room's own page: the closed night says so, and is not a link.
  await page.goto(hotelUrl("taipei", "/en-US"));
  await page.locator('a[href^="/en-US/room/"]', { hasText: "Standard Double" }).first().click();
  const calendar = page.locator("#stay-calendar");
  await toRuleMonths(page, calendar);
  await refused(calendar, CLOSED, "closed");

  // The booking page, filtered to that room and its Best Available Rate.
  await page.goto(hotelUrl("taipei", "/en-US/hxa/booking"));
  if (javaScriptEnabled) await waitForHydration(page);
  const filters = page.locator(".booking-filters");
  await filters.locator("summary").click();
  await filters.getByLabel("Best Available Rate (room only)").check();
  await filters.getByLabel("Standard Double").check();
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/room_id=\d+/);
  await toRuleMonths(page, calendar);
  await refused(calendar, NO_ARRIVAL, "no arrival");
  await refused(calendar, CLOSED, "closed");
  for (const date of MINIMUM) {
    await expect(calendar.locator(`button[value="${date}"]`)).toHaveAccessibleName(priced(date, ", minimum 2 nights"));
  }

  // Check-in on the first two-night day: one night later is refused, in words, and is no button.
  await calendar.locator(`button[value="${MINIMUM[0]}"]`).click();
  await expect(page).toHaveURL(new RegExp(`pick=${MINIMUM[0]}`));
  await refused(calendar, MINIMUM[1], "minimum 2 nights");
  await expect(calendar.locator(`button[name="end"][value="${taipeiDay(37)}"]`)).toHaveAccessibleName(total(taipeiDay(37)));
  if (javaScriptEnabled) {
    // Neither the keyboard picks it: Enter and Space on the refused day go nowhere.
    const url = page.url();
    await calendar.locator(`[data-date="${MINIMUM[0]}"]`).focus();
    await page.keyboard.press("ArrowRight");
    await expect(calendar.locator(`[data-date="${MINIMUM[1]}"]`)).toBeFocused();
    await page.keyboard.press("Enter");
    await page.keyboard.press(" ");
    await expect(calendar.locator(`[data-date="${MINIMUM[1]}"]`)).toBeFocused();
    expect(page.url()).toBe(url);
    const results = await new AxeBuilder({ page }).include("#stay-calendar").analyze();
    expect(
      results.violations.map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
});

test("with JavaScript the calendar is a date-picker dialog: keys move by day, week and month without a reload, Escape gives focus back", async ({
  page,
}) => {
  await page.goto(hotelUrl("taipei", "/en-US/hxa/booking?room=1&adults=2&children=0"));
  await waitForHydration(page);
  // A reload would lose this mark.
  await page.evaluate(() => ((window as unknown as { calendarMark: number }).calendarMark = 1));
  const opener = page.getByRole("button", { name: "Choose dates on the calendar" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Prices by date" });
  await expect(dialog).toBeVisible();
  // Focus is on a day: the first that can be picked (no check-in picked yet).
  const focused = () => dialog.locator("[data-date]:focus");
  await expect(focused()).toHaveCount(1);
  const start = (await focused().getAttribute("data-date")) ?? "";
  const at = (date: string) => dialog.locator(`[data-date="${date}"]`);
  await page.keyboard.press("ArrowRight");
  await expect(at(taipeiDay(1) > start ? taipeiDay(1) : start)).toBeFocused();
  const from = (await focused().getAttribute("data-date")) ?? "";
  await page.keyboard.press("ArrowDown");
  const week = new Date(Date.parse(`${from}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
  await expect(at(week)).toBeFocused();
  await page.keyboard.press("Home");
  await expect(focused()).toHaveCount(1);
  expect(new Date(`${await focused().getAttribute("data-date")}T00:00:00Z`).getUTCDay()).toBe(0);
  // PageDown twice reaches a month that was not on screen (two are shown from this one): it is
  // loaded through the page's loader (no reload), and the same day of that month has focus.
  const before = (await focused().getAttribute("data-date")) ?? "";
  await page.keyboard.press("PageDown");
  await page.keyboard.press("PageDown");
  await expect(at(addMonths(before, 2))).toBeFocused();
  expect([addMonths(before, 1).slice(0, 7), addMonths(before, 2).slice(0, 7)]).toContain(new URL(page.url()).searchParams.get("cal"));
  // Enter picks the check-in (two months ahead every day can start a stay for two): the dialog
  // stays, now with check-outs, and the day keeps focus.
  const checkIn = (await focused().getAttribute("data-date")) ?? "";
  await expect(focused()).toHaveAttribute("name", "pick");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`pick=${checkIn}`));
  await expect(dialog.getByText(/now choose a check-out date/)).toBeVisible();
  await expect(at(checkIn)).toBeFocused();
  expect(await page.evaluate(() => (window as unknown as { calendarMark?: number }).calendarMark)).toBe(1);
  // Escape closes the dialog and gives focus back to its button.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  expect(await page.evaluate(() => (window as unknown as { calendarMark?: number }).calendarMark)).toBe(1);
});
