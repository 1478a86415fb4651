/**
 * The site's high-speed rail tickets (issue 27; docs/api.md "Rail"): the lines the guest chose are
 * kept in the stay's cart (domain/cart.ts) and sent, as chosen, with every price check and the order.
 */
import type { Cart, CartRailLine } from "~/domain/cart";
import type { RailDirection, RailItemInput } from "~/contract/rail";

/** The ticket lines of a cart as the back end takes them (the times are only for showing). */
export function railItemsOf(cart: Pick<Cart, "rail">): RailItemInput[] {
  return (cart.rail ?? []).map(({ direction, date, train_no, origin, destination, passengers, amount }) => ({
    direction,
    date,
    train_no,
    origin,
    destination,
    passengers,
    amount,
  }));
}

/** The cart's lines with `line` in its direction (one line each way), outbound first. */
export function withRailLine(lines: readonly CartRailLine[], line: CartRailLine): CartRailLine[] {
  return [...lines.filter((other) => other.direction !== line.direction), line].sort((a, b) =>
    a.direction === b.direction ? 0 : a.direction === "outbound" ? -1 : 1,
  );
}

export function withoutRailLine(lines: readonly CartRailLine[], direction: RailDirection): CartRailLine[] {
  return lines.filter((line) => line.direction !== direction);
}

/** How many travel on a line. */
export function railTravellers(passengers: CartRailLine["passengers"]): number {
  return passengers.adult + passengers.child + passengers.senior + passengers.disabled;
}
