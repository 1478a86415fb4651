import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "~/components/LocaleLink";
import { Picture } from "~/components/Picture";
import { RichText } from "~/components/RichText";
import { bookingTarget } from "~/booking/booking-links";
import { addDays, addMonths, dayOfWeek, todayIn } from "~/booking/dates";
import { sortPlans } from "~/booking/sorting";
import { lodgingUnit, unitKey } from "~/booking/units";
import { loadFromPrices } from "~/from-prices.server";
import { fallbackOnError } from "~/log.server";
import { partyForRoom } from "~/booking/limits";
import { htmlToText } from "~/content/sanitize";
import { formatCapacity, formatDate, formatMonth, formatPrice } from "~/i18n/format";
import { FACILITY_GROUPS } from "~/hotel-api/facilities";
import { jsonLdText, pageMeta, roomJsonLd, siteFromMatches } from "~/seo";
import { useSite } from "~/components/site-data";

/** Months the price calendar shows; it is requested for one month more (spec §7). */
export const CALENDAR_MONTHS = 2;

export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = app.hotel;
  if (!hotel || !/^\d{1,9}$/.test(params.roomClassId ?? "")) throw new Response(null, { status: 404 });
  const roomClassId = Number(params.roomClassId);
  const rooms = await app.api.rooms();
  const room = rooms.find((candidate) => candidate.room_class_id === roomClassId);
  if (!room) throw new Response(null, { status: 404 });

  const url = new URL(request.url);
  const today = todayIn(hotel.time_zone);
  const thisMonth = `${today.slice(0, 7)}-01`;
  const asked = /^\d{4}-\d{2}$/.exec(url.searchParams.get("month") ?? "")?.[0];
  const lastMonth = addMonths(thisMonth, 17);
  const firstMonth = asked && `${asked}-01` >= thisMonth && `${asked}-01` <= lastMonth ? `${asked}-01` : thisMonth;
  const calendarEnd = addMonths(firstMonth, CALENDAR_MONTHS + 1);
  const [calendar, tonight, fromPrices] = await Promise.all([
    app.api.roomCalendar(firstMonth, calendarEnd, [roomClassId]),
    app.api.search(today, addDays(today, 1)).catch(fallbackOnError(app.log, "tonight's plans", () => null)),
    loadFromPrices(app.api, today, [roomClassId]).catch(fallbackOnError(app.log, "from price", () => new Map<number, number | null>())),
  ]);
  // Content pages are for guests who are not signed in: normal prices order the plans (spec §5).
  const plans = sortPlans(tonight?.rooms.find((row) => row.room_class_id === roomClassId)?.price_set ?? [], false);
  const fromPrice = fromPrices.get(roomClassId) ?? null;
  const booking = (start: string) =>
    bookingTarget(hotel, app.env.PRODUCT, app.lang, { start, end: addDays(start, 1), ...partyForRoom(room) }).href;
  const pageUrl = `${url.origin}${url.pathname}`;
  return {
    url: pageUrl,
    hotelName: hotel.hotel_name,
    room,
    fromPrice,
    plans,
    today,
    firstMonth,
    previousMonth: firstMonth > thisMonth ? addMonths(firstMonth, -1).slice(0, 7) : null,
    nextMonth: addMonths(firstMonth, 1) <= lastMonth ? addMonths(firstMonth, 1).slice(0, 7) : null,
    calendar: calendar.map((day) => ({ ...day, href: day.available && day.date >= today ? booking(day.date) : null })),
    jsonLd: roomJsonLd(room, url.origin, pageUrl, fromPrice),
  };
}

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

function Calendar({ data }: { data: ReturnType<typeof useLoaderData<typeof loader>> }) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const months = Array.from({ length: CALENDAR_MONTHS }, (_, index) => addMonths(data.firstMonth, index));
  const weekdays = Array.from({ length: 7 }, (_, index) =>
    new Intl.DateTimeFormat(lang, { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2030, 0, 6 + index))),
  );
  return (
    <section className="room-calendar" id="calendar">
      <h2>{t("room.calendar_heading")}</h2>
      <nav className="room-calendar__nav">
        {data.previousMonth ? (
          <LocaleLink to={`?month=${data.previousMonth}#calendar`} className="text-link" preventScrollReset>
            ← {t("room.previous_month")}
          </LocaleLink>
        ) : (
          <span />
        )}
        {data.nextMonth ? (
          <LocaleLink to={`?month=${data.nextMonth}#calendar`} className="text-link" preventScrollReset>
            {t("room.next_month")} →
          </LocaleLink>
        ) : null}
      </nav>
      <div className="room-calendar__months">
        {months.map((month) => {
          const days = data.calendar.filter((day) => day.date.startsWith(month.slice(0, 7)));
          const blanks = dayOfWeek(month);
          return (
            <table key={month} className="month">
              <caption>{formatMonth(month, lang)}</caption>
              <thead>
                <tr>
                  {weekdays.map((weekday) => (
                    <th key={weekday} scope="col">
                      {weekday}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: Math.ceil((blanks + days.length) / 7) }, (_, week) => (
                  <tr key={week}>
                    {Array.from({ length: 7 }, (_, weekday) => {
                      const day = days[week * 7 + weekday - blanks];
                      if (!day) return <td key={weekday} />;
                      const label = Number(day.date.slice(8));
                      return (
                        <td key={weekday} className={day.href ? "day day--open" : day.date < data.today ? "day day--past" : "day day--closed"}>
                          {day.href ? (
                            <a href={day.href} aria-label={`${formatDate(day.date, lang)} ${day.price !== null ? formatPrice(day.price, lang) : ""}`}>
                              <span className="day__number">{label}</span>
                              {day.price !== null ? <span className="day__price">{formatPrice(day.price, lang)}</span> : null}
                            </a>
                          ) : (
                            <span>
                              <span className="day__number">{label}</span>
                              <span className="day__price">{day.date >= data.today ? t("room.full") : ""}</span>
                            </span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          );
        })}
      </div>
    </section>
  );
}

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
        <LocaleLink to="/">{data.hotelName}</LocaleLink> › <LocaleLink to="/#rooms">{t(unitKey("nav.rooms", lodgingUnit(site?.hotel.kind)))}</LocaleLink>
      </p>
      <h1>{room.room_class_name}</h1>
      {data.fromPrice !== null ? <p className="room-page__from">{t("home.from_price", { price: formatPrice(data.fromPrice, lang) })}</p> : null}
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
                <dd>{(room.facilities[group] ?? []).map((key) => t(key, { ns: "facility", defaultValue: key.replace(/_/g, " ") })).join(" · ")}</dd>
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
                  {plan.free_cancel_before_date ? ` · ${t("room.free_cancel_until", { date: formatDate(plan.free_cancel_before_date, lang) })}` : ""}
                  {plan.refund_template_id === 0 ? ` · ${t("room.non_refundable")}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Calendar data={data} />
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data.jsonLd) }} />
    </main>
  );
}
