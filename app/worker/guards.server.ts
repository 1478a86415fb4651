/** Step 1 of the pipeline: what a request must be before anything serves it (its Host, its origin), and the short refusals when it is not. */
import { apiMessage } from "~/backend/messages";
import { DEFAULT_LANGUAGE, isLanguage, languageFromPath } from "~/i18n/languages";
import { securityHeaders } from "~/platform/security.server";

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
export const HOST_HEADER =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** A short plain-text refusal in the language of the path or of the API's `lang` (the site is not reached). */
export function refusal(status: number, code: "bad_host" | "site_unavailable", url: URL): Response {
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

/** The language a page is asked in, read from its path alone (the site may not be reachable). */
export function pathLanguage(url: URL) {
  return languageFromPath(url.pathname)?.language ?? DEFAULT_LANGUAGE;
}

/** Step 1: a Host header that is only a host (no userinfo); route chunks asked under their encoded names. */
export async function guardRequest(request: Request, url: URL, rawEnv: Record<string, unknown>): Promise<Response | null> {
  const hostHeader = request.headers.get("host");
  if ((hostHeader !== null && !HOST_HEADER.test(hostHeader)) || url.username !== "" || url.password !== "") {
    return refusal(400, "bad_host", url);
  }
  const assets = rawEnv.ASSETS as Fetcher | undefined;
  if (assets && url.pathname.startsWith("/build/routes/")) {
    return securityHeaders(await assets.fetch(encodedAssetRequest(request, url)), { asset: true });
  }
  return null;
}
