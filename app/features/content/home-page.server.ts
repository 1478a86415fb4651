/** The home page's data: the hotel's rooms with their "from" prices, offers, news, attractions and facilities. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { todayIn } from "~/domain/dates";
import { htmlToText, safeLink } from "~/lib/sanitize";
import { loadFromPrices } from "~/features/content/from-prices.server";
import { MemoryCache } from "~/lib/memory";
import { fallbackOnError } from "~/platform/log.server";
import { hotelJsonLd } from "./json-ld.server";
import { notFound } from "~/platform/not-found.server";

/** How many news items the home page lists (spec §9: news limited to a requested count). */
export const HOME_NEWS_COUNT = 4;

/** The room ids each hotel's home page listed last in this instance: ids only, never prices (those follow the hotel's versions). */
const ROOM_IDS_SEEN = new MemoryCache<number[]>(200);

export async function homePage({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = app.hotel;
  if (!hotel) throw notFound();
  const today = todayIn(hotel.time_zone);
  // The "from" prices need the rooms' ids; asked with the ids this instance saw last for the hotel,
  // they go out with everything else (one round trip after the hotel info, issue 26), and only a
  // room that is new since then waits for the room list.
  const seen = ROOM_IDS_SEEN.get(hotel.domain)?.value ?? [];
  // A failure here (a room since removed) only sends every id again below, where failures are logged.
  const early =
    seen.length > 0 ? loadFromPrices(app.api, today, seen).catch(() => null) : Promise.resolve(new Map<number, number | null>());
  const [rooms, promotions, news, attractions, facilities] = await Promise.all([
    app.api.rooms(),
    app.api.activePromotions({ indexOnly: true }),
    app.api.activeAnnouncements({ limit: HOME_NEWS_COUNT }),
    app.api.activeAttractions({ indexOnly: true }),
    app.api.facilities(),
  ]);
  const ids = rooms.map((room) => room.room_class_id);
  ROOM_IDS_SEEN.set(hotel.domain, ids, Date.now());
  const known = await early;
  const unseen = known ? ids.filter((id) => !known.has(id)) : ids;
  // A price back end that fails costs the cards their "from" price, never the page.
  const fromPrices = new Map([
    ...(known ?? []),
    ...(unseen.length > 0
      ? await loadFromPrices(app.api, today, unseen).catch(fallbackOnError(app.log, "from prices", () => new Map<number, number | null>()))
      : []),
  ]);
  const url = new URL(request.url);
  return {
    url: `${url.origin}${url.pathname}`,
    hotel: {
      name: hotel.hotel_name,
      introduction: hotel.introduction,
      seoTitle: hotel.seo_title || hotel.hotel_name,
      seoDescription: htmlToText(hotel.seo_content || hotel.introduction),
      customBlock: hotel.custom_block,
      locationBlock: hotel.location_block,
      address: hotel.address,
    },
    banners: hotel.banner_images.map((image, index) => ({
      image,
      title: hotel.banner_titles[index]?.title ?? "",
      subtitle: hotel.banner_titles[index]?.subtitle ?? "",
      link: safeLink(hotel.banner_info[index]?.link ?? ""),
    })),
    rooms: rooms.map((room) => ({ ...room, fromPrice: fromPrices.get(room.room_class_id) ?? null })),
    promotions,
    news,
    attractions,
    facilities,
    jsonLd: hotelJsonLd(hotel, url.origin, `${url.origin}${url.pathname}`),
  };
}
