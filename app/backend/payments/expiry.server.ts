/**
 * The unpaid-order expiry (docs/decisions/032), run by the Worker's Cron Trigger. Each expired order
 * is cancelled and its rooms and points returned in one D1 batch whose every statement re-checks
 * that the order is still unpaid: a payment that lands first wins (markOrderPaid), one that lands
 * after is kept as `late` to refund. Never paid and released.
 */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

export async function expireUnpaidOrders(db: D1Database, now: Date, limit = 200): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT id, order_doc, member_id, point_used FROM orders
       WHERE status = 'pending_payment' AND payment_status = -1 AND pay_deadline IS NOT NULL AND pay_deadline < ?
       ORDER BY pay_deadline LIMIT ?`,
    )
    .bind(now.toISOString(), limit)
    .all<{ id: number; order_doc: string; member_id: number | null; point_used: number }>();
  const expired: string[] = [];
  for (const order of results) {
    const cancelledHere = `(SELECT status FROM orders WHERE id = ${order.id}) = 'cancelled' AND EXISTS (SELECT 1 FROM cancellations WHERE order_id = ${order.id} AND reason = 'payment_expired')`;
    const statements = [
      db
        .prepare(
          `UPDATE orders SET status = 'cancelled', updated_at = ${NOW}
           WHERE id = ?1 AND status = 'pending_payment' AND payment_status = -1 AND pay_deadline < ?2
             AND NOT EXISTS (SELECT 1 FROM payments WHERE order_id = ?1 AND status = 'paid')`,
        )
        .bind(order.id, now.toISOString()),
      db
        .prepare(
          `INSERT INTO cancellations (order_id, via, reason, fee, refund)
           SELECT ?1, 'hotel', 'payment_expired', 0, 0 WHERE (SELECT status FROM orders WHERE id = ?1) = 'cancelled'
             AND NOT EXISTS (SELECT 1 FROM cancellations WHERE order_id = ?1)`,
        )
        .bind(order.id),
      db.prepare(`DELETE FROM order_nights WHERE order_id = ? AND ${cancelledHere}`).bind(order.id),
      db
        .prepare(`UPDATE payments SET status = 'failed', message = 'expired', updated_at = ${NOW} WHERE order_id = ? AND status IN ('pending', 'code_issued') AND ${cancelledHere}`)
        .bind(order.id),
    ];
    if (order.member_id && order.point_used > 0) {
      const unreturned = `${cancelledHere} AND NOT EXISTS (SELECT 1 FROM point_ledger WHERE order_id = ${order.id} AND reason = 'cancellation')`;
      statements.push(
        db.prepare(`UPDATE members SET points = points + ? WHERE id = ? AND ${unreturned}`).bind(order.point_used, order.member_id),
        db
          .prepare(`INSERT INTO point_ledger (member_id, order_id, delta, reason) SELECT ?, ?, ?, 'cancellation' WHERE ${unreturned}`)
          .bind(order.member_id, order.id, order.point_used),
      );
    }
    const [cancelled] = await db.batch(statements);
    if ((cancelled?.meta.changes ?? 0) > 0) expired.push(order.order_doc);
  }
  return expired;
}
