/** Rooms and availability calls of spec §7. */
import { addsListOf, loadAddons } from "~/backend/addons/addons.server";
import * as v from "valibot";
import { isIsoDate, nightsBetween, stayNights, todayIn } from "~/domain/dates";
import {
  availabilityStatements,
  loadAvailability,
  loadRatePlans,
  loadRoomClasses,
  planInventory,
  presentPriceSetItem,
  presentRoomClass,
  ruleRefusal,
  sellablePlan,
  stayAvailability,
  targetRoomIds,
} from "~/backend/catalogue/catalogue.server";
import { ApiError, ok, parseInput, queryObject } from "~/backend/http.server";
import { hotelByDomain, hotelOf, requireLiveHotel, mainLanguage, requireHotel, type HotelHead } from "~/backend/hotels/hotels.server";
import { memberFromRequest } from "~/backend/account/members.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import type { BackendRoute } from "~/backend/route";
import { requireStay } from "~/backend/pricing/stay.server";
import { MAX_STAY_NIGHTS } from "~/domain/limits";
import { stayRuleOf } from "~/domain/stay-rules";

/** Longest range one calendar request may cover (13 months of nights). */
export const MAX_CALENDAR_DAYS = 400;

const CalendarQuery = v.object({
  domain: v.string(),
  start_date: v.pipe(
    v.string(),
    v.check((value: string) => isIsoDate(value)),
  ),
  end_date: v.pipe(
    v.string(),
    v.check((value: string) => isIsoDate(value)),
  ),
  room_class_ids: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))), v.maxLength(50)), []),
});

