import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, isRouteErrorResponse, useLoaderData, useMatches, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { Analytics, GtmNoscript } from "~/ui/Analytics";
import { NotFound } from "~/ui/NotFound";
import { ServerError } from "~/ui/ServerError";
import { SiteFooter } from "~/ui/chrome/SiteFooter";
import { SiteHeader } from "~/ui/chrome/SiteHeader";
import type { SiteData } from "~/platform/site.server";
import { siteLayout } from "~/platform/site-layout.server";
import { useSite } from "~/ui/site-data";
import { sharedDataRevalidation } from "~/ui/revalidate";

/**
 * Every page of a hotel's site. Guards of spec §2: an unknown domain, or a hotel that is not
 * active or has no website, is a plain 404. A live hotel's 404s (an unknown first segment or
 * language prefix, a language the hotel does not publish, or a page a child route does not find)
 * are its full site with the §2 text and a link home (decision 018).
 */
export const shouldRevalidate = sharedDataRevalidation;

export const loader = (args: LoaderFunctionArgs) => siteLayout(args);

/** Header, menu and footer around a page of the site. */
function SiteFrame({ site, children }: { site: SiteData; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className={`site site--${site.layout.id} hero-style--${site.layout.hero}`}>
      <GtmNoscript gtm={site.hotel.analytics.gtm} />
      <a className="skip-link" href="#main">
        {t("skip_to_content")}
      </a>
      {site.hotel.underPreparation ? (
        <p className="preparation-banner" role="status">
          {t("preparation_banner")}
        </p>
      ) : null}
      {site.hotel.testPayments ? <aside className="test-mode-banner">{t("test_mode_banner")}</aside> : null}
      <SiteHeader site={site} />
      {children}
      <SiteFooter site={site} />
      <Analytics scripts={site.hotel.analytics.scripts} />
    </div>
  );
}

export default function SiteLayout() {
  const site = useLoaderData<typeof loader>();
  // The hotel's desk (decision 149) keeps the hotel's theme but not the guests' header, footer and analytics.
  const desk = useMatches().some((match) => (match.handle as { desk?: boolean } | undefined)?.desk === true);
  if (desk) {
    return (
      <div className={`site site--${site.layout.id}`}>
        <Outlet />
      </div>
    );
  }
  return (
    <SiteFrame site={site}>
      <Outlet />
    </SiteFrame>
  );
}

const isSiteData = (value: unknown): value is SiteData =>
  typeof value === "object" && value !== null && "hotel" in value && "layout" in value && "menu" in value;

/**
 * Every error below the layout keeps the hotel's header and footer: a 404 shows the §2 text, any
 * other status (a refused method, a page whose loader failed) a short apology (decision 024).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const loaded = useSite();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = notFound ? <NotFound /> : <ServerError status={status} />;
  const site = loaded ?? (isRouteErrorResponse(error) && isSiteData(error.data) ? error.data : undefined);
  if (!site) return notFound ? <NotFound homeLink={false} /> : <ServerError status={status} />;
  return (
    <>
      {/* The layout's theme when this route's own loader failed (the document head has no site then). */}
      {loaded ? null : site.stylesheets.map((href) => <link key={href} rel="stylesheet" href={href} />)}
      <SiteFrame site={site}>{message}</SiteFrame>
    </>
  );
}
