/**
 * Stay dates are hotel-local 'YYYY-MM-DD' strings plus the hotel's IANA time zone (design.md).
 * Day arithmetic is done on UTC midnights so that it never shifts with daylight saving.
 */
import { DateTime } from "luxon";

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A 'YYYY-MM-DD' date as its UTC midnight. Plain Date arithmetic: a search page does this for
 * every night of every plan, and luxon's parsing costs far more (luxon keeps the time zones).
 */
function utcMidnight(date: string): Date {
  const at = new Date(0);
  at.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return at;
}

function isoDateOf(at: Date): string {
  const pad = (value: number, width: number) => String(value).padStart(width, "0");
  return `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1, 2)}-${pad(at.getUTCDate(), 2)}`;
}

/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: unknown): value is string {
  return typeof value === "string" && ISO_DATE.test(value) && isoDateOf(utcMidnight(value)) === value;
}

/** Per time zone: the local day last computed and the instants it runs between (asked several times per request). */
const days = new Map<string, { day: string; from: number; until: number }>();

/** Today's date in the hotel's time zone (an unknown zone counts as Asia/Taipei). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const at = now.getTime();
  const known = days.get(timeZone);
  if (known && at >= known.from && at < known.until) return known.day;
  const asked = DateTime.fromJSDate(now, { zone: timeZone });
  const local = asked.isValid ? asked : DateTime.fromJSDate(now, { zone: "Asia/Taipei" });
  const day = local.toISODate() as string;
  if (days.size > 1_000) days.clear();
  days.set(timeZone, { day, from: local.startOf("day").toMillis(), until: local.startOf("day").plus({ days: 1 }).toMillis() });
  return day;
}

const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return isoDateOf(new Date(utcMidnight(date).getTime() + days * DAY_MS));
}

/** The same day `months` later; the month's last day when it is shorter (Jan 31 + 1 month: Feb 28 or 29). */
export function addMonths(date: string, months: number): string {
  const from = utcMidnight(date);
  const target = new Date(0);
  target.setUTCFullYear(from.getUTCFullYear(), from.getUTCMonth() + months, 1);
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(target.getUTCFullYear(), target.getUTCMonth() + 1, 0);
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay.getUTCDate()));
  return isoDateOf(target);
}

/** Number of nights from check-in to check-out (negative when reversed). */
export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((utcMidnight(checkOut).getTime() - utcMidnight(checkIn).getTime()) / DAY_MS);
}

/** The nights of a stay: check-in up to the night before check-out. */
export function stayNights(checkIn: string, checkOut: string): string[] {
  const count = nightsBetween(checkIn, checkOut);
  return Array.from({ length: Math.max(0, count) }, (_, index) => addDays(checkIn, index));
}

/** Day of the week of a date: 0 Sunday … 6 Saturday. */
export function dayOfWeek(date: string): number {
  return utcMidnight(date).getUTCDay();
}

/** Resolves 'YYYY-MM-DD', 'today', 'today+N' or 'today-N' against the load day. */
export function resolveDayRef(ref: string, loadDay: string): string {
  if (ref === "today") return loadDay;
  const relative = /^today([+-]\d+)$/.exec(ref);
  if (relative?.[1]) return addDays(loadDay, Number(relative[1]));
  return ref;
}

/** The instant a day begins in a time zone (an unknown zone counts as Asia/Taipei): when a stay starting that day begins. */
export function checkInStart(day: string, timeZone: string): Date {
  const local = DateTime.fromISO(day, { zone: timeZone });
  return (local.isValid ? local : DateTime.fromISO(day, { zone: "Asia/Taipei" })).startOf("day").toJSDate();
}