export const roomRoutes: BackendRoute[] = [
  {
    method: "GET",
    path: "/api/ota/room/list",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const main = mainLanguage(hotel);
      const rooms = await loadRoomClasses(ctx.db, hotel);
      return ok(rooms.map((room) => presentRoomClass(room, ctx.lang, main)));
    },
  },
  {
    method: "GET",
    path: "/api/ota/room/empty-by-date",
    handler: async (ctx) => {
      const domain = ctx.url.searchParams.get("domain");
      if (!domain) throw new ApiError(400, "domain_required", {}, "domain");
      const startDate = ctx.url.searchParams.get("start_date");
      const endDate = ctx.url.searchParams.get("end_date");
      // The hotel and the stay's availability in one round trip. Dates that cannot be a stay are
      // not read with (requireStay refuses them below); the hotel's "today" is checked there too.
      const nights = isIsoDate(startDate) && isIsoDate(endDate) ? nightsBetween(startDate, endDate) : 0;
      const shaped = isIsoDate(startDate) && isIsoDate(endDate) && nights >= 1 && nights <= MAX_STAY_NIGHTS;
      const [hotelRow, ...stay] = await ctx.db.batch([
        hotelByDomain(ctx.db, domain),
        ...(shaped ? availabilityStatements(ctx.db, { domain }, startDate, endDate) : []),
      ]);
      const hotel = requireLiveHotel(await hotelOf(ctx.db, hotelRow?.results[0] as HotelHead | undefined));
      const { start, end, today } = requireStay(hotel, startDate, endDate, ctx.now);
      const availability = stayAvailability(stay, start, end);
      const main = mainLanguage(hotel);
      // Members-only plans are listed for a signed-in member only (decision 037).
      const signedIn = (await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now)) !== null;
      const [rooms, plans, addons] = await Promise.all([
        loadRoomClasses(ctx.db, hotel),
        loadRatePlans(ctx.db, hotel, { signedIn }),
        loadAddons(ctx.db, hotel),
      ]);
      const rows = rooms.map((room) => {
        const roomAvailability = availability.rooms.get(room.id);
        // The first stay rule that leaves out a plan of this room, in the order the guest's calendar
        // meets them (decision 154): said when the room has nothing to sell.
        const targeted = plans.filter((plan) => targetRoomIds(plan).includes(room.id));
        const refusals = targeted.map((plan) => ruleRefusal(availability, plan, room.id));
        const refused = refusals.find((refusal) => refusal !== null);
        const priceSet = targeted.flatMap((plan, index) => {
          if (refusals[index]) return [];
          const priced = sellablePlan(availability, plan, room.id, start);
          if (!priced) return [];
          const item = presentPriceSetItem(
            plan,
            room,
            priced,
            planInventory(roomAvailability, priced),
            ctx.lang,
            main,
            start,
            today,
            addsListOf(addons, plan.id, ctx.lang, main),
          );
          // A hotel without a member system shows no member price at all.
          return [hotel.close_member_system === 1 ? { ...item, member_price: null } : item];
        });
        return {
          ...presentRoomClass(room, ctx.lang, main),
          inventory: roomAvailability?.remaining ?? 0,
          price_set: priceSet,
          stay_rule: priceSet.length === 0 && refused ? stayRuleOf(refused, start) : null,
        };
      });
      // An empty answer says why when a stay rule is why: the first room's rule (docs/api.md).
      const empty = rows.every((row) => row.price_set.length === 0);
      const stayRule = empty ? (rows.find((row) => row.stay_rule !== null)?.stay_rule ?? null) : null;
      return ok({ start_date: start, end_date: end, nights: availability.nights, rooms: rows, stay_rule: stayRule });
    },
  },
  {
    method: "GET",
    path: "/api/ota/room/rateplan/empty-by-date",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const { start, end } = requireStay(hotel, ctx.url.searchParams.get("start_date"), ctx.url.searchParams.get("end_date"), ctx.now);
      const main = mainLanguage(hotel);
      const signedIn = (await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now)) !== null;
      const [plans, availability] = await Promise.all([
        loadRatePlans(ctx.db, hotel, { signedIn }),
        loadAvailability(ctx.db, hotel.id, start, end),
      ]);
      const rateplanInfo = plans
        .filter((plan) => plan.is_special === 1)
        .map((plan) => {
          const targets = targetRoomIds(plan);
          return {
            rate_plan_id: plan.id,
            rate_plan_code: plan.rate_plan_code,
            rate_plan_code_name: pickText(parseJson<LocalizedText>(plan.name, {}), ctx.lang, main),
            rate_plan_code_introduction: pickText(parseJson<LocalizedText>(plan.introduction, {}), ctx.lang, main),
            target_room_ids: targets,
            room_classes: targets.flatMap((roomClassId) => {
              const priced = sellablePlan(availability, plan, roomClassId, start);
              if (!priced) return [];
              return [
                {
                  room_class_id: roomClassId,
                  origin_price: priced.price,
                  member_price: plan.allow_member_price === 1 && hotel.close_member_system !== 1 ? priced.member_price : null,
                  inventory: planInventory(availability.rooms.get(roomClassId), priced),
                },
              ];
            }),
            refund_template_id: plan.refund_template_id,
            allow_coupon: plan.allow_coupon === 1,
            allow_member_price: plan.allow_member_price === 1,
          };
        });
      return ok({ rateplan_info: rateplanInfo });
    },
  },
  {
    method: "GET",
    path: "/api/wota/room_calendar",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const query = parseInput(CalendarQuery, queryObject(ctx.url, ["room_class_ids"]));
      const days = nightsBetween(query.start_date, query.end_date);
      if (days <= 0) throw new ApiError(400, "dates_reversed", {}, "end_date");
      if (days > MAX_CALENDAR_DAYS) throw new ApiError(400, "invalid_field", { field: "end_date" }, "end_date");
      const rooms = await loadRoomClasses(ctx.db, hotel);
      const ids = query.room_class_ids.length > 0 ? query.room_class_ids : rooms.map((room) => room.id);
      const known = new Set(rooms.map((room) => room.id));
      const unknown = ids.find((id) => !known.has(id));
      if (unknown !== undefined) throw new ApiError(404, "unknown_room", {}, "room_class_ids");
      const placeholders = ids.map(() => "?").join(", ");
      // A guest's calendar counts no members-only plan (decision 037).
      const signedIn = (await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now)) !== null;
      // The lowest price on each night among the plans of these rooms that still have a room to sell,
      // that the site's entire-rent state allows that night (decision 023), and that a one-night stay
      // from that night may book (each day links to such a stay): the same rule as a search's
      // planRestriction, so a price shown here is a price a search finds.
      const { results } = await ctx.db
        .prepare(
          `SELECT pn.night AS date, MIN(pn.price) AS price, MIN(pn.member_price) AS member_price
           FROM plan_nights pn
           JOIN rate_plan_rooms rpr ON rpr.rate_plan_id = pn.rate_plan_id AND rpr.room_class_id = pn.room_class_id
           JOIN rate_plans rp ON rp.id = pn.rate_plan_id
           JOIN room_nights rn ON rn.room_class_id = pn.room_class_id AND rn.night = pn.night
           LEFT JOIN site_nights sn ON sn.hotel_id = rp.hotel_id AND sn.night = pn.night
           WHERE pn.room_class_id IN (${placeholders}) AND pn.night >= ? AND pn.night < ?
             AND rn.capacity > rn.booked AND (pn.allotment IS NULL OR pn.allotment > pn.sold)
             AND COALESCE(CASE WHEN rp.support_entire_rent = 1 THEN sn.unit_rooms ELSE sn.entire_rooms END, 0) = 0
             AND rp.days <= 1
             AND (rp.members_only = 0 OR ? = 1)
             AND (rp.open_check_in_date IS NULL OR rp.open_check_in_date = '' OR pn.night >= rp.open_check_in_date)
             AND (rp.close_check_in_date IS NULL OR rp.close_check_in_date = '' OR pn.night <= rp.close_check_in_date)
           GROUP BY pn.night`,
        )
        .bind(...ids, query.start_date, query.end_date, signedIn ? 1 : 0)
        .all<{ date: string; price: number; member_price: number | null }>();
      const byDate = new Map(results.map((row) => [row.date, row]));
      // Nights before today in the hotel's zone cannot be booked, whatever their inventory says.
      const today = todayIn(hotel.time_zone, ctx.now);
      return ok(
        stayNights(query.start_date, query.end_date).map((date) => {
          const row = date >= today ? byDate.get(date) : undefined;
          return {
            date,
            price: row?.price ?? null,
            member_price: hotel.close_member_system === 1 ? null : (row?.member_price ?? null),
            available: row !== undefined,
          };
        }),
      );
    },
  },
];
