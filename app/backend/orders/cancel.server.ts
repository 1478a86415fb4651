/**
 * Cancelling an order (spec §4: cancel_apply for the member, cancel-via-hash for the holder of the
 * emailed link). One D1 batch gives the rooms back (deleting the order's nights releases them by
 * trigger), marks the order cancelled, records the refund, returns the points and queues the
 * cancellation email. The refund follows the plans' free window, then the ladder
 * (app/domain/refund.ts, decision 040). A paid order's refund is recorded as `due`, then asked of
 * the payment gateways that took the money (refundOrderPayments); once they have all of it back the
 * record says `refunded`, and what a gateway refuses stays `due` for the hotel (decision 043).
 */
import * as v from "valibot";
import { todayIn } from "~/domain/dates";
import { CANCEL_REASON_MAX_LENGTH } from "~/domain/contact";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { verifyOrderLink } from "~/backend/orders/links.server";
import { queueMail } from "~/backend/mail/outbox.server";
import { enqueueInvoiceStatements, invoicedSql } from "~/backend/einvoice/invoices.server";
import { queueHotelMailFor, type CancelledBy } from "~/backend/mail/hotel-outbox.server";
import { orderEmailAllowed, orderIdentity, type OrderIdentity } from "~/backend/orders/holds.server";
import { eventStatement } from "~/backend/captcha/captcha.server";
import { refundOrderPayments } from "~/backend/payments/payments.server";
import { DocParam, Note } from "~/backend/orders/schema";
import { findOrder, loadOrderLines, type OrderLineRow, type OrderRow } from "~/backend/orders/store.server";
import { orderAnswer, refundQuote } from "~/backend/orders/present.server";
import { requireMember } from "~/backend/orders/orders.server";
import type { Refund } from "~/domain/refund";
import { loadRail, type RailRow } from "~/backend/rail/lines.server";
import type { BackendContext, BackendRoute } from "~/backend/route";

/** How many times a cancellation is tried again when money lands on its order meanwhile. */
const CANCEL_ATTEMPTS = 5;

/** Who cancels: the guest (signed in, or holding the emailed link), or the hotel's staff at the desk. */
type CancelVia = "member" | "hash" | "hotel";

/**
 * A cancellation asked at the desk (decision 151): it skips the guest's own limits (the hotel's
 * setting, the stay's start), may waive the hotel's fee, and its batch starts with `lead` (the audit
 * entry): when the order changed since it was read, the batch aborts whole and is decided again.
 */
export interface StaffCancellation {
  lead: (order: OrderRow, quote: Refund) => D1PreparedStatement[];
  waiveFee: boolean;
}

/** The refund the rules give now, or everything paid when the hotel waives its fee. */
export function cancellationQuote(hotel: HotelRow, order: OrderRow, lines: OrderLineRow[], rail: RailRow[], now: Date, waiveFee: boolean) {
  const quote = refundQuote(hotel, order, lines, now, rail);
  return waiveFee ? { ...quote, refund: quote.refund + quote.fee, fee: 0, railFee: 0 } : quote;
}

export async function cancelOrder(
  ctx: BackendContext,
  hotel: HotelRow,
  first: OrderRow,
  via: CancelVia,
  reason: string,
  staff?: StaffCancellation,
): Promise<OrderRow> {
  let order = first;
  for (let attempt = 1; attempt <= CANCEL_ATTEMPTS; attempt++) {
    if (order.status === "cancelled") throw new ApiError(409, "already_cancelled");
    if (!staff) {
      if (hotel.support_client_cancel !== 1 || order.support_client_cancel !== 1) throw new ApiError(403, "cancel_not_allowed");
      const today = todayIn(hotel.time_zone, ctx.now);
      if (order.check_in_day <= today) throw new ApiError(409, "stay_started");
    }
    const [orderLines, rail] = await Promise.all([loadOrderLines(ctx.db, order.id), loadRail(ctx.db, [order.id])]);
    const quote = cancellationQuote(hotel, order, orderLines, rail.get(order.id) ?? [], ctx.now, staff?.waiveFee ?? false);
    if (await writeCancellation(ctx, hotel, order, via, reason, quote, staff ? "staff" : "guest", staff?.lead(order, quote) ?? [])) {
      if (quote.refund > 0) await refundThroughGateways(ctx, hotel, order, quote.refund);
      return (await findOrder(ctx.db, hotel.id, order.order_doc)) ?? order;
    }
    // The order changed between reading it and cancelling it (a payment landed, another
    // cancellation, the expiry): read it again and decide again from what it is now.
    const now = await findOrder(ctx.db, hotel.id, order.order_doc);
    if (!now) throw new ApiError(404, "order_not_found");
    order = now;
  }
  throw new ApiError(409, "order_changed");
}

