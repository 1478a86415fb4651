import { describe, expect, it } from "vitest";
import { cartFlags, cartTotals, MAX_CART_LINES, setCartLine, type CartLine } from "~/domain/cart";
import { cartLineErrors } from "~/domain/order-lines";
import enCommon from "../../locales/en-US/common.json";

const line = (room_class_id: number, proposal_id: number, num = 1): CartLine => ({ room_class_id, proposal_id, num });
/** Plan 9 is the whole-property plan of these tests. */
const entireRent = (candidate: CartLine) => candidate.proposal_id === 9;

describe("cart lines (spec §4)", () => {
  it("adds a line, replaces the count of the same room and plan, and removes it at 0", () => {
    const one = setCartLine([], line(1, 10, 2), entireRent);
    expect(one).toEqual({ ok: true, lines: [line(1, 10, 2)] });
    const two = setCartLine(one.ok ? one.lines : [], line(2, 20), entireRent);
    const replaced = setCartLine(two.ok ? two.lines : [], line(1, 10, 3), entireRent);
    expect(replaced).toEqual({ ok: true, lines: [line(1, 10, 3), line(2, 20)] });
    expect(setCartLine(replaced.ok ? replaced.lines : [], line(1, 10, 0), entireRent)).toEqual({ ok: true, lines: [line(2, 20)] });
  });

  it("disables entire-rent plans once the cart has a line, and normal plans once it has an entire-rent line", () => {
    expect(cartFlags([], entireRent)).toEqual({ disableEntireRent: false, disableNormalPlans: false });
    expect(cartFlags([line(1, 10)], entireRent)).toEqual({ disableEntireRent: true, disableNormalPlans: false });
    expect(cartFlags([line(5, 9)], entireRent)).toEqual({ disableEntireRent: true, disableNormalPlans: true });
    expect(setCartLine([line(1, 10)], line(5, 9), entireRent)).toEqual({ ok: false, error: "cart.error.entire_rent_alone" });
    expect(setCartLine([line(5, 9)], line(1, 10), entireRent)).toEqual({ ok: false, error: "cart.error.normal_with_entire_rent" });
    // Changing the count of the entire-rent line itself is allowed.
    expect(setCartLine([line(5, 9)], line(5, 9, 1), entireRent).ok).toBe(true);
  });

  it("holds at most MAX_CART_LINES different plans", () => {
    const full = Array.from({ length: MAX_CART_LINES }, (_, index) => line(1, 100 + index));
    expect(setCartLine(full, line(1, 999), entireRent)).toEqual({ ok: false, error: "cart.error.too_many_lines" });
    expect(setCartLine(full, line(1, 100, 2), entireRent).ok).toBe(true);
  });

  it("recalculates the rooms and the price from the server's unit prices", () => {
    const prices: Record<number, number | null> = { 10: 3000, 20: 4500, 30: null };
    expect(cartTotals([line(1, 10, 2), line(2, 20), line(3, 30)], (candidate) => prices[candidate.proposal_id] ?? null)).toEqual({
      rooms: 4,
      price: 2 * 3000 + 4500,
    });
  });
});

describe("cart line messages (spec §5)", () => {
  const plan = (proposal_id: number, inventory: number, allow_member_price = false) => ({ proposal_id, inventory, allow_member_price });
  const rooms = [
    { room_class_id: 1, inventory: 3, price_set: [plan(10, 3), plan(11, 2, true)] },
    { room_class_id: 2, inventory: 0, price_set: [plan(20, 0)] },
    { room_class_id: 3, inventory: 4, price_set: [plan(30, 4)] },
  ];
  const message = (key: string | null) => (key ? (enCommon as Record<string, string>)[`cart.error.${key}`] : null);

  it("are the spec's words", () => {
    expect(message("room_sold_out")).toBe("This room type is sold out");
    expect(message("not_enough_rooms")).toBe("Not enough rooms");
    expect(message("plan_sold_out")).toBe("Plan sold out");
    expect(message("member_price_mixed")).toBe(
      "There are plans in the order that cannot be used at the member price, please order separately.",
    );
  });

  it("name a sold-out room type, and a plan the search no longer offers", () => {
    expect(cartLineErrors(rooms, [line(2, 20)], false).map(message)).toEqual(["This room type is sold out"]);
    expect(cartLineErrors(rooms, [line(3, 31)], false).map(message)).toEqual(["Plan sold out"]);
  });

  it("sum the lines of one room type against the rooms it has left", () => {
    expect(cartLineErrors(rooms, [line(1, 10, 2), line(1, 11, 1)], false)).toEqual([null, null]);
    expect(cartLineErrors(rooms, [line(1, 10, 2), line(1, 11, 2)], false).map(message)).toEqual(["Not enough rooms", "Not enough rooms"]);
    expect(cartLineErrors(rooms, [line(1, 10, 2), line(3, 30, 4)], false)).toEqual([null, null]);
  });

  it("tell a signed-in member not to mix member-price plans with others, and no one else", () => {
    const mixed = [line(1, 11), line(3, 30)];
    expect(cartLineErrors(rooms, mixed, false)).toEqual([null, null]);
    expect(new Set(cartLineErrors(rooms, mixed, true).map(message))).toEqual(
      new Set(["There are plans in the order that cannot be used at the member price, please order separately."]),
    );
  });
});
