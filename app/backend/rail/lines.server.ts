/** An order's stored rail lines (decision 120): read, their passengers, and what refunding one now would keep and give back (decision 140). */
import { DEFAULT_REFUND_FEE, departureInstant, railRefund, type Passengers } from "~/domain/rail";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import type { RailLeg } from "./timetable.server";

export interface RailRow extends RailLeg {
  id: number;
  order_id: number;
  adult: number;
  child: number;
  senior: number;
  disabled: number;
  seats: number;
  fares: string;
  amount: number;
  status: "reserved" | "booked" | "refunded" | "released";
  pnr: string | null;
  booking_number: string | null;
  refund_fee: number;
  refund_amount: number;
}

/** The rail lines of orders, outbound first. */
export async function loadRail(db: D1Database, orderIds: readonly number[]): Promise<Map<number, RailRow[]>> {
  const out = new Map<number, RailRow[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return out;
  const { results } = await db
    .prepare(
      `SELECT * FROM rail_reservations WHERE order_id IN (SELECT value FROM json_each(?1))
       ORDER BY order_id, CASE direction WHEN 'outbound' THEN 0 ELSE 1 END, id`,
    )
    .bind(JSON.stringify(orderIds))
    .all<RailRow>();
  for (const row of results) out.get(row.order_id)?.push(row);
  return out;
}

export const passengersOf = (row: Pick<RailRow, "adult" | "child" | "senior" | "disabled">): Passengers => ({
  adult: row.adult,
  child: row.child,
  senior: row.senior,
  disabled: row.disabled,
});

/** What THSR's rule keeps of a booked line refunded before departure: the hotel's fee per ticket (decision 120). */
export function bookedLineRefund(hotel: Pick<HotelRow, "thsr_refund_fee">, row: Pick<RailRow, "amount" | "seats">) {
  return railRefund(row.amount, row.seats, hotel.thsr_refund_fee ?? DEFAULT_REFUND_FEE);
}

/** The order facts the refund calls check, as the order row has them. */
export interface RailOrderState {
  status: string;
  paid_amount: number;
  payment_status: number;
}

/**
 * What refunding a line now would keep and give back, by the rules `POST /api/rail/refund` and
 * `/refund_reserved` apply (decision 140): a booked line before its train leaves, its fare less the
 * fee per ticket; a reserved line of an order whose amounts may still change (unpaid, nothing paid),
 * nothing kept and nothing to give back (its fare leaves the amount to pay); otherwise null, the
 * calls refuse it. A payment under way is the call's to see.
 */
export function lineRefundQuote(
  hotel: Pick<HotelRow, "thsr_refund_fee">,
  order: RailOrderState,
  row: RailRow,
  now: Date,
): { fee: number; refund_amount: number } | null {
  if (order.status === "cancelled") return null;
  if (row.status === "booked") {
    if (departureInstant(row.day, row.departure_time).getTime() <= now.getTime()) return null;
    const { fee, refund } = bookedLineRefund(hotel, row);
    return { fee, refund_amount: refund };
  }
  if (row.status === "reserved" && order.status === "pending_payment" && order.paid_amount === 0 && order.payment_status === -1) {
    return { fee: 0, refund_amount: 0 };
  }
  return null;
}

/** Lines that hold seats and count in the order's amounts. */
export const isHeld = (row: Pick<RailRow, "status">) => row.status === "reserved" || row.status === "booked";
