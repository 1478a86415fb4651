/** The cart (spec §4): lines of room, plan and count for one hotel and one stay. */

export interface CartLine {
  room_class_id: number;
  proposal_id: number;
  num: number;
}

/**
 * A high-speed rail ticket line the guest chose (docs/api.md "Rail", a ticket line): sent to the back
 * end as chosen, with the amount the guest was shown; the times are kept only to show the choice.
 */
export interface CartRailLine {
  direction: "outbound" | "return";
  date: string;
  train_no: string;
  origin: string;
  destination: string;
  passengers: { adult: number; child: number; senior: number; disabled: number };
  amount: number;
  departure_time: string;
  arrival_time: string;
}

export interface Cart {
  domain: string;
  start: string;
  end: string;
  lines: CartLine[];
  /** Rail tickets to and from the hotel: at most one line each way (issue 27). */
  rail?: CartRailLine[];
  /** Idempotency key of the order this cart becomes; a new one whenever the cart changes. */
  checkoutKey: string;
}

/** Most lines one cart holds. */
export const MAX_CART_LINES = 10;

/**
 * Spec §4: entire-rent plans are disabled as soon as the cart has any line; normal plans are
 * disabled when a line's plan supports entire rent.
 */
export function cartFlags(lines: readonly CartLine[], supportsEntireRent: (line: CartLine) => boolean) {
  return {
    disableEntireRent: lines.length > 0,
    disableNormalPlans: lines.some(supportsEntireRent),
  };
}

export type CartChangeError = "cart.error.entire_rent_alone" | "cart.error.normal_with_entire_rent" | "cart.error.too_many_lines";

/** Sets a line's count (0 removes it); adding the same room and plan again replaces its count. */
export function setCartLine(
  lines: readonly CartLine[],
  line: CartLine,
  supportsEntireRent: (line: CartLine) => boolean,
): { ok: true; lines: CartLine[] } | { ok: false; error: CartChangeError } {
  const same = (other: CartLine) => other.room_class_id === line.room_class_id && other.proposal_id === line.proposal_id;
  const others = lines.filter((other) => !same(other));
  if (line.num === 0) return { ok: true, lines: others };
  const flags = cartFlags(others, supportsEntireRent);
  if (supportsEntireRent(line) && flags.disableEntireRent) return { ok: false, error: "cart.error.entire_rent_alone" };
  if (!supportsEntireRent(line) && flags.disableNormalPlans) return { ok: false, error: "cart.error.normal_with_entire_rent" };
  const index = lines.findIndex(same);
  const next = index === -1 ? [...lines, line] : lines.map((other) => (same(other) ? line : other));
  if (next.length > MAX_CART_LINES) return { ok: false, error: "cart.error.too_many_lines" };
  return { ok: true, lines: next };
}

/** Totals of the cart: rooms and price, recomputed from the server's prices on every change. */
export function cartTotals(lines: readonly CartLine[], unitPrice: (line: CartLine) => number | null) {
  return lines.reduce(
    (totals, line) => {
      const price = unitPrice(line);
      return { rooms: totals.rooms + line.num, price: totals.price + (price ?? 0) * line.num };
    },
    { rooms: 0, price: 0 },
  );
}
