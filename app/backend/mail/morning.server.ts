/**
 * The hotel's morning email (issue 39, decision 150): from the Cron Trigger, once per hotel and
 * local date once its local time reaches 07:00, today's arrivals, departures and the unpaid
 * bookings whose deadline falls today, each linked to its page in the desk. It is written whole
 * when queued (like the account emails), in the hotel's main language, to its reservation addresses.
 *
 * Once only: the batch that queues it first claims (hotel, day) in `hotel_mornings` with this
 * run's id, and its mail rows are inserted only where that claim is this run's; a second run (or
 * one racing it) finds the key taken and queues nothing. Bounded: one read of the hotels, then per
 * MORNING_CHUNK due hotels one read batch (three indexed lists) and one write batch.
 */
import { checkInStart, addDays } from "~/domain/dates";
import { isolatedName } from "~/domain/contact";
import { formatDate, formatDateTime, formatPrice } from "~/i18n/format";
import { localizePath, type Language } from "~/i18n/languages";
import { bookerName } from "~/i18n/names";
import { docText, documentLanguage, partyText, type DocumentKey } from "~/documents/labels";
import { escapeHtml } from "~/lib/html";
import { DESK_PATH, deskBookingPath } from "~/contract/desk";
import { presentHotelInfo, type HotelRow } from "~/backend/hotels/hotels.server";
import { labelled, mailButton, mailShell, type RenderedMail } from "~/backend/mail/render.server";

/** The local hour from which a hotel's morning email is due. */
export const MORNING_HOUR = 7;
/** Due hotels read and written per round trip: a thousand hotels take ten of each. */
export const MORNING_CHUNK = 100;

/** An order as the morning lists name it. */
interface MorningOrder {
  list: "arrival" | "departure" | "deadline";
  hotel_id: number;
  order_doc: string;
  booker_first_name: string;
  booker_last_name: string;
  booker_name: string;
  check_in_day: string;
  check_out_day: string;
  adults_count: number;
  children_count: number;
  total_price: number;
  paid_amount: number;
  pay_deadline: string | null;
}

/** A hotel's local date and hour at `now`; an unknown zone is read as Taiwan's, as checkInStart does. */
export function localClock(timeZone: string, now: Date): { day: string; hour: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
    }).formatToParts(now);
  } catch {
    return localClock("Asia/Taipei", now);
  }
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? "";
  return { day: `${part("year")}-${part("month")}-${part("day")}`, hour: Number(part("hour")) };
}

export interface MorningRun {
  /** Hotels whose morning email was due in this run (claimed by it or by a run racing it). */
  due: number;
  /** Mail rows queued. */
  queued: number;
  /** Round trips to D1 and rows it read, for the Cron's log and the bound (decision 150). */
  trips: number;
  rowsRead: number;
}

/** Queues every due morning email; `run` names this Cron run's claims. */
export async function queueMornings(db: D1Database, now: Date, site: { product: string }, run: string): Promise<MorningRun> {
  const stats: MorningRun = { due: 0, queued: 0, trips: 1, rowsRead: 0 };
  const { results: hotels, meta } = await db
    .prepare(
      `SELECT h.id, h.time_zone, (SELECT max(day) FROM hotel_mornings m WHERE m.hotel_id = h.id) AS last_day
       FROM hotels h WHERE h.reservation_emails != '[]'`,
    )
    .all<{ id: number; time_zone: string; last_day: string | null }>();
  stats.rowsRead += meta.rows_read;
  const due = hotels.flatMap((hotel) => {
    const clock = localClock(hotel.time_zone, now);
    return clock.hour >= MORNING_HOUR && (hotel.last_day ?? "") < clock.day
      ? [{ id: hotel.id, day: clock.day, zone: hotel.time_zone }]
      : [];
  });
  stats.due = due.length;
  for (let start = 0; start < due.length; start += MORNING_CHUNK) {
    const chunk = due.slice(start, start + MORNING_CHUNK);
    stats.queued += await queueChunk(db, chunk, site, run, stats);
  }
  return stats;
}

