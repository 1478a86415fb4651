/**
 * GET /api/portico/stay_calendar (decision 157): the guest's price calendar for a party, a month or
 * two, and optionally a chosen check-in's check-outs. The hotel and its nights are read in one D1
 * round trip (room classes and plans are kept per content version); app/domain/stay-calendar.ts
 * prices the stays as the search does.
 */
import * as v from "valibot";
import { addDays, isIsoDate, stayNights, todayIn } from "~/domain/dates";
import { MAX_GUESTS, MAX_ROOMS_PER_ORDER, MAX_STAY_NIGHTS } from "~/domain/limits";
import { calendarOf, type SiteNightRow } from "~/domain/stay-calendar";
import type { RuleRow } from "~/domain/stay-rules";
import { loadRatePlans, loadRoomClasses, targetRoomIds } from "~/backend/catalogue/catalogue.server";
import { ApiError, ok, parseInput, queryObject } from "~/backend/http.server";
import { hotelByDomain, hotelOf, requireLiveHotel, type HotelHead } from "~/backend/hotels/hotels.server";
import type { BackendRoute } from "~/backend/route";

/** Most months one request covers (the page shows two). */
export const MAX_CALENDAR_MONTHS = 3;

const count = (min: number, max: number) => v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number), v.minValue(min), v.maxValue(max));

const StayCalendarQuery = v.object({
  domain: v.pipe(v.string(), v.minLength(1)),
  month: v.pipe(v.string(), v.regex(/^\d{4}-(0[1-9]|1[0-2])$/)),
  months: v.optional(count(1, MAX_CALENDAR_MONTHS), "1"),
  adults: v.optional(count(1, MAX_GUESTS), "2"),
  children: v.optional(count(0, MAX_GUESTS), "0"),
  rooms: v.optional(count(1, MAX_ROOMS_PER_ORDER), "1"),
  check_in: v.optional(
    v.pipe(
      v.string(),
      v.check((value: string) => isIsoDate(value)),
    ),
  ),
  room_class_ids: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))), v.maxLength(50)), []),
  rate_plan_ids: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))), v.maxLength(50)), []),
});

/** The first day of the month `months` after `month` (YYYY-MM). */
function monthStart(month: string, months: number): string {
  const [year, index] = month.split("-").map(Number) as [number, number];
  const at = new Date(Date.UTC(year, index - 1 + months, 1));
  return at.toISOString().slice(0, 10);
}

/** A plan of a room class's sellable nights as the calendar's read packs them: "offset price,offset price…". */
interface PackedPrices {
  rate_plan_id: number;
  room_class_id: number;
  prices: string;
}

/** The prices of packed nights by their offset (PairPrices). */
function pricesOf(packed: string): (number | undefined)[] {
  const prices: (number | undefined)[] = [];
  for (let at = 0; at < packed.length; ) {
    const space = packed.indexOf(" ", at);
    const comma = packed.indexOf(",", space);
    const end = comma < 0 ? packed.length : comma;
    prices[Number(packed.slice(at, space))] = Number(packed.slice(space + 1, end));
    at = end + 1;
  }
  return prices;
}

/** A row that carries a stay rule (a row without one says nothing: stayRefusal reads none from it). */
const RULE_SET = (alias: string) =>
  `(${alias}.closed = 1 OR ${alias}.no_arrival = 1 OR ${alias}.no_departure = 1 OR ${alias}.min_stay IS NOT NULL OR ${alias}.max_stay IS NOT NULL)`;
/**
 * The plans of room classes the calendar prices: no members-only plan (decision 037), and only the
 * room classes (?5) and plans (?6) asked, when asked (JSON arrays). The plans and room classes are
 * those of the content version the same batch reads, as the memory's are (versioned.ts).
 */
const PAIRS_WANTED = `rp.members_only = 0 AND (?5 IS NULL OR pn.room_class_id IN (SELECT value FROM json_each(?5)))
  AND (?6 IS NULL OR pn.rate_plan_id IN (SELECT value FROM json_each(?6)))`;
const RULES = (alias: string) => `${alias}.closed, ${alias}.min_stay, ${alias}.max_stay, ${alias}.no_arrival, ${alias}.no_departure`;

