/**
 * The one reader of a raw Cookie header (decision 060). A browser sends whatever any page of the
 * site, or of a sibling subdomain, once set: `d1_bookmark=%` or `x=%E0%A4%A` are cookies too. A
 * value that does not %-decode reads as absent, like a cookie that is not there, never as a throw
 * (decodeURIComponent throws URIError, which was a 500 on every page).
 */

/** The decoded value of the first cookie called `name`, or null when there is none or it does not decode. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    let value = part.slice(at + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return null;
}
