import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { Picture } from "~/ui/Picture";
import { RichText } from "~/features/content/RichText";
import { fixedT } from "~/i18n/i18next.server";
import { pageMeta, siteFromMatches } from "~/ui/seo";
import { notFound } from "~/platform/not-found.server";
import { contentLinks } from "~/features/content/links";

export const links = contentLinks;

/** The hotel's facilities, by priority (spec §9). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (!app.hotel) throw notFound();
  const t = await fixedT(app.lang);
  const url = new URL(request.url);
  return {
    url: `${url.origin}${url.pathname}`,
    title: `${t("nav.facilities")} | ${app.hotel.hotel_name}`,
    hotelName: app.hotel.hotel_name,
    facilities: await app.api.facilities(),
    supportFacilities: app.hotel.support_facilities,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? pageMeta({
        title: data.title,
        description: data.facilities.map((facility) => facility.facilities_title).join(" · "),
        url: data.url,
        siteName: data.hotelName,
        lang: siteFromMatches(matches)?.lang ?? "zh-TW",
      })
    : [];

export default function FacilitiesPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id="main" className="page facilities-page">
      <h1>{t("nav.facilities")}</h1>
      {data.supportFacilities.length > 0 ? (
        <ul className="tags tags--large">
          {data.supportFacilities.map((key) => (
            <li key={key}>{t(key, { ns: "facility", defaultValue: key.replace(/_/g, " ") })}</li>
          ))}
        </ul>
      ) : null}
      {data.facilities.length === 0 ? <p>{t("facilities.none")}</p> : null}
      {data.facilities.map((facility, index) => (
        <article key={facility.id} className="facility" id={facility.facilities_key}>
          {facility.main_image_path ? (
            <Picture image={facility.main_image_path} priority={index === 0} className="facility__image" />
          ) : null}
          <div className="facility__body">
            <h2>{facility.facilities_title}</h2>
            {facility.floor ? <p className="facility__floor">{t("facilities.floor", { floor: facility.floor })}</p> : null}
            <RichText html={facility.introduction || facility.index_introduction} />
            {facility.picture_path_array.length > 0 ? (
              <div className="facility__pictures">
                {facility.picture_path_array.map((picture) => (
                  <Picture key={picture.src} image={picture} />
                ))}
              </div>
            ) : null}
          </div>
        </article>
      ))}
    </main>
  );
}
