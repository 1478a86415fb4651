/**
 * My orders (spec §7 personal-order-list): the signed-in member's bookings at this hotel, newest
 * first, optionally by status. The back end answers only the token's own orders at its own hotel.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { localizePath } from "~/i18n/languages";
import { safeRedirect } from "~/platform/redirects.server";
import { signInHref } from "~/features/account/sign-in.server";
import { memberSystemOpen } from "~/platform/session.server";
import { notFound, requireProduct } from "~/platform/not-found.server";

export const ORDER_STATUSES = ["pending_payment", "confirmed", "cancel_requested", "cancelled"] as const;
const StatusFilter = v.optional(v.picklist(ORDER_STATUSES));

export async function loadMyOrders(context: AppLoadContext, request: Request, product: string | undefined) {
  const { app } = context;
  requireProduct({ product }, context);
  if (!memberSystemOpen(app)) throw notFound();
  const url = new URL(request.url);
  const { profile, api } = await app.member();
  if (!profile) throw safeRedirect(signInHref(app.env.PRODUCT, app.lang, `${url.pathname}${url.search}`), request, 303);
  const parsed = v.safeParse(StatusFilter, url.searchParams.get("status") || undefined);
  const status = parsed.success ? parsed.output : undefined;
  const orders = await api.memberOrders(status ? { status } : {});
  return {
    status: status ?? "",
    orders: orders.map((order) => ({
      orderDoc: order.order_doc,
      checkIn: order.check_in_day,
      checkOut: order.check_out_day,
      rooms: order.orders.map((line) => `${line.room_class_name} · ${line.rate_plan_name} × ${line.num}`),
      total: order.final_amount,
      status: order.status,
      createdAt: order.created_at,
      // The order's page, which shows a member their own order (no signed link needed).
      href: localizePath(`/${app.env.PRODUCT}/orders/${encodeURIComponent(order.order_doc)}`, app.lang),
    })),
  };
}
