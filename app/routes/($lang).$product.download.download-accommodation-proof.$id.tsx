import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { hashOf, orderForRequest } from "~/features/orders/access.server";
import { proofTicket } from "~/features/orders/proof.server";

/** Spec §7, step one: GET /{product}/download/download-accommodation-proof/{id} → iv and number (owner or link holder only). */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { order } = await orderForRequest(context, params.product, params.id, hashOf(request));
  const ticket = await proofTicket(context.app.env.SESSION_SECRET, order, context.app.domain);
  return Response.json({ success: true, msg: "", data: ticket }, { headers: { "cache-control": "no-store" } });
}
