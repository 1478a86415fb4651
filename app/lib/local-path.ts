/**
 * Return-to addresses (login_back_url, a sign-out's `back`, the address a payment gateway sends the
 * browser back to): only a path of this site reaches a Location header. No `//`, `\`, scheme, host,
 * and no character a person cannot see or that reorders what they see: controls (C0, DEL, C1),
 * spaces, bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C), zero-width and other
 * format characters (issue 37). Every encoded form of them counts too (design.md security rules).
 * Anything else reads as null, and the caller falls back to its default page. Shared by the site and
 * the back end, so both refuse the same addresses.
 */
const MAX_LENGTH = 2000;
const PROBE_ORIGIN = "https://site.invalid";

/**
 * Controls (Cc: C0, DEL, C1), format characters (Cf: every bidi control, zero-width space and
 * joiners, word joiner, BOM, soft hyphen…), spaces and separators (Z, and \s for tab and newline),
 * lone surrogates (Cs). Browsers strip or fold some of them, which can turn "/\t/evil" into
 * "//evil"; the others make an address read as something it is not ("/\u202Efdp.exe").
 */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Z}\p{Cs}\s]/u;

function looksSafe(path: string): boolean {
  if (!path.startsWith("/")) return false;
  if (path.startsWith("//") || path.startsWith("/\\")) return false;
  if (path.includes("\\")) return false;
  return !UNSEEN.test(path);
}

/** A same-origin path (with its query), or null. `blocked` lists path prefixes never to return to (the sign-in pages). */
export function safeLocalPath(raw: unknown, blocked: readonly string[] = []): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_LENGTH) return null;
  // Every decoding of the text has to be safe too: a later hop may decode it again.
  let text = raw;
  for (let round = 0; round < 4; round++) {
    if (!looksSafe(text)) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      return null;
    }
    if (decoded === text) break;
    text = decoded;
  }
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  // The URL parser percent-encodes what is left, so the answer is ASCII: a Location header can carry it.
  const path = `${url.pathname}${url.search}`;
  if (!looksSafe(path) || blocked.some((prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) return null;
  return path;
}

/** Whether `path` is such a path as it stands (a schema's check: nothing is rewritten). */
export function isSafeLocalPath(path: string): boolean {
  return safeLocalPath(path) !== null;
}
