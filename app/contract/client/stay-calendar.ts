/** The guest's price calendar (decision 157): a Portico extension, not a call of the spec. */
import { StayCalendarSchema } from "../stay-calendar-schemas";
import type { ClientClass } from "./core";

export interface StayCalendarQuery {
  /** YYYY-MM: the first month shown */
  month: string;
  months: number;
  adults: number;
  children: number;
  rooms: number;
  checkIn?: string;
  roomClassIds?: readonly number[];
  ratePlanIds?: readonly number[];
}

export function withStayCalendarCalls<TBase extends ClientClass>(Base: TBase) {
  return class StayCalendarCalls extends Base {
    /** GET /api/portico/stay_calendar */
    stayCalendar(query: StayCalendarQuery) {
      return this.call(StayCalendarSchema, "GET", "/api/portico/stay_calendar", {
        query: {
          ...this.hotel,
          month: query.month,
          months: query.months,
          adults: query.adults,
          children: query.children,
          rooms: query.rooms,
          ...(query.checkIn ? { check_in: query.checkIn } : {}),
          ...(query.roomClassIds?.length ? { room_class_ids: query.roomClassIds } : {}),
          ...(query.ratePlanIds?.length ? { rate_plan_ids: query.ratePlanIds } : {}),
        },
      });
    }
  };
}
