/**
 * Whole HTML of content pages cached at the edge for guests (docs/decisions/027): home, room,
 * events, news, facilities and about, asked with GET and without a member cookie. The key names
 * the hotel, the path with its query (the language is in the path), the hotel's content and stock
 * versions and its date, so an import or a booking replaces the page on the next request; and the
 * build's asset version, since a page names the build's stylesheets and scripts by their hashed
 * file names and a deploy removes the old files: a page stored before a deploy is never served after it.
 *
 * A page's CSP nonce is per response; a copy served to many guests cannot keep one. A stored copy
 * has its nonce attributes removed and allows its inline scripts by their SHA-256 hashes instead,
 * computed when it is stored (content pages have no script a guest can inject: hotel HTML is
 * sanitized, and the only inline scripts are the hotel's analytics snippets and JSON-LD).
 */
import { todayIn } from "~/domain/dates";
import { stripLanguage } from "~/i18n/languages";
import type { Logger } from "~/platform/log.server";
import { MemoryCache } from "~/lib/memory";
import { ageOf, openEdgeCache, STORED_AT_HEADER } from "./policy";
import { base64, sha256 } from "~/lib/crypto";

export interface PageVersions {
  content: number;
  stock: number;
  timeZone: string;
}

const CONTENT_PAGE = /^\/(?:|room\/\d+|event|news|facilities|about)$/;
const HASHES_HEADER = "x-edge-script-hashes";
const ORIGINAL_CACHE_CONTROL = "x-edge-cache-control";
/** On every page response: HIT (fresh copy), STALE (copy served, being replaced), MISS (rendered, stored). */
export const EDGE_CACHE_HEADER = "x-edge-cache";

/** Whether the request carries a member's session: every page then names the member in its header (decision 036). */
export function carriesMemberCookie(request: Request): boolean {
  return /(?:^|;\s*)(?:member|mem_token|pms_token)=/.test(request.headers.get("cookie") ?? "");
}

/** Whether the path is a content page's (home, room, events, news, facilities, about), in any language. */
export function isContentPagePath(url: URL): boolean {
  return CONTENT_PAGE.test(stripLanguage(url.pathname));
}

/** Whether the request may be answered from (and stored in) the page cache. */
export function isCacheablePageRequest(request: Request, url: URL): boolean {
  if (request.method !== "GET") return false;
  // A signed-in member's page names them: never cached, never served from the cache.
  if (carriesMemberCookie(request)) return false;
  return isContentPagePath(url);
}

export function pageCacheKey(domain: string, url: URL, versions: PageVersions, buildVersion: string, now = new Date()): string {
  const day = todayIn(versions.timeZone, now);
  return `https://page.edge-cache.portico/${encodeURIComponent(domain)}/b${encodeURIComponent(buildVersion)}.c${versions.content}.s${versions.stock}/${day}${url.pathname}${url.search}`;
}

async function sha256Base64(text: string): Promise<string> {
  return base64(await sha256(text));
}

/** The page without its nonce attributes, and the CSP hashes of its inline scripts. */
export async function withoutNonce(html: string, nonce: string): Promise<{ html: string; hashes: string[] }> {
  const escaped = nonce.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const bare = html.replace(new RegExp(` nonce="${escaped}"`, "g"), "");
  const hashes = new Set<string>();
  for (const match of bare.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    if (match[1]) hashes.add(`sha256-${await sha256Base64(match[1])}`);
  }
  return { html: bare, hashes: [...hashes] };
}

export interface CachedPage {
  response: Response;
  scriptHashes: string[];
  age: "fresh" | "stale";
}

/** A stored copy as kept in this isolate's memory, in front of the Cache API. */
interface MemoryCopy {
  html: string;
  headers: [string, string][];
  storedAt: number;
}

/** The last pages this isolate served: a hit costs no trip to the cache. */
const memory = new MemoryCache<MemoryCopy>(64, { maxBytes: 8 * 1024 * 1024, sizeOf: (copy) => copy.html.length });

export class PageCache {
  private constructor(private readonly cache: Cache) {}

  static async open(log: Pick<Logger, "warn">): Promise<PageCache | null> {
    const cache = await openEdgeCache("pages", log);
    return cache ? new PageCache(cache) : null;
  }

  private async copyOf(key: string): Promise<MemoryCopy | null> {
    const kept = memory.get(key)?.value;
    if (kept) return kept;
    const hit = await this.cache.match(key);
    if (!hit) return null;
    const copy = { html: await hit.text(), headers: [...hit.headers], storedAt: Number(hit.headers.get(STORED_AT_HEADER)) };
    memory.set(key, copy, copy.storedAt);
    return copy;
  }

  async lookup(key: string, now = Date.now()): Promise<CachedPage | null> {
    const copy = await this.copyOf(key);
    if (!copy) return null;
    const age = ageOf(copy.storedAt, now);
    if (age === "expired") return null;
    const headers = new Headers(copy.headers);
    const scriptHashes = (headers.get(HASHES_HEADER) ?? "").split(" ").filter(Boolean);
    const cacheControl = headers.get(ORIGINAL_CACHE_CONTROL);
    for (const name of [HASHES_HEADER, ORIGINAL_CACHE_CONTROL, STORED_AT_HEADER, "cache-control"]) headers.delete(name);
    if (cacheControl) headers.set("cache-control", cacheControl);
    headers.set(EDGE_CACHE_HEADER, age === "fresh" ? "HIT" : "STALE");
    return { response: new Response(copy.html, { status: 200, headers }), scriptHashes, age };
  }

  /** Whether a rendered response may be kept for every guest: a whole 200 HTML page setting no cookie. */
  static storable(response: Response): boolean {
    return (
      response.status === 200 &&
      (response.headers.get("content-type") ?? "").startsWith("text/html") &&
      !response.headers.has("set-cookie") &&
      response.body !== null
    );
  }

  /** Stores the page rendered with `nonce` (its body, read to the end), as a copy without the nonce. */
  async store(key: string, response: Response, nonce: string, log: Logger, now = Date.now()): Promise<void> {
    try {
      const { html, hashes } = await withoutNonce(await response.text(), nonce);
      const headers = new Headers(response.headers);
      for (const name of ["content-security-policy", "set-cookie", "x-request-id", EDGE_CACHE_HEADER]) headers.delete(name);
      const cacheControl = headers.get("cache-control");
      if (cacheControl) headers.set(ORIGINAL_CACHE_CONTROL, cacheControl);
      headers.set("cache-control", "max-age=86400");
      headers.set(STORED_AT_HEADER, String(now));
      headers.set(HASHES_HEADER, hashes.join(" "));
      memory.set(key, { html, headers: [...headers], storedAt: now }, now);
      await this.cache.put(key, new Response(html, { status: 200, headers }));
    } catch (error) {
      log.error("page not cached", key, error);
    }
  }
}
