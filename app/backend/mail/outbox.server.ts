/**
 * The email outbox (docs/decisions/041): every message is first a row of `mail_outbox`, written by
 * the same D1 batch as the change it is about, so no order or cancellation is ever without its
 * email. What the message says is rendered right after (compose.server.ts) and it is sent from here
 * by the configured transport (deliver.server.ts), with retries.
 */
import type { Language } from "~/i18n/languages";
import type { SiteAddress } from "~/backend/route";

export type MailKind =
  | "order_confirmation"
  | "order_cancellation"
  | "paid_receipt"
  | "hotel_payment_alert"
  | "account_signup"
  | "account_signin_link"
  // The hotel's own emails and the staff invitation (decision 148, migration 0015).
  | "hotel_new_booking"
  | "hotel_cancellation"
  | "hotel_payment_received"
  | "hotel_refund_due"
  | "hotel_morning"
  | "staff_invite"
  // The guest's e-invoice number, when it is issued after the emails before it were composed (decision 163, migration 0025).
  | "invoice_issued"
  // The built-in invoice sandbox's consent email, standing in for ECPay's (decision 167, migration 0027).
  | "einvoice_consent";

/** The emails sent to the guest about their order (rendered from the order by compose.server.ts). */
export type GuestOrderMailKind = "order_confirmation" | "order_cancellation" | "paid_receipt";

export function isGuestOrderMail(kind: MailKind): kind is GuestOrderMailKind {
  return kind === "order_confirmation" || kind === "order_cancellation" || kind === "paid_receipt";
}

export interface QueuedMail {
  hotelId: number;
  /** The order, by number (it may be inserted by the same batch) or by id. */
  order: { doc: string } | { id: number };
  kind: MailKind;
  lang: Language | string;
  to: string;
  site: SiteAddress;
}

/**
 * The INSERT that queues one message; put it in the batch that makes the change. `when`, an SQL
 * condition, queues it only if the batch's change has happened (a guarded cancellation).
 */
export function queueMail(db: D1Database, mail: QueuedMail, when = "1"): D1PreparedStatement {
  const orderRef = "doc" in mail.order ? "(SELECT id FROM orders WHERE order_doc = ?)" : "?";
  const orderValue = "doc" in mail.order ? mail.order.doc : mail.order.id;
  return db
    .prepare(
      `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin, product)
       SELECT ?, ${orderRef}, ?, ?, ?, ?, ? WHERE ${when}`,
    )
    .bind(mail.hotelId, orderValue, mail.kind, mail.lang, mail.to, mail.site.origin, mail.site.product);
}

/**
 * Queues the "paid receipt" for an order whose payment has just completed: for the payments work to
 * put in the batch that records the payment. The link origin is the hotel's site: pass the origin
 * of the request that reached it (the gateway's callback names our own host).
 */
export function queuePaidReceipt(
  db: D1Database,
  order: { id: number; hotel_id: number; lang: string; booker_email: string },
  site: SiteAddress,
): D1PreparedStatement {
  return queueMail(db, {
    hotelId: order.hotel_id,
    order: { id: order.id },
    kind: "paid_receipt",
    lang: order.lang,
    to: order.booker_email,
    site,
  });
}

export interface OutboxRow {
  id: number;
  hotel_id: number;
  order_id: number | null;
  kind: MailKind;
  lang: string;
  to_address: string;
  site_origin: string;
  product: string;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  /** skipped: found not needed when composed (an email before it already said the invoice number). */
  status: "queued" | "sent" | "failed" | "skipped";
  attempts: number;
  next_attempt_at: string;
  last_error: string;
  provider_id: string;
  /** What a hotel email is about beyond its order: who cancelled (migration 0016). */
  about: string;
  created_at: string;
  sent_at: string | null;
}
