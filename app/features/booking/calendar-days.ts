/**
 * The guest's price calendar as the page carries it (decision 162): the months shown, the pick, and
 * one short code a day instead of an object a day, so the hydration data does not repeat each day's
 * date and field names. The component works out dates and words from these on render.
 */

/**
 * One day: its price ("from", or a check-out's total for the whole stay), a price and the minimum
 * stay from that day, or why no stay can start (or end) there: "closed", "min_stay 2", …
 */
export type DayCode = number | [price: number, minStay: number] | string;

export interface CalendarView {
  /** The first month shown (YYYY-MM). */
  month: string;
  previous: string | null;
  next: string | null;
  /** The check-in picked, when it is in the months shown. */
  pick: string | null;
  /** Today at the hotel. */
  today: string;
  /** One per day from the first of `month` to the end of the months shown; null when the calendar could not be read. */
  days: DayCode[] | null;
  /** One per check-out from the day after `pick`, within the months shown. */
  outs: DayCode[];
}

export interface Day {
  price?: number;
  minStay?: number;
  reason?: string;
  /** The nights a "min_stay" or "max_stay" reason names. */
  count?: number;
}

export function dayOf(code: DayCode | undefined): Day {
  if (typeof code === "number") return { price: code };
  if (Array.isArray(code)) return { price: code[0], minStay: code[1] };
  const [reason = "sold_out", count] = (code ?? "sold_out").split(" ");
  return { reason, count: count === undefined ? undefined : Number(count) };
}
