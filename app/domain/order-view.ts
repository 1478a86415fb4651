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
  /** What the order's add-ons cost (decision 116); absent from back ends that do not say it. */
  attachment_amount?: number;
  /** The fares of the order's rail tickets still held or booked (issue 27); part of final_amount. */
  rail_amount?: number;
  /** The order's rail tickets: a ticket refunded has its fare out of rail_amount, and what came back of it out of final_amount. */
  rail_item_list?: readonly RailMoney[];
  /** A cancelled order's refund as recorded, or, for the cancel page, as cancelling now would record it. */
  cancellation?: CancellationMoney | null;
  free_cancel_before_date: string | null;
}

/** What the money lines need of a rail ticket line (contract/rail.ts RailLine). */
export interface RailMoney {
  status: string;
  amount: number;
  /** When refunded: the rail operator's fee kept of the fare (NT$20 a ticket by default). */
  refund_fee?: number;
  /** When refunded: what comes back of the fare. */
  refund_amount?: number;
}

/**
 * A cancellation's money: `refund` comes back of what was paid, `fee` is kept of it (by the stay's
 * rule, and for the rail tickets it refunds, the operator's fee). `rail_fee`: the part of `fee`
 * that is the rail operator's fee on tickets this cancellation refunds and that are not yet marked
 * refunded (a quote); once recorded those fees are on the ticket lines.
 */
