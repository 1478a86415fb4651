/**
 * The cache versions of the hotels this Worker isolate served (decision 026): trusted for
 * VERSIONS_FRESH_MS after they were read, the bound on how late a page follows an import or a booking.
 */
import type { PageVersions } from "./page-cache.server";

export const VERSIONS_FRESH_MS = 1_000;

/** What this isolate read last, per domain (versions null: no live hotel there). */
const lastVersions = new Map<string, { versions: PageVersions | null; readAt: number }>();

/** The versions read last for `domain`, and whether they are still trusted. */
export function seenVersions(domain: string, now = Date.now()): { versions: PageVersions | null; trusted: boolean } | null {
  const seen = lastVersions.get(domain);
  return seen ? { versions: seen.versions, trusted: now - seen.readAt < VERSIONS_FRESH_MS } : null;
}

export function rememberVersions(domain: string, versions: PageVersions | null, now = Date.now()): void {
  if (lastVersions.size >= 1_000 && !lastVersions.has(domain)) lastVersions.clear();
  lastVersions.set(domain, { versions, readAt: now });
}
