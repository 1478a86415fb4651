/**
 * What every page of a hotel's site needs (header, menu, footer, layout, booking link), loaded
 * once by the ($lang) layout route.
 */
import { formatPersonName } from "~/i18n/names";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { bookingTarget } from "~/domain/booking-links";
import { todayIn } from "~/domain/dates";
import { DEFAULT_BOOKING, defaultStay } from "~/domain/stay";
import type { MenuItem } from "~/contract/schemas";
import type { Language } from "~/i18n/languages";
import { LAYOUT_DESIGNS } from "~/layouts/designs";
import { chooseLayouts } from "~/layouts/templates";
import { THEME_STYLESHEETS } from "~/layouts/themes";
import { fallbackOnError } from "~/platform/log.server";
import { memberSystemOpen, signOutToken } from "~/platform/session.server";
import { notFound } from "~/platform/not-found.server";
import { analyticsScripts } from "~/lib/analytics-scripts";

export type SiteMenuItem =
  | { kind: "link"; label: string; labelKey: string | null; href: string; newTab: boolean; external: boolean }
  | { kind: "disabled" };

const INTERNAL_PATHS: Record<string, string> = {
  rooms: "/#rooms",
  facilities: "/facilities",
  promotions: "/event",
  about: "/about",
};

/** A menu item of custom/menu as the site shows it; one that cannot be understood is an empty disabled item (spec §8). */
export function toSiteMenuItem(item: MenuItem | null): SiteMenuItem {
  if (!item) return { kind: "disabled" };
  const internal = INTERNAL_PATHS[item.type];
  if (internal) return { kind: "link", label: item.label, labelKey: `nav.${item.type}`, href: internal, newTab: false, external: false };
  if (item.type === "custom") {
    try {
      const url = new URL(item.url);
      if (url.protocol !== "https:" && url.protocol !== "http:") return { kind: "disabled" };
      if (!item.label) return { kind: "disabled" };
      return { kind: "link", label: item.label, labelKey: null, href: url.toString(), newTab: item.new_tab, external: true };
    } catch {
      return { kind: "disabled" };
    }
  }
  return { kind: "disabled" };
}

/** The hotel's analytics as the page renders them: the GTM container for its noscript frame, and the scripts. */
function analyticsOf(ga: string, pixel: string, gtm: string) {
  return { gtm, scripts: analyticsScripts({ ga, pixel, gtm }) };
}

export async function loadSite(context: AppLoadContext, request: Request) {
  const { app } = context;
  const hotel = app.hotel;
  if (!hotel) throw notFound();
  const lang: Language = app.lang;
  const url = new URL(request.url);
  const layouts = chooseLayouts(hotel, url.searchParams.get("preview"));
  // The footer links only to the sections this hotel has (no "no offers" dead ends).
  const none = () => [];
  const [menu, promotions, news, facilities] = await Promise.all([
    app.api.menu().catch(fallbackOnError(app.log, "menu", none)),
    app.api.activePromotions({ limit: 1 }).catch(fallbackOnError(app.log, "promotions link", none)),
    app.api.activeAnnouncements({ limit: 1 }).catch(fallbackOnError(app.log, "news link", none)),
    app.api.facilities().catch(fallbackOnError(app.log, "facilities link", none)),
  ]);
  const today = todayIn(hotel.time_zone);
  const stay = defaultStay(today);
  const booking = bookingTarget(hotel, app.env.PRODUCT, lang, { ...stay, ...DEFAULT_BOOKING });
  const signOut = await signOutToken(app);
  return {
    lang,
    product: app.env.PRODUCT,
    /** Who is signed in, as saved at sign-in (no back-end call); null for a guest; the member system may be closed. */
    membership: {
      open: memberSystemOpen(app),
      member:
        app.session.member && signOut
          ? {
              name: formatPersonName(
                { given: app.session.member.given, family: app.session.member.family, whole: app.session.member.name },
                lang,
              ),
              signOutToken: signOut,
            }
          : null,
    },
    origin: url.origin,
    layout: { ...LAYOUT_DESIGNS[layouts.page], booking: layouts.booking, previewing: layouts.previewing },
    stylesheets: [THEME_STYLESHEETS[layouts.page]],
    bookingStylesheet: THEME_STYLESHEETS[layouts.booking],
    booking,
    today,
    menu: menu.map(toSiteMenuItem),
    sections: {
      facilities: facilities.length > 0,
      promotions: promotions.length > 0,
      news: news.length > 0,
      follow: Boolean(hotel.fb || hotel.line || hotel.instagram),
    },
    hotel: {
      id: hotel.hotel_id,
      name: hotel.hotel_name,
      kind: hotel.kind,
      logoDark: hotel.logo_images.dark,
      logoWhite: hotel.logo_images.white,
      languages: hotel.support_lang,
      mainLanguage: hotel.main_lang,
      underPreparation: hotel.business_status === 1,
      testPayments: hotel.test_payments,
      phone: hotel.phone,
      email: hotel.email,
      address: hotel.address,
      registration: hotel.registration_name,
      businessRegistration: hotel.business_registration,
      businessNumber: hotel.unified_business_number,
      social: { fb: hotel.fb, line: hotel.line, instagram: hotel.instagram },
      analytics: analyticsOf(hotel.ga_code, hotel.pixel_code, app.env.FEATURE_GTM && app.env.GTM_ID ? app.env.GTM_ID : ""),
    },
  };
}

export type SiteData = Awaited<ReturnType<typeof loadSite>>;
