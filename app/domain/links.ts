/**
 * Links a hotel's own content may carry (banner links in the hotel file): a full http(s) URL, or a
 * path of a page the site serves. The site adds the guest's language prefix to a path.
 */
import { stripLanguage } from "~/i18n/languages";

const BASE = "http://site.invalid";

/** Site pages as their paths (without language prefix): keep in step with app/routes. */
const SERVED: readonly RegExp[] = [/^\/$/, /^\/(about|facilities|event|news|follow|booking)$/, /^\/room\/[1-9]\d{0,8}$/];

/** Whether `link` is a path (with query or #section) of a page every hotel's site serves. */
export function isServedPath(link: string): boolean {
  if (!link.startsWith("/") || link.startsWith("//") || link.includes("\\")) return false;
  let url: URL;
  try {
    url = new URL(link, BASE);
  } catch {
    return false;
  }
  if (url.origin !== BASE) return false;
  const path = stripLanguage(url.pathname);
  const id = url.searchParams.get("id");
  if (path === "/event" && id !== null) return /^[1-9]\d{0,8}$/.test(id);
  return SERVED.some((pattern) => pattern.test(path));
}

/** A hotel-configured link: empty (none), a full http(s) URL, or a served path. */
export function isHotelLink(link: string): boolean {
  if (link === "" || isServedPath(link)) return true;
  if (!/^https?:\/\/[^/\\]/i.test(link)) return false;
  try {
    new URL(link);
    return true;
  } catch {
    return false;
  }
}

export const HOTEL_LINK_RULE =
  "must be a full http(s) URL or a page of the site: /, /#section, /about, /facilities, /event, /event?id=N, /news, /follow, /booking or /room/N";
