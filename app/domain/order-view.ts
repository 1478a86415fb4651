import { MEMBER_PROMOTION_CODE } from "~/domain/pricing";

/**
 * What an order's pages (confirmation, payment) show: its state and the money lines, which always
 * add up on the page (decision 019). Pure: no Remix, no i18n; the page turns `label` into text.
 */

export interface OrderMoney {
  status: string;
  payment_status: -1 | 1 | 2;
  pay_way: string;
  pay_option: "all" | "part";
  sum: number;
  couponDiscount: number;
  used_coupon: string;
  usedPoint: number;
  final_amount: number;
  deposit_amount: number;
  pay_amount: number;
  paid_amount: number;
  /** The fares of the order's rail tickets still held or booked (issue 27); part of final_amount. */
  rail_amount?: number;
  /** The refund fees kept of tickets refunded one by one (decision 140); part of final_amount. */
  rail_fees_kept?: number;
  free_cancel_before_date: string | null;
}

/** Cancelled (or waiting for the hotel to cancel), unpaid, paid in part, paid in full. */
export type OrderState = "cancelled" | "unpaid" | "paid_in_part" | "paid";

export function orderState(order: Pick<OrderMoney, "status" | "payment_status" | "paid_amount" | "final_amount">): OrderState {
  if (order.status === "cancelled" || order.status === "cancel_requested") return "cancelled";
  if (order.payment_status === 2 || (order.final_amount > 0 && order.paid_amount >= order.final_amount)) return "paid";
  if (order.payment_status === 1 || order.paid_amount > 0) return "paid_in_part";
  return "unpaid";
}

export type MoneyLabel =
  | "rooms"
  | "addons"
  | "rail"
  | "rail_fees"
  | "coupon"
  | "member_discount"
  | "points"
  | "total"
  | "paid"
  | "due_now"
  | "due_at_hotel"
  | "balance_later"
  | "remaining"
  | "to_refund";

/**
 * One line of the money summary. `sign` says how it adds up: "-" lines are taken off the rooms to
 * give the total ("="), and the lines after the total ("part") split it: paid, due now, later. After
 * the total, a "-" line is taken off what was paid: what is to be refunded of it (decision 140).
 */
export interface MoneyLine {
  label: MoneyLabel;
  amount: number;
  sign: "+" | "-" | "=" | "part";
}

export function orderMoneyLines(order: OrderMoney): MoneyLine[] {
  const lines: MoneyLine[] = [{ label: "rooms", amount: order.sum, sign: "+" }];
  // Add-ons (issue 27) are charged beside the rooms and take no discount or points (decision 116):
  // what the total holds beyond the rooms after their discounts.
  // Rail tickets likewise (docs/api.md "Rail"), with their own line.
  // A ticket refunded on its own leaves the fee kept in the total (decision 140), on a line of its own.
  const rail = order.rail_amount ?? 0;
  const railFees = order.rail_fees_kept ?? 0;
  const addons = order.final_amount - (order.sum - order.couponDiscount - order.usedPoint) - rail - railFees;
  if (addons > 0) lines.push({ label: "addons", amount: addons, sign: "+" });
  if (rail > 0) lines.push({ label: "rail", amount: rail, sign: "+" });
  if (railFees > 0) lines.push({ label: "rail_fees", amount: railFees, sign: "+" });
  if (order.couponDiscount > 0) {
    lines.push({
      label: order.used_coupon === MEMBER_PROMOTION_CODE ? "member_discount" : "coupon",
      amount: order.couponDiscount,
      sign: "-",
    });
  }
  if (order.usedPoint > 0) lines.push({ label: "points", amount: order.usedPoint, sign: "-" });
  lines.push({ label: "total", amount: order.final_amount, sign: "=" });

  const state = orderState(order);
  const paid = Math.min(order.paid_amount, order.final_amount);
  if (state === "cancelled") {
    // Nothing is to be paid on a cancelled order; what was paid is still a fact of it.
    if (paid > 0) lines.push({ label: "paid", amount: paid, sign: "part" });
    return lines;
  }
  if (state === "paid") {
    // Paid for more than the total now holds (a ticket refunded since): paid − to be refunded = total.
    if (order.paid_amount > order.final_amount) {
      lines.push({ label: "paid", amount: order.paid_amount, sign: "part" });
      lines.push({ label: "to_refund", amount: order.paid_amount - order.final_amount, sign: "-" });
      return lines;
    }
    lines.push({ label: "paid", amount: order.final_amount, sign: "part" });
    return lines;
  }
  if (state === "paid_in_part") {
    lines.push({ label: "paid", amount: paid, sign: "part" });
    lines.push({ label: "remaining", amount: order.final_amount - paid, sign: "part" });
    return lines;
  }
  // Unpaid: what is due now (the deposit when paying part), and the balance after it.
  const dueNow = Math.min(order.pay_amount, order.final_amount);
  lines.push({ label: order.pay_way === "pay_arrival" ? "due_at_hotel" : "due_now", amount: dueNow, sign: "part" });
  if (order.final_amount - dueNow > 0) lines.push({ label: "balance_later", amount: order.final_amount - dueNow, sign: "part" });
  return lines;
}

/** The free-cancellation date is a promise about an order that can still be cancelled: none once cancelled. */
export function orderFreeCancelDate(
  order: Pick<OrderMoney, "status" | "payment_status" | "paid_amount" | "final_amount" | "free_cancel_before_date">,
): string | null {
  return orderState(order) === "cancelled" ? null : order.free_cancel_before_date;
}
