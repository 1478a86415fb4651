import * as v from "valibot";
import { todayIn } from "~/domain/dates";
import { MAX_STAY_NIGHTS, validateStay } from "~/domain/stay";
import { ApiError } from "~/backend/http.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { formatDate } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import type { StayRefusal } from "~/domain/stay-rules";

/** A stay from the API's query or body, checked against today in the hotel's zone. */
export function requireStay(hotel: HotelRow, start: unknown, end: unknown, now: Date, fields = { start: "start_date", end: "end_date" }) {
  const today = todayIn(hotel.time_zone, now);
  if (typeof start !== "string") throw new ApiError(400, "invalid_field", { field: fields.start }, fields.start);
  if (typeof end !== "string") throw new ApiError(400, "invalid_field", { field: fields.end }, fields.end);
  const [error] = validateStay(start, end, today);
  if (error) {
    const field = error.field === "start" ? fields.start : fields.end;
    if (error.code === "invalid_date") throw new ApiError(400, "invalid_field", { field }, field);
    throw new ApiError(400, error.code, { max: MAX_STAY_NIGHTS }, field);
  }
  return { start, end, today };
}

/** A positive whole number given as text or number, within limits. */
export const WholeNumber = (min: number, max: number) =>
  v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))]),
    v.number(),
    v.integer(),
    v.minValue(min),
    v.maxValue(max),
  );

/**
 * A stay the hotel's stay rules refuse (decision 154), as the guest is told it in their language:
 * "A stay from Fri, Mar 14, 2026 is at least 2 nights". The field is the date to change: the
 * check-in for a closed night or a day closed to arrival, the check-out otherwise.
 */
export function stayRuleError(refusal: StayRefusal, checkIn: string, lang: Language): ApiError {
  switch (refusal.rule) {
    case "closed":
      return new ApiError(409, "stay_closed", { date: formatDate(refusal.night, lang) }, "check_in_day");
    case "no_arrival":
      return new ApiError(409, "stay_no_arrival", { date: formatDate(refusal.night, lang) }, "check_in_day");
    case "no_departure":
      return new ApiError(409, "stay_no_departure", { date: formatDate(refusal.night, lang) }, "check_out_day");
    case "min_stay":
      return new ApiError(409, "stay_min_stay", { date: formatDate(checkIn, lang), nights: refusal.nights }, "check_out_day");
    case "max_stay":
      return new ApiError(
        409,
        refusal.nights === 1 ? "stay_max_stay_one" : "stay_max_stay",
        { date: formatDate(checkIn, lang), nights: refusal.nights },
        "check_out_day",
      );
  }
}
