import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PhoneLink } from "~/ui/PhoneLink";
import { Picture } from "~/ui/Picture";
import { RichText } from "~/features/content/RichText";
import { htmlToText } from "~/lib/sanitize";
import { fixedT } from "~/i18n/i18next.server";
import { pageMeta, siteFromMatches } from "~/ui/seo";
import { notFound } from "~/platform/not-found.server";
import { contentLinks } from "~/features/content/links";

export const links = contentLinks;

/** Map link (spec §3 google_map_open_way): 0 searches the address, 1 the hotel's listing by store name. */
export function mapLink(hotel: { google_map_open_way: number; google_store_name: string; address: string }): string {
  const query = hotel.google_map_open_way === 1 && hotel.google_store_name ? hotel.google_store_name : hotel.address;
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = app.hotel;
  if (!hotel) throw notFound();
  const t = await fixedT(app.lang);
  const url = new URL(request.url);
  return {
    url: `${url.origin}${url.pathname}`,
    title: `${t("nav.about")} | ${hotel.hotel_name}`,
    description: htmlToText(hotel.introduction),
    mapHref: mapLink(hotel),
    hotel: {
      name: hotel.hotel_name,
      introduction: hotel.introduction,
      images: hotel.about_images,
      address: hotel.address,
      phone: hotel.phone,
      phone2: hotel.phone2,
      fax: hotel.fax,
      email: hotel.email,
      checkin: `${hotel.checkin_start_time}–${hotel.checkin_end_time}`,
      checkout: hotel.checkout_time,
      bookingPolicy: hotel.booking_policy,
      cancelPolicy: hotel.cancel_policy,
      customerNotice: hotel.customer_notice,
      diningOptions: hotel.dining_options,
      registrationName: hotel.registration_name,
      businessRegistration: hotel.business_registration,
      businessNumber: hotel.unified_business_number,
      agentName: hotel.agent_name,
    },
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? pageMeta({
        title: data.title,
        description: data.description,
        url: data.url,
        siteName: data.hotel.name,
        lang: siteFromMatches(matches)?.lang ?? "zh-TW",
      })
    : [];

export default function AboutPage() {
  const { hotel, mapHref } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id="main" className="page about-page">
      <h1>{t("nav.about")}</h1>
      <div className="about-page__intro">
        {hotel.images[0] ? <Picture image={hotel.images[0]} priority className="about-page__image" /> : null}
        <RichText html={hotel.introduction} />
      </div>
      <section className="about-page__facts">
        <h2>{t("about.contact_heading")}</h2>
        <dl className="facts-list">
          <div>
            <dt>{t("about.address")}</dt>
            <dd>
              {hotel.address}{" "}
              <a id="map" href={mapHref} target="_blank" rel="noopener noreferrer">
                {t("about.map_link")}
              </a>
            </dd>
          </div>
          <div>
            <dt>{t("about.phone")}</dt>
            <dd>
              <PhoneLink phone={hotel.phone} />
              {hotel.phone2 ? (
                <>
                  {" · "}
                  <PhoneLink phone={hotel.phone2} />
                </>
              ) : null}
            </dd>
          </div>
          {hotel.fax ? (
            <div>
              <dt>{t("about.fax")}</dt>
              <dd>{hotel.fax}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t("about.email")}</dt>
            <dd>
              <a href={`mailto:${hotel.email}`}>{hotel.email}</a>
            </dd>
          </div>
          <div>
            <dt>{t("about.checkin")}</dt>
            <dd>{hotel.checkin}</dd>
          </div>
          <div>
            <dt>{t("about.checkout")}</dt>
            <dd>{hotel.checkout}</dd>
          </div>
        </dl>
      </section>
      {hotel.diningOptions ? (
        <section>
          <h2>{t("about.dining_heading")}</h2>
          <RichText html={hotel.diningOptions} />
        </section>
      ) : null}
      {[
        ["about.booking_policy", hotel.bookingPolicy],
        ["about.cancel_policy", hotel.cancelPolicy],
        ["about.customer_notice", hotel.customerNotice],
      ].map(([key, html]) =>
        html ? (
          <section key={key} className="policy">
            <h2>{t(key ?? "")}</h2>
            <RichText html={html ?? ""} />
          </section>
        ) : null,
      )}
      {hotel.registrationName || hotel.businessNumber ? (
        <section>
          <h2>{t("footer.registration")}</h2>
          <dl className="facts-list">
            {hotel.registrationName ? (
              <div>
                <dt>{t("about.registration_name")}</dt>
                <dd>{hotel.registrationName}</dd>
              </div>
            ) : null}
            {hotel.businessRegistration ? (
              <div>
                <dt>{t("about.business_registration")}</dt>
                <dd>{hotel.businessRegistration}</dd>
              </div>
            ) : null}
            {hotel.businessNumber ? (
              <div>
                <dt>{t("about.business_number")}</dt>
                <dd>{hotel.businessNumber}</dd>
              </div>
            ) : null}
            {hotel.agentName ? (
              <div>
                <dt>{t("about.agent")}</dt>
                <dd>{hotel.agentName}</dd>
              </div>
            ) : null}
          </dl>
        </section>
      ) : null}
    </main>
  );
}
