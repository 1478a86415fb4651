import * as v from "valibot";
import { todayIn } from "~/domain/dates";
import { MAX_STAY_NIGHTS, validateStay } from "~/domain/stay";
import { ApiError } from "~/backend/http.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";

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
