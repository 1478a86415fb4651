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
  return [...plans].sort((a, b) => effectivePrice(a, loggedIn) - effectivePrice(b, loggedIn) || a.proposal_id - b.proposal_id);
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

/**
 * Why no room shown can take the party, or null when one can (or nothing is shown at all): "rooms"
 * when a room is big enough but none has that many rooms left, "capacity" when no room is big
 * enough for the party spread over the rooms asked. The results still show what exists.
 */
export function partyShortfall(
  rooms: readonly SortableRoom<SortablePlan & { inventory: number }>[],
  party: Party,
): "rooms" | "capacity" | null {
  const offered = rooms.filter((room) => room.price_set.length > 0);
  if (offered.length === 0 || offered.some((room) => roomFitsParty(room, party))) return null;
  const bigEnough = offered.some((room) => room.people >= party.adults / party.rooms && room.children >= party.children);
  return bigEnough ? "rooms" : "capacity";
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

export interface FilterablePlan extends SortablePlan {
  inventory: number;
  contain_meals: boolean;
}

export interface FilterableRoom<TPlan extends FilterablePlan> extends SortableRoom<TPlan> {
  room_class_id: number;
  facilities_for_search: string[];
}

/**
 * Filters (spec §5): by plan set ids; by room ids; by facilities (a room matches if any selected
 * facility is in its list); meals keeps breakfast-included plans only. The complementary list holds
 * the non-breakfast plans with stock, so a guest filtering on meals still sees what else is left.
 */
export function filterRooms<TRoom extends FilterableRoom<FilterablePlan>>(
  rooms: readonly TRoom[],
  filters: { plans: number[]; rooms: number[]; facilities: string[]; meals: boolean },
): { rooms: TRoom[]; complementary: { room: TRoom; plan: TRoom["price_set"][number] }[] } {
  type TPlan = TRoom["price_set"][number];
  const complementary: { room: TRoom; plan: TPlan }[] = [];
  const kept = rooms
    .filter((room) => filters.rooms.length === 0 || filters.rooms.includes(room.room_class_id))
    .filter((room) => filters.facilities.length === 0 || filters.facilities.some((key) => room.facilities_for_search.includes(key)))
    .map((room) => {
      let plans: TPlan[] = room.price_set.filter((plan) => filters.plans.length === 0 || filters.plans.includes(plan.proposal_id));
      if (filters.meals) {
        for (const plan of plans) if (!plan.contain_meals && plan.inventory > 0) complementary.push({ room, plan });
        plans = plans.filter((plan) => plan.contain_meals);
      }
      return { ...room, price_set: plans };
    })
    .filter((room) => room.price_set.length > 0 || (filters.plans.length === 0 && !filters.meals));
  return { rooms: kept, complementary };
}

/**
 * The results as the guest asked for them: filtered, then ranked again, so that each room is
 * placed by the first plan it shows, not by a plan the filter took away.
 */
export function filterAndRank<TRoom extends FilterableRoom<FilterablePlan>>(
  rooms: readonly TRoom[],
  filters: { plans: number[]; rooms: number[]; facilities: string[]; meals: boolean },
  party: Party,
  loggedIn: boolean,
) {
  const { rooms: kept, complementary } = filterRooms(rooms, filters);
  return { rooms: sortRoomsBySuitability(kept, party, loggedIn), complementary };
}
