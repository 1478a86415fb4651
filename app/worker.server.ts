/**
 * The Worker: static assets are served by the platform before this runs (route chunks excepted,
 * see encodedAssetRequest); the built-in hotel back end answers /api, /account, /pms and /master;
 * everything else is the Remix site.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { handleBackendRequest, isBackendPath } from "~/backend/router.server";
import { createAppContext } from "~/context.server";
import { apiMessage } from "~/backend/messages";
import { memberSessionCookie } from "~/cookies.server";
import { DEVELOPMENT_SECRETS, EnvError, isLocalHost, parseEnv, type AppEnv } from "~/env.server";
import type { Transport } from "~/hotel-api/client";
import { DEFAULT_LANGUAGE, isLanguage, languageFromPath } from "~/i18n/languages";
import { HotelApiError } from "~/hotel-api/client";
import { resources } from "~/i18n/resources";
import { createLogger, REQUEST_ID_HEADER, requestIdOf, type Logger } from "~/log.server";
import { canonicalLocation, sameOriginLocation } from "~/redirects.server";
import { securityHeaders } from "~/security.server";
import { unavailablePage } from "~/unavailable.server";
import { deliverMail } from "~/backend/mail/deliver.server";
import { isOutboxPath, outboxPage } from "~/backend/mail/outbox-page.server";

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
export function backendTransport(env: AppEnv, fetcher: typeof fetch = fetch, siteOrigin?: string): BackendBases & { transport: Transport } {
  const origin = env.HOTEL_API_ORIGIN || IN_PROCESS_ORIGIN;
  const masterBase = env.MASTER_ORIGIN || `${origin}/master`;
  const accountBase = env.ACCOUNT_ORIGIN || `${origin}/account`;
  const pmsBase = env.PMS_ORIGIN || `${origin}/pms`;
  // The site's own origin, so links the back end writes (emails) lead back to this hotel's site.
  const site = siteOrigin ? { origin: siteOrigin, product: env.PRODUCT } : undefined;
  const inProcess = (request: Request) => handleBackendRequest(request, { db: env.DB, signingSecret: env.SESSION_SECRET, site });
  // Every call over the network ends after HOTEL_API_TIMEOUT_MS, answer body included (decision 024).
  const external = (request: Request) => fetcher(new Request(request, { signal: AbortSignal.timeout(env.HOTEL_API_TIMEOUT_MS) }));
  return {
    origin,
    masterBase,
    accountBase,
    pmsBase,
    transport: (request) => (new URL(request.url).origin === IN_PROCESS_ORIGIN ? inProcess(request) : external(request)),
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
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
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
): Promise<Response> {
  const requestId = requestIdOf(request);
  const log = createLogger(requestId);
  let response: Response;
  try {
    response = await handleRequest(request, rawEnv, ctx, remix, log);
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
  // The development outbox page: only when configured, and only on this machine.
  if (env.MAIL_OUTBOX_PAGE && isLocalHost(url.hostname) && request.method === "GET" && isOutboxPath(url.pathname)) {
    return securityHeaders(await outboxPage(env, url), {});
  }
  if (isBackendPath(url.pathname)) {
    const response = await handleBackendRequest(request, {
      db: env.DB,
      signingSecret: env.SESSION_SECRET,
      site: { origin: url.origin, product: env.PRODUCT },
    });
    // An order or a cancellation queues email: it leaves after the response. A refused call queued nothing.
    if (request.method === "POST" && response.status < 400) ctx.waitUntil(deliverMail(env, log));
    return securityHeaders(response, { api: true });
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
  const cspNonce = nonce();
  const { transport, origin, masterBase, accountBase, pmsBase } = backendTransport(env, fetch, url.origin);
  const app = await createAppContext({
    request,
    env,
    transport,
    apiOrigin: origin,
    masterBase,
    accountBase,
    pmsBase,
    waitUntil: (promise) => ctx.waitUntil(promise),
    cspNonce,
    crossSite,
    log,
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
    const live = app.hotel && app.hotel.status === 1 && app.hotel.website_exist ? app.hotel : null;
    return securityHeaders(unavailablePage(app.lang, live), {});
  }
  if (app.memberTokenRefused()) {
    // Signed out: the back end no longer accepts the saved token (decision 023).
    const headers = new Headers(response.headers);
    headers.append("set-cookie", await memberSessionCookie(env).serialize("", { maxAge: 0 }));
    return securityHeaders(new Response(response.body, { status: response.status, statusText: response.statusText, headers }), { nonce: cspNonce });
  }
  return securityHeaders(response, { nonce: cspNonce });
}

/** The Cron Trigger: sends what the outbox still holds (retries, and mail whose waitUntil was cut short). */
export async function handleScheduled(rawEnv: Record<string, unknown>): Promise<void> {
  const log = createLogger(`cron-${crypto.randomUUID()}`);
  await deliverMail(parseEnv(rawEnv), log, { limit: 50 });
}