async function queueChunk(
  db: D1Database,
  chunk: { id: number; day: string; zone: string }[],
  site: { product: string },
  run: string,
  stats: MorningRun,
): Promise<number> {
  // [hotel, day, the day's start and end in UTC]: the deadline list is of the hotel's local day.
  const days = JSON.stringify(
    chunk.map((hotel) => [
      hotel.id,
      hotel.day,
      checkInStart(hotel.day, hotel.zone).toISOString(),
      checkInStart(addDays(hotel.day, 1), hotel.zone).toISOString(),
    ]),
  );
  const columns = `o.hotel_id, o.order_doc, o.booker_first_name, o.booker_last_name, o.booker_name, o.check_in_day, o.check_out_day,
    o.adults_count, o.children_count, o.total_price, o.paid_amount, o.pay_deadline`;
  const fromDays = `FROM json_each(?1) d JOIN orders o ON o.hotel_id = d.value ->> 0`;
  const read = await db.batch<HotelRow | MorningOrder>([
    db.prepare("SELECT * FROM hotels WHERE id IN (SELECT value ->> 0 FROM json_each(?1))").bind(days),
    db
      .prepare(
        `SELECT 'arrival' AS list, ${columns} ${fromDays} AND o.check_in_day = d.value ->> 1 AND o.status != 'cancelled' ORDER BY o.id`,
      )
      .bind(days),
    db
      .prepare(
        `SELECT 'departure' AS list, ${columns} ${fromDays} AND o.check_out_day = d.value ->> 1 AND o.status != 'cancelled' ORDER BY o.id`,
      )
      .bind(days),
    db
      .prepare(
        `SELECT 'deadline' AS list, ${columns} ${fromDays} AND o.status = 'pending_payment' AND o.payment_status = -1
           AND o.pay_deadline >= d.value ->> 2 AND o.pay_deadline < d.value ->> 3 ORDER BY o.pay_deadline`,
      )
      .bind(days),
  ]);
  stats.trips += 1;
  stats.rowsRead += read.reduce((sum, result) => sum + result.meta.rows_read, 0);
  const [hotelRows, ...lists] = read.map((result) => result.results);
  const orders = lists.flat() as MorningOrder[];
  const writes: D1PreparedStatement[] = [];
  /** Which of the writes queue mail (the others claim a day). */
  const mailWrites = new Set<number>();
  for (const hotel of hotelRows as HotelRow[]) {
    const day = chunk.find((entry) => entry.id === hotel.id)?.day;
    if (!day) continue;
    // The day is claimed even when nothing happens in it: a quiet day sends no email, and is not looked at again.
    writes.push(db.prepare("INSERT OR IGNORE INTO hotel_mornings (hotel_id, day, run) VALUES (?, ?, ?)").bind(hotel.id, day, run));
    const own = orders.filter((order) => order.hotel_id === hotel.id);
    if (own.length === 0) continue;
    const recipients = JSON.parse(hotel.reservation_emails) as string[];
    const origin = `https://${hotel.domain}`;
    const lang = documentLanguage(hotel.main_lang);
    const mail = renderMorning(lang, hotel, day, own, origin);
    mailWrites.add(writes.length);
    writes.push(
      db
        .prepare(
          `INSERT INTO mail_outbox (hotel_id, kind, lang, to_address, site_origin, product, subject, text_body, html_body)
           SELECT ?1, 'hotel_morning', ?2, r.value, ?3, ?4, ?5, ?6, ?7 FROM json_each(?8) r
           WHERE r.value != '' AND EXISTS (SELECT 1 FROM hotel_mornings WHERE hotel_id = ?1 AND day = ?9 AND run = ?10)`,
        )
        .bind(hotel.id, lang, origin, site.product, mail.subject, mail.text, mail.html, JSON.stringify(recipients), day, run),
    );
  }
  if (writes.length === 0) return 0;
  const written = await db.batch(writes);
  stats.trips += 1;
  return written.reduce((sum, result, index) => sum + (mailWrites.has(index) ? result.meta.changes : 0), 0);
}

/** The morning email, whole: three lists of the day, each booking with its desk link. */
function renderMorning(lang: Language, hotel: HotelRow, day: string, orders: MorningOrder[], origin: string): RenderedMail {
  const t = (key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params);
  const info = presentHotelInfo(hotel, lang);
  const date = formatDate(day, lang);
  const subject = t("mail.subject.hotel_morning", { hotel: info.hotel_name, date });
  const link = (order: MorningOrder) => `${origin}${localizePath(deskBookingPath(order.order_doc), lang)}`;
  const sections = (["arrival", "departure", "deadline"] as const).map((list) => {
    const own = orders.filter((order) => order.list === list);
    const heading = t(`mail.morning.${list === "arrival" ? "arrivals" : list === "departure" ? "departures" : "deadlines"}`, {
      count: own.length,
    });
    const lines = own.map((order) => {
      const what = [
        order.order_doc,
        isolatedName(bookerName(order, lang)),
        `${formatDate(order.check_in_day, lang)} – ${formatDate(order.check_out_day, lang)}`,
        partyText(lang, order.adults_count, order.children_count),
      ];
      if (list === "deadline" && order.pay_deadline) {
        what.push(
          t("mail.morning.due_by", {
            amount: formatPrice(Math.max(0, order.total_price - order.paid_amount), lang),
            time: formatDateTime(order.pay_deadline, lang, hotel.time_zone),
          }),
        );
      }
      return { text: what.join(" · "), link: link(order) };
    });
    return { heading, lines };
  });
  const intro = t("mail.morning.intro", { hotel: info.hotel_name, date });
  const desk = `${origin}${localizePath(DESK_PATH, lang)}`;
  const none = t("mail.morning.none");
  const text = [
    intro,
    "",
    ...sections.flatMap((section) => [
      section.heading,
      ...(section.lines.length > 0 ? section.lines.map((line) => `- ${line.text}\n  ${line.link}`) : [`- ${none}`]),
      "",
    ]),
    labelled(lang, t("mail.morning.desk_link"), desk),
    "",
  ].join("\n");
  const html = mailShell({
    lang,
    subject,
    hotel: { name: info.hotel_name, phone: "", email: "", address: "", timeZone: hotel.time_zone },
    body: `<p style="margin:0 0 16px">${escapeHtml(intro)}</p>
${sections
  .map(
    (section) =>
      `<h2 style="margin:20px 0 8px;font-size:18px">${escapeHtml(section.heading)}</h2>\n${
        section.lines.length > 0
          ? section.lines
              .map(
                (line) =>
                  `<p style="margin:0 0 10px"><a href="${escapeHtml(line.link)}" style="color:#1f2328">${escapeHtml(line.text)}</a></p>`,
              )
              .join("\n")
          : `<p style="margin:0 0 10px;color:#575d65">${escapeHtml(none)}</p>`
      }`,
  )
  .join("\n")}
<div style="margin-top:20px">${mailButton(t("mail.morning.desk_link"), desk, true)}</div>`,
  });
  return { subject, text, html };
}
