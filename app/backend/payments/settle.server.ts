/**
 * Where a verified payment notice changes an order (docs/decisions/033). markOrderPaid is THE one
 * place an order becomes paid: every gateway callback, status query and the sandbox end there. It is
 * idempotent (a payment is added to its order once, ever) and loses cleanly against the expiry job:
 * both are single D1 batches (one transaction each), so an order is either paid and kept, or
 * expired and released, and money arriving after expiry is kept as a `late` payment to refund.
 */
import { checkInStart } from "~/domain/dates";
import { latestDeadline } from "~/domain/payments";
import type { PaidWith, PaymentNotice } from "~/backend/payments/gateways/types";
import type { SiteAddress } from "~/backend/route";
import { queueHotelMailFor } from "~/backend/mail/hotel-outbox.server";
import { enqueueInvoiceStatements } from "~/backend/einvoice/invoices.server";
import type { Logger } from "~/platform/log.server";

export interface PaymentRow {
  id: number;
  order_id: number;
  vendor_id: number;
  provider: string;
  trade_no: string;
  gateway_trade_no: string;
  amount: number;
  currency: string;
  purpose: "full" | "deposit" | "balance";
  status: "pending" | "code_issued" | "paid" | "failed" | "superseded" | "late" | "overpaid" | "refunded";
  applied: number;
  code_info: string;
  message: string;
  paid_at: string | null;
  paid_with: string;
  created_at: string;
}

export interface PaymentWithOrder extends PaymentRow {
  hotel_id: number;
  order_doc: string;
  order_status: string;
  check_in_day: string;
  time_zone: string;
}

export async function findPayment(db: D1Database, tradeNo: string): Promise<PaymentWithOrder | null> {
  return db
    .prepare(
      `SELECT p.*, o.hotel_id, o.order_doc, o.status AS order_status, o.check_in_day, h.time_zone
       FROM payments p JOIN orders o ON o.id = p.order_id JOIN hotels h ON h.id = o.hotel_id WHERE p.trade_no = ?`,
    )
    .bind(tradeNo)
    .first<PaymentWithOrder>();
}

/** Text fit for a log or a row: control characters (NUL, CR LF, bidi controls…) become "?", at most `max` characters. */
export function printable(text: string, max: number): string {
  return text.slice(0, max).replace(/[\p{Cc}\p{Cf}]/gu, "?");
}

/** How long callback events are kept (the scheduled job prunes older ones). */
export const PAYMENT_EVENT_DAYS = 90;

/**
 * Records what a VERIFIED callback did, or why it changed nothing (decision 047): only after the
 * gateway's signature checked out, so nobody can write here by posting at a callback address.
 */
export async function logPaymentEvent(
  db: D1Database,
  log: Logger,
  event: { hotelId: number | null; route: string; outcome: "applied" | "ignored" | "refused"; reason: string; tradeNo: string },
): Promise<void> {
  const line = [`payment callback ${event.outcome}`, event.route, printable(event.tradeNo, 40) || "-", event.reason] as const;
  if (event.outcome === "applied") log.info(...line);
  else log.warn(...line);
  await db
    .prepare("INSERT INTO payment_events (hotel_id, route, outcome, reason, trade_no) VALUES (?, ?, ?, ?, ?)")
    .bind(event.hotelId, printable(event.route, 40), event.outcome, printable(event.reason, 300), printable(event.tradeNo, 40))
    .run();
}

/** Forgets callback events older than PAYMENT_EVENT_DAYS; answers how many. */
export async function prunePaymentEvents(db: D1Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - PAYMENT_EVENT_DAYS * 86_400_000).toISOString();
  const result = await db.prepare("DELETE FROM payment_events WHERE created_at < ?").bind(before).run();
  return result.meta.changes;
}

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** How a verified payment ended: applied to its order, or kept to refund (late: its order was cancelled; overpaid: beyond what it owed). */
export type PaidOutcome = { changed: boolean; late: boolean; owed: "late" | "overpaid" | null };

/** The attempt a settlement applies: by id, or by trade number when the same batch inserts it (the desk's record). */
export type PaymentRef = { id: number } | { tradeNo: string };

/** The attempt's id as SQL: a number, or the row with that trade number (our own: letters and digits only). */
function paymentIdSql(ref: PaymentRef): string {
  if ("id" in ref) return String(Number(ref.id));
  if (!/^[A-Za-z0-9]{1,20}$/.test(ref.tradeNo)) throw new Error("trade number of letters and digits expected");
  return `(SELECT id FROM payments WHERE trade_no = '${ref.tradeNo}')`;
}

/**
 * The statements that settle one verified payment, for a D1 batch (one transaction): the gateway's
 * callback runs them alone (markOrderPaid), the desk after the statement that records the money.
 * The first marks the attempt (its changes: whether the attempt was open), the second credits the
 * order (its changes: whether this batch applied the money to it). Every one re-checks the state it changes.
 */
