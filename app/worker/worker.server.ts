/**
 * The Worker: static assets are served by the platform before this runs (route chunks excepted,
 * see encodedAssetRequest); the built-in hotel back end answers /api, /account, /pms and /master;
 * everything else is the Remix site.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { handleBackendRequest, isBackendPath, type BackendOptions } from "~/backend/router.server";
import { expireUnpaidOrders, prunePaymentEvents } from "~/backend/payments/payments.server";
import { handleSandbox, isSandboxPath } from "~/backend/payments/sandbox/sandbox.server";
import { readHotelVersions } from "~/backend/hotels/versions.server";
import { createAppContext, hotelDomainFor, liveHotel } from "~/platform/context.server";
import { withContentCache } from "~/platform/edge/content-cache.server";
import { EDGE_CACHE_HEADER, isCacheablePageRequest, PageCache, pageCacheKey, type CachedPage, type PageVersions } from "~/platform/edge/page-cache.server";
import { bookmarkSetCookie, openReplicaSession, type ReplicaSession } from "~/platform/edge/replica.server";
import { rememberVersions, seenVersions } from "~/platform/edge/versions.server";
import { apiMessage } from "~/backend/messages";
import { clearedTokenCookies } from "~/features/account/session.server";
import { DEVELOPMENT_SECRETS, EnvError, parseEnv, type AppEnv } from "~/platform/env.server";
import type { Transport } from "~/contract/client";
import { DEFAULT_LANGUAGE, isLanguage, languageFromPath } from "~/i18n/languages";
import { HotelApiError } from "~/contract/client";
import { resources } from "~/i18n/resources";
import { createLogger, REQUEST_ID_HEADER, requestIdOf, type Logger } from "~/platform/log.server";
import { canonicalLocation, sameOriginLocation } from "~/platform/redirects.server";
import { securityHeaders } from "~/platform/security.server";
import { unavailablePage } from "~/platform/unavailable.server";
import { deliverMail } from "~/backend/mail/deliver.server";
import { isOutboxPath, outboxPage } from "~/backend/mail/outbox-page.server";
import { base64 } from "~/lib/crypto";
import { clientAddress, isLocalHost } from "~/lib/hosts";

export type RemixHandler = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

/** How the site reaches its back end: in-process by default, over HTTP when an origin is set. */
const IN_PROCESS_ORIGIN = "https://backend.internal";

/** Where the site finds the spec's services: the /api origin and the {master}, {account} and {pms} bases. */
export interface BackendBases {
  origin: string;
  masterBase: string;
  accountBase: string;
  pmsBase: string;
}

/**
 * How the site reaches its back end: in-process by default; over HTTP to HOTEL_API_ORIGIN (the
 * /api calls), MASTER_ORIGIN, ACCOUNT_ORIGIN and PMS_ORIGIN (the spec's {master}, {account} and
 * {pms}) when they are set. An unset base is served by the same back end as /api.
 */
/**
 * What the built-in back end gets besides the database: Worker secrets by name (payment keys named
 * in a hotel file; only PAY_* names), the guest's address, fetch and waitUntil, FEATURE_REPAY.
 */
export function backendOptions(
  env: AppEnv,
  rawEnv: Record<string, unknown>,
  extra: { clientIp?: string; waitUntil?: (promise: Promise<unknown>) => void; siteOrigin?: string; log?: Logger } = {},
): BackendOptions {
  const siteHost = extra.siteOrigin ? new URL(extra.siteOrigin).hostname : "";
  return {
    db: env.DB,
    signingSecret: env.SESSION_SECRET,
    secret: (name) => {
      const value = /^PAY_[A-Z0-9_]+$/.test(name) ? rawEnv[name] : undefined;
      return typeof value === "string" && value !== "" ? value : undefined;
    },
    clientIp: extra.clientIp ?? "",
    waitUntil: extra.waitUntil,
    featureRepay: env.FEATURE_REPAY,
    // The site's own origin, so links the back end writes (emails) lead back to this hotel's site.
    site: extra.siteOrigin ? { origin: extra.siteOrigin, product: env.PRODUCT } : undefined,
    // The test gateway takes no money: this machine's hosts, or a staging deployment that opted in (decision 047).
    testGateway: env.ALLOW_TEST_GATEWAY || (siteHost !== "" && isLocalHost(siteHost)),
    // The request's logger: the back end's lines carry the same request id as the site's.
    log: extra.log,
  };
}

