import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "~/ui/LocaleLink";
import { Picture } from "~/ui/Picture";
import { RichText } from "~/features/content/RichText";
import { StayCalendar } from "~/features/booking/StayCalendar";
import { lodgingUnit, unitKey } from "~/domain/units";
import { htmlToText } from "~/lib/sanitize";
import { roomPage } from "~/features/content/room-page.server";
import { formatCapacity, formatDate, formatPrice } from "~/i18n/format";
import { FACILITY_GROUPS } from "~/contract/facilities";
import { jsonLdText, pageMeta, siteFromMatches } from "~/ui/seo";
import { useSite } from "~/ui/site-data";
import { contentLinks } from "~/features/content/links";

export const links = contentLinks;

export const loader = (args: LoaderFunctionArgs) => roomPage(args);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? pageMeta({
        title: `${data.room.room_class_name} | ${data.hotelName}`,
        description: htmlToText(data.room.introduction),
        url: data.url,
        image: data.room.photos[0] ? new URL(data.room.photos[0].src, data.url).toString() : undefined,
        siteName: data.hotelName,
        lang: siteFromMatches(matches)?.lang ?? "zh-TW",
      })
    : [];

export default function RoomPage() {
  const data = useLoaderData<typeof loader>();
  const site = useSite();
  const { t } = useTranslation();
  const lang = site?.lang ?? "zh-TW";
  const { room } = data;
  const [first, ...photos] = room.photos;
  return (
    <main id="main" className="page room-page">
      <p className="breadcrumb">
        <LocaleLink to="/">{data.hotelName}</LocaleLink> ›{" "}
        <LocaleLink to="/#rooms">{t(unitKey("nav.rooms", lodgingUnit(site?.hotel.kind)))}</LocaleLink>
      </p>
      <h1>{room.room_class_name}</h1>
      {data.fromPrice !== null ? (
        <p className="room-page__from">{t("home.from_price", { price: formatPrice(data.fromPrice, lang) })}</p>
      ) : null}
      <div className="room-page__gallery">
        {first ? <Picture image={first} priority className="room-page__hero" /> : null}
        {photos.map((photo) => (
          <Picture key={photo.src} image={photo} />
        ))}
      </div>
      <div className="room-page__body">
        <section className="room-page__facts">
          <ul className="facts">
            <li>{formatCapacity(t, room.people, room.children)}</li>
            {room.description.square_meters ? <li>{t("room.size", { size: room.description.square_meters })}</li> : null}
            {room.description.bed.map((bed) => (
              <li key={bed.bed}>{t("room.bed", { count: bed.count, bed: t(`bed.${bed.bed}`, { defaultValue: bed.bed }) })}</li>
            ))}
          </ul>
          {room.symbol_tags.length + room.memo_tags.length > 0 ? (
            <ul className="tags">
              {[...room.symbol_tags, ...room.memo_tags].map((tag) => (
                <li key={tag}>{tag}</li>
              ))}
            </ul>
          ) : null}
          <RichText html={room.introduction} />
        </section>
        <section className="room-page__facilities">
          <h2>{t("room.facilities_heading")}</h2>
          <dl className="facility-groups">
            {FACILITY_GROUPS.filter((group) => (room.facilities[group] ?? []).length > 0).map((group) => (
              <div key={group}>
                <dt>{t(`facility_group.${group}`)}</dt>
                <dd>
                  {(room.facilities[group] ?? [])
                    .map((key) => t(key, { ns: "facility", defaultValue: key.replace(/_/g, " ") }))
                    .join(" · ")}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
      <section className="room-page__plans">
        <h2>{t("room.plans_heading", { date: formatDate(data.today, lang) })}</h2>
        {data.plans.length === 0 ? (
          <p>{t("room.no_plans_tonight")}</p>
        ) : (
          <ul className="plan-list">
            {data.plans.map((plan) => (
              <li key={plan.proposal_id} className="plan">
                <h3>{plan.proposal_name}</h3>
                {plan.proposal_introduction ? <RichText html={plan.proposal_introduction} /> : null}
                <p className="plan__price">
                  {formatPrice(plan.price, lang)}
                  {plan.member_price !== null ? (
                    <span className="plan__member">{t("room.member_price", { price: formatPrice(plan.member_price, lang) })}</span>
                  ) : null}
                </p>
                <p className="plan__meta">
                  {plan.contain_meals ? t("room.meals_included") : t(unitKey("room.room_only", lodgingUnit(site?.hotel.kind)))}
                  {plan.free_cancel_before_date
                    ? ` · ${t("room.free_cancel_until", { date: formatDate(plan.free_cancel_before_date, lang) })}`
                    : ""}
                  {plan.refund_template_id === 0 ? ` · ${t("room.hotel_cancel_policy")}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <StayCalendar
        view={data.calendar}
        lang={lang}
        unavailable={t("stay_calendar.unavailable_room")}
        links={{
          month: (month) => `?${data.partyQuery}cal=${month}#stay-calendar`,
          // A room's page picks no check-in: its days open the booking page, whose calendar has the check-outs.
          day: (date) => data.dayLinks[date] ?? "",
        }}
      />
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data.jsonLd) }} />
    </main>
  );
}
