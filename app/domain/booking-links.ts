/**
 * Where "Book now" goes (spec §2): the internal booking page; /{product}/maintain when online
 * booking is closed and there is no official link; or the hotel's official external booking
 * engine, with the dates and party size in that engine's own query names
 * (docs/decisions/006-external-booking-engines.md).
 */
import { localizePath, type Language } from "~/i18n/languages";

export interface BookingQuery {
  start: string;
  end: string;
  adults: number;
  children: number;
  room: number;
}

interface ExternalProvider {
  id: string;
  /** Text the link's host contains. */
  host: string;
  params: (query: BookingQuery) => Record<string, string>;
}

/** Booking engines used by hotels in Taiwan, identified by the host of the official link. */
export const EXTERNAL_PROVIDERS: readonly ExternalProvider[] = [
  {
    // OwlTing Booking: Taiwanese engine; its links carry lang=zh_TW and an infant count.
    id: "owlting",
    host: "owlting.com",
    params: (q) => ({ start: q.start, end: q.end, adult: String(q.adults), child: String(q.children), infant: "0", lang: "zh_TW" }),
  },
  {
    // SiteMinder's booking engine (direct-book.com).
    id: "siteminder",
    host: "direct-book.com",
    params: (q) => ({
      checkInDate: q.start,
      checkOutDate: q.end,
      "items[0][adults]": String(q.adults),
      "items[0][children]": String(q.children),
      "items[0][infants]": "0",
      currency: "TWD",
    }),
  },
  {
    // Sabre SynXis booking engine.
    id: "synxis",
    host: "synxis.com",
    params: (q) => ({ arrive: q.start, depart: q.end, adult: String(q.adults), child: String(q.children), rooms: String(q.room) }),
  },
  {
    // Cloudbeds booking engine.
    id: "cloudbeds",
    host: "cloudbeds.com",
    params: (q) => ({ checkin: q.start, checkout: q.end, adults: String(q.adults), kids: String(q.children) }),
  },
];

export function externalProviderFor(link: string): ExternalProvider | null {
  try {
    const host = new URL(link).host.toLowerCase();
    return EXTERNAL_PROVIDERS.find((provider) => host === provider.host || host.endsWith(`.${provider.host}`)) ?? null;
  } catch {
    return null;
  }
}

/** The official link with the stay added in its provider's format (unknown providers: as given). */
export function externalBookingUrl(link: string, query: BookingQuery): string {
  const provider = externalProviderFor(link);
  if (!provider) return link;
  const url = new URL(link);
  for (const [name, value] of Object.entries(provider.params(query))) url.searchParams.set(name, value);
  return url.toString();
}

export type BookingTarget = { kind: "internal" | "maintain" | "external"; href: string };

export function bookingTarget(
  hotel: { booking_close: boolean; business_status: number; official_booking: string },
  product: string,
  lang: Language,
  query: BookingQuery,
): BookingTarget {
  const closed = hotel.booking_close || hotel.business_status === 1;
  if (closed && hotel.official_booking) return { kind: "external", href: externalBookingUrl(hotel.official_booking, query) };
  if (closed) return { kind: "maintain", href: localizePath(`/${product}/maintain`, lang) };
  const search = new URLSearchParams({
    start: query.start,
    end: query.end,
    adults: String(query.adults),
    children: String(query.children),
    room: String(query.room),
  });
  return { kind: "internal", href: `${localizePath(`/${product}/booking`, lang)}?${search}` };
}
