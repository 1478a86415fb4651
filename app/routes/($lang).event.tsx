import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "~/ui/LocaleLink";
import { Picture } from "~/ui/Picture";
import { RichText } from "~/features/content/RichText";
import { htmlToText } from "~/lib/sanitize";
import { HotelApiError } from "~/contract/client";
import { formatDate } from "~/i18n/format";
import { fixedT } from "~/i18n/i18next.server";
import { canonicalPath, pageMeta, siteFromMatches } from "~/ui/seo";
import { useSite } from "~/ui/site-data";
import { notFound } from "~/platform/not-found.server";
import { contentLinks } from "~/features/content/links";

export const links = contentLinks;

/** Promotions: the list, or with ?id= one promotion. A non-numeric id gives an empty event (spec §5). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (!app.hotel) throw notFound();
  const url = new URL(request.url);
  const t = await fixedT(app.lang);
  const base = {
    url: `${url.origin}${canonicalPath(url.pathname, url.search)}`,
    hotelName: app.hotel.hotel_name,
    listTitle: t("nav.promotions"),
  };
  const id = url.searchParams.get("id");
  if (id !== null) {
    if (!/^\d{1,9}$/.test(id))
      return {
        ...base,
        mode: "detail" as const,
        promotion: null,
        promotions: [],
      };
    const promotion = await app.api.promotion(Number(id)).catch((error: unknown) => {
      if (error instanceof HotelApiError && error.isNotFound) return null;
      throw error;
    });
    if (!promotion) throw notFound();
    return { ...base, mode: "detail" as const, promotion, promotions: [] };
  }
  return {
    ...base,
    mode: "list" as const,
    promotion: null,
    promotions: await app.api.activePromotions(),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [];
  const lang = siteFromMatches(matches)?.lang ?? "zh-TW";
  const promotion = data.promotion;
  // An empty event (a non-numeric id) is no page of its own: search engines leave it out.
  const empty = data.mode === "detail" && !promotion ? [{ name: "robots", content: "noindex" }] : [];
  return [
    ...pageMeta({
      title: `${promotion ? promotion.promotion_title : data.listTitle} | ${data.hotelName}`,
      description: promotion
        ? htmlToText(promotion.detail_foreword || promotion.sub_title)
        : data.promotions.map((item) => item?.promotion_title ?? "").join(" · "),
      url: data.url,
      image: promotion?.main_image_path ? new URL(promotion.main_image_path.src, data.url).toString() : undefined,
      siteName: data.hotelName,
      lang,
    }),
    ...empty,
  ];
};

export default function EventPage() {
  const data = useLoaderData<typeof loader>();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const { t } = useTranslation();
  if (data.mode === "detail") {
    const promotion = data.promotion;
    return (
      <main id="main" className="page event-page event-page--detail">
        <p className="breadcrumb">
          {/* News items and attractions open here too: the way back is to their own list. */}
          {promotion?.category === "announcement" ? (
            <LocaleLink to="/news">{t("nav.news")}</LocaleLink>
          ) : promotion?.category === "attraction" ? (
            <LocaleLink to="/#attractions">{t("home.attractions_heading")}</LocaleLink>
          ) : (
            <LocaleLink to="/event">{t("nav.promotions")}</LocaleLink>
          )}
        </p>
        {promotion ? (
          <article className="event">
            <h1>{promotion.promotion_title}</h1>
            {promotion.sub_title ? <p className="event__subtitle">{promotion.sub_title}</p> : null}
            {promotion.begin || promotion.end ? (
              <p className="event__dates">
                {promotion.begin ? formatDate(promotion.begin, lang) : ""} – {promotion.end ? formatDate(promotion.end, lang) : ""}
              </p>
            ) : null}
            {promotion.main_image_path ? <Picture image={promotion.main_image_path} priority className="event__image" /> : null}
            <RichText html={promotion.detail_foreword} className="event__foreword" />
            <RichText html={promotion.detail_info_path} />
            {site ? (
              <p>
                <a className="button" href={site.booking.href}>
                  {t("nav.book")}
                </a>
              </p>
            ) : null}
          </article>
        ) : (
          <article className="event event--empty">
            <h1>{t("event.empty_heading")}</h1>
            <p>{t("event.empty")}</p>
          </article>
        )}
      </main>
    );
  }
  return (
    <main id="main" className="page event-page">
      <h1>{t("nav.promotions")}</h1>
      {data.promotions.length === 0 ? <p>{t("event.none")}</p> : null}
      <ul className="card-grid">
        {data.promotions.map((promotion, index) => (
          <li key={promotion.promotion_id} className="card promotion-card">
            {promotion.main_image_path ? (
              <Picture image={promotion.main_image_path} priority={index === 0} className="card__image" />
            ) : null}
            <div className="card__body">
              <h2>
                <LocaleLink to={`/event?id=${promotion.promotion_id}`}>{promotion.promotion_title}</LocaleLink>
              </h2>
              {promotion.sub_title ? <p>{promotion.sub_title}</p> : null}
              <p className="card__meta">
                <time dateTime={promotion.public_time}>{formatDate(promotion.public_time, lang)}</time>
                {promotion.end
                  ? ` · ${t("event.until", {
                      date: formatDate(promotion.end, lang),
                    })}`
                  : ""}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </main>
  );
}
