import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { localizePath } from "~/i18n/languages";
import { escapeHtml } from "~/lib/html";
import { liveHotel } from "~/platform/context.server";
import { notFound } from "~/platform/not-found.server";
import { NEWS_PAGE_SIZE } from "./($lang).news";

/** sitemap.xml for the hotel of this domain: every page in every language, with hreflang alternates. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = liveHotel(app.hotel);
  if (!hotel) throw notFound("Not found");
  const origin = new URL(request.url).origin;
  const [rooms, promotions, news, attractions, facilities] = await Promise.all([
    app.api.rooms(),
    app.api.activePromotions(),
    app.api.activeAnnouncements({ limit: 100 }),
    app.api.activeAttractions(),
    app.api.facilities(),
  ]);
  const newsPages = Math.ceil(news.length / NEWS_PAGE_SIZE);
  // The pages the site links to (as its footer does): a section the hotel does not have is left out.
  const paths = [
    "/",
    ...(facilities.length > 0 ? ["/facilities"] : []),
    ...(promotions.length > 0 ? ["/event"] : []),
    ...(news.length > 0 ? ["/news"] : []),
    ...Array.from({ length: Math.max(0, newsPages - 1) }, (_, index) => `/news?page=${index + 2}`),
    "/about",
    ...(hotel.fb || hotel.line || hotel.instagram ? ["/follow"] : []),
    ...rooms.map((room) => `/room/${room.room_class_id}`),
    ...[...promotions, ...news, ...attractions].map((item) => `/event?id=${item.promotion_id}`),
  ];
  const entries = paths.flatMap((path) =>
    hotel.support_lang.map((lang) => {
      const alternates = hotel.support_lang
        .map(
          (alternate) =>
            `<xhtml:link rel="alternate" hreflang="${alternate}" href="${escapeHtml(origin + localizePath(path, alternate))}"/>`,
        )
        .join("");
      const fallback = `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeHtml(origin + localizePath(path, hotel.main_lang))}"/>`;
      return `<url><loc>${escapeHtml(origin + localizePath(path, lang))}</loc>${alternates}${fallback}</url>`;
    }),
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${entries.join("\n")}\n</urlset>\n`;
  return new Response(xml, { headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=3600" } });
}
