/**
 * Hotel info cached at the edge, per domain and language (Cache API). Fresh for FRESH_SECONDS;
 * after that the cached copy is still served (up to STALE_SECONDS) while a background refresh
 * replaces it. Only hotel info is cached here: never availability or prices.
 */
import type { Language } from "~/i18n/languages";
import { HotelApiError } from "~/hotel-api/client";
import type { HotelInfo } from "~/hotel-api/schemas";

export const HOTEL_CACHE_POLICY = { FRESH_SECONDS: 60, STALE_SECONDS: 600 } as const;

interface CachedEntry {
  hotel: HotelInfo | null;
  storedAt: number;
}

function cacheKey(domain: string, lang: Language): string {
  return `https://hotel-info.cache.portico/${encodeURIComponent(domain)}/${lang}`;
}

async function openCache(): Promise<Cache | null> {
  try {
    return typeof caches === "undefined" ? null : await caches.open("hotel-info");
  } catch {
    return null;
  }
}

/** Loads hotel info (null when no hotel has this domain). */
export type HotelLoader = () => Promise<HotelInfo>;

async function loadOrNull(load: HotelLoader): Promise<HotelInfo | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof HotelApiError && error.isNotFound) return null;
    throw error;
  }
}

async function store(cache: Cache, key: string, hotel: HotelInfo | null, now: number): Promise<void> {
  const entry: CachedEntry = { hotel, storedAt: now };
  await cache.put(
    key,
    new Response(JSON.stringify(entry), {
      headers: {
        "content-type": "application/json",
        "cache-control": `max-age=${HOTEL_CACHE_POLICY.STALE_SECONDS}`,
      },
    }),
  );
}

export async function getHotelInfo(
  domain: string,
  lang: Language,
  load: HotelLoader,
  waitUntil: (promise: Promise<unknown>) => void,
  now = Date.now(),
): Promise<HotelInfo | null> {
  const cache = await openCache();
  if (!cache) return loadOrNull(load);
  const key = cacheKey(domain, lang);
  const hit = await cache.match(key);
  if (hit) {
    const entry = (await hit.json()) as CachedEntry;
    const age = (now - entry.storedAt) / 1000;
    if (age < HOTEL_CACHE_POLICY.FRESH_SECONDS) return entry.hotel;
    if (age < HOTEL_CACHE_POLICY.STALE_SECONDS) {
      waitUntil(
        loadOrNull(load)
          .then((hotel) => store(cache, key, hotel, Date.now()))
          .catch((error) => console.error("hotel info refresh failed", domain, error)),
      );
      return entry.hotel;
    }
  }
  const hotel = await loadOrNull(load);
  waitUntil(store(cache, key, hotel, now).catch(() => undefined));
  return hotel;
}
