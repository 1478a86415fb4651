/**
 * The desk's month report and the rows of its CSV exports (decision 152). A month is the hotel's:
 * its dates for stays and nights, its midnights (hotels.time_zone) for payments and cancellations.
 * Every query reads one month's range of an index; an export is paged (EXPORT_PAGE rows a call) so
 * the site streams it without holding a month in memory.
 */
import { monthSpan, type MonthSpan } from "~/domain/months";
import type { HotelRow } from "~/backend/hotels/hotels.server";

export const EXPORT_PAGE = 200;

/** Money counted as received: paid, and what arrived though it is owed back (late, overpaid) or was refunded since. */
const RECEIVED = "('paid', 'late', 'overpaid', 'refunded')";

export interface RoomClassOccupancy {
  room_class_id: number;
  name: string;
  sold: number;
  to_sell: number;
}

export interface MonthReport {
  month: string;
  /** Bookings arriving in the month and not cancelled, and what they are worth. */
  bookings: number;
  booked_value: number;
  /** Rooms sold × nights, on the month's nights (room_nights.booked). */
  room_nights: number;
  /** Money received in the month (payments paid in it). */
  received: number;
  payments: number;
  /** Cancellations made in the month, and what they give back: already and still owed. */
  cancellations: number;
  refunded: number;
  refund_due: number;
  occupancy: RoomClassOccupancy[];
}

export async function monthReport(db: D1Database, hotel: HotelRow, month: string): Promise<MonthReport> {
  const span = monthSpan(month, hotel.time_zone);
  const [bookings, received, cancellations, occupancy] = await db.batch([
    db
      .prepare(
        `SELECT count(*) AS count, coalesce(sum(total_price), 0) AS value FROM orders INDEXED BY orders_desk_arrivals
         WHERE hotel_id = ? AND check_in_day >= ? AND check_in_day < ? AND status <> 'cancelled'`,
      )
      .bind(hotel.id, span.firstDay, span.nextDay),
    db
      .prepare(
        `SELECT count(*) AS count, coalesce(sum(p.amount), 0) AS amount FROM payments p INDEXED BY payments_hotel_paid
         WHERE p.hotel_id = ? AND p.paid_at IS NOT NULL AND p.paid_at >= ? AND p.paid_at < ? AND p.status IN ${RECEIVED}`,
      )
      .bind(hotel.id, span.from, span.until),
    db
      .prepare(
        `SELECT count(*) AS count,
                coalesce(sum(CASE WHEN c.refund_status = 'refunded' THEN c.refund ELSE 0 END), 0) AS refunded,
                coalesce(sum(CASE WHEN c.refund_status = 'due' THEN c.refund ELSE 0 END), 0) AS due
         FROM cancellations c INDEXED BY cancellations_hotel_created
         WHERE c.hotel_id = ? AND c.created_at >= ? AND c.created_at < ?`,
      )
      .bind(hotel.id, span.from, span.until),
    db
      .prepare(
        `SELECT rc.id AS room_class_id, rc.name, coalesce(sum(rn.booked), 0) AS sold, coalesce(sum(rn.capacity), 0) AS to_sell
         FROM room_classes rc LEFT JOIN room_nights rn ON rn.room_class_id = rc.id AND rn.night >= ? AND rn.night < ?
         WHERE rc.hotel_id = ? GROUP BY rc.id ORDER BY rc.position, rc.id`,
      )
      .bind(span.firstDay, span.nextDay, hotel.id),
  ]);
  const one = <T>(result: D1Result | undefined) => (result?.results[0] ?? {}) as T;
  const b = one<{ count: number; value: number }>(bookings);
  const r = one<{ count: number; amount: number }>(received);
  const c = one<{ count: number; refunded: number; due: number }>(cancellations);
  const classes = (occupancy?.results ?? []) as RoomClassOccupancy[];
  return {
    month,
    bookings: b.count ?? 0,
    booked_value: b.value ?? 0,
    room_nights: classes.reduce((sum, row) => sum + row.sold, 0),
    received: r.amount ?? 0,
    payments: r.count ?? 0,
    cancellations: c.count ?? 0,
    refunded: c.refunded ?? 0,
    refund_due: c.due ?? 0,
    occupancy: classes,
  };
}

export interface BookingExportRow {
  id: number;
  order_doc: string;
  created_at: string;
  status: string;
  payment_status: number;
  stay_status: string;
  booker_name: string;
  booker_phone: string;
  booker_email: string;
  check_in_day: string;
  check_out_day: string;
  adults_count: number;
  children_count: number;
  rooms: number;
  total_price: number;
  paid_amount: number;
}

export interface PaymentExportRow {
  id: number;
  trade_no: string;
  order_doc: string;
  created_at: string;
  paid_at: string | null;
  provider: string;
  purpose: string;
  status: string;
  amount: number;
  paid_with: string;
}

/** Bookings arriving in the month, by arrival then id; `after` is the last row's [check_in_day, id]. */
export async function bookingExportPage(db: D1Database, hotel: HotelRow, span: MonthSpan, after: { key: string; id: number } | null) {
  const { results } = await db
    .prepare(
      `SELECT o.id, o.order_doc, o.created_at, o.status, o.payment_status, o.stay_status, o.booker_name, o.booker_phone, o.booker_email,
              o.check_in_day, o.check_out_day, o.adults_count, o.children_count,
              (SELECT coalesce(sum(num), 0) FROM order_lines WHERE order_id = o.id) AS rooms, o.total_price, o.paid_amount
       FROM orders o INDEXED BY orders_desk_arrivals
       WHERE o.hotel_id = ?1 AND o.check_in_day >= ?2 AND o.check_in_day < ?3 AND (o.check_in_day, o.id) > (?4, ?5)
       ORDER BY o.check_in_day, o.id LIMIT ?6`,
    )
    .bind(hotel.id, span.firstDay, span.nextDay, after?.key ?? "", after?.id ?? 0, EXPORT_PAGE + 1)
    .all<BookingExportRow>();
  const rows = results.slice(0, EXPORT_PAGE);
  const last = rows[rows.length - 1];
  return { rows, next: results.length > EXPORT_PAGE && last ? { key: last.check_in_day, id: last.id } : null };
}

/** Payments (every attempt) made in the month, by id. */
export async function paymentExportPage(db: D1Database, hotel: HotelRow, span: MonthSpan, after: { key: string; id: number } | null) {
  const { results } = await db
    .prepare(
      `SELECT p.id, p.trade_no, o.order_doc, p.created_at, p.paid_at, p.provider, p.purpose, p.status, p.amount, p.paid_with
       FROM payments p INDEXED BY payments_hotel_created JOIN orders o ON o.id = p.order_id
       WHERE p.hotel_id = ?3 AND p.created_at >= ?1 AND p.created_at < ?2 AND (p.created_at, p.id) > (?4, ?5)
       ORDER BY p.created_at, p.id LIMIT ?6`,
    )
    .bind(span.from, span.until, hotel.id, after?.key ?? "", after?.id ?? 0, EXPORT_PAGE + 1)
    .all<PaymentExportRow>();
  const rows = results.slice(0, EXPORT_PAGE);
  const last = rows[rows.length - 1];
  return { rows, next: results.length > EXPORT_PAGE && last ? { key: last.created_at, id: last.id } : null };
}
