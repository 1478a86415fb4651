/**
 * A month of a hotel's calendar, for the desk's reports and exports (decision 152): its days as
 * the hotel's 'YYYY-MM-DD' dates, and the UTC instants it runs between in the hotel's time zone
 * (payments and cancellations are stamped in UTC; a payment at 23:30 in Taipei on the 31st is
 * that month's, though UTC already says the next).
 */
import { DateTime } from "luxon";

export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export interface MonthSpan {
  month: string;
  /** First and last day, hotel dates. */
  firstDay: string;
  lastDay: string;
  /** The day after the last: the end of a half-open range of dates. */
  nextDay: string;
  /** UTC ISO instants of the month's start and of the next month's start, in the hotel's zone. */
  from: string;
  until: string;
  /** How many nights the month has. */
  days: number;
}

export function monthSpan(month: string, timeZone: string): MonthSpan {
  const zone = DateTime.local(2000, 1, 1, { zone: timeZone }).isValid ? timeZone : "Asia/Taipei";
  const start = DateTime.fromISO(`${month}-01`, { zone });
  const next = start.plus({ months: 1 });
  return {
    month,
    firstDay: start.toISODate() as string,
    lastDay: next.minus({ days: 1 }).toISODate() as string,
    nextDay: next.toISODate() as string,
    from: start.toUTC().toISO() as string,
    until: next.toUTC().toISO() as string,
    days: start.daysInMonth ?? 30,
  };
}

/** The month of a hotel date ('YYYY-MM-DD' → 'YYYY-MM'). */
export const monthOf = (day: string): string => day.slice(0, 7);
