/**
 * Hotel info cached at the edge, per domain and language (Cache API). Fresh for FRESH_SECONDS;
 * after that the cached copy is still served (up to STALE_SECONDS) while a background refresh
 * replaces it. Older than that it is asked for again, but when the back end cannot answer (down,
 * too slow, garbage) the copy is still served, up to STALE_IF_ERROR_SECONDS (decision 024).
 * Only hotel info is cached here: never availability or prices. Other public content is cached by
 * app/platform/edge/ (decision 026).
 */
import type { Language } from "~/i18n/languages";
import { HotelApiError } from "~/contract/client";
import type { HotelInfo } from "~/contract/schemas";
import { createLogger, type Logger } from "~/platform/log.server";
import { MemoryCache } from "~/lib/memory";

export const HOTEL_CACHE_POLICY = { FRESH_SECONDS: 60, STALE_SECONDS: 600, STALE_IF_ERROR_SECONDS: 86_400 } as const;

interface CachedEntry {
  hotel: HotelInfo | null;
  storedAt: number;
  /** The hotel's content version it was read at (docs/decisions/026), when known. */
  version?: number | null;
}

/** What this instance read or stored lately, in front of the Cache API (decision 046); shared read-only. */
const memory = new MemoryCache<CachedEntry>(200);

function cacheKey(domain: string, lang: Language): string {
  return `https://hotel-info.cache.portico/${encodeURIComponent(domain)}/${lang}`;
}

async function openCache(log: Logger): Promise<Cache | null> {
  if (typeof caches === "undefined") return null;
  try {
    return await caches.open("hotel-info");
  } catch (error) {
    log.warn("edge cache unavailable, hotel info read from the back end", error);
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

async function store(cache: Cache, key: string, hotel: HotelInfo | null, now: number, version: number | null): Promise<void> {
  const entry: CachedEntry = { hotel, storedAt: now, version };
  memory.set(key, entry, now);
  await cache.put(
    key,
    new Response(JSON.stringify(entry), {
      headers: {
        "content-type": "application/json",
        "cache-control": `max-age=${HOTEL_CACHE_POLICY.STALE_IF_ERROR_SECONDS}`,
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
  log: Logger = createLogger("hotel-cache"),
  contentVersion: number | null = null,
): Promise<HotelInfo | null> {
  const cache = await openCache(log);
  if (!cache) return loadOrNull(load);
  const key = cacheKey(domain, lang);
  // A copy read before the hotel's last import is replaced at once; it still serves if the back end is down.
  const isCurrent = (entry: CachedEntry | null): entry is CachedEntry =>
    entry !== null && (contentVersion === null || (entry.version ?? null) === contentVersion);
  const kept = memory.get(key)?.value ?? null;
  if (isCurrent(kept) && (now - kept.storedAt) / 1000 < HOTEL_CACHE_POLICY.FRESH_SECONDS) return kept.hotel;
  const hit = await cache.match(key);
  const entry = hit ? ((await hit.json()) as CachedEntry) : null;
  if (entry) memory.set(key, entry, entry.storedAt);
  const current = isCurrent(entry);
  if (entry && current) {
    const age = (now - entry.storedAt) / 1000;
    if (age < HOTEL_CACHE_POLICY.FRESH_SECONDS) return entry.hotel;
    if (age < HOTEL_CACHE_POLICY.STALE_SECONDS) {
      waitUntil(
        loadOrNull(load)
          .then((hotel) => store(cache, key, hotel, Date.now(), contentVersion))
          .catch((error) => log.error("hotel info refresh failed", domain, lang, error)),
      );
      return entry.hotel;
    }
  }
  let hotel: HotelInfo | null;
  try {
    hotel = await loadOrNull(load);
  } catch (error) {
    // Stale if error: a copy the guest saw earlier beats no page at all.
    if (
      entry &&
      error instanceof HotelApiError &&
      error.isUnavailable &&
      (now - entry.storedAt) / 1000 < HOTEL_CACHE_POLICY.STALE_IF_ERROR_SECONDS
    ) {
      log.warn("back end unavailable, serving stale hotel info", domain, lang, error);
      return entry.hotel;
    }
    throw error;
  }
  waitUntil(store(cache, key, hotel, now, contentVersion).catch((error) => log.error("hotel info not cached", domain, lang, error)));
  return hotel;
}
