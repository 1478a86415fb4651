/**
 * The "from" price of a room class: the one rule behind every "From NT$…" a guest reads (home
 * room cards, the room page) and the offer in the room's structured data
 * (docs/decisions/020-from-prices-and-wording.md).
 */
import { addDays } from "./dates";

/** Nights, starting tonight, over which a "from" price looks for the cheapest bookable night. */
export const FROM_PRICE_WINDOW_NIGHTS = 30;

/** One night of a room's price calendar: the lowest guest price of a plan bookable for that night. */
export interface NightPrice {
  date: string;
  price: number | null;
  available: boolean;
}

/** The first night after the window (exclusive end of the calendar request). */
export function fromPriceWindowEnd(today: string): string {
  return addDays(today, FROM_PRICE_WINDOW_NIGHTS);
}

/**
 * The lowest guest (non-member) price for a one-night stay, on any night from tonight through the
 * window, among nights that can still be booked; null when none can (then no "from" price is shown).
 */
export function fromPrice(nights: readonly NightPrice[], today: string): number | null {
  const end = fromPriceWindowEnd(today);
  let lowest: number | null = null;
  for (const night of nights) {
    if (!night.available || night.price === null || night.price <= 0) continue;
    if (night.date < today || night.date >= end) continue;
    if (lowest === null || night.price < lowest) lowest = night.price;
  }
  return lowest;
}
