/** The last step of the pipeline: the Remix site, from the whole-page edge cache when it holds the page, else rendered. */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { type BackendOptions } from "~/backend/router.server";
import { createAppContext, liveHotel } from "~/platform/context.server";
import { withContentCache } from "~/platform/edge/content-cache.server";
import { EDGE_CACHE_HEADER, PageCache, type CachedPage, type PageVersions } from "~/platform/edge/page-cache.server";
import { type ReplicaSession } from "~/platform/edge/replica.server";
import { clearedTokenCookies } from "~/platform/session.server";
import { type AppEnv } from "~/platform/env.server";
import { type Logger } from "~/platform/log.server";
import { privateUnlessPublic, securityHeaders } from "~/platform/security.server";
import { unavailablePage } from "~/platform/unavailable.server";
import { deliverMailSoon } from "~/backend/mail/deliver.server";
import { base64 } from "~/lib/crypto";
import { backendTransport } from "~/worker/backend.server";
import { siteRequest } from "~/worker/guards.server";
import { hotelDomainFor } from "~/platform/context.server";
import { isCacheablePageRequest, pageCacheKey } from "~/platform/edge/page-cache.server";
import { rememberVersions, seenVersions } from "~/platform/edge/versions.server";
import { readHotelVersions } from "~/backend/hotels/versions.server";
import { bookmarkSetCookie } from "~/platform/edge/replica.server";

export type RemixHandler = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

export function nonce(): string {
  return base64(crypto.getRandomValues(new Uint8Array(16)));
}

export interface SiteRequest {
  request: Request;
  url: URL;
  env: AppEnv;
  ctx: ExecutionContext;
  remix: RemixHandler;
  log: Logger;
  crossSite: boolean;
  replica: ReplicaSession;
  /** The hotel's cache versions when the built-in back end serves a live hotel at this domain. */
  versions: PageVersions | null;
  /** What the built-in back end gets besides its database (payment secrets, the guest's address…). */
  options: BackendOptions;
}

/**
 * A content page for a guest from the edge cache (decision 027): a fresh copy as it is; a stale
 * one while the page is rendered again in the background; none: rendered, and stored when it is a
 * whole page that every guest may see (200, no cookie, the back end answered every call).
 */