export interface CancellationMoney {
  refund: number;
  fee: number;
  refund_status?: "none" | "due" | "refunded";
  rail_fee?: number;
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
  | "rail_refund"
  | "coupon"
  | "member_discount"
  | "points"
  | "total"
  | "paid"
  | "charged"
  | "refunded"
  | "to_be_refunded"
  | "kept_hotel"
  | "kept_rail_fee"
  | "due_now"
  | "due_at_hotel"
  | "balance_later"
  | "remaining";

/**
 * One line of the money summary. `sign` says how it adds up: "+" lines less the "-" lines give the
 * total ("="); the lines after the total ("part") split it (paid, due now, later) or, once money
 * came back, say where what was charged went: charged = refunded + to be refunded + kept by the
 * hotel + kept by the rail operator.
 */
export interface MoneyLine {
  label: MoneyLabel;
  amount: number;
  sign: "+" | "-" | "=" | "part";
}

/** An order's money: its lines, and the figures they say (issue 37: every amount a guest reads adds up). */
export interface OrderAccount {
  lines: MoneyLine[];
  /** What the booking costs: rooms + add-ons + rail tickets − tickets refunded − discounts − points. */
  total: number;
  /** The fares of every rail ticket sold on the order, refunded ones included. */
  railFares: number;
  /** What came back of the tickets refunded one by one (fare less the operator's fee). */
  railRefunds: number;
  /** What the guest was charged. */
  charged: number;
  /** Given back already. */
  refunded: number;
  /** Owed back, not given yet. */
  toBeRefunded: number;
  /** Of what was charged, what the hotel keeps (for an order not cancelled: what the booking costs it, less the rail operator's fees). */
  keptHotel: number;
  /** Of what was charged, the rail operator's refund fees on the tickets refunded. */
  keptRailFees: number;
}

const sumOf = (amounts: readonly number[]) => amounts.reduce((sum, amount) => sum + amount, 0);

/**
 * The one computation of what an order's money lines say (the order page, the cancel page, the
 * emails and the PDF all print it). A rail ticket refunded on its own (`/api/rail/refund`) leaves
 * the order with its fare out of `rail_amount` and only what came back out of `final_amount`: the
 * operator's fee stays in the total. So the lines list every ticket's fare, then the tickets'
 * refund as a deduction of its own, and the add-ons by their own amount — never a remainder, which
 * would name the operator's fee an add-on.
 */
export function orderAccount(order: OrderMoney): OrderAccount {
  const rail = order.rail_item_list ?? [];
  // Fares sold on the order: those held, booked or refunded (a line released before payment is no
  // longer part of it). An unpaid order cancelled keeps its released tickets' fares in rail_amount.
  const railFares = Math.max(
    order.rail_amount ?? 0,
    sumOf(
      rail
        .filter((line) => line.status === "reserved" || line.status === "booked" || line.status === "refunded")
        .map((line) => line.amount),
    ),
  );
  const discounts = order.couponDiscount + order.usedPoint;
  // What the total holds beyond its named parts: for a back end that does not say its add-ons, the add-ons.
  const named = order.sum + (order.attachment_amount ?? 0) + railFares - discounts;
  const rest = order.final_amount - named;
  const addons = order.attachment_amount === undefined ? Math.max(0, rest) : order.attachment_amount + Math.max(0, rest);
  // Below the named parts: what came back of tickets refunded one by one.
  const railRefunds = Math.max(0, -rest);
  const keptRailFees =
    sumOf(rail.filter((line) => line.status === "refunded").map((line) => line.refund_fee ?? 0)) + (order.cancellation?.rail_fee ?? 0);

  const lines: MoneyLine[] = [{ label: "rooms", amount: order.sum, sign: "+" }];
  if (addons > 0) lines.push({ label: "addons", amount: addons, sign: "+" });
  if (railFares > 0) lines.push({ label: "rail", amount: railFares, sign: "+" });
  if (railRefunds > 0) lines.push({ label: "rail_refund", amount: railRefunds, sign: "-" });
  if (order.couponDiscount > 0) {
    lines.push({
      label: order.used_coupon === MEMBER_PROMOTION_CODE ? "member_discount" : "coupon",
      amount: order.couponDiscount,
      sign: "-",
    });
  }
  if (order.usedPoint > 0) lines.push({ label: "points", amount: order.usedPoint, sign: "-" });
  const total = order.final_amount;
  lines.push({ label: "total", amount: total, sign: "=" });

  const account = (charged: number, refunded: number, toBeRefunded: number): OrderAccount => {
    const keptHotel = charged - refunded - toBeRefunded - keptRailFees;
    lines.push({ label: "charged", amount: charged, sign: "part" });
    if (refunded > 0) lines.push({ label: "refunded", amount: refunded, sign: "part" });
    if (toBeRefunded > 0) lines.push({ label: "to_be_refunded", amount: toBeRefunded, sign: "part" });
    lines.push({ label: "kept_hotel", amount: keptHotel, sign: "part" });
    if (keptRailFees > 0) lines.push({ label: "kept_rail_fee", amount: keptRailFees, sign: "part" });
    return { lines, total, railFares, railRefunds, charged, refunded, toBeRefunded, keptHotel, keptRailFees };
  };
  const plain = (charged: number): OrderAccount => ({
    lines,
    total,
    railFares,
    railRefunds,
    charged,
    refunded: 0,
    toBeRefunded: 0,
    keptHotel: charged - keptRailFees,
    keptRailFees,
  });

  const cancellation = order.cancellation;
  // A cancellation is recorded for a cancelled order only.
  const state = cancellation ? "cancelled" : orderState(order);
  if (state === "cancelled") {
    // What was charged: a back end that zeroes what was paid on cancelling still records what it was in the refund and the fee.
    const charged = cancellation ? Math.max(order.paid_amount, cancellation.refund + cancellation.fee + railRefunds) : 0;
    if (cancellation && charged > 0) {
      // What the cancellation gives back, and the tickets refunded before it (owed back on their lines).
      const done = cancellation.refund_status === "refunded" ? cancellation.refund : 0;
      return account(charged, done, cancellation.refund - done + railRefunds);
    }
    // Nothing is to be paid on a cancelled order; what was paid is still a fact of it.
    const paid = Math.min(order.paid_amount, order.final_amount);
    if (paid > 0) lines.push({ label: "paid", amount: paid, sign: "part" });
    return plain(paid);
  }
  if (state === "paid") {
    // Tickets refunded from an order paid in full: what came back of them is owed to the guest.
    if (railRefunds > 0 || keptRailFees > 0) {
      return account(order.paid_amount, 0, Math.min(railRefunds, Math.max(0, order.paid_amount - total)));
    }
    lines.push({ label: "paid", amount: total, sign: "part" });
    return plain(total);
  }
  if (state === "paid_in_part") {
    // A ticket refunded before the rest is paid takes what came back of it off the rest (the total is lower).
    const paid = Math.min(order.paid_amount, total);
    lines.push({ label: "paid", amount: paid, sign: "part" });
    lines.push({ label: "remaining", amount: total - paid, sign: "part" });
    return plain(paid);
  }
  // Unpaid: what is due now (the deposit when paying part), and the balance after it.
  const dueNow = Math.min(order.pay_amount, total);
  lines.push({ label: order.pay_way === "pay_arrival" ? "due_at_hotel" : "due_now", amount: dueNow, sign: "part" });
  if (total - dueNow > 0) lines.push({ label: "balance_later", amount: total - dueNow, sign: "part" });
  return plain(0);
}

export function orderMoneyLines(order: OrderMoney): MoneyLine[] {
  return orderAccount(order).lines;
}

/**
 * The account of an order as cancelling it now would leave it (the cancel page): the refund quote
 * recorded as the cancellation, and the rail operator's fees on the tickets it would refund.
 */
export function accountIfCancelled(order: OrderMoney, quote: { refund: number; fee: number; rail_fee?: number }): OrderAccount {
  return orderAccount({
    ...order,
    status: "cancelled",
    cancellation: { refund: quote.refund, fee: quote.fee, refund_status: "due", rail_fee: quote.rail_fee ?? 0 },
  });
}

/** The free-cancellation date is a promise about an order that can still be cancelled: none once cancelled. */
export function orderFreeCancelDate(
  order: Pick<OrderMoney, "status" | "payment_status" | "paid_amount" | "final_amount" | "free_cancel_before_date">,
): string | null {
  return orderState(order) === "cancelled" ? null : order.free_cancel_before_date;
}
