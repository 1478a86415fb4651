import { Form } from "@remix-run/react";
import type { RailFareType, RailLine } from "~/contract/rail";
import type { Order } from "~/contract/schemas";
import { formatDate, formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";
import { RailLines, type RailLineView } from "~/features/rail/RailLines";
import { useSite } from "~/ui/site-data";
import type { RailChangesView, RailReply, RailStep, RailStepKind } from "./rail-changes.server";

const FARE_TYPES: RailFareType[] = ["adult", "child", "senior", "disabled"];

/** The address of a step of one ticket, keeping the page's proof of access. */
function stepHref(base: string, railId: number, kind: RailStepKind, extra: Record<string, string> = {}) {
  const query = new URLSearchParams({ rail: String(railId), rail_step: kind, ...extra });
  return `${base}${base.includes("?") ? "&" : "?"}${query.toString()}#rail-step`;
}

/** The hidden fields of a GET form of a step: the proof of access, the ticket and the step. */
function Keep({ view, railId, kind }: { view: RailChangesView; railId: number; kind: RailStepKind }) {
  return (
    <>
      {Object.entries(view.keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="rail" value={railId} />
      <input type="hidden" name="rail_step" value={kind} />
    </>
  );
}

/** A fare difference in words: to pay, to be refunded, or none. */
function useDifference() {
  const { t } = useTranslation();
  const lang = useSite()?.lang ?? "zh-TW";
  return (difference: number) =>
    difference > 0
      ? t("order_page.rail.difference.pay", { amount: formatPrice(difference, lang) })
      : difference < 0
        ? t("order_page.rail.difference.refund", { amount: formatPrice(-difference, lang) })
        : t("order_page.rail.difference.none", { amount: formatPrice(0, lang) });
}

/** The page the POST of a step shows its refusal on: the order page itself, with its proof. */
function StepForm({
  view,
  csrf,
  line,
  intent,
  fields,
  submit,
}: {
  view: RailChangesView;
  csrf: string;
  line: RailLine & { rail_id: number };
  intent: string;
  fields: Record<string, string>;
  submit: string;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" action={view.base} className="rail-step__confirm">
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="rail_id" value={line.rail_id} />
      {/* The ticket as this page saw it: a second send of the form is refused, not done again. */}
      <input type="hidden" name="was" value={view.step?.was ?? ""} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="button button--primary">
        {submit}
      </button>{" "}
      <a href={view.base} className="standalone-link">
        {t("order_page.rail.keep")}
      </a>
    </Form>
  );
}

function RefundStep({ view, csrf, line, step }: StepProps<"refund">) {
  const { t } = useTranslation();
  const lang = useSite()?.lang ?? "zh-TW";
  const price = (amount: number) => formatPrice(amount, lang);
  return (
    <div className="rail-step" id="rail-step">
      <h3>{t("order_page.rail.refund.heading")}</h3>
      <p>
        {step.booked
          ? t("order_page.rail.refund.booked", { fee: price(step.fee), count: step.seats, refund: price(step.refund_amount) })
          : t("order_page.rail.refund.reserved", { amount: price(step.amount) })}
      </p>
      <dl className="price-summary">
        <div>
          <dt>{t("order_page.rail.refund.fare")}</dt>
          <dd>{price(step.amount)}</dd>
        </div>
        <div>
          <dt>{t("order_page.rail.refund.fee")}</dt>
          <dd>{price(step.fee)}</dd>
        </div>
        <div className="price-summary__total">
          <dt>{step.booked ? t("order_page.rail.refund.back") : t("order_page.rail.refund.off")}</dt>
          <dd>{price(step.booked ? step.refund_amount : step.amount)}</dd>
        </div>
      </dl>
      <StepForm
        view={view}
        csrf={csrf}
        line={line}
        intent="rail_refund"
        fields={{ refund_amount: String(step.refund_amount) }}
        submit={t("order_page.rail.refund.submit")}
      />
    </div>
  );
}

function ChangeStep({ view, csrf, line, step }: StepProps<"change">) {
  const { t } = useTranslation();
  const lang = useSite()?.lang ?? "zh-TW";
  const difference = useDifference();
  const route = (departure: string, arrival: string) =>
    t("rail.route", { origin: line.origin.name, departure, destination: line.destination.name, arrival });
  const chosen = step.chosen;
  return (
    <div className="rail-step" id="rail-step">
      <h3>{t("order_page.rail.change.heading")}</h3>
      <p>{t("order_page.rail.change.intro", { origin: line.origin.name, destination: line.destination.name })}</p>
      {step.error ? (
        <p className="alert alert--danger" role="alert">
          {t(step.error)}
        </p>
      ) : null}
      {chosen ? (
        <>
          <h4>{t("order_page.rail.change.confirm")}</h4>
          <dl className="facts-list">
            <div>
              <dt>{t("order_page.rail.change.new_train")}</dt>
              <dd>
                {formatDate(chosen.date, lang)} · {t("rail.train", { train: chosen.train_no })} ·{" "}
                {route(chosen.departure_time, chosen.arrival_time)}
              </dd>
            </div>
            <div>
              <dt>{t("order_page.rail.change.difference")}</dt>
              <dd>{difference(chosen.difference)}</dd>
            </div>
            <div>
              <dt>{t("order_page.rail.change.fee")}</dt>
              <dd>{t("order_page.rail.change.no_fee", { amount: formatPrice(0, lang) })}</dd>
            </div>
          </dl>
          {line.status === "booked" ? <p>{t("order_page.rail.change.new_pnr")}</p> : null}
          <StepForm
            view={view}
            csrf={csrf}
            line={line}
            intent="rail_change"
            fields={{ train_no: chosen.train_no, date: chosen.date }}
            submit={t("order_page.rail.change.submit", { train: chosen.train_no, time: chosen.departure_time })}
          />
          <p>
            <a href={stepHref(view.base, line.rail_id, "change", { date: step.date })} className="standalone-link">
              {t("order_page.rail.change.other")}
            </a>
          </p>
        </>
      ) : (
        <>
          <Form method="get" action={view.base.split("?")[0]} className="rail-step__date">
            <Keep view={view} railId={line.rail_id} kind="change" />
            <div className="field">
              <label htmlFor="rail-change-date">{t("rail.date")}</label>
              <input id="rail-change-date" type="date" name="date" defaultValue={step.date} min={step.first_date} max={step.last_date} />
            </div>
            <button type="submit" className="button">
              {t("rail.find")}
            </button>
          </Form>
          {step.trains.length === 0 ? <p>{t("rail.trains.none")}</p> : null}
          <ul className="rail-trains">
            {step.trains.map((train) => (
              <li key={train.train_no} className="rail-train">
                <p className="rail-train__times">
                  <strong>
                    {train.departure_time} → {train.arrival_time}
                  </strong>{" "}
                  · {t("rail.train", { train: train.train_no })}
                </p>
                <p className="rail-train__price">
                  {difference(train.difference)}
                  {train.bookable ? <> · {t("rail.seats_left", { count: train.seats_left })}</> : null}
                </p>
                {train.bookable ? (
                  <a href={stepHref(view.base, line.rail_id, "change", { date: step.date, train: train.train_no })} className="button">
                    {t("rail.choose", { train: train.train_no, time: train.departure_time })}
                  </a>
                ) : (
                  <p className="rail-train__unavailable">
                    {train.unavailable === "current"
                      ? t("order_page.rail.change.current")
                      : t(`rail.unavailable.${train.unavailable ?? "closed"}`)}
                  </p>
                )}
              </li>
            ))}
          </ul>
          <p>
            <a href={view.base} className="standalone-link">
              {t("order_page.rail.keep")}
            </a>
          </p>
        </>
      )}
    </div>
  );
}

function PassengersStep({ view, csrf, line, step }: StepProps<"passengers">) {
  const { t } = useTranslation();
  const lang = useSite()?.lang ?? "zh-TW";
  const difference = useDifference();
  return (
    <div className="rail-step" id="rail-step">
      <h3>{t("order_page.rail.passengers.heading")}</h3>
      <p>{t("order_page.rail.passengers.intro")}</p>
      {step.error ? (
        <p className="alert alert--danger" role="alert">
          {t(step.error)}
        </p>
      ) : null}
      <Form method="get" action={view.base.split("?")[0]} className="rail-step__passengers">
        <Keep view={view} railId={line.rail_id} kind="passengers" />
        <fieldset>
          <legend>{t("rail.passengers")}</legend>
          {FARE_TYPES.map((type) => (
            <div className="field" key={type}>
              <label htmlFor={`rail-passengers-${type}`}>{t(`rail.fare.${type}`)}</label>
              <p className="field__hint" id={`rail-passengers-${type}-hint`}>
                {t(`rail.fare.${type}.hint`)}
              </p>
              <input
                id={`rail-passengers-${type}`}
                name={type}
                type="number"
                inputMode="numeric"
                min={0}
                max={10}
                defaultValue={step.values[type]}
                aria-describedby={`rail-passengers-${type}-hint`}
              />
            </div>
          ))}
        </fieldset>
        <button type="submit" className="button">
          {t("order_page.rail.passengers.check")}
        </button>
      </Form>
      {step.priced ? (
        <>
          <dl className="facts-list">
            <div>
              <dt>{t("order_page.rail.passengers.new_amount")}</dt>
              <dd>{formatPrice(step.priced.amount, lang)}</dd>
            </div>
            <div>
              <dt>{t("order_page.rail.change.difference")}</dt>
              <dd>{difference(step.priced.difference)}</dd>
            </div>
          </dl>
          <StepForm
            view={view}
            csrf={csrf}
            line={line}
            intent="rail_passengers"
            fields={{ ...step.values, amount: String(step.priced.amount) }}
            submit={t("order_page.rail.passengers.submit")}
          />
        </>
      ) : (
        <p>
          <a href={view.base} className="standalone-link">
            {t("order_page.rail.keep")}
          </a>
        </p>
      )}
    </div>
  );
}

type StepProps<K extends RailStep["kind"]> = {
  view: RailChangesView;
  csrf: string;
  line: RailLine & { rail_id: number };
  step: Extract<RailStep, { kind: K }>;
};

/** The controls of one ticket: the step asked for, or links to the changes it allows; a refusal above them. */
function TicketControls({
  view,
  csrf,
  line,
  reply,
}: {
  view: RailChangesView;
  csrf: string;
  line: RailLine & { rail_id: number };
  reply: RailReply["rail"] | null;
}) {
  const { t } = useTranslation();
  const offer = view.offers[line.rail_id];
  const step = view.step?.rail_id === line.rail_id ? view.step : null;
  const alert =
    reply && reply.rail_id === line.rail_id ? (
      <p className="alert alert--danger" role="alert">
        {t(reply.formError)}
      </p>
    ) : null;
  if (step?.kind === "refund") return <RefundStep view={view} csrf={csrf} line={line} step={step} />;
  if (step?.kind === "change") return <ChangeStep view={view} csrf={csrf} line={line} step={step} />;
  if (step?.kind === "passengers") return <PassengersStep view={view} csrf={csrf} line={line} step={step} />;
  const links = (
    [
      ["change", "order_page.rail.change.link"],
      ["passengers", "order_page.rail.passengers.link"],
      ["refund", "order_page.rail.refund.link"],
    ] as const
  ).filter(([kind]) => offer?.[kind]);
  if (links.length === 0 && !alert) return null;
  const way = t(`rail.direction.${line.direction}`);
  return (
    <>
      {alert}
      {links.length > 0 ? (
        <ul className="rail-line__actions">
          {links.map(([kind, key]) => (
            <li key={kind}>
              <a href={stepHref(view.base, line.rail_id, kind)} className="standalone-link">
                {t(key, { direction: way })}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** What was done, over the order (its tickets and amounts below are the back end's after the call). */
export function RailStatusNote({ done }: { done: RailStepKind }) {
  const { t } = useTranslation();
  return (
    <p className="alert alert--success" role="status">
      {t(`order_page.rail.done.${done}`)}
    </p>
  );
}

/**
 * The order's rail tickets on its order page (decision 140), each with what may be changed of it —
 * another train, other passengers, a refund — as links to a step that states what it does, then one
 * plain POST. A refusal shows under its ticket.
 */
export function RailChanges({
  order,
  view,
  csrf,
  reply,
}: {
  order: Order;
  view: RailChangesView;
  csrf: string;
  reply: RailReply["rail"] | null;
}) {
  const { t } = useTranslation();
  const lines = order.rail_item_list ?? [];
  const byId = new Map(lines.map((line) => [line.rail_id, line]));
  const shown: RailLineView[] = lines.map((line) => ({ ...line, origin: line.origin.name, destination: line.destination.name }));
  return (
    <section className="order-rail" id="rail-tickets" aria-labelledby="rail-heading">
      <h2 id="rail-heading">{t("rail.title")}</h2>
      {reply && !lines.some((line) => line.rail_id !== null && line.rail_id === reply.rail_id) ? (
        <p className="alert alert--danger" role="alert">
          {t(reply.formError)}
        </p>
      ) : null}
      <RailLines
        lines={shown}
        action={(shownLine) => {
          const line = byId.get(shownLine.rail_id ?? null);
          if (!line || line.rail_id === null) return null;
          return <TicketControls view={view} csrf={csrf} line={{ ...line, rail_id: line.rail_id }} reply={reply} />;
        }}
      />
    </section>
  );
}
