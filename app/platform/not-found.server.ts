/**
 * The site's 404s (spec §2), one way (issue 24): loaders and actions `throw notFound()`; under the
 * ($lang) layout its error boundary shows the not-found page around it.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { HotelInfo } from "~/contract/schemas";

/** A 404 to throw; `body` only for the plain-text answers of resource routes. */
export function notFound(body: string | null = null): Response {
  return new Response(body, { status: 404 });
}

/**
 * The hotel of this domain when the path's {product} segment is the site's (`PRODUCT`); otherwise
 * a 404, as for a hotel that is not live.
 */
export function requireProduct(params: { product?: string }, context: AppLoadContext): HotelInfo {
  const { app } = context;
  if (!app.hotel || params.product !== app.env.PRODUCT) throw notFound();
  return app.hotel;
}
