/**
 * The Worker: static assets are served by the platform before this runs (route chunks excepted,
 * see guards.server.ts); the built-in hotel back end answers /api, /account, /pms and /master;
 * everything else is the Remix site. Read handleRequest below: the pipeline is its list of steps,
 * each in its own module of app/worker/ (the Cron Trigger is scheduled.server.ts).
 */
import { openReplicaSession } from "~/platform/edge/replica.server";
import { DEVELOPMENT_SECRETS, EnvError, parseEnv, type AppEnv } from "~/platform/env.server";
import { HotelApiError } from "~/contract/client";
import { resources } from "~/i18n/resources";
import { createLogger, REQUEST_ID_HEADER, requestIdOf, type Logger } from "~/platform/log.server";
import { canonicalLocation, sameOriginLocation } from "~/platform/redirects.server";
import { securityHeaders } from "~/platform/security.server";
import { unavailablePage } from "~/platform/unavailable.server";
import { clientAddress, isLocalHost } from "~/lib/hosts";
import { guardRequest, isCrossSite, pathLanguage, refusal } from "~/worker/guards.server";
import { backendOptions, serveBackend } from "~/worker/backend.server";
import { serveSite, type RemixHandler } from "~/worker/site.server";

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

/**
 * The pipeline, step by step: each step answers the request or passes it on.
 *   1. guards: a well-formed Host; route chunks fetched under their encoded names;
 *   2. settings: the Worker's bindings and secrets, or a 503 that says nothing more;
 *   3. back end: the outbox page (local), the built-in back end, the test gateway;
 *   4. one address per page: another spelling of a page is a 301 to it;
 *   5. the site: from the whole-page edge cache when it holds the page, else rendered by Remix.
 */
async function handleRequest(
  request: Request,
  rawEnv: Record<string, unknown>,
  ctx: ExecutionContext,
  remix: RemixHandler,
  buildVersion: string,
  log: Logger,
): Promise<Response> {
  const url = new URL(request.url);
  const guarded = await guardRequest(request, url, rawEnv);
  if (guarded) return guarded;
  const env = readSettings(rawEnv, url, log);
  if (env instanceof Response) return env;
  const options = backendOptions(env, rawEnv, {
    clientIp: clientAddress(request),
    waitUntil: (promise) => ctx.waitUntil(promise),
    siteOrigin: url.origin,
    log,
  });
  const backend = await serveBackend(request, url, env, options, ctx, log);
  if (backend) return backend;
  const canonical = canonicalRedirect(request, url, env);
  if (canonical) return canonical;
  return serveSite(
    {
      request,
      url,
      env,
      ctx,
      remix,
      log,
      crossSite: isCrossSite(request, url),
      replica: openReplicaSession(env.DB, request, log),
      versions: null,
      options,
    },
    buildVersion,
  );
}

/** Step 2: the settings, checked once; a deploy without its secrets answers 503 and says why in the logs only. */
function readSettings(rawEnv: Record<string, unknown>, url: URL, log: Logger): AppEnv | Response {
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
    log.error(
      "Refusing to serve: SESSION_SECRET is the public development value; set a real one with `wrangler secret put SESSION_SECRET`.",
    );
    return refusal(503, "site_unavailable", url);
  }
  return env;
}

/** Step 4: one address per page: any other spelling of it is a 301 to it, on this origin (decision 018). */
function canonicalRedirect(request: Request, url: URL, env: AppEnv): Response | null {
  if ((request.method !== "GET" && request.method !== "HEAD") || url.pathname.startsWith("/build/")) return null;
  const canonical = canonicalLocation(url, env.PRODUCT);
  if (canonical === null) return null;
  return securityHeaders(new Response(null, { status: 301, headers: { location: sameOriginLocation(canonical, url) } }), {});
}
