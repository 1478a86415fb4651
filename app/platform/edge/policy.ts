/**
 * How long edge copies of public hotel content are used (docs/decisions/026). Every key carries the
 * hotel's content version (and a page's key its stock version and the hotel's date too), so an
 * import or a booking never waits for these: they only bound content that changes with the clock
 * alone. A copy younger than FRESH_SECONDS is served as it is; older, up to STALE_SECONDS, it is
 * served while a background request replaces it (stale-while-revalidate).
 */
import type { Logger } from "~/platform/log.server";

export const EDGE_CACHE_POLICY = { FRESH_SECONDS: 300, STALE_SECONDS: 86_400 } as const;

/** Header on a stored copy: when it was stored (ms since the epoch). */
export const STORED_AT_HEADER = "x-edge-stored-at";

/** Whether a copy stored at `storedAt` is fresh, stale (serve and refresh) or too old to serve. */
export function ageOf(storedAt: number, now: number): "fresh" | "stale" | "expired" {
  const age = (now - storedAt) / 1000;
  if (!Number.isFinite(age) || age >= EDGE_CACHE_POLICY.STALE_SECONDS) return "expired";
  return age < EDGE_CACHE_POLICY.FRESH_SECONDS ? "fresh" : "stale";
}

/** Opens a named edge cache; null where the platform has none (Node) or it fails (logged: pages are then built every time). */
export async function openEdgeCache(name: string, log: Pick<Logger, "warn">): Promise<Cache | null> {
  if (typeof caches === "undefined") return null;
  try {
    return await caches.open(name);
  } catch (error) {
    log.warn("edge cache unavailable, answering without it", name, error);
    return null;
  }
}
