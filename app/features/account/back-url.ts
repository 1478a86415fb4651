/**
 * login_back_url: where a guest returns after signing in. Only a path of this site is kept: no
 * `//`, `\`, scheme, host, control character or an encoded form of them (design.md security rules).
 * Anything else reads as null, and the guest returns to the home page.
 */
const MAX_LENGTH = 2000;
const PROBE_ORIGIN = "https://site.invalid";

function looksSafe(path: string): boolean {
  if (!path.startsWith("/")) return false;
  if (path.startsWith("//") || path.startsWith("/\\")) return false;
  if (path.includes("\\")) return false;
  // Control characters, spaces and DEL: browsers strip or fold some of them, which can turn "/\t/evil" into "//evil".
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** A same-origin path (with its query), or null. `blocked` lists path prefixes never to return to (the sign-in pages). */
export function safeBackPath(raw: unknown, blocked: readonly string[] = []): string | null {
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
  const path = `${url.pathname}${url.search}`;
  if (!looksSafe(path) || blocked.some((prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) return null;
  return path;
}
