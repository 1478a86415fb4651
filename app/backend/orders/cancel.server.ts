/**
 * Cancelling an order (spec §4: cancel_apply for the member, cancel-via-hash for the holder of the
 * emailed link). One D1 batch gives the rooms back (deleting the order's nights releases them by
 * trigger), marks the order cancelled, records the refund, returns the points and queues the
 * cancellation email. The refund follows the plans' free window, then the ladder
 * (app/booking/refund.ts, decision 040). A paid order's refund is recorded as `due`, then asked of
 * the payment gateways that took the money (refundOrderPayments); once they have all of it back the
 * record says `refunded`, and what a gateway refuses stays `due` for the hotel (decision 043).
 */
import * as v from "valibot";
import { todayIn } from "~/booking/dates";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { verifyOrderLink } from "~/backend/orders/links.server";
import { queueMail } from "~/backend/mail/outbox.server";
import { refundOrderPayments } from "~/backend/payments/payments.server";
import { DocParam, findOrder, loadOrderLines, Note, orderAnswer, refundQuote, requireMember, type OrderRow } from "~/backend/orders/orders.server";
import type { BackendContext, BackendRoute } from "~/backend/route";

async function cancelOrder(ctx: BackendContext, hotel: HotelRow, order: OrderRow, via: "member" | "hash", reason: string) {
  if (order.status === "cancelled") throw new ApiError(409, "already_cancelled");
  if (hotel.support_client_cancel !== 1 || order.support_client_cancel !== 1) throw new ApiError(403, "cancel_not_allowed");
  const today = todayIn(hotel.time_zone, ctx.now);
  if (order.check_in_day <= today) throw new ApiError(409, "stay_started");
  const lines = await loadOrderLines(ctx.db, order.id);
  const quote = refundQuote(hotel, order, lines, ctx.now);
  const points = order.member_id ? order.point_used : 0;
  const statements = [
    ctx.db.prepare("DELETE FROM order_nights WHERE order_id = ?").bind(order.id),
    ctx.db
      .prepare("UPDATE orders SET status = 'cancelled', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND status != 'cancelled'")
      .bind(order.id),
    ctx.db
      .prepare(
        `INSERT INTO cancellations (order_id, via, reason, fee, refund, refund_status, refund_rule, refund_percent, points_returned)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(order.id, via, reason, quote.fee, quote.refund, quote.refund > 0 ? "due" : "none", quote.rule, quote.percent, points),
    queueMail(ctx.db, { hotelId: hotel.id, order: { id: order.id }, kind: "order_cancellation", lang: order.lang, to: order.booker_email, site: ctx.site }),
  ];
  if (order.member_id && order.point_used > 0) {
    statements.push(
      ctx.db.prepare("UPDATE members SET points = points + ? WHERE id = ?").bind(order.point_used, order.member_id),
      ctx.db
        .prepare("INSERT INTO point_ledger (member_id, order_id, delta, reason) VALUES (?, ?, ?, 'cancellation')")
        .bind(order.member_id, order.id, order.point_used),
    );
  }
  try {
    await ctx.db.batch(statements);
  } catch (error) {
    // The UNIQUE order_id of cancellations refuses a second, concurrent cancellation: nothing is written.
    if (String(error).includes("cancellations.order_id")) throw new ApiError(409, "already_cancelled");
    throw error;
  }
  if (quote.refund > 0) await refundThroughGateways(ctx, hotel, order, quote.refund);
  const cancelled = await findOrder(ctx.db, hotel.id, order.order_doc);
  return ok(await orderAnswer(ctx, hotel, cancelled ?? order));
}

/** The cancellation is made: a gateway that fails leaves the refund `due` (logged), never the cancellation undone. */
async function refundThroughGateways(ctx: BackendContext, hotel: HotelRow, order: OrderRow, amount: number): Promise<void> {
  try {
    const { refunded, failures } = await refundOrderPayments(ctx, hotel, order.id, amount);
    if (failures.length > 0) console.error("refund left due", order.order_doc, failures.join("; "));
    if (refunded >= amount) {
      await ctx.db.prepare("UPDATE cancellations SET refund_status = 'refunded' WHERE order_id = ? AND refund_status = 'due'").bind(order.id).run();
    }
  } catch (error) {
    console.error("refund left due", order.order_doc, error);
  }
}

export const cancelRoutes: BackendRoute[] = [
  {
    method: "POST",
    path: "/api/wota/order/cancel_apply/:id",
    handler: async (ctx, params) => {
      const body = parseInput(v.object({ domain: v.string(), reason: Note(500) }), await readJsonBody(ctx.request));
      const hotel = await requireHotel(ctx.db, body.domain);
      const member = await requireMember(ctx, hotel);
      const doc = v.safeParse(DocParam, params.id);
      const order = doc.success ? await findOrder(ctx.db, hotel.id, doc.output) : null;
      if (!order || order.member_id !== member.id) throw new ApiError(404, "order_not_found");
      return cancelOrder(ctx, hotel, order, "member", body.reason);
    },
  },
  {
    method: "POST",
    path: "/api/wota/order/cancel-via-hash/:id",
    handler: async (ctx, params) => {
      const body = parseInput(
        v.object({ domain: v.string(), valid_hash: v.pipe(v.string(), v.maxLength(200)), reason: Note(500) }),
        await readJsonBody(ctx.request),
      );
      const hotel = await requireHotel(ctx.db, body.domain);
      const orderDoc = await verifyOrderLink(ctx.signingSecret, body.valid_hash, "cancel", hotel.id, ctx.now);
      if (!orderDoc || orderDoc !== params.id) throw new ApiError(403, "hash_invalid", {}, "valid_hash");
      const order = await findOrder(ctx.db, hotel.id, orderDoc);
      if (!order) throw new ApiError(403, "hash_invalid", {}, "valid_hash");
      return cancelOrder(ctx, hotel, order, "hash", body.reason);
    },
  },
];
