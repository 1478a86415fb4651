/**
 * The desk's bookings (bookings-page.server.ts): the lists as tabs (links), a GET search form, the
 * rows as links to each booking, and the next page's link. Cards at 360 px, a table on a wide
 * screen (bookings.css); nothing needs JavaScript.
 */
import { Form, Link } from "@remix-run/react";
import { deskBookingPath } from "~/contract/desk";
import { DESK_BOOKING_LISTS, type DeskBookingRow } from "~/contract/desk-bookings-schemas";
import { formatPrice } from "~/i18n/format";
import { localizePath, type Language } from "~/i18n/languages";
import { useBookingWords } from "./bookings-words";
import type { BookingsPageData } from "./bookings-page.server";

function Row({ row, lang, showDeadline, showRefund }: { row: DeskBookingRow; lang: Language; showDeadline: boolean; showRefund: boolean }) {
  const w = useBookingWords();
  return (
    <tr data-order-doc={row.order_doc}>
      <td data-label={w("col.booking")}>
        <Link to={localizePath(deskBookingPath(row.order_doc), lang)}>{row.order_doc}</Link>
      </td>
      <td data-label={w("col.guest")}>
        {row.booker_name}
        <br />
        <span className="desk-bookings__contact">{row.booker_phone}</span>
      </td>
      <td data-label={w("col.stay")}>
        {row.check_in_day} → {row.check_out_day}
      </td>
      <td data-label={w("col.rooms")}>{row.rooms}</td>
      <td data-label={w("col.guests")}>{w("guests", { adults: row.adults_count, children: row.children_count })}</td>
      <td data-label={w("col.status")}>
        {w(`status.${row.status}`)}
        {row.stay_status !== "expected" ? ` · ${w(`stay.${row.stay_status}`)}` : ""}
      </td>
      <td data-label={w("col.total")}>{formatPrice(row.total_price, lang)}</td>
      <td data-label={w("col.paid")}>{formatPrice(row.paid_amount, lang)}</td>
      {showDeadline ? (
        <td data-label={w("col.deadline")}>{row.pay_deadline ? `${row.pay_deadline.replace("T", " ").slice(0, 16)} UTC` : "—"}</td>
      ) : null}
      {showRefund ? <td data-label={w("col.refund")}>{formatPrice(row.refund, lang)}</td> : null}
    </tr>
  );
}

export function BookingsPage({ page, lang }: { page: BookingsPageData; lang: Language }) {
  const w = useBookingWords();
  const answer = page.answer;
  const showDeadline = !page.q && page.list === "awaiting_payment";
  const showRefund = !page.q && page.list === "refund_due";
  const nextLink = answer?.next
    ? `?${new URLSearchParams({ list: page.list, cursor: answer.next, ...(answer.since ? { since: answer.since } : {}) }).toString()}`
    : null;
  return (
    <main id="main" className="desk__main desk-bookings">
      <h1>{w("title")}</h1>
      <Form method="get" className="desk-bookings__search" role="search">
        <label htmlFor="desk-bookings-q">{w("search.label")}</label>
        <input id="desk-bookings-q" name="q" type="search" defaultValue={page.q} maxLength={100} aria-describedby="desk-bookings-q-hint" />
        <button type="submit" className="btn btn--primary">
          {w("search.submit")}
        </button>
        <small id="desk-bookings-q-hint">{w("search.hint")}</small>
      </Form>
      <nav aria-label={w("lists.label")} className="desk-bookings__tabs">
        {DESK_BOOKING_LISTS.map((list) => (
          <Link key={list} to={`?list=${list}`} aria-current={!page.q && page.list === list ? "page" : undefined}>
            {w(`list.${list}`)}
          </Link>
        ))}
      </nav>
      {page.q ? <h2>{w("search.results", { q: page.q })}</h2> : <h2>{w(`list.${page.list}`)}</h2>}
      {answer?.since ? <p>{w("since", { at: `${answer.since.replace("T", " ").slice(0, 16)} UTC` })}</p> : null}
      {page.error ? (
        <p className="alert alert--danger" role="alert">
          {page.error}
        </p>
      ) : null}
      {answer?.truncated ? <p className="alert alert--info">{w("search.truncated", { count: answer.rows.length })}</p> : null}
      {answer && answer.rows.length === 0 ? <p>{w("empty")}</p> : null}
      {answer && answer.rows.length > 0 ? (
        <table className="desk-bookings__table">
          <thead>
            <tr>
              <th scope="col">{w("col.booking")}</th>
              <th scope="col">{w("col.guest")}</th>
              <th scope="col">{w("col.stay")}</th>
              <th scope="col">{w("col.rooms")}</th>
              <th scope="col">{w("col.guests")}</th>
              <th scope="col">{w("col.status")}</th>
              <th scope="col">{w("col.total")}</th>
              <th scope="col">{w("col.paid")}</th>
              {showDeadline ? <th scope="col">{w("col.deadline")}</th> : null}
              {showRefund ? <th scope="col">{w("col.refund")}</th> : null}
            </tr>
          </thead>
          <tbody>
            {answer.rows.map((row) => (
              <Row key={row.order_doc} row={row} lang={lang} showDeadline={showDeadline} showRefund={showRefund} />
            ))}
          </tbody>
        </table>
      ) : null}
      <nav className="desk__pages">
        {page.paged ? <Link to={`?list=${page.list}`}>{w("paging.first")}</Link> : null}
        {nextLink ? <Link to={nextLink}>{w("paging.next")}</Link> : null}
      </nav>
    </main>
  );
}
