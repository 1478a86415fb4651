import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { lodgingUnit } from "~/domain/units";
import { messagesOf } from "~/i18n/page-messages.server";

/**
 * Every word of the pages in the request's language, in the hotel's unit words: what a hydrated
 * page fetches once before its first client navigation to another page (decision 144).
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const { app } = context;
  return new Response(JSON.stringify(messagesOf(app.lang, lodgingUnit(app.hotel?.kind))), {
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
