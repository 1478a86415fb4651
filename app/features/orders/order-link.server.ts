import type { AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import type { Order } from "~/contract/schemas";
import { orderPagePath } from "~/domain/order-paths";
import { localizePath } from "~/i18n/languages";
import { notFound } from "~/platform/not-found.server";

/** The order named in the URL, if the request carries its signed link (valid_hash); otherwise a 404. */
export async function orderFromSignedLink(context: AppLoadContext, orderDoc: string | undefined, request: Request): Promise<Order> {
  const hash = new URL(request.url).searchParams.get("valid_hash") ?? "";
  const order = await context.app.api.orderViaHash(hash).catch((error: unknown) => {
    if (error instanceof HotelApiError && (error.status === 403 || error.status === 404)) return null;
    throw error;
  });
  if (!order || order.order_doc !== orderDoc) throw notFound();
  return order;
}

/** The order's own page by its signed link (decision 044): the order again later, its PDF, cancellation. */
export function signedOrderPage(context: AppLoadContext, order: Order): string {
  const { app } = context;
  return `${localizePath(orderPagePath(app.env.PRODUCT, order.order_doc), app.lang)}?valid_hash=${encodeURIComponent(order.valid_hash)}`;
}
