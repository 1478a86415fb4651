/** The hotel's site data (hotel info, menus, layouts, language) loaded once by the ($lang) layout route. */
import { useRouteLoaderData } from "@remix-run/react";
import type { SiteData } from "~/platform/site.server";

/** The id Remix gives the ($lang) layout route (app/routes/($lang).tsx). */
export const SITE_ROUTE_ID = "routes/($lang)";

/** The site data of the ($lang) layout, for any component below it; undefined where the layout did not load (an error above it). */
export function useSite(): SiteData | undefined {
  return useRouteLoaderData<SiteData>(SITE_ROUTE_ID);
}
