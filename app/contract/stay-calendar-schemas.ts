/** The guest's price calendar (GET /api/portico/stay_calendar, decision 157). */
import * as v from "valibot";

const Refusal = v.picklist(["past", "sold_out", "closed", "no_arrival", "no_departure", "min_stay", "max_stay"]);

export const StayCalendarDaySchema = v.object({
  date: v.string(),
  /** The cheapest shortest stay from this day for the party (TWD, all rooms), when one can start. */
  price: v.optional(v.number()),
  nights: v.optional(v.number()),
  min_stay: v.optional(v.number()),
  reason: v.optional(Refusal),
});

export const StayCalendarCheckOutSchema = v.object({
  date: v.string(),
  nights: v.number(),
  total: v.optional(v.number()),
  reason: v.optional(Refusal),
});

export const StayCalendarSchema = v.object({
  today: v.string(),
  days: v.array(StayCalendarDaySchema),
  check_in: v.nullable(v.string()),
  check_outs: v.array(StayCalendarCheckOutSchema),
});
export type StayCalendar = v.InferOutput<typeof StayCalendarSchema>;
export type StayCalendarDay = v.InferOutput<typeof StayCalendarDaySchema>;
export type StayCalendarCheckOut = v.InferOutput<typeof StayCalendarCheckOutSchema>;
