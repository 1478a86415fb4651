/**
 * Who may see an order (design: "reachable only by its owner"): the holder of its signed view link
 * (`valid_hash`, or the cancel link's `cancel_hash`), or the signed-in member who made it. Anyone
 * else, and any other hotel's order, gets a 404: order numbers are not secrets.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import type { HotelInfo, Order } from "~/contract/schemas";
import { notFound, requireProduct } from "~/platform/not-found.server";

export interface OrderAccess {
  hotel: HotelInfo;
  order: Order;
  /** How the request proved it may see the order. */
  via: "link" | "member";
}

const refused = (error: unknown) => {
  if (error instanceof HotelApiError && (error.status === 401 || error.status === 403 || error.status === 404)) return null;
  throw error;
};

/** The order with the proof the request carries: a signed hash, else the member session. */
export async function orderForRequest(
  context: AppLoadContext,
  product: string | undefined,
  orderDoc: string | undefined,
  hash: string | null,
): Promise<OrderAccess> {
  const hotel = requireProduct({ product }, context);
  const { app } = context;
  if (!orderDoc) throw notFound();
  if (hash) {
    const order = await app.api.orderViaHash(hash).catch(refused);
    if (order && order.order_doc === orderDoc) return { hotel, order, via: "link" };
    throw notFound();
  }
  const session = await app.member();
  if (session.profile) {
    const orders = await session.api.memberOrders({ order_doc: orderDoc }).catch(refused);
    const order = orders?.find((candidate) => candidate.order_doc === orderDoc);
    if (order) return { hotel, order, via: "member" };
  }
  throw notFound();
}

/** The hash a request carries: the view link's, or the cancel link's (to see the order). */
export function hashOf(request: Request): string | null {
  const params = new URL(request.url).searchParams;
  const hash = params.get("valid_hash") ?? params.get("cancel_hash");
  return hash && hash.length <= 200 ? hash : null;
}

/**
 * The cancel link's hash, and only that (decision 047): the cancellation page never takes a view
 * link, which travels as a receipt. The back end names the link's purpose by answering `cancel_hash`
 * only to a cancel link's holder.
 */
export function cancelHashOf(request: Request): string | null {
  const hash = new URL(request.url).searchParams.get("cancel_hash");
  return hash && hash.length <= 200 ? hash : null;
}
