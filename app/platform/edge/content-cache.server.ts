/**
 * Public hotel content cached at the edge (Cache API), in front of the back end: the answers of
 * the contract's content reads (menu, room classes, facilities, promotions, news, attractions,
 * sister hotels, preferences), per hotel and language (both are in the request's query) and per
 * content version, which a hotel import bumps (docs/decisions/026). Stale-while-revalidate.
 * Availability, prices, carts, orders and members never pass through here.
 */
import type { Transport } from "~/contract/client";
import type { Logger } from "~/platform/log.server";
import { answerText } from "~/contract/answers";
import { CONTENT_URL_PATHS } from "~/contract/content-reads";
import { MemoryCache } from "~/lib/memory";
import { ageOf, openEdgeCache, STORED_AT_HEADER } from "./policy";

/** Fresh answers this instance read or stored lately (menus, lists, a hotel's pages in its languages). */
const memory = new MemoryCache<string>(300, { maxBytes: 4 * 1024 * 1024, sizeOf: (body) => body.length });

const fromMemory = (body: string) => new Response(body, { headers: { "content-type": "application/json" } });

export function isContentRead(request: Request, url = new URL(request.url)): boolean {
  return request.method === "GET" && CONTENT_URL_PATHS.has(url.pathname);
}

/** The synthetic URL a content answer is kept under: version, path and the sorted query (hotel, language…). */
export function contentCacheKey(url: URL, contentVersion: number): string {
  const query = new URLSearchParams([...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `https://content.edge-cache.portico/v${contentVersion}${url.pathname}?${query}`;
}

interface Options {
  contentVersion: number;
  waitUntil: (promise: Promise<unknown>) => void;
  log: Logger;
  now?: () => number;
}

/** Keeps a successful answer: HTTP 200 and the contract's `success: true`. */
async function keep(
  cache: Cache,
  key: string,
  response: Response,
  now: number,
  waitUntil: Options["waitUntil"],
  log: Logger,
): Promise<Response> {
  const body = await answerText(response);
  let success = false;
  try {
    success = response.status === 200 && (JSON.parse(body) as { success?: unknown }).success === true;
  } catch {
    success = false;
  }
  if (success) {
    memory.set(key, body, now);
    const copy = new Response(body, {
      headers: { "content-type": "application/json", "cache-control": "max-age=86400", [STORED_AT_HEADER]: String(now) },
    });
    waitUntil(cache.put(key, copy).catch((error) => log.error("content not cached", key, error)));
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The transport with content reads answered from the edge cache when it holds them. */
export function withContentCache(transport: Transport, { contentVersion, waitUntil, log, now = Date.now }: Options): Transport {
  let opened: Promise<Cache | null> | null = null;
  return async (request) => {
    const url = new URL(request.url);
    if (!isContentRead(request, url)) return transport(request);
    const cache = await (opened ??= openEdgeCache("content", log));
    if (!cache) return transport(request);
    const key = contentCacheKey(url, contentVersion);
    const kept = memory.get(key);
    if (kept && ageOf(kept.storedAt, now()) === "fresh") return fromMemory(kept.value);
    const hit = await cache.match(key);
    if (hit) {
      const storedAt = Number(hit.headers.get(STORED_AT_HEADER));
      const age = ageOf(storedAt, now());
      if (age === "fresh") {
        const body = await hit.text();
        memory.set(key, body, storedAt);
        return fromMemory(body);
      }
      if (age === "stale") {
        waitUntil(
          transport(new Request(request))
            .then((response) => keep(cache, key, response, now(), waitUntil, log))
            .catch((error) => log.error("content refresh failed", url.pathname, error)),
        );
        return hit;
      }
    }
    const response = await transport(request);
    if (response.status !== 200) return response;
    return keep(cache, key, response, now(), waitUntil, log);
  };
}
