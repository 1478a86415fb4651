/**
 * The Worker: static assets are served by the platform before this runs (route chunks excepted,
 * see encodedAssetRequest); the built-in hotel back end answers /api, /account, /pms and /master;
 * everything else is the Remix site.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { handleBackendRequest, isBackendPath } from "~/backend/router.server";
import { createAppContext } from "~/context.server";
import { parseEnv, type AppEnv } from "~/env.server";
import type { Transport } from "~/hotel-api/client";
import { canonicalLocation, sameOriginLocation } from "~/redirects.server";
import { securityHeaders } from "~/security.server";

export type RemixHandler = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

/** How the site reaches its back end: in-process by default, over HTTP when an origin is set. */
const IN_PROCESS_ORIGIN = "https://backend.internal";

/**
 * How the site reaches its back end: in-process by default; over HTTP to HOTEL_API_ORIGIN (the
 * /api calls) and MASTER_ORIGIN (the spec's {master}) when they are set.
 */
export function backendTransport(env: AppEnv, fetcher: typeof fetch = fetch): { transport: Transport; origin: string; masterBase: string } {
  const origin = env.HOTEL_API_ORIGIN || IN_PROCESS_ORIGIN;
  const masterBase = env.MASTER_ORIGIN || `${origin}/master`;
  const inProcess = (request: Request) => handleBackendRequest(request, { db: env.DB, signingSecret: env.SESSION_SECRET });
  return {
    origin,
    masterBase,
    transport: (request) => (new URL(request.url).origin === IN_PROCESS_ORIGIN ? inProcess(request) : fetcher(request)),
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

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export async function handleFetch(
  request: Request,
  rawEnv: Record<string, unknown>,
  ctx: ExecutionContext,
  remix: RemixHandler,
): Promise<Response> {
  const url = new URL(request.url);
  const assets = rawEnv.ASSETS as Fetcher | undefined;
  if (assets && url.pathname.startsWith("/build/routes/")) return assets.fetch(encodedAssetRequest(request, url));
  const env = parseEnv(rawEnv);
  if (isBackendPath(url.pathname)) {
    const response = await handleBackendRequest(request, { db: env.DB, signingSecret: env.SESSION_SECRET });
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
  const cspNonce = nonce();
  const { transport, origin, masterBase } = backendTransport(env);
  const app = await createAppContext({
    request,
    env,
    transport,
    apiOrigin: origin,
    masterBase,
    waitUntil: (promise) => ctx.waitUntil(promise),
    cspNonce,
  });
  const response = await remix(request, { app });
  return securityHeaders(response, { nonce: cspNonce });
}
