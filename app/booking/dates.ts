/**
 * Stay dates are hotel-local 'YYYY-MM-DD' strings plus the hotel's IANA time zone (design.md).
 * Day arithmetic is done on UTC midnights so that it never shifts with daylight saving.
 */
import { DateTime } from "luxon";

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: unknown): value is string {
  return typeof value === "string" && ISO_DATE.test(value) && DateTime.fromISO(value, { zone: "utc" }).isValid;
}

/** Today's date in the hotel's time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  return (local.isValid ? local : DateTime.fromJSDate(now, { zone: "Asia/Taipei" })).toISODate() as string;
}

export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: "utc" }).plus({ days }).toISODate() as string;
}

export function addMonths(date: string, months: number): string {
  return DateTime.fromISO(date, { zone: "utc" }).plus({ months }).toISODate() as string;
}

/** Number of nights from check-in to check-out (negative when reversed). */
export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round(
    DateTime.fromISO(checkOut, { zone: "utc" }).diff(DateTime.fromISO(checkIn, { zone: "utc" }), "days").days,
  );
}

/** The nights of a stay: check-in up to the night before check-out. */
export function stayNights(checkIn: string, checkOut: string): string[] {
  const count = nightsBetween(checkIn, checkOut);
  return Array.from({ length: Math.max(0, count) }, (_, index) => addDays(checkIn, index));
}

/** Day of the week of a date: 0 Sunday … 6 Saturday. */
export function dayOfWeek(date: string): number {
  return DateTime.fromISO(date, { zone: "utc" }).weekday % 7;
}

/** Resolves 'YYYY-MM-DD', 'today', 'today+N' or 'today-N' against the load day. */
export function resolveDayRef(ref: string, loadDay: string): string {
  if (ref === "today") return loadDay;
  const relative = /^today([+-]\d+)$/.exec(ref);
  if (relative?.[1]) return addDays(loadDay, Number(relative[1]));
  return ref;
}
