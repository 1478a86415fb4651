/**
 * Add-on items booked with the room (spec §1, issue 27): how an item counts, what a choice of it
 * costs for a stay and party, and which days a limited item's inventory is held on. Pure: the
 * caller supplies the item as the database has it; nothing here trusts a price from the browser.
 */
import { stayNights } from "~/domain/dates";

/**
 * How an item counts (decision 115):
 * - stay: each one once for the stay (an airport pickup);
 * - night: each one for every night (a parking space);
 * - person: each person once (a lake tour), adults at `price`, children at `child_price`;
 * - person_night: each person for every night (breakfast).
 */
export const ADDON_UNITS = ["stay", "night", "person", "person_night"] as const;
export type AddonUnit = (typeof ADDON_UNITS)[number];

export interface AddonPrice {
  unit: AddonUnit;
  /** TWD for one (or one adult). */
  price: number;
  /** TWD for one child, per-person units only; null: children pay the adult price. */
  child_price: number | null;
}

/** How many the guest chose: for per-person units `quantity` is adults and `child_quantity` children; otherwise `child_quantity` is 0. */
export interface AddonChoice {
  quantity: number;
  child_quantity: number;
}

export const isPerPerson = (unit: AddonUnit): boolean => unit === "person" || unit === "person_night";
export const isPerNight = (unit: AddonUnit): boolean => unit === "night" || unit === "person_night";

/** The price of one child: the item's child price where it has one, else the adult price. */
export function childPrice(item: AddonPrice): number {
  return item.child_price ?? item.price;
}

/** What a choice costs for a stay of `nights` nights (whole TWD). */
export function addonAmount(item: AddonPrice, choice: AddonChoice, nights: number): number {
  const times = isPerNight(item.unit) ? nights : 1;
  const once = isPerPerson(item.unit)
    ? choice.quantity * item.price + choice.child_quantity * childPrice(item)
    : choice.quantity * item.price;
  return once * times;
}

/** How many of the item a choice takes from its inventory (and counts against its maximum per booking): one per person or per piece. */
export function addonUnitsTaken(choice: AddonChoice): number {
  return choice.quantity + choice.child_quantity;
}

/**
 * The days a limited item's inventory is held on (decision 115): every night of the stay for
 * items counted per night, the check-in day for items counted once.
 */
export function addonHeldDays(unit: AddonUnit, checkIn: string, checkOut: string): string[] {
  return isPerNight(unit) ? stayNights(checkIn, checkOut) : [checkIn];
}

export type AddonProblem = "addon_children_not_counted" | "addon_quantity_required" | "addon_over_maximum" | "addon_over_party";

/**
 * Why a set of choices of one item cannot be booked, or null. `party` is the order's adults and
 * children when known: per-person choices count at most that many of each.
 */
export function addonChoicesProblem(
  item: AddonPrice & { max_per_booking: number },
  choices: AddonChoice[],
  party: { adults: number; children: number } | null,
): AddonProblem | null {
  if (choices.some((choice) => !isPerPerson(item.unit) && choice.child_quantity > 0)) return "addon_children_not_counted";
  if (choices.some((choice) => addonUnitsTaken(choice) < 1)) return "addon_quantity_required";
  const total = choices.reduce((sum, choice) => sum + addonUnitsTaken(choice), 0);
  if (total > item.max_per_booking) return "addon_over_maximum";
  if (party && isPerPerson(item.unit)) {
    const adults = choices.reduce((sum, choice) => sum + choice.quantity, 0);
    const children = choices.reduce((sum, choice) => sum + choice.child_quantity, 0);
    if (adults > party.adults || children > party.children) return "addon_over_party";
  }
  return null;
}