export async function cachedPage(site: SiteRequest, pages: PageCache, key: string, found?: CachedPage | null): Promise<Response> {
  const cached = found === undefined ? await pages.lookup(key) : found;
  if (cached) {
    if (cached.age === "stale") {
      site.ctx.waitUntil(
        (async () => {
          const renderNonce = nonce();
          const { response, complete } = await renderSite(site, renderNonce);
          if (complete && PageCache.storable(response)) await pages.store(key, response, renderNonce, site.log);
          else await response.body?.cancel();
        })().catch((error: unknown) => site.log.error("page refresh failed", key, error)),
      );
    }
    return securityHeaders(cached.response, { scriptHashes: cached.scriptHashes });
  }
  const renderNonce = nonce();
  const { response, complete } = await renderSite(site, renderNonce);
  if (!complete || !PageCache.storable(response) || !response.body) return response;
  const [forGuest, forCache] = response.body.tee();
  site.ctx.waitUntil(pages.store(key, new Response(forCache, response), renderNonce, site.log));
  const headers = new Headers(response.headers);
  headers.set(EDGE_CACHE_HEADER, "MISS");
  return new Response(forGuest, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The Remix site for one request; `complete` when no back-end call failed while it rendered. Every
 * answer goes out private unless it is meant for everyone (privateUnlessPublic, issue 37).
 */
export async function renderSite(site: SiteRequest, cspNonce: string): Promise<{ response: Response; complete: boolean }> {
  const { response, complete } = await renderRemix(site, cspNonce);
  return { response: privateUnlessPublic(site.request, site.url, response), complete };
}

async function renderRemix(site: SiteRequest, cspNonce: string): Promise<{ response: Response; complete: boolean }> {
  const { request, url, env, ctx, remix, log, crossSite, replica, versions, options } = site;
  const backend = backendTransport(env, fetch, replica.db, options);
  const { origin, masterBase, accountBase, pmsBase } = backend;
  const waitUntil = (promise: Promise<unknown>) => ctx.waitUntil(promise);
  const transport = versions
    ? withContentCache(backend.transport, { contentVersion: versions.content, waitUntil, log })
    : backend.transport;
  const app = await createAppContext({
    request,
    env,
    transport,
    apiOrigin: origin,
    masterBase,
    accountBase,
    pmsBase,
    waitUntil,
    cspNonce,
    crossSite,
    log,
    contentVersion: versions?.content ?? null,
  });
  const response = await remix(siteRequest(request), { app });
  // A form may have queued email (an order, a cancellation): it leaves after the response.
  if (request.method === "POST" && response.status < 400) ctx.waitUntil(deliverMailSoon(env, log));
  const unavailable = app.backendUnavailable();
  if (response.status >= 500 && unavailable) {
    // The page needed the back end and it could not answer: a 503 with the hotel's contact, not an error page.
    await response.body?.cancel();
    log.warn("answered 503: the back end is unavailable", url.pathname, unavailable.code);
    // A hotel that is not live is never named (spec §2: its domain is a plain 404).
    return { response: securityHeaders(unavailablePage(app.lang, liveHotel(app.hotel)), {}), complete: false };
  }
  const refused = app.memberTokenRefused();
  const setsSession = response.headers.getSetCookie().some((cookie) => cookie.startsWith("mem_token="));
  if (refused || (app.session.migration.length > 0 && !setsSession)) {
    // Signed out: the back end no longer accepts the saved token (decision 023). Or a legacy
    // `member` cookie moved to mem_token and pms_token (decision 036).
    const headers = new Headers(response.headers);
    for (const cookie of refused ? await clearedTokenCookies(env) : app.session.migration) headers.append("set-cookie", cookie);
    return {
      response: securityHeaders(new Response(response.body, { status: response.status, statusText: response.statusText, headers }), {
        nonce: cspNonce,
      }),
      complete: false,
    };
  }
  return { response: securityHeaders(response, { nonce: cspNonce }), complete: unavailable === null };
}

/**
 * Step 5: the site. With the built-in back end, a content page is looked up in the whole-page edge
 * cache under the hotel's versions (decision 027); otherwise, or when it is not there, Remix renders it.
 */
export async function serveSite(site: SiteRequest, buildVersion: string): Promise<Response> {
  const { request, url, env, ctx, log, replica } = site;
  if (!env.HOTEL_API_ORIGIN) {
    const domain = hotelDomainFor(url.host, env.DEFAULT_HOTEL_DOMAIN);
    const pageRequest = isCacheablePageRequest(request, url);
    const pages = pageRequest ? PageCache.open(log) : null;
    const seen = seenVersions(domain);
    let guessKey: string | null = null;
    let guessed: Promise<CachedPage | null> | null = null;
    if (seen?.trusted) {
      site.versions = seen.versions;
    } else {
      // While the versions are read, the page is looked up under the versions this isolate saw
      // last: when they are still current (nearly always), the read and the lookup cost one wait.
      guessKey = pages && seen?.versions ? pageCacheKey(domain, url, seen.versions, buildVersion) : null;
      const key = guessKey;
      guessed = key && pages ? pages.then((cache) => cache?.lookup(key) ?? null) : null;
      try {
        site.versions = await readHotelVersions(replica.db, domain);
        rememberVersions(domain, site.versions);
      } catch (error) {
        log.error("cache versions unreadable, nothing served from the edge cache", domain, error);
      }
    }
    const cache = site.versions && pages ? await pages : null;
    const key = cache && site.versions ? pageCacheKey(domain, url, site.versions, buildVersion) : null;
    if (guessed && key !== guessKey) ctx.waitUntil(guessed.then((found) => found?.response.body?.cancel()));
    if (cache && key) return cachedPage(site, cache, key, guessed && key === guessKey ? await guessed : undefined);
  }
  const { response } = await renderSite(site, nonce());
  if (request.method !== "GET" && request.method !== "HEAD") {
    const bookmark = bookmarkSetCookie(replica);
    if (bookmark) response.headers.append("set-cookie", bookmark);
  }
  return response;
}
