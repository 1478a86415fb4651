import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { proofRefusal, proofTicketAnswer } from "~/features/orders/proof.server";
import { requireProduct } from "~/platform/not-found.server";

/** Spec §7, step one: GET /{product}/download/download-accommodation-proof/{id} → iv and number (owner or link holder only). */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  return proofTicketAnswer(context, params.product, params.id, request);
}

/** Any other method: a 405 in the guest's language (without an action, Remix answers an English 500-style error). */
export async function action({ context, params }: ActionFunctionArgs) {
  requireProduct(params, context);
  return proofRefusal(context.app.lang, 405, "GET");
}
