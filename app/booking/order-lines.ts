/** Per-line order validation (spec §4, §5): any line error fails the whole order. */

export type OrderLineError = "room_sold_out" | "not_enough_rooms" | "plan_sold_out" | "member_price_mixed";

export interface OrderLineCheck {
  /** Rooms of the class left over the whole stay (minimum over its nights). */
  roomRemaining: number;
  /** Rooms the plan may still sell over the stay (minimum over its nights); null when unlimited. */
  planRemaining: number | null;
  /** Rooms asked for by this line. */
  num: number;
  allow_member_price: boolean;
}

/**
 * The error of each line, or null. Lines of the same room class share its rooms, so the count
 * asked for is summed per room class (and per plan) before comparing with what is left.
 */
export function validateOrderLines(
  lines: (OrderLineCheck & { roomClassId: number; planId: number })[],
  loggedIn: boolean,
): (OrderLineError | null)[] {
  const askedPerRoom = new Map<number, number>();
  const askedPerPlan = new Map<string, number>();
  for (const line of lines) {
    askedPerRoom.set(line.roomClassId, (askedPerRoom.get(line.roomClassId) ?? 0) + line.num);
    const key = `${line.roomClassId}-${line.planId}`;
    askedPerPlan.set(key, (askedPerPlan.get(key) ?? 0) + line.num);
  }
  const mixesMemberPrice =
    loggedIn && lines.some((line) => line.allow_member_price) && lines.some((line) => !line.allow_member_price);
  return lines.map((line) => {
    if (line.roomRemaining <= 0) return "room_sold_out";
    if (line.planRemaining !== null && line.planRemaining <= 0) return "plan_sold_out";
    if (line.roomRemaining - (askedPerRoom.get(line.roomClassId) ?? line.num) < 0) return "not_enough_rooms";
    if (line.planRemaining !== null && line.planRemaining - (askedPerPlan.get(`${line.roomClassId}-${line.planId}`) ?? line.num) < 0) {
      return "not_enough_rooms";
    }
    if (mixesMemberPrice) return "member_price_mixed";
    return null;
  });
}
