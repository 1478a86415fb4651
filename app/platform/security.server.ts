/**
 * Security headers on every response of the Worker (design.md, security rules). Static files the
 * platform serves without the Worker get the same from public/_headers. And who may keep a copy of
 * a response (privateUnlessPublic).
 */
import { carriesMemberCookie, isContentPagePath } from "~/platform/edge/page-cache.server";
import { stripLanguage } from "~/i18n/languages";

/** For a response made for one person: no shared cache keeps it, no browser stores it. */
export const PRIVATE_NO_STORE = "private, no-store";

/**
 * For the pages a guest fills in (the booking page with their cart, the checkout with what they
 * typed): no shared cache keeps them, and the guest's own browser may, so that Back returns to the
 * page a form answered. Under `no-store` a browser has to ask to send the form again (Chromium:
 * net::ERR_CACHE_MISS), which a guest without JavaScript meets after placing a booking.
 */
export const PRIVATE_NO_CACHE = "private, no-cache";

/** The booking and checkout pages, in any language: `/{product}/booking…`, `/{product}/checkout…`. */
const FORM_PAGE = /^\/[^/]+\/(?:booking|checkout)(?:\/|$)/;

/** The hotel's desk, in any language (decision 148): `/desk` and everything under it. */
const DESK_PAGE = /^\/desk(?:[/.]|$)/;

/** Every desk answer, a page, a redirect or an error: kept by nobody, indexed by nobody. */
function deskAnswer(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("cache-control", PRIVATE_NO_STORE);
  headers.set("x-robots-tag", "noindex");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The site's one rule for shared caches (issue 37): a page made for one person (an order behind its
 * signed link, the cancel and pay pages, a member's orders, any page naming the signed-in member)
 * must never be stored by a cache in front of the Worker, such as an edge rule that caches
 * everything. Rather than a header per route, which a new route forgets, every response is private
 * unless it is meant for everyone:
 * - with a member's cookie, every response is private: each page names the member in its header;
 * - a guest's content page (GET or HEAD, no member cookie) stays as decisions 026/027 left it, the
 *   edge page cache storing it for every guest;
 * - a route that says `public` itself (robots.txt, the sitemap) keeps its own policy;
 * - the booking and checkout pages are `private, no-cache` (PRIVATE_NO_CACHE: Back still works);
 * - anything else (orders, cancel, pay, sign-in, the proof download, data requests, redirects,
 *   errors) is `private, no-store`.
 */
export function privateUnlessPublic(request: Request, url: URL, response: Response): Response {
  if (DESK_PAGE.test(stripLanguage(url.pathname))) return deskAnswer(response);
  if (!carriesMemberCookie(request)) {
    if ((request.method === "GET" || request.method === "HEAD") && isContentPagePath(url)) return response;
    if (/(?:^|,)\s*public\s*(?:,|$)/i.test(response.headers.get("cache-control") ?? "")) return response;
  }
  const policy = FORM_PAGE.test(stripLanguage(url.pathname)) && !url.pathname.endsWith(".data") ? PRIVATE_NO_CACHE : PRIVATE_NO_STORE;
  if (response.headers.get("cache-control") === policy) return response;
  const headers = new Headers(response.headers);
  headers.set("cache-control", policy);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function securityHeaders(
  response: Response,
  options: {
    nonce?: string;
    api?: boolean;
    asset?: boolean;
    /** Inline scripts allowed by hash (a page served from the edge cache, decision 027). */ scriptHashes?: readonly string[];
  },
): Response {
  const allowed = [...(options.nonce ? [`'nonce-${options.nonce}'`] : []), ...(options.scriptHashes ?? []).map((hash) => `'${hash}'`)];
  const headers = new Headers(response.headers);
  const csp =
    options.api || options.asset
      ? "default-src 'none'; frame-ancestors 'none'"
      : [
          "default-src 'self'",
          `script-src 'self'${allowed.map((source) => ` ${source}`).join("")} https://www.googletagmanager.com https://connect.facebook.net`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: https:",
          "font-src 'self'",
          "connect-src 'self' https://www.google-analytics.com https://*.google-analytics.com https://www.facebook.com",
          "frame-src https://www.google.com https://www.googletagmanager.com",
          "form-action 'self' https:",
          "base-uri 'self'",
          "object-src 'none'",
          "frame-ancestors 'none'",
        ].join("; ");
  // The account service's own HTML pages carry their own (stricter-than-site) policy.
  if (!(options.api && headers.has("content-security-policy"))) headers.set("content-security-policy", csp);
  headers.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  headers.set("x-content-type-options", "nosniff");
  headers.set("referrer-policy", "strict-origin-when-cross-origin");
  headers.set("x-frame-options", "DENY");
  headers.set("permissions-policy", "camera=(), microphone=(), geolocation=()");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
