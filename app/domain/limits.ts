/** Limits of a booking (spec §9 and ours), free of imports so that pages can use them cheaply. */

/** Default booking (spec §9): 1 night, 1 room, 2 adults, 0 children; start today. */
export const DEFAULT_BOOKING = { duration: 1, room: 1, adults: 2, children: 0 } as const;

/**
 * The party a booking link from a room class's own page asks for (spec §9: "Adult and child counts
 * are computed as room count times room capacity"). A capacity of 0 adults, which is bad data, falls
 * back to the default party.
 */
export function partyForRoom(capacity: { people: number; children: number }, rooms: number = DEFAULT_BOOKING.room) {
  if (!(capacity.people > 0)) return { room: rooms, adults: DEFAULT_BOOKING.adults, children: DEFAULT_BOOKING.children };
  return { room: rooms, adults: rooms * capacity.people, children: rooms * Math.max(0, capacity.children) };
}
/** Longest stay one booking may cover. */
export const MAX_STAY_NIGHTS = 30;
/** How far ahead stays are sold: the inventory window. */
export const SELLABLE_MONTHS = 18;
/** Most rooms in one order. */
export const MAX_ROOMS_PER_ORDER = 30;
/** Most guests of each kind in one search. */
export const MAX_GUESTS = 100;
