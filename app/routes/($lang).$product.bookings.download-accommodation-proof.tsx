import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { proofDownload } from "~/features/orders/proof.server";

/** Spec §7, step two: POST /{product}/bookings/download-accommodation-proof, body `number`, header `X-IV` → the PDF. */
export async function action({ context, params, request }: ActionFunctionArgs) {
  return proofDownload(context, params.product, request);
}

export async function loader() {
  return new Response(null, { status: 405, headers: { allow: "POST" } });
}
