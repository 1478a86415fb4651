/** The month report (reports-page.server.ts): a GET month picker, the month's figures, occupancy per room type, and the CSV links. */
import { Form } from "@remix-run/react";
import type { DeskMonthReport } from "~/contract/desk-bookings-schemas";
import { formatPercent, formatPrice } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import { deskPath } from "./paths";
import { useBookingWords } from "./bookings-words";

const FIGURES = [
  ["bookings", false],
  ["booked_value", true],
  ["room_nights", false],
  ["received", true],
  ["payments", false],
  ["cancellations", false],
  ["refunded", true],
  ["refund_due", true],
] as const;

export function ReportsPage({
  month,
  report,
  error,
  lang,
}: {
  month: string;
  report: DeskMonthReport | null;
  error: string | null;
  lang: Language;
}) {
  const w = useBookingWords();
  return (
    <main id="main" className="desk__main desk-bookings">
      <h1>{w("reports.title")}</h1>
      <Form method="get" className="desk-bookings__search desk-bookings__search--month">
        <label htmlFor="desk-report-month">{w("reports.month")}</label>
        <input id="desk-report-month" name="month" type="month" defaultValue={month} pattern="\d{4}-\d{2}" required />
        <button type="submit" className="btn btn--primary">
          {w("reports.show")}
        </button>
      </Form>
      {error ? (
        <p className="alert alert--danger" role="alert">
          {w("reports.bad_month")}
        </p>
      ) : null}
      <p>{w("reports.notes")}</p>
      {report ? (
        <>
          <dl className="desk-bookings__report">
            {FIGURES.map(([field, money]) => (
              <div key={field} data-figure={field}>
                <dt>{w(`reports.${field}`)}</dt>
                <dd>{money ? formatPrice(report[field], lang) : report[field]}</dd>
              </div>
            ))}
          </dl>
          <h2>{w("reports.occupancy")}</h2>
          <table className="desk-bookings__table">
            <thead>
              <tr>
                <th scope="col">{w("reports.room")}</th>
                <th scope="col">{w("reports.sold")}</th>
                <th scope="col">{w("reports.to_sell")}</th>
                <th scope="col">{w("reports.rate")}</th>
              </tr>
            </thead>
            <tbody>
              {report.occupancy.map((row) => (
                <tr key={row.room_class_id}>
                  <td data-label={w("reports.room")}>{row.name}</td>
                  <td data-label={w("reports.sold")}>{row.sold}</td>
                  <td data-label={w("reports.to_sell")}>{row.to_sell}</td>
                  <td data-label={w("reports.rate")}>
                    {row.to_sell > 0 ? formatPercent(Math.round((row.sold / row.to_sell) * 100), lang) : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>{w("reports.exports")}</h2>
          <ul>
            <li>
              <a href={deskPath(lang, `/exports/bookings.csv?month=${report.month}`)} download>
                {w("reports.export_bookings")} ({report.month})
              </a>
            </li>
            <li>
              <a href={deskPath(lang, `/exports/payments.csv?month=${report.month}`)} download>
                {w("reports.export_payments")} ({report.month})
              </a>
            </li>
          </ul>
        </>
      ) : null}
    </main>
  );
}
