/**
 * The guest's price calendar (decisions 157, 162): which months it shows and which check-in is
 * picked come from the address (`cal=YYYY-MM`, `pick=YYYY-MM-DD`), so every tap is a plain GET. The
 * booking page shows it for the party searched and its room and plan filters; a room's page for
 * that room class alone, without a pick (its days link into the booking page).
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { addDays, isIsoDate } from "~/domain/dates";
import type { StayCalendar } from "~/contract/stay-calendar-schemas";
import type { CalendarView, DayCode } from "./calendar-days";

/** Months ahead a guest may page to: 365 days from today. */
const AHEAD_DAYS = 365;

export interface CalendarAsk {
  party: { room: number; adults: number; children: number };
  /** The day the months start from when the address names none (the stay searched). */
  from: string;
  roomClassIds?: readonly number[];
  ratePlanIds?: readonly number[];
  /** Whether `pick` is read (the booking page); a room page's days are check-ins only. */
  picks: boolean;
}

const monthOf = (date: string) => date.slice(0, 7);

function shiftMonth(month: string, by: number): string {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1 + by, 1)).toISOString().slice(0, 7);
}

/** A refusal as the page carries it: its reason, with the nights of a minimum or maximum stay. */
function refusal(entry: { reason?: string; nights?: number }): string {
  const reason = entry.reason ?? "sold_out";
  return reason === "min_stay" || reason === "max_stay" ? `${reason} ${entry.nights ?? 1}` : reason;
}

/**
 * The calendar in the compact shape the page hydrates from (decision 162): one code a day from the
 * first day shown, one a check-out from the day after the pick, within the months shown.
 */
export function calendarView(
  calendar: StayCalendar | null,
  at: { month: string; previous: string | null; next: string | null; pick: string | null; today: string },
): CalendarView {
  const days: DayCode[] | null = calendar
    ? calendar.days.map((day) =>
        day.price === undefined ? refusal(day) : (day.min_stay ?? 1) > 1 ? [day.price, day.min_stay ?? 1] : day.price,
      )
    : null;
  const last = calendar?.days[calendar.days.length - 1]?.date ?? "";
  const outs: DayCode[] =
    calendar && at.pick
      ? calendar.check_outs.filter((entry) => entry.date <= last).map((entry) => (entry.total === undefined ? refusal(entry) : entry.total))
      : [];
  return { ...at, today: calendar?.today ?? at.today, days, outs };
}

export async function loadCalendar(
  context: AppLoadContext,
  request: Request,
  today: string,
  ask: CalendarAsk,
): Promise<{ view: CalendarView; calendar: StayCalendar | null }> {
  const params = new URL(request.url).searchParams;
  const last = monthOf(addDays(today, AHEAD_DAYS - 1));
  const rawPick = ask.picks ? (params.get("pick") ?? "") : "";
  const pick = isIsoDate(rawPick) && rawPick >= today && monthOf(rawPick) <= last ? rawPick : null;
  const rawMonth = params.get("cal") ?? "";
  const wanted = /^\d{4}-(0[1-9]|1[0-2])$/.test(rawMonth) ? rawMonth : monthOf(pick ?? (ask.from >= today ? ask.from : today));
  const month = wanted < monthOf(today) ? monthOf(today) : wanted > last ? last : wanted;
  const shown = month === last ? 1 : 2;
  const pickShown = pick && monthOf(pick) >= month && monthOf(pick) <= shiftMonth(month, shown - 1) ? pick : undefined;
  // The calendar helps; a page without it still searches, so its failure is not the page's.
  const calendar = await context.app.api
    .stayCalendar({
      month,
      months: shown,
      adults: ask.party.adults,
      children: ask.party.children,
      rooms: ask.party.room,
      checkIn: pickShown,
      roomClassIds: ask.roomClassIds,
      ratePlanIds: ask.ratePlanIds,
    })
    .catch(() => null);
  const view = calendarView(calendar, {
    month,
    previous: month > monthOf(today) ? shiftMonth(month, -1) : null,
    next: shiftMonth(month, shown - 1) < last ? shiftMonth(month, 1) : null,
    pick: pickShown ?? null,
    today,
  });
  return { view, calendar };
}