/**
 * One D1 batch (one transaction) that cancels the order only as it was read: the refund was computed
 * from `order.paid_amount`, so every statement requires the order still uncancelled with that amount
 * paid (decision 047). A payment that lands first makes the batch change nothing (the caller reads
 * again); one that lands after finds the order cancelled and is kept as `late`, owed back in full.
 * The hotel's email says who cancelled (`by`: the guest here, staff at the desk). Answers whether
 * this batch cancelled the order.
 */
export async function writeCancellation(
  ctx: BackendContext,
  hotel: HotelRow,
  order: OrderRow,
  via: CancelVia,
  reason: string,
  quote: Refund,
  by: CancelledBy,
  lead: D1PreparedStatement[] = [],
): Promise<boolean> {
  const points = order.member_id ? order.point_used : 0;
  // Book-then-cancel pairs: the caller's cancellations count with its orders, and the email of an
  // unpaid order's cancellation against the recipient's day (decision 072).
  // Staff at the desk (a `lead`) are not the guest: their address counts nothing against the guest's limits.
  const who: Partial<OrderIdentity> = lead.length > 0 ? {} : orderIdentity(ctx, order.booker_email, order.booker_phone);
  const mailAllowed = order.paid_amount > 0 || (await orderEmailAllowed(ctx.db, hotel, order.booker_email, ctx.now));
  // After the first statement: "this batch recorded the cancellation and has not yet marked the order".
  const ours = `EXISTS (SELECT 1 FROM cancellations WHERE order_id = ${Number(order.id)}) AND (SELECT status FROM orders WHERE id = ${Number(order.id)}) != 'cancelled'`;
  const statements = [
    ...lead,
    ctx.db
      .prepare(
        `INSERT INTO cancellations (order_id, via, reason, fee, refund, refund_status, refund_rule, refund_percent, points_returned)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM orders WHERE id = ? AND status != 'cancelled' AND paid_amount = ?)`,
      )
      .bind(
        order.id,
        via,
        reason,
        quote.fee,
        quote.refund,
        quote.refund > 0 ? "due" : "none",
        quote.rule,
        quote.percent,
        points,
        order.id,
        order.paid_amount,
      ),
    // A desk action's batch writes nothing, its audit entry included, when the order changed meanwhile.
    ...(lead.length > 0 ? [ctx.db.prepare("INSERT INTO desk_refusals (reason) SELECT 'order_changed' WHERE changes() = 0")] : []),
    ctx.db.prepare(`DELETE FROM order_nights WHERE order_id = ? AND ${ours}`).bind(order.id),
  ];
  if (mailAllowed) {
    statements.push(
      queueMail(
        ctx.db,
        {
          hotelId: hotel.id,
          order: { id: order.id },
          kind: "order_cancellation",
          lang: order.lang,
          to: order.booker_email,
          site: ctx.site,
        },
        ours,
      ),
    );
  }
  // The hotel hears of every cancellation, whoever made it (decision 150).
  statements.push(queueHotelMailFor(ctx.db, order.id, "hotel_cancellation", ctx.site, ours, by));
  if (who.callerKey) statements.push(eventStatement(ctx.db, hotel.id, "order_change", who.callerKey, ctx.now));
  if (who.net48) statements.push(eventStatement(ctx.db, hotel.id, "order_change_network", who.net48, ctx.now));
  if (order.member_id && order.point_used > 0) {
    statements.push(
      ctx.db.prepare(`UPDATE members SET points = points + ? WHERE id = ? AND ${ours}`).bind(order.point_used, order.member_id),
      ctx.db
        .prepare(`INSERT INTO point_ledger (member_id, order_id, delta, reason) SELECT ?, ?, ?, 'cancellation' WHERE ${ours}`)
        .bind(order.member_id, order.id, order.point_used),
    );
  }
  // Last: the order itself, which ends "ours".
  statements.push(
    ctx.db
      .prepare(`UPDATE orders SET status = 'cancelled', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND ${ours}`)
      .bind(order.id),
    // Then its e-invoice is queued (decision 159): voided or reduced to the fee the hotel keeps, or,
    // at a hotel that issues at check-out, the held invoice settled (the fee issued, nothing else).
    ...enqueueInvoiceStatements(
      ctx.db,
      order.id,
      null,
      `(SELECT status FROM orders WHERE id = ${Number(order.id)}) = 'cancelled' AND ${invoicedSql(order.id)}`,
    ),
  );
  try {
    const results = await ctx.db.batch(statements);
    return (results[lead.length]?.meta.changes ?? 0) > 0;
  } catch (error) {
    // The UNIQUE order_id of cancellations refuses a second record (the expiry's), and a desk
    // action refuses a changed order: nothing is written.
    if (String(error).includes("cancellations.order_id") || String(error).includes("desk_refused")) return false;
    throw error;
  }
}