export function settleStatements(
  db: D1Database,
  payment: { ref: PaymentRef; order_id: number; amount: number },
  gatewayTradeNo: string,
  site?: SiteAddress,
  paidWith: string = "",
): D1PreparedStatement[] {
  const id = paymentIdSql(payment.ref);
  const unaccounted = (status: string) => `EXISTS (SELECT 1 FROM payments WHERE id = ${id} AND status ${status} AND applied = 0)`;
  // 2b. The receipt, in the order's language: written only while step 2 has just applied the money.
  const mails = site
    ? [
        db
          .prepare(
            `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin, product)
             SELECT o.hotel_id, o.id, 'paid_receipt', o.lang, o.booker_email, ?1, ?2 FROM orders o
             WHERE o.id = ?3 AND o.status != 'cancelled' AND ${unaccounted("= 'paid'")}`,
          )
          .bind(site.origin, site.product, payment.order_id),
        // 2c. The hotel hears of the money it received, under the same condition (decision 150):
        // a bank transfer recorded at the desk comes through here too.
        queueHotelMailFor(
          db,
          payment.order_id,
          "hotel_payment_received",
          site,
          `(SELECT status FROM orders WHERE id = ${Number(payment.order_id)}) != 'cancelled' AND ${unaccounted("= 'paid'")}`,
        ),
        // 3b. The hotel is told of money it must give back, in its main language, at its reservation
        // addresses: this alert is its "refund due" for money that landed late or beyond the total (decision 150).
        db
          .prepare(
            `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin, product)
             SELECT h.id, o.id, 'hotel_payment_alert', h.main_lang, r.value, ?1, ?2
             FROM orders o JOIN hotels h ON h.id = o.hotel_id, json_each(h.reservation_emails) r
             WHERE o.id = ?3 AND r.value != '' AND ${unaccounted("IN ('late', 'overpaid')")}`,
          )
          .bind(site.origin, site.product, payment.order_id),
      ]
    : [];
  return [
    // 1. The attempt is paid; or late, when its order has been cancelled; or overpaid, when the order owes less than it.
    db
      .prepare(
        `UPDATE payments SET status = CASE
             WHEN (SELECT status FROM orders WHERE id = ?1) = 'cancelled' THEN 'late'
             WHEN (SELECT paid_amount + ?3 > total_price FROM orders WHERE id = ?1) THEN 'overpaid'
             ELSE 'paid' END,
           gateway_trade_no = CASE WHEN ?2 = '' THEN gateway_trade_no ELSE ?2 END, paid_with = ?4, paid_at = ${NOW}, updated_at = ${NOW}
         WHERE id = ${id} AND status IN ('pending', 'code_issued', 'failed', 'superseded')`,
      )
      .bind(payment.order_id, gatewayTradeNo, payment.amount, paidWith),
    // 2. Its amount is added to the order, once: only while the attempt is paid and not yet applied.
    db
      .prepare(
        `UPDATE orders SET paid_amount = paid_amount + ?1,
           payment_status = CASE WHEN paid_amount + ?1 >= total_price THEN 2 ELSE 1 END,
           status = CASE WHEN status = 'pending_payment' THEN 'confirmed' ELSE status END,
           pay_deadline = NULL, updated_at = ${NOW}
         WHERE id = ?2 AND status != 'cancelled' AND ${unaccounted("= 'paid'")}`,
      )
      .bind(payment.amount, payment.order_id),
    // 3. Money on a cancelled order is all owed back: its cancellation's refund grows by it.
    db
      .prepare(`UPDATE cancellations SET refund = refund + ?1, refund_status = 'due' WHERE order_id = ?2 AND ${unaccounted("= 'late'")}`)
      .bind(payment.amount, payment.order_id),
    ...mails,
    // 2d. The order's e-invoice is opened (under the hotel's issuer) and queued, under the same
    // condition: the queue's runner issues it, or holds it for the check-out (decision 159).
    ...enqueueInvoiceStatements(db, payment.order_id, null, unaccounted("= 'paid'")),
    db.prepare(`UPDATE payments SET applied = 1 WHERE id = ${id} AND status IN ('paid', 'late', 'overpaid') AND applied = 0`),
  ];
}

/**
 * THE place an order becomes paid (in full or in part). Returns whether this call changed it:
 * false for a replay, and for money kept to refund: `late` when its order had been cancelled (the
 * cancellation's refund grows by it), `overpaid` when it is more than the order still owed (a
 * second tab, an ATM transfer after a card payment). Money is never counted beyond the total.
 * The same batch queues the paid receipt (decision 041) when, and only when, it applies the money,
 * and an alert to the hotel when it keeps money to refund; `site` is where the links lead.
 */
export async function markOrderPaid(
  db: D1Database,
  log: Logger,
  payment: Pick<PaymentRow, "id" | "order_id" | "amount">,
  gatewayTradeNo: string,
  site?: SiteAddress,
  paidWith: PaidWith = "",
): Promise<PaidOutcome> {
  const statements = settleStatements(
    db,
    { ref: { id: payment.id }, order_id: payment.order_id, amount: payment.amount },
    gatewayTradeNo,
    site,
    paidWith,
  );
  // The first statement marks the attempt; the second credits the order.
  const [marked, applied] = await db.batch(statements);
  const changed = (applied?.meta.changes ?? 0) > 0;
  if (changed || (marked?.meta.changes ?? 0) === 0) return { changed, late: false, owed: null };
  const row = await db.prepare("SELECT status FROM payments WHERE id = ?").bind(payment.id).first<{ status: string }>();
  const owed = row?.status === "late" || row?.status === "overpaid" ? row.status : null;
  if (owed) log.error(`payment kept to refund (${owed}): the hotel is told`, payment.id);
  return { changed, late: owed === "late", owed };
}

