/** Prices night by night: each room and plan's price of each night of a stay, and what is wrong with a line's nights. */
import { validateOrderLines, type OrderLineError } from "~/domain/order-lines";
import { type RatePlanRow, type RoomClassRow } from "~/backend/catalogue/catalogue.server";

export interface NightAmount {
  date: string;
  amount: number;
}

interface NightRow {
  price: number;
  member_price: number | null;
  /** Allotment left, null when the plan has none. */
  plan_left: number | null;
  /** Rooms of the class left that night, 0 when the site's entire-rent state excludes the plan. */
  room_left: number;
}

export const nightKey = (roomClassId: number, planId: number, night: string) => `${roomClassId}-${planId}-${night}`;

/** Every plan's price and rooms left on each night of a stay. */
export async function loadNightly(db: D1Database, hotelId: number, start: string, end: string): Promise<Map<string, NightRow>> {
  const { results } = await db
    .prepare(
      `SELECT pn.room_class_id, pn.rate_plan_id, pn.night, pn.price, pn.member_price,
              CASE WHEN pn.allotment IS NULL THEN NULL ELSE MAX(0, pn.allotment - pn.sold) END AS plan_left,
              CASE WHEN COALESCE(CASE WHEN rp.support_entire_rent = 1 THEN sn.unit_rooms ELSE sn.entire_rooms END, 0) > 0 THEN 0
                   ELSE MAX(0, COALESCE(rn.capacity - rn.booked, 0)) END AS room_left
       FROM plan_nights pn
       JOIN rate_plans rp ON rp.id = pn.rate_plan_id
       LEFT JOIN room_nights rn ON rn.room_class_id = pn.room_class_id AND rn.night = pn.night
       LEFT JOIN site_nights sn ON sn.hotel_id = rp.hotel_id AND sn.night = pn.night
       WHERE rp.hotel_id = ?1 AND pn.night >= ?2 AND pn.night < ?3`,
    )
    .bind(hotelId, start, end)
    .all<NightRow & { room_class_id: number; rate_plan_id: number; night: string }>();
  return new Map(results.map((row) => [nightKey(row.room_class_id, row.rate_plan_id, row.night), row]));
}

/**
 * Spec §5's line check night by night: on each night, the lines asking for rooms that night share
 * what is left of their room class (and plan). A line fails with its first failing night.
 */
export function nightlyLineErrors(
  lines: { room: RoomClassRow; plan: RatePlanRow }[],
  amounts: NightAmount[][],
  nightly: Map<string, NightRow>,
  loggedIn: boolean,
): (OrderLineError | null)[] {
  const errors: (OrderLineError | null)[] = lines.map(() => null);
  const dates = [...new Set(amounts.flat().map((entry) => entry.date))].sort();
  for (const date of dates) {
    const tonight = lines.flatMap((line, index) => {
      const amount = amounts[index]?.find((entry) => entry.date === date)?.amount;
      if (amount === undefined) return [];
      const night = nightly.get(nightKey(line.room.id, line.plan.id, date));
      return [
        {
          index,
          roomClassId: line.room.id,
          planId: line.plan.id,
          roomRemaining: night?.room_left ?? 0,
          planRemaining: night ? night.plan_left : 0,
          num: amount,
          allow_member_price: line.plan.allow_member_price === 1,
        },
      ];
    });
    validateOrderLines(tonight, loggedIn).forEach((error, position) => {
      const index = tonight[position]?.index ?? -1;
      if (error && errors[index] === null) errors[index] = error;
    });
  }
  // A member mixing member-price plans with others fails whatever the nights (spec §5).
  if (loggedIn && lines.some((line) => line.plan.allow_member_price === 1) && lines.some((line) => line.plan.allow_member_price !== 1)) {
    return errors.map((error) => error ?? "member_price_mixed");
  }
  return errors;
}
