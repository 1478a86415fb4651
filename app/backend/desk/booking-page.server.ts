/**
 * A booking as the desk reads it (decision 152): the guest's own order answer (the same stay,
 * rooms, occupants, add-ons, tickets and money lines the guest's page prints), where the guest is
 * in their stay, one account of the money, and the timeline of everything that happened to it.
 */
import { orderAccount, type OrderMoney } from "~/domain/order-view";
import type { BackendContext } from "~/backend/route";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { orderAnswer } from "~/backend/orders/present.server";
import { findOrder, type OrderRow } from "~/backend/orders/store.server";
import { ApiError } from "~/backend/http.server";
import { deskInvoice } from "~/backend/desk/einvoice-desk.server";

/** At most this many rows of each source: an order's history is short; a runaway one is cut, not read whole. */
const TIMELINE_PER_SOURCE = 100;

export type TimelineKind = "created" | "payment" | "payment_paid" | "callback" | "email" | "cancelled" | "staff";

export interface TimelineEntry {
  at: string;
  kind: TimelineKind;
  /** What happened, as short fields the page labels (status, amount, action…). */
  detail: Record<string, string | number>;
  /** The staff member who did it (staff entries only). */
  who: string;
}

/**
 * What the guest owes and what is owed back, from the guest's own account (orderAccount):
 * `owed` = total − charged + refunded + to be refunded while the booking stands (0 once cancelled):
 * money given back is money no longer paid.
 */
export interface DeskMoney {
  total: number;
  charged: number;
  refunded: number;
  to_be_refunded: number;
  kept_hotel: number;
  owed: number;
}

export function deskMoney(account: ReturnType<typeof orderAccount>, cancelled: boolean): DeskMoney {
  return {
    total: account.total,
    charged: account.charged,
    refunded: account.refunded,
    to_be_refunded: account.toBeRefunded,
    kept_hotel: account.keptHotel,
    owed: cancelled ? 0 : Math.max(0, account.total - account.charged + account.refunded + account.toBeRefunded),
  };
}

interface PaymentRow {
  id: number;
  provider: string;
  trade_no: string;
  amount: number;
  purpose: string;
  status: string;
  paid_at: string | null;
  paid_with: string;
  created_at: string;
}

/** Everything that happened to the order, newest first, from the tables that record it (one D1 batch). */
export async function bookingTimeline(db: D1Database, hotel: Pick<HotelRow, "id">, order: OrderRow): Promise<TimelineEntry[]> {
  const [payments, events, mails, cancellations, audit] = await db.batch([
    db
      .prepare(
        "SELECT id, provider, trade_no, amount, purpose, status, paid_at, paid_with, created_at FROM payments WHERE order_id = ? ORDER BY id DESC LIMIT ?",
      )
      .bind(order.id, TIMELINE_PER_SOURCE),
    db
      .prepare(
        `SELECT route, outcome, reason, trade_no, created_at FROM payment_events
         WHERE trade_no IN (SELECT trade_no FROM payments WHERE order_id = ?1) AND (hotel_id = ?2 OR hotel_id IS NULL)
         ORDER BY id DESC LIMIT ?3`,
      )
      .bind(order.id, hotel.id, TIMELINE_PER_SOURCE),
    db
      .prepare(
        "SELECT kind, status, to_address, attempts, last_error, created_at, sent_at FROM mail_outbox WHERE order_id = ? AND hotel_id = ? ORDER BY id DESC LIMIT ?",
      )
      .bind(order.id, hotel.id, TIMELINE_PER_SOURCE),
    db.prepare("SELECT via, reason, fee, refund, refund_status, created_at FROM cancellations WHERE order_id = ?").bind(order.id),
    db
      .prepare("SELECT staff_email, action, after, created_at FROM audit_log WHERE hotel_id = ? AND subject = ? ORDER BY id DESC LIMIT ?")
      .bind(hotel.id, `order:${order.order_doc}`, TIMELINE_PER_SOURCE),
  ]);
  const entries: TimelineEntry[] = [];
  for (const row of (payments?.results ?? []) as PaymentRow[]) {
    entries.push({
      at: row.created_at,
      kind: "payment",
      detail: { provider: row.provider, trade_no: row.trade_no, amount: row.amount, purpose: row.purpose, status: row.status },
      who: "",
    });
    if (row.paid_at) {
      entries.push({
        at: row.paid_at,
        kind: "payment_paid",
        detail: { provider: row.provider, trade_no: row.trade_no, amount: row.amount, paid_with: row.paid_with },
        who: "",
      });
    }
  }
  for (const row of (events?.results ?? []) as { route: string; outcome: string; reason: string; trade_no: string; created_at: string }[]) {
    entries.push({
      at: row.created_at,
      kind: "callback",
      detail: { route: row.route, outcome: row.outcome, reason: row.reason, trade_no: row.trade_no },
      who: "",
    });
  }
  for (const row of (mails?.results ?? []) as {
    kind: string;
    status: string;
    to_address: string;
    attempts: number;
    last_error: string;
    created_at: string;
    sent_at: string | null;
  }[]) {
    entries.push({
      at: row.sent_at ?? row.created_at,
      kind: "email",
      detail: {
        email: row.kind,
        status: row.status,
        to: row.to_address,
        attempts: row.attempts,
        ...(row.last_error ? { error: row.last_error } : {}),
      },
      who: "",
    });
  }
  for (const row of (cancellations?.results ?? []) as {
    via: string;
    fee: number;
    refund: number;
    refund_status: string;
    reason: string;
    created_at: string;
  }[]) {
    entries.push({
      at: row.created_at,
      kind: "cancelled",
      detail: { via: row.via, reason: row.reason, refund: row.refund, fee: row.fee, refund_status: row.refund_status },
      who: "",
    });
  }
  for (const row of (audit?.results ?? []) as { staff_email: string; action: string; after: string; created_at: string }[]) {
    entries.push({ at: row.created_at, kind: "staff", detail: { action: row.action, after: row.after }, who: row.staff_email });
  }
  // The booking's making is the first thing that happened to it, even when its emails were queued
  // in the same instant: listed last, it stays the oldest at that instant (a stable sort).
  entries.push({ at: order.created_at, kind: "created", detail: { status: "pending_payment" }, who: "" });
  // Newest first; at the same instant, the order the sources were read in stays.
  return entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** The booking's page data, or 404 for an order of another hotel or none. */
export async function bookingPage(ctx: BackendContext, hotel: HotelRow, orderDoc: string) {
  const order = (await findOrder(ctx.db, hotel.id, orderDoc, ctx.now)) as (OrderRow & { stay_status?: string }) | null;
  if (!order) throw new ApiError(404, "order_not_found");
  const [answer, timeline, invoice] = await Promise.all([
    orderAnswer(ctx, hotel, order, { cancel: false }),
    bookingTimeline(ctx.db, hotel, order),
    deskInvoice(ctx.db, hotel.id, order.id, ctx.now),
  ]);
  // The desk prints the order, never the guest's signed links.
  const { valid_hash: _view, cancel_hash: _cancel, ...booking } = answer;
  const account = orderAccount({ ...booking, payment_status: booking.payment_status as OrderMoney["payment_status"] });
  return {
    booking,
    stay_status: order.stay_status ?? "expected",
    money: deskMoney(account, order.status === "cancelled"),
    money_lines: account.lines,
    timeline,
    invoice,
  };
}
