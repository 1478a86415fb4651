import { describe, expect, it } from "vitest";
import { orderFreeCancelDate, orderMoneyLines, orderState, type OrderMoney } from "~/domain/order-view";

// Odd amounts on purpose: 6,301 rooms, 10 % off rounded down (630), 333 points, a 30 % deposit rounded up.
const base: OrderMoney = {
  status: "pending_payment",
  payment_status: -1,
  pay_way: "remittance",
  pay_option: "part",
  sum: 6301,
  couponDiscount: 630,
  used_coupon: "WELCOME10",
  usedPoint: 333,
  final_amount: 5338,
  deposit_amount: 1602,
  pay_amount: 1602,
  paid_amount: 0,
  free_cancel_before_date: "2030-01-01",
};

const summed = (order: OrderMoney) => {
  const lines = orderMoneyLines(order);
  const at = lines.findIndex((line) => line.sign === "=");
  const total = lines[at]?.amount;
  const before = lines.slice(0, at).reduce((sum, line) => sum + (line.sign === "-" ? -line.amount : line.amount), 0);
  const after = lines.slice(at + 1);
  return {
    labels: lines.map((line) => `${line.label} ${line.amount}`),
    total,
    before,
    after: after.length ? after.reduce((sum, line) => sum + (line.sign === "-" ? -line.amount : line.amount), 0) : null,
  };
};

describe("what an order's page shows", () => {
  it.each([
    [
      "unpaid, paying a deposit",
      base,
      "unpaid",
      ["rooms 6301", "coupon 630", "points 333", "total 5338", "due_now 1602", "balance_later 3736"],
    ],
    [
      "unpaid, paying in full",
      { ...base, pay_option: "all", pay_amount: 5338, deposit_amount: 0 },
      "unpaid",
      ["rooms 6301", "coupon 630", "points 333", "total 5338", "due_now 5338"],
    ],
    [
      "unpaid, at the hotel, members-only code",
      { ...base, pay_way: "pay_arrival", pay_option: "all", pay_amount: 5338, used_coupon: "Memberpromotion" },
      "unpaid",
      ["rooms 6301", "member_discount 630", "points 333", "total 5338", "due_at_hotel 5338"],
    ],
    [
      "paid in part",
      { ...base, payment_status: 1, paid_amount: 1602 },
      "paid_in_part",
      ["rooms 6301", "coupon 630", "points 333", "total 5338", "paid 1602", "remaining 3736"],
    ],
    [
      "paid in full",
      { ...base, payment_status: 2, paid_amount: 5338 },
      "paid",
      ["rooms 6301", "coupon 630", "points 333", "total 5338", "paid 5338"],
    ],
    [
      "with add-ons, which take no discount",
      { ...base, pay_option: "all", final_amount: 5338 + 3200, pay_amount: 5338 + 3200, deposit_amount: 0 },
      "unpaid",
      ["rooms 6301", "addons 3200", "coupon 630", "points 333", "total 8538", "due_now 8538"],
    ],
    ["cancelled, nothing paid", { ...base, status: "cancelled" }, "cancelled", ["rooms 6301", "coupon 630", "points 333", "total 5338"]],
    [
      "cancelled after a deposit",
      { ...base, status: "cancelled", payment_status: 1, paid_amount: 1602 },
      "cancelled",
      ["rooms 6301", "coupon 630", "points 333", "total 5338", "paid 1602"],
    ],
  ] as const)("%s", (_, order, state, labels) => {
    expect(orderState(order)).toBe(state);
    const { labels: shown, total, before, after } = summed(order);
    expect(shown).toEqual(labels);
    expect(before).toBe(total);
    if (state !== "cancelled") expect(after).toBe(total);
  });

  it("paid in full, then a rail ticket refunded on its own (decisions 137, 140): the refund a line of its own, then where the money went", () => {
    // Two tickets of 3,725; one refunded on its own, the operator keeping 60: the total keeps the fee.
    const order: OrderMoney = {
      ...base,
      payment_status: 2,
      attachment_amount: 0,
      rail_amount: 3725,
      rail_item_list: [
        { status: "booked", amount: 3725 },
        { status: "refunded", amount: 3725, refund_fee: 60, refund_amount: 3665 },
      ],
      final_amount: 5338 + 3725 + 60,
      paid_amount: 5338 + 2 * 3725,
    };
    const { labels, total, before } = summed(order);
    expect(labels).toEqual([
      "rooms 6301",
      "rail 7450",
      "rail_refund 3665",
      "coupon 630",
      "points 333",
      "total 9123",
      "charged 12788",
      "to_be_refunded 3665",
      "kept_hotel 9063",
      "kept_rail_fee 60",
    ]);
    expect(before).toBe(total);
    // Charged − to be refunded = what the hotel and the rail operator keep.
    expect(12788 - 3665).toBe(9063 + 60);
  });

  it("promises free cancellation only while the order can still be cancelled", () => {
    expect(orderFreeCancelDate(base)).toBe("2030-01-01");
    expect(orderFreeCancelDate({ ...base, status: "cancelled" })).toBeNull();
    expect(orderFreeCancelDate({ ...base, status: "cancel_requested" })).toBeNull();
  });
});
