/**
 * The hotel's own emails (issue 39, decision 150): one message to each of the hotel's reservation
 * addresses (hotels.reservation_emails), in its main language, queued by the same D1 batch as the
 * change it reports (decision 041) and rendered from the order like the guest's (compose.server.ts).
 */
import type { SiteAddress } from "~/backend/route";

/** The hotel's emails about one order. */
export type HotelOrderMailKind = "hotel_new_booking" | "hotel_cancellation" | "hotel_payment_received" | "hotel_refund_due";

export function isHotelOrderMail(kind: string): kind is HotelOrderMailKind {
  return kind === "hotel_new_booking" || kind === "hotel_cancellation" || kind === "hotel_payment_received" || kind === "hotel_refund_due";
}

/** Who cancelled an order: its guest (the member or the emailed link), the expiry sweep, or staff at the desk. */
export type CancelledBy = "guest" | "sweep" | "staff";

/**
 * The INSERT that queues `kind` to every reservation address of the order's hotel; put it in the
 * batch that makes the change. `order` is an SQL expression of the order's id (bound values in
 * `orderBind`), so an order inserted by the same batch can be named by its number. `when`, an SQL
 * condition, queues it only if the batch's change has happened. `about` says who cancelled.
 */
export function queueHotelMail(
  db: D1Database,
  mail: { orderSql: string; orderBind: unknown[]; kind: HotelOrderMailKind; site: SiteAddress | HotelSite; about?: CancelledBy },
  when = "1",
): D1PreparedStatement {
  // Work without a request (the Cron's expiry) links to the hotel's own domain.
  const origin = "origin" in mail.site ? mail.site.origin : null;
  return db
    .prepare(
      `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin, product, about)
       SELECT o.hotel_id, o.id, ?, h.main_lang, r.value, COALESCE(?, 'https://' || h.domain), ?, ?
       FROM orders o JOIN hotels h ON h.id = o.hotel_id, json_each(h.reservation_emails) r
       WHERE o.id = (${mail.orderSql}) AND r.value != '' AND ${when}`,
    )
    .bind(mail.kind, origin, mail.site.product, mail.about ?? "", ...mail.orderBind);
}

/** The site of work done without a request: the hotel's own domain, and the deployment's product. */
export interface HotelSite {
  product: string;
}

/** `queueHotelMail` for an order by id. */
export const queueHotelMailFor = (
  db: D1Database,
  orderId: number,
  kind: HotelOrderMailKind,
  site: SiteAddress | HotelSite,
  when = "1",
  about?: CancelledBy,
): D1PreparedStatement => queueHotelMail(db, { orderSql: "?", orderBind: [orderId], kind, site, about }, when);