export const stayCalendarRoutes: BackendRoute[] = [
  {
    method: "GET",
    path: "/api/portico/stay_calendar",
    handler: async (ctx) => {
      const query = parseInput(StayCalendarQuery, queryObject(ctx.url, ["room_class_ids", "rate_plan_ids"]));
      const first = monthStart(query.month, 0);
      const last = monthStart(query.month, query.months);
      if (query.check_in && (query.check_in < first || query.check_in >= last))
        throw new ApiError(400, "invalid_field", { field: "check_in" }, "check_in");
      // Every stay that starts in the months shown, up to the longest, ends within these nights.
      const through = addDays(last, MAX_STAY_NIGHTS);
      const hotelId = "(SELECT id FROM hotels WHERE domain = ?1)";
      const domain = query.domain.toLowerCase();
      const roomsAsked = query.room_class_ids.length > 0 ? JSON.stringify(query.room_class_ids) : null;
      const plansAsked = query.rate_plan_ids.length > 0 ? JSON.stringify(query.rate_plan_ids) : null;
      // One round trip (decision 157), only what the calendar reads (decision 165): the nights each
      // plan of each room class can be sold to the party (both rows there, rooms left for the rooms
      // asked, the plan's allotment too), with their price; the rows that carry a stay rule; the site.
      const [hotelRow, pairs, rules, site] = await ctx.db.batch([
        hotelByDomain(ctx.db, query.domain),
        ctx.db
          .prepare(
            `SELECT pn.rate_plan_id, pn.room_class_id,
                    group_concat(CAST(julianday(pn.night) - julianday(?2) AS INTEGER) || ' ' || pn.price) AS prices
             FROM rate_plans rp
             CROSS JOIN rate_plan_rooms rpr ON rpr.rate_plan_id = rp.id
             CROSS JOIN plan_nights pn ON pn.rate_plan_id = rpr.rate_plan_id AND pn.room_class_id = rpr.room_class_id
               AND pn.night >= ?2 AND pn.night < ?3
             JOIN room_nights rn ON rn.room_class_id = pn.room_class_id AND rn.night = pn.night
             WHERE rp.hotel_id = ${hotelId} AND ${PAIRS_WANTED} AND rn.capacity - rn.booked >= ?4
               AND (pn.allotment IS NULL OR MAX(0, pn.allotment - pn.sold) >= ?4)
             GROUP BY pn.rate_plan_id, pn.room_class_id`,
          )
          .bind(domain, first, through, query.rooms, roomsAsked, plansAsked),
        ctx.db
          .prepare(
            `SELECT rn.room_class_id, NULL AS rate_plan_id, rn.night, ${RULES("rn")}
             FROM room_classes rc CROSS JOIN room_nights rn ON rn.room_class_id = rc.id AND rn.night >= ?2 AND rn.night < ?3
             WHERE rc.hotel_id = ${hotelId} AND ${RULE_SET("rn")}
             UNION ALL
             SELECT pn.room_class_id, pn.rate_plan_id, pn.night, ${RULES("pn")}
             FROM rate_plans rp
             CROSS JOIN rate_plan_rooms rpr ON rpr.rate_plan_id = rp.id
             CROSS JOIN plan_nights pn ON pn.rate_plan_id = rpr.rate_plan_id AND pn.room_class_id = rpr.room_class_id
               AND pn.night >= ?2 AND pn.night < ?3
             WHERE rp.hotel_id = ${hotelId} AND ${PAIRS_WANTED} AND ${RULE_SET("pn")}`,
          )
          .bind(domain, first, through, null, roomsAsked, plansAsked),
        ctx.db
          .prepare(`SELECT night, entire_rooms, unit_rooms FROM site_nights WHERE hotel_id = ${hotelId} AND night >= ?2 AND night < ?3`)
          .bind(domain, first, through),
      ]);
      const hotel = requireLiveHotel(await hotelOf(ctx.db, hotelRow?.results[0] as HotelHead | undefined));
      const [roomClasses, ratePlans, allPlans] = await Promise.all([
        loadRoomClasses(ctx.db, hotel),
        loadRatePlans(ctx.db, hotel, { signedIn: false }),
        query.rate_plan_ids.length > 0 ? loadRatePlans(ctx.db, hotel, { signedIn: true }) : [],
      ]);
      const known = new Set(roomClasses.map((room) => room.id));
      if (query.room_class_ids.some((id) => !known.has(id))) throw new ApiError(404, "unknown_room", {}, "room_class_ids");
      const wanted = query.room_class_ids.length > 0 ? new Set(query.room_class_ids) : known;
      // Only these plans (the booking page's plan filter). A plan of another hotel is unknown; a
      // members-only one is known but, as every members-only plan here, not counted (decision 037).
      if (query.rate_plan_ids.some((id) => !allPlans.some((plan) => plan.id === id)))
        throw new ApiError(404, "unknown_plan", {}, "rate_plan_ids");
      const plansWanted = query.rate_plan_ids.length > 0 ? new Set(query.rate_plan_ids) : null;
      const today = todayIn(hotel.time_zone, ctx.now);
      const calendar = calendarOf(
        {
          rooms: roomClasses.filter((room) => wanted.has(room.id)),
          // A guest's calendar counts no members-only plan (decision 037), as room_calendar does.
          plans: ratePlans
            .filter((plan) => plan.members_only !== 1 && (plansWanted === null || plansWanted.has(plan.id)))
            .map((plan) => ({ ...plan, targets: targetRoomIds(plan) })),
          from: first,
          until: through,
          pairPrices: ((pairs?.results ?? []) as unknown as PackedPrices[]).map((row) => ({ ...row, prices: pricesOf(row.prices) })),
          rules: (rules?.results ?? []) as unknown as RuleRow[],
          siteNights: (site?.results ?? []) as unknown as SiteNightRow[],
        },
        { adults: query.adults, children: query.children, rooms: query.rooms },
        today,
      );
      return ok({
        today,
        days: stayNights(first, last).map((date) => calendar.day(date)),
        check_in: query.check_in ?? null,
        check_outs: query.check_in ? calendar.checkOuts(query.check_in) : [],
      });
    },
  },
];
