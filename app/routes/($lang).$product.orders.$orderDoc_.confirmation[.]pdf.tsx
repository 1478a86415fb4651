import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { hashOf, orderForRequest } from "~/features/orders/access.server";
import { confirmationPdfResponse } from "~/features/orders/proof.server";

/** /{product}/orders/{order_doc}/confirmation.pdf: BOOKING_CONFIRMATION.pdf by a plain link (member or view link). */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { hotel, order } = await orderForRequest(context, params.product, params.orderDoc, hashOf(request));
  return confirmationPdfResponse(context, hotel, order);
}