export function backendTransport(
  env: AppEnv,
  fetcher: typeof fetch = fetch,
  db: D1Database = env.DB,
  options: Omit<BackendOptions, "db"> = { signingSecret: env.SESSION_SECRET },
): BackendBases & { transport: Transport } {
  const origin = env.HOTEL_API_ORIGIN || IN_PROCESS_ORIGIN;
  const masterBase = env.MASTER_ORIGIN || `${origin}/master`;
  const accountBase = env.ACCOUNT_ORIGIN || `${origin}/account`;
  const pmsBase = env.PMS_ORIGIN || `${origin}/pms`;
  const inProcess = (request: Request) => handleBackendRequest(request, { ...options, db });
  // Every call over the network ends after HOTEL_API_TIMEOUT_MS, answer body included (decision 024).
  const external = (request: Request) => fetcher(new Request(request, { signal: AbortSignal.timeout(env.HOTEL_API_TIMEOUT_MS) }));
  const send: Transport = (request) => (new URL(request.url).origin === IN_PROCESS_ORIGIN ? inProcess(request) : external(request));
  // The bench's far-away back end (BENCH_BACKEND_LATENCY_MS, unset in production): every call waits first.
  const latency = env.BENCH_BACKEND_LATENCY_MS;
  return {
    origin,
    masterBase,
    accountBase,
    pmsBase,
    transport: latency > 0 ? (request) => new Promise((resolve) => setTimeout(resolve, latency)).then(() => send(request)) : send,
  };
}

/**
 * Remix names route chunks after their files (`($lang).$product.booking-….js`), and the asset
 * server answers a `$` in a path with a redirect to `%24`: a wasted round trip per chunk on a slow
 * phone. wrangler.toml sends /build/routes/* to the Worker first, which asks for the encoded path.
 */
export function encodedAssetRequest(request: Request, url = new URL(request.url)): Request {
  const encoded = new URL(url);
  encoded.pathname = url.pathname.replaceAll("$", "%24");
  return new Request(encoded, request);
}

/**
 * Whether a state-changing request came from another site: its Origin header names an origin other
 * than the request's own. `Origin: null` (privacy modes, no-referrer pages) decides nothing: the
 * CSRF token does (docs/decisions/017).
 */
export function isCrossSite(request: Request, url: URL): boolean {
  if (request.method === "GET" || request.method === "HEAD") return false;
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") return false;
  try {
    return new URL(origin).origin !== url.origin;
  } catch {
    return true;
  }
}

/**
 * The request as Remix sees it. Remix 2 compares Origin with Host (or X-Forwarded-Host, which any
 * client can send) before an action and throws, a 500, when they differ or Host is missing. The
 * Worker has already judged the Origin (isCrossSite), so Remix gets the request without those headers.
 */
export function siteRequest(request: Request): Request {
  if (request.method === "GET" || request.method === "HEAD") return request;
  const headers = new Headers(request.headers);
  headers.delete("origin");
  headers.delete("x-forwarded-host");
  return new Request(request, { headers });
}

