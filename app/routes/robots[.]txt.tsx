import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { liveHotel } from "~/platform/context.server";

/** robots.txt per domain: content is public; booking, payment and order pages and the hotel's desk are not for indexing. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  const origin = new URL(request.url).origin;
  const open = liveHotel(app.hotel) !== null;
  const product = app.env.PRODUCT;
  const body = open
    ? `User-agent: *\nAllow: /\nDisallow: /${product}/\nDisallow: /*/${product}/\nDisallow: /pay/\nDisallow: /redirect/\nDisallow: /api/\nDisallow: /desk\nDisallow: /*/desk\n\nSitemap: ${origin}/sitemap.xml\n`
    : "User-agent: *\nDisallow: /\n";
  return new Response(body, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" } });
}
