/** Ordering and filtering of search results (spec §5). */
import { effectivePrice } from "./pricing";

export interface SortablePlan {
  proposal_id: number;
  price: number;
  member_price: number | null;
  allow_member_price: boolean;
}

/** Plans by ascending effective price, ties by proposal id. */
export function sortPlans<T extends SortablePlan>(plans: readonly T[], loggedIn: boolean): T[] {
  return [...plans].sort(
    (a, b) => effectivePrice(a, loggedIn) - effectivePrice(b, loggedIn) || a.proposal_id - b.proposal_id,
  );
}

export interface SortableRoom<TPlan extends SortablePlan = SortablePlan> {
  people: number;
  children: number;
  price_set: TPlan[];
}

export interface Party {
  adults: number;
  children: number;
  rooms: number;
}

/**
 * Whether a room suits the party (spec §5): adult capacity at least adults divided by rooms, the
 * first plan's inventory at least the rooms asked, child capacity at least children, and at least
 * one plan. The room's plans are expected in their sorted order.
 */
export function roomFitsParty(room: SortableRoom<SortablePlan & { inventory: number }>, party: Party): boolean {
  const first = room.price_set[0];
  if (!first) return false;
  return room.people >= party.adults / party.rooms && first.inventory >= party.rooms && room.children >= party.children;
}

/** Fitting rooms first, then the rest; each group by ascending price of its first plan (plans sorted first). */
export function sortRoomsBySuitability<TPlan extends SortablePlan & { inventory: number }, TRoom extends SortableRoom<TPlan>>(
  rooms: readonly TRoom[],
  party: Party,
  loggedIn: boolean,
): TRoom[] {
  const withSortedPlans = rooms.map((room) => ({ ...room, price_set: sortPlans(room.price_set, loggedIn) }));
  const firstPrice = (room: TRoom) => {
    const first = room.price_set[0];
    return first ? effectivePrice(first, loggedIn) : Number.POSITIVE_INFINITY;
  };
  const byPrice = (a: TRoom, b: TRoom) => firstPrice(a) - firstPrice(b);
  const fitting = withSortedPlans.filter((room) => roomFitsParty(room, party)).sort(byPrice);
  const rest = withSortedPlans.filter((room) => !roomFitsParty(room, party)).sort(byPrice);
  return [...fitting, ...rest];
}
