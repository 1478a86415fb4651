import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { railAction, railPage } from "~/features/rail/rail-page.server";
import { RailLines, type RailLineView } from "~/features/rail/RailLines";
import { FieldError } from "~/features/checkout/fields";
import { formatDate, formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";
import { useSite } from "~/ui/site-data";

export const handle = { hydrate: true, booking: true, words: ["rail"] };

export const loader = (args: LoaderFunctionArgs) => railPage(args);
export const action = (args: ActionFunctionArgs) => railAction(args);

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

const TIMES = ["", "06:00", "08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00", "22:00"];
const FARE_TYPES = ["adult", "child", "senior", "disabled"] as const;

/** Rail tickets to and from the hotel's station, chosen between the cart and the checkout (issue 27). */
export default function RailPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const { t } = useTranslation();
  const { query, hotelStation, stations, trains } = data;
  const name = (id: string) =>
    id === hotelStation.station_id ? hotelStation.name : (stations.find((s) => s.station_id === id)?.name ?? id);
  const chosen: RailLineView[] = data.chosen.map((line) => ({ ...line, origin: name(line.origin), destination: name(line.destination) }));
  const busy = navigation.state !== "idle";
  const stationName = stations.find((station) => station.station_id === query.station)?.name ?? "";
  return (
    <main id="main" className={`page rail-page booking booking--${site?.layout.booking ?? "booking_100"}`} aria-busy={busy || undefined}>
      {/* Back where the guest came from: the checkout, which starts from the draft its button kept (issue 37 item 12). */}
      <p className="breadcrumb">
        <a href={data.checkoutPage}>← {t("rail.back")}</a>
      </p>
      <h1>{t("rail.title")}</h1>
      <p className="rail-page__intro">{t("rail.intro", { station: hotelStation.name })}</p>
      {actionData?.error ? (
        <p className="alert alert--danger" role="alert" tabIndex={-1}>
          {t(actionData.error)}
        </p>
      ) : null}

      <section aria-labelledby="rail-chosen" className="rail-page__chosen">
        <h2 id="rail-chosen">{t("rail.chosen")}</h2>
        {chosen.length === 0 ? <p>{t("rail.chosen.none")}</p> : null}
        <RailLines
          lines={chosen}
          action={(line) => (
            <Form method="post" className="rail-line__remove">
              <input type="hidden" name="csrf" value={data.csrf} />
              <input type="hidden" name="intent" value="remove" />
              <input type="hidden" name="direction" value={line.direction} />
              <button type="submit" className="button button--secondary">
                {t("rail.remove", { direction: t(`rail.direction.${line.direction}`) })}
              </button>
            </Form>
          )}
        />
        <p>
          <a className="button button--block" href={data.checkoutPage} id="rail-checkout">
            {t(chosen.length === 0 ? "rail.skip" : "rail.to_checkout")}
          </a>
        </p>
      </section>

      <section aria-labelledby="rail-find" className="rail-page__find">
        <h2 id="rail-find">{t("rail.find.title")}</h2>
        {/* Its fields start from the query the page answers: keyed by it, so that with JavaScript a new
            query (the return leg after the outbound is chosen) starts them afresh, as a new page does
            without (the fields are uncontrolled; issue 37, as the booking page's room count). */}
        <Form
          key={[query.direction, query.station, query.date, query.time, ...Object.values(query.passengers)].join("|")}
          method="get"
          className="rail-form"
          preventScrollReset
        >
          {data.stayParams.map(([key, value]) => (
            <input key={key} type="hidden" name={key} value={value} />
          ))}
          <fieldset className="field">
            <legend>{t("rail.direction")}</legend>
            {(["outbound", "return"] as const).map((direction) => (
              <label key={direction} className="choice">
                <input type="radio" name="direction" value={direction} defaultChecked={query.direction === direction} />{" "}
                {t(`rail.direction.${direction}.long`, { station: hotelStation.name })}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="rail-station">{t("rail.station")}</label>
            <select id="rail-station" name="station" defaultValue={query.station} aria-describedby="rail-station-hint">
              {stations.map((station) => (
                <option key={station.station_id} value={station.station_id}>
                  {station.name}
                </option>
              ))}
            </select>
            <p className="field__hint" id="rail-station-hint">
              {t("rail.station.hint", { station: hotelStation.name })}
            </p>
            <FieldError errors={data.fieldErrors} name="station" />
          </div>
          <div className="field">
            <label htmlFor="rail-date">{t("rail.date")}</label>
            <input
              type="date"
              id="rail-date"
              name="date"
              defaultValue={query.date}
              min={data.window.first}
              max={data.window.last}
              required
              aria-describedby="rail-date-hint"
            />
            <p className="field__hint" id="rail-date-hint">
              {t("rail.date.hint", { first: formatDate(data.window.first, lang), last: formatDate(data.window.last, lang) })}
            </p>
            <FieldError errors={data.fieldErrors} name="date" />
          </div>
          <div className="field">
            <label htmlFor="rail-time">{t("rail.time")}</label>
            <select id="rail-time" name="time" defaultValue={query.time}>
              {TIMES.map((time) => (
                <option key={time} value={time}>
                  {time === "" ? t("rail.time.any") : t("rail.time.from", { time })}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="field rail-form__passengers">
            <legend>{t("rail.passengers")}</legend>
            {FARE_TYPES.map((type) => (
              <label key={type} className="rail-form__count">
                {t(`rail.fare.${type}`)}{" "}
                <input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={10}
                  step={1}
                  name={type}
                  defaultValue={query.passengers[type]}
                  aria-describedby={`rail-${type}-hint`}
                />
                <span className="field__hint" id={`rail-${type}-hint`}>
                  {t(`rail.fare.${type}.hint`)}
                </span>
              </label>
            ))}
            <FieldError errors={data.fieldErrors} name="adult" />
          </fieldset>
          <button type="submit" className="button">
            {t("rail.find")}
          </button>
        </Form>
      </section>

      {query.asked ? (
        <section aria-labelledby="rail-trains" className="rail-page__trains">
          <h2 id="rail-trains">
            {t(`rail.trains.${query.direction}`, { station: stationName, hotel: hotelStation.name, date: formatDate(query.date, lang) })}
          </h2>
          <p className="visually-hidden" role="status">
            {trains ? t("rail.trains.count", { count: trains.trains.length }) : ""}
          </p>
          {data.queryError ? (
            <p className="alert alert--danger" role="alert">
              {data.queryError}
            </p>
          ) : null}
          {trains && trains.trains.length === 0 ? <p>{t("rail.trains.none")}</p> : null}
          {trains ? (
            <ul className="rail-trains">
              {trains.trains.map((train) => (
                <li key={train.train_no} className="rail-train">
                  <p className="rail-train__times">
                    <strong>
                      {train.departure_time} → {train.arrival_time}
                    </strong>{" "}
                    · {t("rail.train", { train: train.train_no })} · {t("rail.duration", { minutes: train.duration_minutes })}
                  </p>
                  <p className="rail-train__price">
                    {formatPrice(train.amount, lang)}
                    {train.bookable ? <> · {t("rail.seats_left", { count: train.seats_left })}</> : null}
                  </p>
                  {train.bookable ? (
                    <Form method="post" className="rail-train__choose">
                      <input type="hidden" name="csrf" value={data.csrf} />
                      <input type="hidden" name="intent" value="choose" />
                      <input type="hidden" name="direction" value={query.direction} />
                      <input type="hidden" name="station" value={query.station} />
                      <input type="hidden" name="date" value={query.date} />
                      <input type="hidden" name="train_no" value={train.train_no} />
                      {FARE_TYPES.map((type) => (
                        <input key={type} type="hidden" name={type} value={query.passengers[type]} />
                      ))}
                      <button type="submit" className="button">
                        {t("rail.choose", { train: train.train_no, time: train.departure_time })}
                      </button>
                    </Form>
                  ) : (
                    <p className="rail-train__unavailable">{t(`rail.unavailable.${train.unavailable ?? "closed"}`)}</p>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
    </main>
  );
}