/** An attempt the gateway refused (declined card, cancelled by the guest): the order stays unpaid. */
async function markAttemptFailed(db: D1Database, payment: PaymentRow, message: string): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE payments SET status = 'failed', message = ?, updated_at = ${NOW} WHERE id = ? AND status IN ('pending', 'code_issued')`,
    )
    .bind(message.slice(0, 200), payment.id)
    .run();
  return result.meta.changes > 0;
}

/** ECPay's ExpireDate (yyyy/MM/dd, Taiwan) as the end of that day in UTC. */
function codeExpiry(expireDate: string): string | null {
  const match = /^(\d{4})\/(\d{2})\/(\d{2})/.exec(expireDate);
  if (!match) return null;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23 - 8, 59, 59));
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/**
 * An ATM account or store code was issued: the order holds its rooms until that code expires, but
 * never past the start of its check-in day (latestDeadline), whatever the gateway says: a stay does
 * not begin on money that may never come (decision 047). The deadline only ever moves later.
 */
async function markCodeIssued(
  db: D1Database,
  payment: PaymentWithOrder,
  notice: Extract<PaymentNotice, { kind: "code_issued" }>,
): Promise<boolean> {
  const expiry = codeExpiry(notice.expireDate);
  const cap = new Date(latestDeadline(checkInStart(payment.check_in_day, payment.time_zone), new Date())).toISOString();
  const deadline = expiry === null ? null : expiry < cap ? expiry : cap;
  const [marked] = await db.batch([
    db
      .prepare(
        `UPDATE payments SET status = 'code_issued', gateway_trade_no = ?, code_info = ?, updated_at = ${NOW} WHERE id = ? AND status = 'pending'`,
      )
      .bind(
        notice.gatewayTradeNo,
        JSON.stringify({
          bank_code: notice.bankCode,
          account: notice.account,
          expire_date: notice.expireDate,
          payment_type: notice.paymentType,
        }),
        payment.id,
      ),
    db
      .prepare(
        `UPDATE orders SET pay_deadline = CASE WHEN pay_deadline IS NULL OR pay_deadline < ?1 THEN ?1 ELSE pay_deadline END, updated_at = ${NOW}
         WHERE id = ?2 AND status = 'pending_payment' AND payment_status = -1 AND ?1 IS NOT NULL`,
      )
      .bind(deadline, payment.order_id),
  ]);
  return (marked?.meta.changes ?? 0) > 0;
}

/** What a notice did; `paid`: it credited order `orderId` (its e-invoice is then due, decision 163). */
export type NoticeOutcome = { outcome: "applied" | "ignored" | "refused"; reason: string; paid?: boolean; orderId?: number };

/**
 * Applies a verified notice to the attempt it names: the hotel, trade number, amount and currency
 * must all match what we asked for, else it is refused.
 */
export async function applyNotice(
  db: D1Database,
  log: Logger,
  hotelId: number,
  vendorId: number,
  notice: PaymentNotice,
  site?: SiteAddress,
): Promise<NoticeOutcome> {
  const payment = await findPayment(db, notice.tradeNo);
  if (!payment) return { outcome: "refused", reason: "unknown trade number" };
  if (payment.hotel_id !== hotelId) return { outcome: "refused", reason: "trade of another hotel" };
  if (payment.vendor_id !== vendorId) return { outcome: "refused", reason: "trade of another vendor" };
  if (notice.currency !== payment.currency)
    return { outcome: "refused", reason: `currency ${notice.currency}, expected ${payment.currency}` };
  if (notice.amount !== payment.amount) return { outcome: "refused", reason: `amount ${notice.amount}, expected ${payment.amount}` };
  switch (notice.kind) {
    case "paid": {
      const { changed, owed } = await markOrderPaid(db, log, payment, notice.gatewayTradeNo, site, notice.paidWith);
      if (changed) return { outcome: "applied", reason: "paid", paid: true, orderId: payment.order_id };
      if (owed === "late") return { outcome: "applied", reason: "paid after the order was cancelled: kept as late, to refund" };
      if (owed === "overpaid") return { outcome: "applied", reason: "paid beyond what the order owed: kept as overpaid, to refund" };
      return { outcome: "ignored", reason: `already ${payment.status}` };
    }
    case "failed":
      return (await markAttemptFailed(db, payment, notice.message))
        ? { outcome: "applied", reason: "failed" }
        : { outcome: "ignored", reason: `already ${payment.status}` };
    case "code_issued":
      return (await markCodeIssued(db, payment, notice))
        ? { outcome: "applied", reason: "code issued" }
        : { outcome: "ignored", reason: `already ${payment.status}` };
  }
}
