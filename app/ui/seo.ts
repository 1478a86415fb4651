/**
 * One place for search-engine data: page meta (title, description, Open Graph, hreflang) and
 * schema.org structured data whose values match what the page shows. The structured data itself is
 * written by the loaders (features/content/json-ld.server.ts): its HTML-to-text decoder stays out
 * of the pages' JavaScript (decision 144).
 */
import type { MetaDescriptor } from "@remix-run/cloudflare";
import { SITE_ROUTE_ID } from "~/ui/site-data";
import { stripLanguage } from "~/i18n/languages";
import type { SiteData } from "~/platform/site.server";

/** The site data of the ($lang) layout, for meta functions. */
export function siteFromMatches(matches: readonly { id: string; data: unknown }[]): SiteData | undefined {
  return matches.find((match) => match.id === SITE_ROUTE_ID)?.data as SiteData | undefined;
}

/** schema.org type per hotel kind (spec §3). */
export const LODGING_TYPE_BY_KIND: Record<number, string> = {
  1: "Hotel",
  2: "Campground",
  3: "BedAndBreakfast",
  4: "BedAndBreakfast",
  5: "VacationRental",
  6: "Hostel",
  7: "Hotel",
  8: "Hostel",
  9: "VacationRental",
  10: "LodgingBusiness",
  11: "Hotel",
  12: "Hotel",
  13: "Motel",
  14: "Resort",
  15: "BedAndBreakfast",
  16: "Hotel",
  17: "VacationRental",
};

export function lodgingType(kind: number): string {
  return LODGING_TYPE_BY_KIND[kind] ?? "LodgingBusiness";
}

/** Query parameters that make another page of a path (/event?id=N, /news?page=N); others (preview, utm_…) do not. */
const PAGE_PARAMS: Record<string, readonly string[]> = { "/event": ["id"], "/news": ["page"] };

/** A page's path with only the query parameters that name the page: for canonical and hreflang links. */
export function canonicalPath(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of PAGE_PARAMS[stripLanguage(pathname)] ?? []) {
    const value = params.get(name);
    if (value !== null) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export interface PageSeo {
  title: string;
  description: string;
  url: string;
  image?: string;
  siteName: string;
  lang: string;
}

export function pageMeta(seo: PageSeo): MetaDescriptor[] {
  const description = seo.description.slice(0, 300);
  return [
    { title: seo.title },
    { name: "description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:title", content: seo.title },
    { property: "og:description", content: description },
    { property: "og:url", content: seo.url },
    { property: "og:site_name", content: seo.siteName },
    { property: "og:locale", content: seo.lang.replace("-", "_") },
    ...(seo.image ? [{ property: "og:image", content: seo.image }] : []),
    { name: "twitter:card", content: seo.image ? "summary_large_image" : "summary" },
    { tagName: "link", rel: "canonical", href: seo.url },
  ];
}

/** JSON for a <script type="application/ld+json">, safe inside HTML. */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}