/** A Host header that is a host name or address with an optional port, nothing else (no userinfo, path or spaces). */
const HOST_HEADER = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** A short plain-text refusal in the language of the path or of the API's `lang` (the site is not reached). */
function refusal(status: number, code: "bad_host" | "site_unavailable", url: URL): Response {
  const fromPath = languageFromPath(url.pathname);
  const asked = url.searchParams.get("lang");
  const lang = fromPath?.prefixed ? fromPath.language : isLanguage(asked) ? asked : DEFAULT_LANGUAGE;
  return securityHeaders(
    new Response(`${apiMessage(code, lang)}\n`, {
      status,
      headers: { "content-type": "text/plain; charset=utf-8", "content-language": lang, "cache-control": "no-store" },
    }),
    { api: true },
  );
}

function nonce(): string {
  return base64(crypto.getRandomValues(new Uint8Array(16)));
}

/** The language a page is asked in, read from its path alone (the site may not be reachable). */
function pathLanguage(url: URL) {
  return languageFromPath(url.pathname)?.language ?? DEFAULT_LANGUAGE;
}

/**
 * Every request, tagged with its id: every log line it writes carries the id, and so does the
 * response (x-request-id). Whatever throws is logged and answered with a short 500 in the guest's
 * language, never a stack trace.
 */
