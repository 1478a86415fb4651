/** Per-line order validation (spec §4, §5): any line error fails the whole order. */
import type { CartLine } from "~/domain/cart";

/**
 * What the cart check needs of a search result (a row of the contract's search answer, SearchRow,
 * has this shape): the rules declare it here rather than take it from the contract (decision 141).
 */
interface RoomLeft {
  room_class_id: number;
  inventory: number;
  price_set: readonly { proposal_id: number; inventory: number; allow_member_price: boolean }[];
}

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
  const mixesMemberPrice = loggedIn && lines.some((line) => line.allow_member_price) && lines.some((line) => !line.allow_member_price);
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

/**
 * Spec §5's per-line check over the whole cart, against what the search says is left: lines of
 * one room class share its rooms, a plan the search no longer offers is sold out, and a member may
 * not mix member-price plans with others. The same rule the back end applies to the order.
 */
export function cartLineErrors(rooms: readonly RoomLeft[], lines: readonly CartLine[], signedIn: boolean): (OrderLineError | null)[] {
  return validateOrderLines(
    lines.map((line) => {
      const room = rooms.find((candidate) => candidate.room_class_id === line.room_class_id);
      const plan = room?.price_set.find((candidate) => candidate.proposal_id === line.proposal_id);
      return {
        roomClassId: line.room_class_id,
        planId: line.proposal_id,
        roomRemaining: room?.inventory ?? 0,
        planRemaining: plan?.inventory ?? 0,
        num: line.num,
        allow_member_price: plan?.allow_member_price ?? false,
      };
    }),
    signedIn,
  );
}
