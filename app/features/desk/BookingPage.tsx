import type { ReactNode } from "react";
/**
 * A booking at the desk (booking-page.server.ts): the stay, booker, rooms and occupants, add-ons
 * and rail tickets, the money (what was paid, given back and still owed), the actions the staff
 * member may take (<BookingActions/>, with its own heading), the e-invoice (<InvoicePanel/>), and
 * the timeline, newest first.
 */
import { Link } from "@remix-run/react";
import type { DeskBookingPage, DeskTimelineEntry } from "~/contract/desk-bookings-schemas";
import { nightsBetween } from "~/domain/dates";
import { formatPrice } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import { deskPath } from "./paths";
import { useBookingWords } from "./bookings-words";

const MONEY_FIELDS = ["total", "charged", "refunded", "to_be_refunded", "kept_hotel", "owed"] as const;
/** Timeline fields that are amounts (printed as money). */
const AMOUNTS = new Set(["amount", "refund", "fee"]);

function TimelineEntry({ entry, lang }: { entry: DeskTimelineEntry; lang: Language }) {
  const w = useBookingWords();
  return (
    <li data-timeline-kind={entry.kind}>
      <time dateTime={entry.at}>{entry.at.replace("T", " ").slice(0, 19)} UTC</time> · <strong>{w(`timeline.${entry.kind}`)}</strong>
      {entry.who ? ` · ${w("timeline.by", { who: entry.who })}` : ""}
      <br />
      <span className="desk-bookings__contact">
        {Object.entries(entry.detail)
          .filter(([, value]) => value !== "" && value !== null)
          .map(([key, value]) => {
            // Each field and each known code in the staff member's language; an unknown code as it is.
            const label = w(`timeline.field.${key}`, { defaultValue: key });
            const shown =
              typeof value === "number" && AMOUNTS.has(key)
                ? formatPrice(value, lang)
                : w(`timeline.value.${key}.${value}`, { defaultValue: String(value) });
            return `${label}: ${shown}`;
          })
          .join(" · ")}
      </span>
    </li>
  );
}

export function BookingPage({
  page,
  lang,
  actions,
  invoice,
}: {
  page: DeskBookingPage;
  lang: Language;
  actions?: ReactNode;
  /** The e-invoice panel (InvoicePanel.tsx), after the actions. */
  invoice?: ReactNode;
}) {
  const w = useBookingWords();
  const booking = page.booking;
  const addons = booking.attachment_list.filter(
    (item): item is { name: string; amount: number } => typeof item === "object" && item !== null && "name" in item && "amount" in item,
  );
  return (
    <main id="main" className="desk__main desk-bookings">
      <p>
        <Link to={deskPath(lang, "/bookings")}>{w("page.back")}</Link>
      </p>
      <h1>{booking.order_doc}</h1>
      <p>
        {w(`status.${booking.status}`)} · {w(`stay.${page.stay_status}`)}
      </p>

      <section aria-labelledby="desk-booking-stay">
        <h2 id="desk-booking-stay">{w("page.stay")}</h2>
        <p>
          {booking.check_in_day} → {booking.check_out_day} (
          {w("page.nights", { count: nightsBetween(booking.check_in_day, booking.check_out_day) })}) ·{" "}
          {w("guests", { adults: booking.adults_count, children: booking.children_count })}
        </p>
        <h3>{w("page.booker")}</h3>
        <p>
          {booking.booker_name}
          <br />
          <a href={`tel:${booking.booker_phone.replace(/[^+\d]/g, "")}`}>{booking.booker_phone}</a>
          <br />
          <a href={`mailto:${booking.booker_email}`}>{booking.booker_email}</a>
        </p>
        {booking.memo ? (
          <>
            <h3>{w("page.memo")}</h3>
            <p>{booking.memo}</p>
          </>
        ) : null}
      </section>

      <section aria-labelledby="desk-booking-rooms">
        <h2 id="desk-booking-rooms">{w("page.rooms")}</h2>
        <ul>
          {booking.orders.map((line, index) => (
            <li key={index}>
              {line.num} × {line.room_class_name} · {line.rate_plan_name} · {formatPrice(line.amount, lang)}
              {line.occupant_name ? (
                <>
                  <br />
                  {w("page.occupant")}: {line.occupant_name} {line.occupant_phone} {line.occupant_email}
                </>
              ) : null}
            </li>
          ))}
        </ul>
        {addons.length > 0 ? (
          <>
            <h3>{w("page.addons")}</h3>
            <ul>
              {addons.map((item, index) => (
                <li key={index}>
                  {item.name} · {formatPrice(item.amount, lang)}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {booking.rail_item_list.length > 0 ? (
          <>
            <h3>{w("page.rail")}</h3>
            <ul>
              {booking.rail_item_list.map((line, index) => (
                <li key={index}>
                  {line.date} {line.train_no} {line.departure_time}–{line.arrival_time} · {line.status} · {formatPrice(line.amount, lang)}
                  {line.pnr ? ` · PNR ${line.pnr}` : ""}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>

      <section aria-labelledby="desk-booking-money">
        <h2 id="desk-booking-money">{w("page.money")}</h2>
        <dl className="desk-bookings__money">
          {MONEY_FIELDS.map((field) => (
            <div key={field} data-money={field}>
              <dt>{w(`money.${field}`)}</dt>
              <dd>{formatPrice(page.money[field], lang)}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div data-booking-actions="">{actions}</div>

      {invoice}

      <section aria-labelledby="desk-booking-timeline">
        <h2 id="desk-booking-timeline">{w("page.timeline")}</h2>
        <ol className="desk-bookings__timeline">
          {page.timeline.map((entry, index) => (
            <TimelineEntry key={index} entry={entry} lang={lang} />
          ))}
        </ol>
      </section>
    </main>
  );
}
