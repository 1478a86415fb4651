import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { liveHotel } from "~/platform/context.server";
import { externalRedirect, safeRedirect } from "~/platform/redirects.server";
import { notFound } from "~/platform/not-found.server";

/**
 * /favicon.ico, which browsers ask for wherever a page names no icon (a PDF in a tab, the test
 * gateway's page): the hotel's own icon, or a 404 when it has none or is not live. Temporary
 * redirects: the hotel may change its icon with its next import.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  const icon = liveHotel(app.hotel)?.icon_images.main ?? "";
  if (icon.startsWith("/") && !icon.startsWith("//")) return safeRedirect(icon, request, 302);
  if (/^https?:\/\//i.test(icon)) return externalRedirect(icon, request, 302);
  throw notFound();
}