/**
 * The cancellation is made: a gateway that fails leaves the refund `due` (logged), never the
 * cancellation undone. A refund the gateways did not pay back in full is the hotel's to pay by hand:
 * it is told so (`hotel_refund_due`, decision 150).
 */
export async function refundThroughGateways(ctx: BackendContext, hotel: HotelRow, order: OrderRow, amount: number): Promise<void> {
  let refunded = 0;
  try {
    const result = await refundOrderPayments(ctx, hotel, order.id, amount, true);
    refunded = result.refunded;
    if (refunded > 0) ctx.log.info("refunded", order.order_doc, `${refunded} of ${amount}`);
    if (result.failures.length > 0) ctx.log.error("refund left due", order.order_doc, result.failures.join("; "));
  } catch (error) {
    ctx.log.error("refund left due", order.order_doc, error);
  }
  if (refunded >= amount) {
    await ctx.db
      .prepare("UPDATE cancellations SET refund_status = 'refunded' WHERE order_id = ? AND refund_status = 'due'")
      .bind(order.id)
      .run();
    return;
  }
  const due = `EXISTS (SELECT 1 FROM cancellations WHERE order_id = ${Number(order.id)} AND refund_status = 'due')`;
  await queueHotelMailFor(ctx.db, order.id, "hotel_refund_due", ctx.site, due).run();
}

export const cancelRoutes: BackendRoute[] = [
  {
    method: "POST",
    path: "/api/wota/order/cancel_apply/:id",
    handler: async (ctx, params) => {
      const body = parseInput(v.object({ domain: v.string(), reason: Note(CANCEL_REASON_MAX_LENGTH) }), await readJsonBody(ctx.request));
      const hotel = await requireHotel(ctx.db, body.domain);
      const member = await requireMember(ctx, hotel);
      const doc = v.safeParse(DocParam, params.id);
      const order = doc.success ? await findOrder(ctx.db, hotel.id, doc.output) : null;
      if (!order || order.member_id !== member.id) throw new ApiError(404, "order_not_found");
      return ok(await orderAnswer(ctx, hotel, await cancelOrder(ctx, hotel, order, "member", body.reason), { cancel: false }));
    },
  },
  {
    method: "POST",
    path: "/api/wota/order/cancel-via-hash/:id",
    handler: async (ctx, params) => {
      const body = parseInput(
        v.object({ domain: v.string(), valid_hash: v.pipe(v.string(), v.maxLength(200)), reason: Note(CANCEL_REASON_MAX_LENGTH) }),
        await readJsonBody(ctx.request),
      );
      const hotel = await requireHotel(ctx.db, body.domain);
      const orderDoc = await verifyOrderLink(ctx.signingSecret, body.valid_hash, "cancel", hotel.id, ctx.now);
      if (!orderDoc || orderDoc !== params.id) throw new ApiError(403, "hash_invalid", {}, "valid_hash");
      const order = await findOrder(ctx.db, hotel.id, orderDoc);
      if (!order) throw new ApiError(403, "hash_invalid", {}, "valid_hash");
      return ok(await orderAnswer(ctx, hotel, await cancelOrder(ctx, hotel, order, "hash", body.reason), { cancel: false }));
    },
  },
];
