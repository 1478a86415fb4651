/** Room classes and availability (spec §7): the rooms, the search, the special rate plans and the calendar. */
import * as v from "valibot";
import { CalendarDaySchema, RoomClassSchema, SearchSchema, SpecialRatePlanSchema } from "../schemas";
import type { ClientClass } from "./core";

/** The calls of rooms and availability. */
export function withRoomCalls<TBase extends ClientClass>(Base: TBase) {
  return class RoomCalls extends Base {
    /** GET /api/ota/room/list */
    rooms() {
      return this.call(v.array(RoomClassSchema), "GET", "/api/ota/room/list", { query: this.hotel });
    }

    /** GET /api/ota/room/empty-by-date */
    search(start: string, end: string) {
      return this.call(SearchSchema, "GET", "/api/ota/room/empty-by-date", {
        query: { ...this.hotel, start_date: start, end_date: end },
      });
    }

    /** GET /api/ota/room/rateplan/empty-by-date: the special rate plans (data.rateplan_info) */
    async specialRatePlans(start: string, end: string) {
      const data = await this.call(
        v.object({ rateplan_info: v.array(SpecialRatePlanSchema) }),
        "GET",
        "/api/ota/room/rateplan/empty-by-date",
        {
          query: { ...this.hotel, start_date: start, end_date: end },
        },
      );
      return data.rateplan_info;
    }

    /** GET /api/wota/room_calendar: date and lowest price per night (room_class_ids repeated) */
    roomCalendar(start: string, end: string, roomClassIds: readonly number[]) {
      return this.call(v.array(CalendarDaySchema), "GET", "/api/wota/room_calendar", {
        query: { ...this.hotel, start_date: start, end_date: end, room_class_ids: roomClassIds },
      });
    }
  };
}
