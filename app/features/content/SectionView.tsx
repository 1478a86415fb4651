import { lodgingUnit, unitKey } from "~/domain/units";
import { LocaleLink } from "~/ui/LocaleLink";
import { NewsList } from "~/features/content/NewsList";
import { Picture } from "~/ui/Picture";
import { RichText } from "~/features/content/RichText";
import { useSite } from "~/ui/site-data";
import { formatDate, formatPrice } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import { useTranslation } from "~/i18n/react";
import type { HomeSection } from "~/layouts/designs";
import type { HomeData } from "./Hero";

/** One section of the home page, in the order the hotel's layout lists them. */
export function SectionView({ section, data, lang }: { section: HomeSection; data: HomeData; lang: Language }) {
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
                  {room.fromPrice !== null ? (
                    <p className="card__price">{t("home.from_price", { price: formatPrice(room.fromPrice, lang) })}</p>
                  ) : null}
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
