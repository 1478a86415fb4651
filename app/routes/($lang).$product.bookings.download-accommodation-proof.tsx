import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { proofDownload, proofRefusal } from "~/features/orders/proof.server";
import { requireProduct } from "~/platform/not-found.server";

/** Spec §7, step two: POST /{product}/bookings/download-accommodation-proof, body `number`, header `X-IV` → the PDF. */
export async function action({ context, params, request }: ActionFunctionArgs) {
  return proofDownload(context, params.product, request);
}

/** Only a POST fetches the PDF; a GET is told so in the guest's language. */
export async function loader({ context, params }: LoaderFunctionArgs) {
  requireProduct(params, context);
  return proofRefusal(context.app.lang, 405, "POST");
}
