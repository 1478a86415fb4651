/**
 * Reinstating a booking the expiry sweep cancelled, because its money had arrived in time (a bank
 * transfer recorded late; decision 151). The statements go into the batch that records the money,
 * whatever the booking looked like when it was read: for a booking that is not (or no longer)
 * cancelled by the sweep they change nothing. They take back exactly what the cancellation released
 * (the nights and add-on days kept by migration 0017's triggers, the rail lines it released), so the
 * inventory's own CHECKs and triggers refuse when another guest took any of it meanwhile, and the
 * whole batch with them.
 */
const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/**
 * The order was cancelled by the sweep, with nothing paid. Points it used went back to the member
 * with the cancellation; reinstating spends them again (members_points_not_negative refuses the
 * whole batch when the member has spent them meanwhile).
 */
const sweptSql = (orderId: number) =>
  `EXISTS (SELECT 1 FROM orders WHERE id = ${orderId} AND status = 'cancelled' AND paid_amount = 0)
   AND EXISTS (SELECT 1 FROM cancellations WHERE order_id = ${orderId} AND reason = 'payment_expired')`;

/** After `beforePayment`: this batch is reinstating the order (it is live again, its sweep's record not yet removed). */
const reinstatingSql = (orderId: number) =>
  `(SELECT status FROM orders WHERE id = ${orderId}) != 'cancelled'
   AND EXISTS (SELECT 1 FROM cancellations WHERE order_id = ${orderId} AND reason = 'payment_expired')`;

/** Whether an order as read could be reinstated (for the answer's words; the batch decides). */
export function maybeReinstated(order: { status: string; paid_amount: number }): boolean {
  return order.status === "cancelled" && order.paid_amount === 0;
}

/**
 * Before the money's statements: the rail lines the cancellation released hold their seats again
 * (the lines released by that same statement carry its instant, as the order does), then the order
 * is live again, awaiting the payment the same batch records.
 */
export function reinstateBeforePayment(db: D1Database, orderId: number): D1PreparedStatement[] {
  const id = Number(orderId);
  return [
    db.prepare(
      `UPDATE rail_reservations SET status = 'reserved', updated_at = ${NOW}
       WHERE order_id = ${id} AND status = 'released' AND ${sweptSql(id)}
         AND updated_at = (SELECT updated_at FROM orders WHERE id = ${id})`,
    ),
    db.prepare(`UPDATE orders SET status = 'pending_payment', updated_at = ${NOW} WHERE id = ${id} AND ${sweptSql(id)}`),
  ];
}

/**
 * After the money's statements (the order is paid, so the unpaid-share limit does not apply): the
 * rooms and add-ons are taken again, then the sweep's record and the kept copies are removed.
 */
export function reinstateAfterPayment(db: D1Database, orderId: number): D1PreparedStatement[] {
  const id = Number(orderId);
  const reinstating = reinstatingSql(id);
  return [
    db.prepare(
      `INSERT INTO order_nights (order_id, line_position, room_class_id, rate_plan_id, night, rooms, price)
       SELECT order_id, line_position, room_class_id, rate_plan_id, night, rooms, price FROM order_nights_released
       WHERE order_id = ${id} AND ${reinstating}`,
    ),
    db.prepare(
      `INSERT INTO order_addon_days (order_id, addon_id, day, units)
       SELECT order_id, addon_id, day, units FROM order_addon_days_released WHERE order_id = ${id} AND ${reinstating}`,
    ),
    // The points the cancellation gave back are spent again, as the order spent them.
    db.prepare(
      `UPDATE members SET points = points - (SELECT point_used FROM orders WHERE id = ${id})
       WHERE id = (SELECT member_id FROM orders WHERE id = ${id} AND point_used > 0) AND ${reinstating}`,
    ),
    db.prepare(
      `INSERT INTO point_ledger (member_id, order_id, delta, reason)
       SELECT member_id, id, -point_used, 'reinstatement' FROM orders
       WHERE id = ${id} AND member_id IS NOT NULL AND point_used > 0 AND ${reinstating}`,
    ),
    db.prepare(`DELETE FROM order_nights_released WHERE order_id = ${id} AND ${reinstating}`),
    db.prepare(`DELETE FROM order_addon_days_released WHERE order_id = ${id} AND ${reinstating}`),
    // Last: the sweep's record, which ends "reinstating".
    db.prepare(`DELETE FROM cancellations WHERE order_id = ${id} AND reason = 'payment_expired' AND ${reinstating}`),
  ];
}
