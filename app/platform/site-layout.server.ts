/**
 * The ($lang) layout route's loader: the guards of spec §2 and the site every page is framed in.
 * A module of its own, so the layout's browser module imports one server module, not the shared
 * ones (decision 161: each shared server module left a chunk of its own on every hydrating page).
 */
import { data, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { DEFAULT_LANGUAGE, isLanguage, localizePath, stripLanguage } from "~/i18n/languages";
import { liveHotel } from "~/platform/context.server";
import { notFound } from "~/platform/not-found.server";
import { safeRedirect } from "~/platform/redirects.server";
import { loadSite } from "~/platform/site.server";

export async function siteLayout({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = liveHotel(app.hotel);
  if (!hotel) throw notFound();
  // zh-TW has no prefix: /zh-TW/about is /about (the Worker answers this first; kept for safety).
  if (params.lang === DEFAULT_LANGUAGE) {
    const url = new URL(request.url);
    throw safeRedirect(`${stripLanguage(url.pathname)}${url.search}`, request, 301);
  }
  const languagePath = (params.lang === undefined || isLanguage(params.lang)) && app.langValid;
  // A language the hotel does not publish: the same page in its main language, where every link
  // works (a 404 framed in that language would only link to more 404s). Temporary, since the
  // hotel may publish the language later (decision 018).
  if (languagePath && !hotel.support_lang.includes(app.lang) && hotel.support_lang.includes(hotel.main_lang)) {
    const url = new URL(request.url);
    throw safeRedirect(`${localizePath(stripLanguage(url.pathname), hotel.main_lang)}${url.search}`, request, 302);
  }
  const known = languagePath && hotel.support_lang.includes(app.lang);
  const site = await loadSite(context, request);
  // The site comes with the 404 so its boundary can show the whole site around the message.
  if (!known) throw data(site, { status: 404 });
  return site;
}