export async function handleFetch(
  request: Request,
  rawEnv: Record<string, unknown>,
  ctx: ExecutionContext,
  remix: RemixHandler,
  buildVersion: string,
): Promise<Response> {
  const requestId = requestIdOf(request);
  const log = createLogger(requestId);
  let response: Response;
  try {
    response = await handleRequest(request, rawEnv, ctx, remix, buildVersion, log);
  } catch (error) {
    log.error("request failed", request.method, new URL(request.url).pathname, error);
    const url = new URL(request.url);
    const lang = pathLanguage(url);
    if (error instanceof HotelApiError && error.isUnavailable) {
      response = securityHeaders(unavailablePage(lang, null), {});
    } else {
      const common = resources[lang].common;
      response = securityHeaders(
        new Response(`${common["error.title"]}\n${common["error.body"]}\n`, {
          status: 500,
          headers: { "content-type": "text/plain; charset=utf-8", "content-language": lang, "cache-control": "no-store" },
        }),
        {},
      );
    }
  }
  const headers = new Headers(response.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function handleRequest(
  request: Request,
  rawEnv: Record<string, unknown>,
  ctx: ExecutionContext,
  remix: RemixHandler,
  buildVersion: string,
  log: Logger,
): Promise<Response> {
  const url = new URL(request.url);
  const hostHeader = request.headers.get("host");
  if ((hostHeader !== null && !HOST_HEADER.test(hostHeader)) || url.username !== "" || url.password !== "") {
    return refusal(400, "bad_host", url);
  }
  const assets = rawEnv.ASSETS as Fetcher | undefined;
  if (assets && url.pathname.startsWith("/build/routes/")) {
    return securityHeaders(await assets.fetch(encodedAssetRequest(request, url)), { asset: true });
  }
  let env: AppEnv;
  try {
    env = parseEnv(rawEnv);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // A deploy without its secrets (SESSION_SECRET not put): the operator reads why in the logs.
    log.error(error.message);
    return refusal(503, "site_unavailable", url);
  }
  if (DEVELOPMENT_SECRETS.has(env.SESSION_SECRET) && !isLocalHost(url.hostname)) {
    log.error("Refusing to serve: SESSION_SECRET is the public development value; set a real one with `wrangler secret put SESSION_SECRET`.");
    return refusal(503, "site_unavailable", url);
  }
  // The guest's address counts toward the unpaid-order limit; this machine's own (local
  // development, tests) does not: every local guest shares it (docs/decisions/032).
  const clientIp = clientAddress(request);
  const options = backendOptions(env, rawEnv, { clientIp, waitUntil: (promise) => ctx.waitUntil(promise), siteOrigin: url.origin, log });
  // The development outbox page: only when configured, and only on this machine.
  if (env.MAIL_OUTBOX_PAGE && isLocalHost(url.hostname) && request.method === "GET" && isOutboxPath(url.pathname)) {
    return securityHeaders(await outboxPage(env, url, log), {});
  }
  if (isBackendPath(url.pathname)) {
    const response = await handleBackendRequest(request, options);
    // An order or a cancellation queues email: it leaves after the response. A refused call queued nothing.
    if (request.method === "POST" && response.status < 400) ctx.waitUntil(deliverMail(env, log));
    return securityHeaders(response, { api: true });
  }
  if (isSandboxPath(url.pathname) && options.testGateway) {
    // The built-in test gateway: its callbacks reach this Worker's own routes in process, and only
    // those (never another origin); on a public host it does not exist unless ALLOW_TEST_GATEWAY.
    const response = await handleSandbox(request, {
      signingSecret: env.SESSION_SECRET,
      origin: url.origin,
      waitUntil: (promise) => ctx.waitUntil(promise),
      deliver: (callback) => handleBackendRequest(callback, { ...options, clientIp: "" }),
      log,
    });
    return securityHeaders(response, {});
  }
  // One address per page: any other spelling of it is a 301 to it, on this origin (decision 018).
  if ((request.method === "GET" || request.method === "HEAD") && !url.pathname.startsWith("/build/")) {
    const canonical = canonicalLocation(url, env.PRODUCT);
    if (canonical !== null) {
      const location = sameOriginLocation(canonical, url);
      return securityHeaders(new Response(null, { status: 301, headers: { location } }), {});
    }
  }
  const crossSite = isCrossSite(request, url);
  // The built-in back end reads D1 through a session (read replicas, a guest's own writes: decision 028).
  const replica = openReplicaSession(env.DB, request, log);
  const site: SiteRequest = { request, url, env, ctx, remix, log, crossSite, replica, versions: null, options };
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

interface SiteRequest {
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
async function cachedPage(site: SiteRequest, pages: PageCache, key: string, found?: CachedPage | null): Promise<Response> {
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

/** The Remix site for one request; `complete` when no back-end call failed while it rendered. */
async function renderSite(site: SiteRequest, cspNonce: string): Promise<{ response: Response; complete: boolean }> {
  const { request, url, env, ctx, remix, log, crossSite, replica, versions, options } = site;
  const backend = backendTransport(env, fetch, replica.db, options);
  const { origin, masterBase, accountBase, pmsBase } = backend;
  const waitUntil = (promise: Promise<unknown>) => ctx.waitUntil(promise);
  const transport = versions ? withContentCache(backend.transport, { contentVersion: versions.content, waitUntil, log }) : backend.transport;
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
  if (request.method === "POST" && response.status < 400) ctx.waitUntil(deliverMail(env, log));
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
      response: securityHeaders(new Response(response.body, { status: response.status, statusText: response.statusText, headers }), { nonce: cspNonce }),
      complete: false,
    };
  }
  return { response: securityHeaders(response, { nonce: cspNonce }), complete: unavailable === null };
}

/**
 * The Cron Trigger (wrangler.toml [triggers] crons): cancels unpaid orders past their payment
 * deadline and gives their rooms back (docs/decisions/032), then sends what the outbox still holds
 * (retries, and mail whose waitUntil was cut short).
 */
export async function handleScheduled(controller: { scheduledTime: number; cron: string }, rawEnv: Record<string, unknown>): Promise<string[]> {
  const env = parseEnv(rawEnv);
  const log = createLogger(`cron-${crypto.randomUUID()}`);
  const expired = await expireUnpaidOrders(env.DB, new Date(controller.scheduledTime));
  if (expired.length > 0) log.info(`expired ${expired.length} unpaid order(s)`, expired.join(" "));
  const pruned = await prunePaymentEvents(env.DB, new Date(controller.scheduledTime));
  if (pruned > 0) log.info(`forgot ${pruned} payment callback event(s) older than the retention`);
  await deliverMail(env, log, { limit: 50 });
  return expired;
}
