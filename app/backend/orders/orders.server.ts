/**
 * The order calls of spec §7: creation, the member's list, views by signed link, history and
 * attachments. Orders are shown only to their member or to the holder of a signed link.
 */
import * as v from "valibot";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { mainLanguage, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { verifyOrderLink } from "~/backend/orders/links.server";
import { memberFromRequest, type MemberRow } from "~/backend/account/members.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { orderIdentity, orderRisk } from "~/backend/orders/holds.server";
import { registerRiskRule } from "~/backend/captcha/captcha.server";
import { ATTEMPTS_SHOWN, type OrderRow, currentOrders, findOrder, loadOrderDetails } from "~/backend/orders/store.server";
import { orderAnswer } from "~/backend/orders/present.server";
import { createOrder } from "~/backend/orders/create.server";
import { DocParam } from "~/backend/orders/schema";
import { attachmentList } from "~/backend/addons/addons.server";

// /api/captcha/trigger asks the order's limits for "order" (decision 072).
registerRiskRule(
  "order",
  async (ctx, hotel, subject) => (await orderRisk(ctx, hotel, orderIdentity(ctx, subject.email, subject.phone), subject.email)).risk,
);

export async function requireMember(ctx: BackendContext, hotel: HotelRow): Promise<MemberRow> {
  const member = await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
  if (!member) throw new ApiError(401, "unauthorized");
  return member;
}

export const orderRoutes: BackendRoute[] = [
  { method: "POST", path: "/api/ota/order/personal-new", handler: (ctx) => createOrder(ctx) },
  {
    method: "GET",
    path: "/api/ota/order/personal-order-list",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const member = await requireMember(ctx, hotel);
      const orderDoc = ctx.url.searchParams.get("order_doc") ?? "";
      const status = ctx.url.searchParams.get("status") ?? "";
      if (status && !["pending_payment", "confirmed", "cancel_requested", "cancelled"].includes(status)) {
        throw new ApiError(400, "invalid_field", { field: "status" }, "status");
      }
      const { results } = await ctx.db
        .prepare(
          `SELECT * FROM orders WHERE hotel_id = ?1 AND member_id = ?2 AND (?3 = '' OR order_doc = ?3) AND (?4 = '' OR status = ?4)
           ORDER BY created_at DESC LIMIT 50`,
        )
        .bind(hotel.id, member.id, orderDoc, status)
        .all<OrderRow>();
      const orders = await currentOrders(ctx.db, results, ctx.now);
      const details = await loadOrderDetails(
        ctx.db,
        orders.map((order) => order.id),
      );
      return ok(await Promise.all(orders.map((order) => orderAnswer(ctx, hotel, order, { cancel: true }, details.get(order.id)))));
    },
  },
  {
    method: "GET",
    path: "/api/ota/order/personal-history",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const orderDoc = await verifyOrderLink(ctx.signingSecret, ctx.url.searchParams.get("hash_code"), "view", hotel.id, ctx.now);
      const order = orderDoc ? await findOrder(ctx.db, hotel.id, orderDoc) : null;
      if (!order) throw new ApiError(403, "hash_invalid", {}, "hash_code");
      // Every attempt, read once with the rest: the answer's payment_attempts are the newest ten, its payments all of them, oldest first.
      const details = (await loadOrderDetails(ctx.db, [order.id], Number.MAX_SAFE_INTEGER)).get(order.id) ?? {
        lines: [],
        attempts: [],
        cancellation: null,
      };
      const payments = details.attempts
        .map(({ vendor_id, amount, status, created_at }) => ({ vendor_id, amount, status, created_at }))
        .reverse();
      return ok({
        ...(await orderAnswer(ctx, hotel, order, { cancel: false }, { ...details, attempts: details.attempts.slice(0, ATTEMPTS_SHOWN) })),
        payments,
      });
    },
  },
  {
    method: "GET",
    path: "/api/ota/order/via-hash",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const hash = ctx.url.searchParams.get("valid_hash");
      // A cancel link shows the order it cancels, so its page can say what will be cancelled; only
      // a cancel link's answer carries what cancels (decision 047).
      const viewed = await verifyOrderLink(ctx.signingSecret, hash, "view", hotel.id, ctx.now);
      const orderDoc = viewed ?? (await verifyOrderLink(ctx.signingSecret, hash, "cancel", hotel.id, ctx.now));
      const order = orderDoc ? await findOrder(ctx.db, hotel.id, orderDoc) : null;
      if (!order) throw new ApiError(403, "hash_invalid", {}, "valid_hash");
      return ok(await orderAnswer(ctx, hotel, order, { cancel: viewed === null }));
    },
  },
  {
    method: "POST",
    path: "/api/ota/order/attachment",
    handler: async (ctx) => {
      const body = parseInput(
        v.object({ domain: v.string(), order_doc: DocParam, valid_hash: v.optional(v.pipe(v.string(), v.maxLength(200))) }),
        await readJsonBody(ctx.request),
      );
      const hotel = await requireHotel(ctx.db, body.domain);
      const order = await findOrder(ctx.db, hotel.id, body.order_doc);
      const viaHash = (await verifyOrderLink(ctx.signingSecret, body.valid_hash, "view", hotel.id, ctx.now)) === body.order_doc;
      const member = viaHash ? null : await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
      if (!order || (!viaHash && (!member || order.member_id !== member.id))) throw new ApiError(404, "order_not_found");
      return ok({
        order_doc: order.order_doc,
        attachment_list: attachmentList(order.room_attachment_detail, ctx.lang, mainLanguage(hotel)),
        attachment_amount: order.attachment_amount,
      });
    },
  },
];
