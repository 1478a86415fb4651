import { json, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { NotFound } from "~/components/NotFound";
import { SiteFooter, SiteHeader } from "~/components/SiteChrome";
import { isLanguage } from "~/i18n/languages";

/**
 * Every page of a hotel's site. Guards of spec §2: an unknown language prefix, an unknown domain,
 * a hotel that is not active or has no website all answer 404.
 */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const { app } = context;
  if (params.lang !== undefined && !isLanguage(params.lang)) throw new Response(null, { status: 404 });
  const hotel = app.hotel;
  if (!app.langValid || !hotel || hotel.status !== 1 || !hotel.website_exist) {
    throw new Response(null, { status: 404 });
  }
  if (!hotel.support_lang.includes(app.lang)) throw new Response(null, { status: 404 });
  return json({
    lang: app.lang,
    product: app.env.PRODUCT,
    hotel: {
      name: hotel.hotel_name,
      logo: hotel.logo_images.dark,
      languages: hotel.support_lang,
      underPreparation: hotel.business_status === 1,
      phone: hotel.phone,
      email: hotel.email,
      address: hotel.address,
      registration: hotel.registration_name,
      businessNumber: hotel.unified_business_number,
    },
  });
}

export type SiteLayoutData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function SiteLayout() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <>
      <a className="skip-link" href="#main">
        {t("skip_to_content")}
      </a>
      {data.hotel.underPreparation ? (
        <p className="preparation-banner" role="status">
          {t("preparation_banner")}
        </p>
      ) : null}
      <SiteHeader site={data} />
      <Outlet />
      <SiteFooter site={data} />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound homeLink={false} />;
  throw error;
}
