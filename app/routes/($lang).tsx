import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { Analytics, GtmNoscript } from "~/components/Analytics";
import { NotFound } from "~/components/NotFound";
import { SiteFooter, SiteHeader } from "~/components/SiteChrome";
import { DEFAULT_LANGUAGE, isLanguage, stripLanguage } from "~/i18n/languages";
import { loadSite } from "~/site.server";

/**
 * Every page of a hotel's site. Guards of spec §2: an unknown language prefix, an unknown domain,
 * a hotel that is not active or has no website, or a language the hotel does not publish: 404.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (params.lang !== undefined && !isLanguage(params.lang)) throw new Response(null, { status: 404 });
  // zh-TW has no prefix: /zh-TW/about is /about.
  if (params.lang === DEFAULT_LANGUAGE) {
    const url = new URL(request.url);
    throw redirect(`${stripLanguage(url.pathname)}${url.search}`, 301);
  }
  const hotel = app.hotel;
  if (!app.langValid || !hotel || hotel.status !== 1 || !hotel.website_exist) throw new Response(null, { status: 404 });
  if (!hotel.support_lang.includes(app.lang)) throw new Response(null, { status: 404 });
  return loadSite(context, request);
}

export default function SiteLayout() {
  const site = useLoaderData<typeof loader>();
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
      <SiteHeader site={site} />
      <Outlet />
      <SiteFooter site={site} />
      <Analytics {...site.hotel.analytics} />
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound homeLink={false} />;
  throw error;
}
