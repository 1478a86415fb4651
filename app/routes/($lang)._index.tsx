import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "~/components/LocaleLink";
import { NewsList } from "~/components/NewsList";
import { Picture } from "~/components/Picture";
import { RichText } from "~/components/RichText";
import { BookingButton } from "~/components/SiteChrome";
import { htmlToText, safeLink } from "~/content/sanitize";
import { todayIn } from "~/booking/dates";
import { lodgingUnit, unitKey } from "~/booking/units";
import { loadFromPrices } from "~/from-prices.server";
import { fallbackOnError } from "~/log.server";
import { formatDate, formatPrice } from "~/i18n/format";
import { stripLanguage, type Language } from "~/i18n/languages";
import type { HomeSection } from "~/layouts/designs";
import { hotelJsonLd, jsonLdText, pageMeta, siteFromMatches } from "~/seo";
import { useSite } from "~/components/site-data";

/** How many news items the home page lists (spec §9: news limited to a requested count). */
export const HOME_NEWS_COUNT = 4;

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = app.hotel;
  if (!hotel) throw new Response(null, { status: 404 });
  const [rooms, promotions, news, attractions, facilities] = await Promise.all([
    app.api.rooms(),
    app.api.activePromotions({ indexOnly: true }),
    app.api.activeAnnouncements({ limit: HOME_NEWS_COUNT }),
    app.api.activeAttractions({ indexOnly: true }),
    app.api.facilities(),
  ]);
  // A price back end that fails costs the cards their "from" price, never the page.
  const fromPrices = await loadFromPrices(
    app.api,
    todayIn(hotel.time_zone),
    rooms.map((room) => room.room_class_id),
  ).catch(fallbackOnError(app.log, "from prices", () => new Map<number, number | null>()));
  const url = new URL(request.url);
  return {
    url: `${url.origin}${url.pathname}`,
    hotel: {
      name: hotel.hotel_name,
      introduction: hotel.introduction,
      seoTitle: hotel.seo_title || hotel.hotel_name,
      seoDescription: htmlToText(hotel.seo_content || hotel.introduction),
      customBlock: hotel.custom_block,
      locationBlock: hotel.location_block,
      address: hotel.address,
    },
    banners: hotel.banner_images.map((image, index) => ({
      image,
      title: hotel.banner_titles[index]?.title ?? "",
      subtitle: hotel.banner_titles[index]?.subtitle ?? "",
      link: safeLink(hotel.banner_info[index]?.link ?? ""),
    })),
    rooms: rooms.map((room) => ({ ...room, fromPrice: fromPrices.get(room.room_class_id) ?? null })),
    promotions,
    news,
    attractions,
    facilities,
    jsonLd: hotelJsonLd(hotel, url.origin, `${url.origin}${url.pathname}`),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? pageMeta({
        title: data.hotel.seoTitle,
        description: data.hotel.seoDescription,
        url: data.url,
        image: data.banners[0] ? new URL(data.banners[0].image.src, data.url).toString() : undefined,
        siteName: data.hotel.name,
        lang: siteFromMatches(matches)?.lang ?? "zh-TW",
      })
    : [];

type Banner = ReturnType<typeof useLoaderData<typeof loader>>["banners"][number];

/** A banner with a link opens it in the same tab: a site path in the guest's language, or the hotel's URL. */
function BannerLink({ banner, label, children }: { banner: Banner; label: string; children: ReactNode }) {
  // The image is the link's content; without alt text, the banner's title names it.
  const name = banner.image.alt ? {} : { "aria-label": label };
  if (banner.link.startsWith("/")) {
    return (
      <LocaleLink to={stripLanguage(banner.link)} className="hero__link" {...name}>
        {children}
      </LocaleLink>
    );
  }
  return (
    <a href={banner.link} className="hero__link" {...name}>
      {children}
    </a>
  );
}

function Hero({ data }: { data: ReturnType<typeof useLoaderData<typeof loader>> }) {
  const site = useSite();
  const { t } = useTranslation();
  const [first, ...rest] = data.banners;
  if (!first) return <h1 className="home__title">{data.hotel.name}</h1>;
  return (
    <section className="hero" aria-label={data.hotel.name}>
      <div className="hero__slides">
        {[first, ...rest].map((banner, index) => {
          const image = (
            <img
              src={banner.image.src}
              alt={banner.image.alt}
              width={banner.image.width}
              height={banner.image.height}
              loading={index === 0 ? "eager" : "lazy"}
              {...(index === 0 ? { fetchpriority: "high" } : {})}
            />
          );
          return (
            <figure className="hero__slide" key={banner.image.src} id={`slide-${index + 1}`}>
              {banner.link ? (
                <BannerLink banner={banner} label={banner.title || data.hotel.name}>
                  {image}
                </BannerLink>
              ) : (
                image
              )}
              <figcaption className="hero__text">
                {index === 0 ? <h1>{banner.title || data.hotel.name}</h1> : <p className="hero__title">{banner.title}</p>}
                {banner.subtitle ? <p className="hero__subtitle">{banner.subtitle}</p> : null}
                {index === 0 && site ? <BookingButton site={site} className="button hero__book" /> : null}
              </figcaption>
            </figure>
          );
        })}
      </div>
      {rest.length > 0 ? (
        <nav className="hero__dots" aria-label={t("home.slides")}>
          {data.banners.map((banner, index) => (
            <a key={banner.image.src} href={`#slide-${index + 1}`} aria-label={t("home.slide", { number: index + 1 })} />
          ))}
        </nav>
      ) : null}
    </section>
  );
}

function SectionView({ section, data, lang }: { section: HomeSection; data: ReturnType<typeof useLoaderData<typeof loader>>; lang: Language }) {
  const { t } = useTranslation();
  const site = useSite();
  switch (section) {
    case "intro":
      return data.hotel.introduction ? (
        <section className="home-section home-intro" id="about">
          <h2>{t("home.intro_heading")}</h2>
          <RichText html={data.hotel.introduction} />
          <p>
            <LocaleLink to="/about" className="text-link">
              {t("home.more_about")}
            </LocaleLink>
          </p>
        </section>
      ) : null;
    case "rooms":
      return data.rooms.length > 0 ? (
        <section className="home-section home-rooms" id="rooms">
          <h2>{t(unitKey("home.rooms_heading", lodgingUnit(site?.hotel.kind)))}</h2>
          <ul className="card-grid">
            {data.rooms.map((room) => (
              <li key={room.room_class_id} className="card room-card">
                {room.photos[0] ? <Picture image={room.photos[0]} className="card__image" /> : null}
                <div className="card__body">
                  <h3>
                    <LocaleLink to={`/room/${room.room_class_id}`}>{room.room_class_name}</LocaleLink>
                  </h3>
                  <p className="card__meta">
                    {t("home.people", { count: room.people })}
                    {room.description.square_meters ? ` · ${t("room.size", { size: room.description.square_meters })}` : ""}
                  </p>
                  {room.memo_tags.length > 0 ? (
                    <ul className="tags">
                      {room.memo_tags.map((tag) => (
                        <li key={tag}>{tag}</li>
                      ))}
                    </ul>
                  ) : null}
                  {room.fromPrice !== null ? <p className="card__price">{t("home.from_price", { price: formatPrice(room.fromPrice, lang) })}</p> : null}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null;
    case "promotions":
      return data.promotions.length > 0 ? (
        <section className="home-section home-promotions" id="offers">
          <h2>{t("home.promotions_heading")}</h2>
          <ul className="card-grid">
            {data.promotions.map((promotion) => (
              <li key={promotion.promotion_id} className="card promotion-card">
                {promotion.main_image_path ? <Picture image={promotion.main_image_path} className="card__image" /> : null}
                <div className="card__body">
                  <h3>
                    <LocaleLink to={`/event?id=${promotion.promotion_id}`}>{promotion.promotion_title}</LocaleLink>
                  </h3>
                  {promotion.sub_title ? <p>{promotion.sub_title}</p> : null}
                  {promotion.end ? <p className="card__meta">{t("event.until", { date: formatDate(promotion.end, lang) })}</p> : null}
                </div>
              </li>
            ))}
          </ul>
          <p>
            <LocaleLink to="/event" className="text-link">
              {t("home.all_offers")}
            </LocaleLink>
          </p>
        </section>
      ) : null;
    case "news":
      return data.news.length > 0 ? (
        <section className="home-section home-news" id="news">
          <h2>{t("home.news_heading")}</h2>
          <NewsList items={data.news} lang={lang} />
          <p>
            <LocaleLink to="/news" className="text-link">
              {t("home.all_news")}
            </LocaleLink>
          </p>
        </section>
      ) : null;
    case "attractions":
      return data.attractions.length > 0 ? (
        <section className="home-section home-attractions" id="attractions">
          <h2>{t("home.attractions_heading")}</h2>
          <ul className="card-grid card-grid--small">
            {data.attractions.map((item) => (
              <li key={item.promotion_id} className="card attraction-card">
                {item.main_image_path ? <Picture image={item.main_image_path} className="card__image" /> : null}
                <div className="card__body">
                  <h3>
                    <LocaleLink to={`/event?id=${item.promotion_id}`}>{item.promotion_title}</LocaleLink>
                  </h3>
                  {item.sub_title ? <p>{item.sub_title}</p> : null}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null;
    case "facilities":
      return data.facilities.length > 0 ? (
        <section className="home-section home-facilities" id="facilities">
          <h2>{t("home.facilities_heading")}</h2>
          <ul className="card-grid card-grid--small">
            {data.facilities.map((facility) => (
              <li key={facility.id} className="card facility-card">
                {facility.main_image_path ? <Picture image={facility.main_image_path} className="card__image" /> : null}
                <div className="card__body">
                  <h3>{facility.facilities_title}</h3>
                  {facility.index_introduction ? <p>{facility.index_introduction}</p> : null}
                </div>
              </li>
            ))}
          </ul>
          <p>
            <LocaleLink to="/facilities" className="text-link">
              {t("home.all_facilities")}
            </LocaleLink>
          </p>
        </section>
      ) : null;
    case "custom":
      return data.hotel.customBlock ? (
        <section className="home-section home-custom">
          <RichText html={data.hotel.customBlock} />
        </section>
      ) : null;
    case "location":
      return (
        <section className="home-section home-location" id="location">
          <h2>{t("home.location_heading")}</h2>
          <RichText html={data.hotel.locationBlock} />
          <p>{data.hotel.address}</p>
          <p>
            <LocaleLink to="/about#map" className="text-link">
              {t("about.map_link")}
            </LocaleLink>
          </p>
        </section>
      );
  }
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  return (
    <main id="main" className="home">
      <Hero data={data} />
      {(site?.layout.sections ?? []).map((section) => (
        <SectionView key={section} section={section} data={data} lang={lang} />
      ))}
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data.jsonLd) }} />
    </main>
  );
}
