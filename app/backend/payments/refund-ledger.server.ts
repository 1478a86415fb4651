/**
 * The refunds ledger (decision 151, migration 0017): every refund of an order is a row of `refunds`,
 * whoever paid it back, so what is still due back is one sum, read inside the batch that records a
 * refund: a refund is never counted, or paid, twice.
 */

/**
 * What is due back on order `orderId` now (SQL, for a WHERE inside a batch or a list's column): a
 * cancelled order's cancellation refund (unless none), or what a live order was paid beyond its
 * total (a rail ticket refunded, decision 120); plus money kept as overpaid; less every refund not failed.
 */
export function refundDueSql(orderId: number | string): string {
  const id = typeof orderId === "number" ? String(Number(orderId)) : orderId;
  return `MAX(0,
    (SELECT CASE WHEN o.status = 'cancelled'
                 THEN COALESCE((SELECT CASE WHEN c.refund_status = 'none' THEN 0 ELSE c.refund END FROM cancellations c WHERE c.order_id = o.id), 0)
                 ELSE MAX(0, o.paid_amount - o.total_price) END
     FROM orders o WHERE o.id = ${id})
    + (SELECT COALESCE(SUM(amount), 0) FROM payments WHERE order_id = ${id} AND status = 'overpaid')
    - (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE order_id = ${id} AND status != 'failed'))`;
}

export async function refundDue(db: D1Database, orderId: number): Promise<number> {
  const row = await db.prepare(`SELECT ${refundDueSql(orderId)} AS due`).first<{ due: number }>();
  return row?.due ?? 0;
}
