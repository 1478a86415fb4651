/**
 * The unpaid-order expiry (docs/decisions/032), run by the Worker's Cron Trigger. Each expired order
 * is cancelled and its rooms and points returned in one D1 batch whose every statement re-checks
 * that the order is still unpaid: a payment that lands first wins (markOrderPaid), one that lands
 * after is kept as `late` to refund. Never paid and released.
 */

import { queueHotelMailFor } from "~/backend/mail/hotel-outbox.server";
import { enqueueInvoiceStatements, invoicedSql } from "~/backend/einvoice/invoices.server";

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** The product a link names when the caller does not say (the router's default). */
const DEFAULT_PRODUCT = "hxa";

/** What the expiry needs of an order. */
export interface ExpirableOrder {
  id: number;
  order_doc: string;
  member_id: number | null;
  point_used: number;
  status: string;
  payment_status: number;
  pay_deadline: string | null;
}

/** Whether an order is unpaid past its deadline: expired, whether or not the sweep has run yet. */
export function isPastDeadline(order: ExpirableOrder, now: Date): boolean {
  return (
    order.status === "pending_payment" &&
    order.payment_status === -1 &&
    order.pay_deadline !== null &&
    order.pay_deadline < now.toISOString()
  );
}

/**
 * Cancels one unpaid order past its deadline and gives its rooms and points back, in one batch whose
 * every statement re-checks that it is still unpaid. Answers whether this call expired it. The sweep
 * runs it for every such order; pages and the API run it for the order they are about to show
 * (decision 047), so nobody is invited to pay an order that has expired.
 */
export async function expireOrder(db: D1Database, order: ExpirableOrder, now: Date, product = DEFAULT_PRODUCT): Promise<boolean> {
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
      .prepare(
        `UPDATE payments SET status = 'failed', message = 'expired', updated_at = ${NOW} WHERE order_id = ? AND status IN ('pending', 'code_issued', 'superseded') AND ${cancelledHere}`,
      )
      .bind(order.id),
    // The hotel hears of it (decision 150), linked to its own domain: no request names a site here.
    queueHotelMailFor(db, order.id, "hotel_cancellation", { product }, cancelledHere, "sweep"),
    // Never paid, so nothing invoiced: queued only if the order has an invoice all the same (decision 159).
    ...enqueueInvoiceStatements(db, order.id, null, `${cancelledHere} AND ${invoicedSql(order.id)}`),
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
  return (cancelled?.meta.changes ?? 0) > 0;
}

/** An order read by `read`, expired first when it is unpaid past its deadline (then read again). */
export async function currentOrder<T extends ExpirableOrder>(db: D1Database, read: () => Promise<T | null>, now: Date): Promise<T | null> {
  const order = await read();
  return order && isPastDeadline(order, now) && (await expireOrder(db, order, now)) ? read() : order;
}

export async function expireUnpaidOrders(db: D1Database, now: Date, limit = 200, product = DEFAULT_PRODUCT): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT id, order_doc, member_id, point_used, status, payment_status, pay_deadline FROM orders
       WHERE status = 'pending_payment' AND payment_status = -1 AND pay_deadline IS NOT NULL AND pay_deadline < ?
       ORDER BY pay_deadline LIMIT ?`,
    )
    .bind(now.toISOString(), limit)
    .all<ExpirableOrder>();
  const expired: string[] = [];
  for (const order of results) {
    if (await expireOrder(db, order, now, product)) expired.push(order.order_doc);
  }
  return expired;
}
