/**
 * Refunds from the desk (decision 151): what is due back on a booking, paid back through the
 * gateway that took the money where its adapter can (ECPay, LINE Pay), otherwise by hand with a
 * reference. Every refund is a row of `refunds` (migration 0017), the cancellation's automatic
 * ones included, so "due" is one sum and a refund is counted once:
 *
 *   due = (a cancelled order: its cancellation's refund; a live one: what was paid beyond its total,
 *          e.g. a rail ticket refunded on a deposit-paid order only once the deposit exceeds the new total)
 *       + money kept as overpaid − every refund not failed.
 *
 * The row is written only while the amount is within what is due, inside its batch; a gateway is
 * asked only after its row is written ('pending'), so two staff at once never ask it twice. The
 * database adds its own limit: refunds never exceed what the order was paid (a trigger).
 */
import { ApiError } from "~/backend/http.server";
import { gatewayFor } from "~/backend/payments/payments.server";
import { refundDue, refundDueSql } from "~/backend/payments/refund-ledger.server";
import { enqueueInvoiceStatements, invoicedSql } from "~/backend/einvoice/invoices.server";
import { auditEntry, type StaffPrincipal } from "~/backend/desk/staff.server";
import { actionAudit, refuseUnless, runAction, type ActionOutcome } from "~/backend/desk/action-batch.server";
import type { Acting } from "~/backend/desk/stay-desk.server";
import type { BackendContext } from "~/backend/route";
import type { HotelRow } from "~/backend/hotels/hotels.server";

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** The adapters that can give money back (gateways/*: refund), by the payments' provider. */
const REFUNDABLE = new Set(["ecpay_aio", "linepay", "sandbox"]);

interface GatewayPayment {
  id: number;
  vendor_id: number;
  provider: string;
  trade_no: string;
  gateway_trade_no: string;
  amount: number;
  remaining: number;
}

/** The newest gateway payment of the order that can give back `amount` by itself. */
async function refundablePayment(db: D1Database, orderId: number, amount: number): Promise<GatewayPayment | null> {
  const { results } = await db
    .prepare(
      `SELECT p.id, p.vendor_id, p.provider, p.trade_no, p.gateway_trade_no, p.amount,
              p.amount - COALESCE((SELECT SUM(r.amount) FROM refunds r WHERE r.payment_id = p.id AND r.status != 'failed'), 0) AS remaining
       FROM payments p WHERE p.order_id = ? AND p.provider != 'desk' AND p.status IN ('paid', 'late', 'overpaid', 'refunded')
       ORDER BY p.id DESC LIMIT 10`,
    )
    .bind(orderId)
    .all<GatewayPayment>();
  return results.find((payment) => REFUNDABLE.has(payment.provider) && payment.remaining >= amount) ?? null;
}

/** After a refund: the cancellation's refund is settled once nothing is due any more. */
const settledWhenNothingDue = (db: D1Database, orderId: number) =>
  db
    .prepare(
      `UPDATE cancellations SET refund_status = 'refunded' WHERE order_id = ?1 AND refund_status = 'due' AND ${refundDueSql(orderId)} = 0`,
    )
    .bind(orderId);

export interface RefundAsked {
  method: "gateway" | "manual";
  amount: number;
  reference: string;
}

export async function refund(acting: Acting, asked: RefundAsked): Promise<{ outcome: ActionOutcome; due: number }> {
  const { ctx, hotel, staff, order, formKey } = acting;
  const due = await refundDue(ctx.db, order.id);
  if (due === 0) throw new ApiError(409, "desk_nothing_due");
  if (asked.amount > due) throw new ApiError(400, "desk_refund_over_due", { due }, "amount");
  const payment = asked.method === "gateway" ? await refundablePayment(ctx.db, order.id, asked.amount) : null;
  if (asked.method === "gateway" && !payment) throw new ApiError(409, "desk_refund_no_gateway", {}, "method");
  const statements = [
    actionAudit(ctx, staff, "refund", order.order_doc, formKey, { due }, { ...asked, payment: payment?.trade_no ?? null }),
    ctx.db
      .prepare(
        `INSERT INTO refunds (hotel_id, order_id, payment_id, amount, method, status, reference, staff_id)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE ${refundDueSql(order.id)} >= ?4
         RETURNING id`,
      )
      .bind(hotel.id, order.id, payment?.id ?? null, asked.amount, asked.method, payment ? "pending" : "done", asked.reference, staff.id),
    refuseUnless(ctx.db, "changes() > 0"),
    ...(payment ? [] : [settledWhenNothingDue(ctx.db, order.id)]),
    // The e-invoice follows what the hotel now keeps (decision 159): voided and issued again for the
    // rest while its period allows, otherwise reduced by an allowance. A refused refund queues nothing.
    ...enqueueInvoiceStatements(ctx.db, order.id, null, invoicedSql(order.id)),
  ];
  const results = await runAction(ctx.db, statements, async () => {
    const now = await refundDue(ctx.db, order.id);
    return now === 0 ? new ApiError(409, "desk_nothing_due") : new ApiError(409, "desk_refund_over_due", { due: now }, "amount");
  });
  if (results === "already_done") return { outcome: "already_done", due: await refundDue(ctx.db, order.id) };
  if (payment) {
    const refundId = (results[1]?.results[0] as { id: number } | undefined)?.id ?? 0;
    await askGateway(ctx, hotel, staff, order, payment, refundId, asked.amount);
  }
  return { outcome: "done", due: await refundDue(ctx.db, order.id) };
}

/** Asks the gateway for the claimed refund, then records what it said; a refusal frees the claim and is the answer. */
async function askGateway(
  ctx: BackendContext,
  hotel: HotelRow,
  staff: StaffPrincipal,
  order: Acting["order"],
  payment: GatewayPayment,
  refundId: number,
  amount: number,
): Promise<void> {
  let answer: { ok: boolean; reason: string };
  try {
    const gateway = await gatewayFor(ctx, hotel, payment.vendor_id);
    answer = await gateway.refund({ tradeNo: payment.trade_no, gatewayTradeNo: payment.gateway_trade_no, amount: payment.amount }, amount);
  } catch (error) {
    ctx.log.error("desk refund: gateway not reached", order.order_doc, error);
    answer = { ok: false, reason: error instanceof ApiError ? error.code : "gateway not reached" };
  }
  const reason = answer.reason.slice(0, 200);
  await ctx.db.batch([
    ctx.db
      .prepare(`UPDATE refunds SET status = ?1, message = ?2, updated_at = ${NOW} WHERE id = ?3 AND status = 'pending'`)
      .bind(answer.ok ? "done" : "failed", reason, refundId),
    ctx.db
      .prepare(
        `UPDATE payments SET status = 'refunded', updated_at = ${NOW}
         WHERE id = ?1 AND status = 'paid' AND amount <= (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE payment_id = ?1 AND status = 'done')`,
      )
      .bind(payment.id),
    settledWhenNothingDue(ctx.db, order.id),
    auditEntry(ctx.db, {
      hotelId: hotel.id,
      staff,
      ip: ctx.clientIp,
      action: "refund_result",
      subject: `order:${order.order_doc}`,
      after: { ok: answer.ok, reason, amount, payment: payment.trade_no },
    }),
  ]);
  if (!answer.ok) throw new ApiError(424, "desk_refund_gateway_failed", { reason: reason || "-" });
}
