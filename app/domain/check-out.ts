/**
 * The earliest check-out a search form offers: one night after check-in (spec §9: a stay is at
 * least one night). Used by the form on the server and in the browser alike, so it is written
 * without luxon, which stays out of the page's JavaScript.
 */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

function nextDay(date: string): string | null {
  if (!ISO_DATE.test(date)) return null;
  const time = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== date) return null;
  return new Date(time + DAY_MS).toISOString().slice(0, 10);
}

/** The night after check-in; the night after today when check-in is not a date or is in the past. */
export function earliestCheckOut(checkIn: string, today: string): string {
  const fromCheckIn = checkIn >= today ? nextDay(checkIn) : null;
  return fromCheckIn ?? nextDay(today) ?? today;
}
