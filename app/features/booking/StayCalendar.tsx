import { Link } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { dateTimeFormat, formatDate, formatMonth, formatPrice } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import { addDays } from "~/domain/dates";
import type { StayCalendarCheckOut, StayCalendarDay } from "~/contract/stay-calendar-schemas";
import type { CalendarView } from "./calendar.server";

/**
 * The guest's price calendar (decision 157): a month or two of plain links, so that it works without
 * JavaScript. The first tap picks check-in (the page comes back with each check-out's total), the
 * second picks check-out and searches. A day that cannot be picked is text that says why.
 */
export function StayCalendar({
  view,
  party,
  lang,
}: {
  view: CalendarView;
  party: { room: number; adults: number; children: number };
  lang: Language;
}) {
  const { t } = useTranslation();
  const w = (key: string, values: Record<string, string | number> = {}) => t(`calendar.${key}`, { ...values, ns: "calendar" });
  const { calendar } = view;
  const partyQuery = `room=${party.room}&adults=${party.adults}&children=${party.children}`;
  const href = (query: string) => `?${partyQuery}&${query}#stay-calendar`;
  // THE date style and month names (format.ts), which the Worker and the browser render alike.
  const long = { format: (date: string) => formatDate(date, lang) };
  const weekdayName = dateTimeFormat(lang, "calendar-weekday", { weekday: "short", timeZone: "UTC" });
  const weekdayOf = (date: string) =>
    (weekdayName.formatToParts(utc(date)).find((part) => part.type === "weekday")?.value ?? "").replace(/[^\p{L}\p{N}]/gu, "");
  // The visible price drops its "NT$" on a phone (CSS); the accessible name keeps it.
  const shortPrice = (amount: number) => {
    const price = formatPrice(amount, lang);
    return (
      <>
        <span className="stay-calendar__currency">NT$</span>
        {price.replace("NT$", "")}
      </>
    );
  };
  const utc = (date: string) => new Date(`${date}T00:00:00Z`);
  const why = (entry: { reason?: string; min_stay?: number; nights?: number }) =>
    entry.reason === "min_stay" || entry.reason === "max_stay"
      ? w(entry.reason, { count: entry.nights ?? 1 })
      : w(entry.reason ?? "sold_out");
  const checkOuts = new Map((calendar?.check_outs ?? []).map((entry) => [entry.date, entry]));
  const days = new Map((calendar?.days ?? []).map((entry) => [entry.date, entry]));

  function checkInCell(day: StayCalendarDay) {
    const name = long.format(day.date);
    if (day.price === undefined) {
      return (
        <span className="stay-calendar__day stay-calendar__day--off">
          <span aria-hidden="true">{Number(day.date.slice(8))}</span>
          <span className="stay-calendar__note" aria-hidden="true">
            {day.reason === "past" ? "" : why(day)}
          </span>
          <span className="visually-hidden">{`${name}, ${why(day)}`}</span>
        </span>
      );
    }
    const price = w("from", { price: formatPrice(day.price, lang) });
    const rule = (day.min_stay ?? 1) > 1 ? w("min_stay", { count: day.min_stay ?? 1 }) : "";
    return (
      <Link
        preventScrollReset
        className={`stay-calendar__day${day.date === view.pick ? " stay-calendar__day--picked" : ""}`}
        to={href(`cal=${view.month}&pick=${day.date}`)}
        aria-label={[name, price, rule].filter(Boolean).join(", ")}
        aria-current={day.date === view.pick ? "date" : undefined}
      >
        <span>{Number(day.date.slice(8))}</span>
        <span className="stay-calendar__note">{shortPrice(day.price)}</span>
      </Link>
    );
  }

  function checkOutCell(entry: StayCalendarCheckOut, pick: string) {
    const name = long.format(entry.date);
    if (entry.total === undefined) {
      return (
        <span className="stay-calendar__day stay-calendar__day--off">
          <span aria-hidden="true">{Number(entry.date.slice(8))}</span>
          <span className="stay-calendar__note" aria-hidden="true">
            {why(entry)}
          </span>
          <span className="visually-hidden">{`${name}, ${why(entry)}`}</span>
        </span>
      );
    }
    const total = w("total", { price: formatPrice(entry.total, lang), count: entry.nights });
    return (
      <Link
        className="stay-calendar__day stay-calendar__day--out"
        to={`?${partyQuery}&start=${pick}&end=${entry.date}&cal=${view.month}`}
        aria-label={`${name}, ${total}`}
      >
        <span>{Number(entry.date.slice(8))}</span>
        <span className="stay-calendar__note">{shortPrice(entry.total)}</span>
      </Link>
    );
  }

  const months = calendar ? [...new Set(calendar.days.map((day) => day.date.slice(0, 7)))] : [];
  // Weekday headings from a known Sunday (2023-01-01).
  const weekdays = Array.from({ length: 7 }, (_, index) => weekdayOf(addDays("2023-01-01", index)));
  return (
    <section className="stay-calendar" id="stay-calendar" aria-labelledby="stay-calendar-heading">
      <h2 id="stay-calendar-heading">{w("heading")}</h2>
      <p className="stay-calendar__hint" aria-live="polite">
        {view.pick ? w("hint_check_out", { date: long.format(view.pick) }) : w("hint_check_in")}
      </p>
      <nav className="stay-calendar__nav" aria-label={w("heading")}>
        {view.previous ? (
          <Link preventScrollReset to={href(`cal=${view.previous}${view.pick ? `&pick=${view.pick}` : ""}`)}>{`‹ ${w("previous")}`}</Link>
        ) : (
          <span />
        )}
        {view.next ? (
          <Link preventScrollReset to={href(`cal=${view.next}${view.pick ? `&pick=${view.pick}` : ""}`)}>{`${w("next")} ›`}</Link>
        ) : (
          <span />
        )}
      </nav>
      {calendar ? null : <p>{w("unavailable")}</p>}
      <div className="stay-calendar__months">
        {months.map((month) => {
          const first = `${month}-01`;
          const inMonth = [...days.keys()].filter((date) => date.startsWith(month));
          const lead = utc(first).getUTCDay();
          return (
            <table key={month} className="stay-calendar__month">
              <caption>{formatMonth(first, lang)}</caption>
              <thead>
                <tr>
                  {weekdays.map((name) => (
                    <th key={name} scope="col">
                      {name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: Math.ceil((lead + inMonth.length) / 7) }, (_, week) => (
                  <tr key={week}>
                    {Array.from({ length: 7 }, (_, column) => {
                      const date = inMonth[week * 7 + column - lead];
                      if (!date) return <td key={column} />;
                      const out = view.pick && date > view.pick ? checkOuts.get(date) : undefined;
                      return (
                        <td key={column}>
                          {out && view.pick ? checkOutCell(out, view.pick) : checkInCell(days.get(date) as StayCalendarDay)}
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
