/** Rules for a stay and a party (spec §3 booking option, §9 limits). */
import { addDays, addMonths, isIsoDate, nightsBetween } from "./dates";

export { DEFAULT_BOOKING, MAX_GUESTS, MAX_ROOMS_PER_ORDER, MAX_STAY_NIGHTS, SELLABLE_MONTHS } from "./limits";
import { MAX_STAY_NIGHTS, SELLABLE_MONTHS, DEFAULT_BOOKING } from "./limits";

export type StayError =
  | { field: "start"; code: "invalid_date" | "date_in_past" | "beyond_sellable_window" }
  | { field: "end"; code: "invalid_date" | "dates_reversed" | "stay_too_long" | "beyond_sellable_window" };

/** Checks a stay against today in the hotel's zone; returns the problems, one per field at most. */
export function validateStay(start: string, end: string, today: string): StayError[] {
  const errors: StayError[] = [];
  const startValid = isIsoDate(start);
  if (!startValid) errors.push({ field: "start", code: "invalid_date" });
  else if (start < today) errors.push({ field: "start", code: "date_in_past" });
  else if (start >= addMonths(today, SELLABLE_MONTHS)) errors.push({ field: "start", code: "beyond_sellable_window" });
  if (!isIsoDate(end)) errors.push({ field: "end", code: "invalid_date" });
  else if (startValid && end <= start) errors.push({ field: "end", code: "dates_reversed" });
  else if (startValid && nightsBetween(start, end) > MAX_STAY_NIGHTS) errors.push({ field: "end", code: "stay_too_long" });
  // The last night must be on sale too, not only the first.
  else if (errors.length === 0 && end > addMonths(today, SELLABLE_MONTHS)) errors.push({ field: "end", code: "beyond_sellable_window" });
  return errors;
}

/** The default stay: today to tomorrow in the hotel's zone. */
export function defaultStay(today: string): { start: string; end: string } {
  return { start: today, end: addDays(today, DEFAULT_BOOKING.duration) };
}
