/**
 * Every redirect of the site goes through here (docs/decisions/018-one-address-per-page.md):
 * - sameOriginLocation/safeRedirect: a Location that cannot leave the request's origin, whatever
 *   the path it was built from holds (`//evil.com`, `/\evil.com`, `//%65vil.com`…);
 * - canonicalLocation: the one address of a page (the Worker answers 301 to it before routing);
 * - externalRedirect: only for a link the hotel configured (its official booking engine).
 */
import { redirect } from "@remix-run/cloudflare";
import { DEFAULT_LANGUAGE, LANGUAGES } from "~/i18n/languages";

/**
 * A path-only Location (path, query, fragment) on the origin of `base`. A target that resolves to
 * another origin becomes the home page; leading slashes are collapsed so no browser reads the
 * result as a protocol-relative URL.
 */
export function sameOriginLocation(target: string, base: string | URL): string {
  const origin = new URL(base);
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return "/";
  }
  if (url.origin !== origin.origin) return "/";
  const path = url.pathname.replace(/^[/\\]+/, "/");
  return `${path}${url.search}${url.hash}`;
}

/** A redirect to `target` that stays on the origin of `request`. */
export function safeRedirect(target: string, request: Request, init: number | ResponseInit = 302): ReturnType<typeof redirect> {
  return redirect(sameOriginLocation(target, request.url), init);
}

/** A redirect to a hotel-configured external link (only http(s)); anything else stays home. */
export function externalRedirect(href: string, request: Request, init: number | ResponseInit = 302): ReturnType<typeof redirect> {
  try {
    const url = new URL(href);
    if (url.protocol === "https:" || url.protocol === "http:") return redirect(url.toString(), init);
  } catch {
    // not a URL: fall through
  }
  return safeRedirect("/", request, init);
}

const LANGUAGE_BY_LOWER = new Map<string, string>(LANGUAGES.map((language) => [language.toLowerCase(), language]));

/** Segments that are ids chosen by the back end (order numbers): their case is kept. */
function keepsCase(segments: readonly string[], index: number): boolean {
  const first = segments[0]?.toLowerCase();
  if (first === "pay") return index >= 1;
  if (first === "redirect") return index >= 2;
  // The desk's booking page: /desk/bookings/{order_doc} (and what follows it).
  if (first === "desk" && segments[1]?.toLowerCase() === "bookings") return index >= 2;
  // /{product}/orders/{order_doc}/… and /{product}/download/download-accommodation-proof/{order_doc}
  if (segments[1]?.toLowerCase() === "orders") return index === 2;
  if (segments[1]?.toLowerCase() === "download") return index === 3;
  return false;
}

/** Numbers in a page's address: no leading zeros (`/room/016` is `/room/16`). */
const stripZeros = (digits: string) => digits.replace(/^0+(?=\d)/, "");

/**
 * The one address of the page `url` asks for, or null when `url` is already it. The canonical form:
 * one slash between segments and none at the end (except the root), the language tag in its own
 * case (`en-US`) and none for zh-TW, other path segments in lower case, numeric ids without
 * leading zeros, and the short booking path (`/booking`, `/en-US/booking`) at its full
 * `/{lang}/{product}/booking`. The query is kept (with `/event?id=` numbers made canonical too).
 */
export function canonicalLocation(url: URL, product: string): string | null {
  // Backslashes count as slashes (browsers read them so); empty segments go.
  const raw = url.pathname.replace(/\\/g, "/");
  const segments = raw.split("/").filter((segment) => segment !== "");
  let prefix = "";
  const first = segments[0]?.toLowerCase();
  const language = first !== undefined ? LANGUAGE_BY_LOWER.get(first) : undefined;
  if (language !== undefined) {
    segments.shift();
    if (language !== DEFAULT_LANGUAGE) prefix = `/${language}`;
  }
  const rest = segments.map((segment, index) => {
    if (keepsCase(segments, index) || !/^[A-Za-z0-9._~-]+$/.test(segment)) return segment;
    return segment.toLowerCase();
  });
  if (rest[0] === "room" && rest.length === 2 && /^\d+$/.test(rest[1] ?? "")) rest[1] = stripZeros(rest[1] ?? "");
  if (rest.length === 1 && rest[0] === "booking") rest.splice(0, 1, product, "booking");
  const body = rest.length === 0 ? "" : `/${rest.join("/")}`;
  const pathname = prefix + body || "/";
  const params = new URLSearchParams(url.search);
  let search = url.search;
  const id = params.get("id");
  if (rest.length === 1 && rest[0] === "event" && id !== null && /^\d+$/.test(id) && stripZeros(id) !== id) {
    params.set("id", stripZeros(id));
    search = `?${params.toString()}`;
  }
  const page = params.get("page");
  if (rest.length === 1 && rest[0] === "news" && page !== null && /^\d+$/.test(page) && stripZeros(page) !== page) {
    params.set("page", stripZeros(page));
    search = `?${params.toString()}`;
  }
  // Page 1 of the news is /news itself.
  if (rest.length === 1 && rest[0] === "news" && params.get("page") === "1") {
    params.delete("page");
    search = params.size > 0 ? `?${params.toString()}` : "";
  }
  if (pathname === url.pathname && search === url.search) return null;
  return `${pathname}${search}`;
}
