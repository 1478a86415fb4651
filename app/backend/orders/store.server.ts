/** Orders as stored: their rows, their lines, payments and cancellations, read in as few queries as the page needs. */
import { currentOrder, isPastDeadline } from "~/backend/payments/expiry.server";
import type { RailRow } from "~/backend/rail/lines.server";
import type { StoredInvoice } from "~/domain/einvoice/guest";
import type { BuyerChoice } from "~/domain/einvoice/buyer";
import type { Issuer } from "~/domain/einvoice/machine";

export interface OrderRow {
  id: number;
  hotel_id: number;
  order_doc: string;
  idempotency_key: string;
  request_hash: string;
  member_id: number | null;
  booker_first_name: string;
  booker_last_name: string;
  booker_name: string;
  booker_phone: string;
  booker_email: string;
  check_in_day: string;
  check_out_day: string;
  adults_count: number;
  children_count: number;
  pay_way: string;
  payment_vendor: number;
  pay_option: "all" | "part";
  memo: string;
  company_reg_number: string;
  company_name: string;
  coupon_code: string;
  point_used: number;
  room_price: number;
  promotion_discount: number;
  attachment_amount: number;
  total_price: number;
  pay_amount: number;
  deposit_amount: number;
  paid_amount: number;
  payment_status: number;
  lang: string;
  status: "pending_payment" | "confirmed" | "cancel_requested" | "cancelled";
  support_client_cancel: number;
  room_attachment_detail: string;
  /** The fares of the order's tickets still held or booked (migration 0011). */
  rail_amount?: number;
  created_at: string;
  pay_deadline: string | null;
}

export interface AttemptRow {
  vendor_id: number;
  amount: number;
  purpose: string;
  status: string;
  code_info: string;
  paid_at: string | null;
  paid_with: string;
  created_at: string;
}

export interface OrderLineRow {
  position: number;
  room_class_id: number;
  rate_plan_id: number;
  num: number;
  memo: string;
  occupant_name: string;
  occupant_phone: string;
  occupant_email: string;
  amount: number;
  room_name: string;
  plan_name: string;
  refund_template_id: number;
}

export async function loadOrderLines(db: D1Database, orderId: number): Promise<OrderLineRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ol.position, ol.room_class_id, ol.rate_plan_id, ol.num, ol.memo, ol.occupant_name, ol.occupant_phone,
              ol.occupant_email, ol.amount, rc.name AS room_name, rp.name AS plan_name, rp.refund_template_id
       FROM order_lines ol JOIN room_classes rc ON rc.id = ol.room_class_id JOIN rate_plans rp ON rp.id = ol.rate_plan_id
       WHERE ol.order_id = ? ORDER BY ol.position`,
    )
    .bind(orderId)
    .all<OrderLineRow>();
  return results;
}

/**
 * An order as it is now: one unpaid past its payment deadline is expired first (decision 047), so no
 * page or answer ever invites payment for it, whether or not the scheduled sweep has run.
 */
export async function findOrder(db: D1Database, hotelId: number, orderDoc: string, now: Date = new Date()): Promise<OrderRow | null> {
  return currentOrder(
    db,
    () => db.prepare("SELECT * FROM orders WHERE hotel_id = ? AND order_doc = ?").bind(hotelId, orderDoc).first<OrderRow>(),
    now,
  );
}

/** Orders as they are now (see findOrder): any unpaid past its deadline is expired before it is shown. */
export async function currentOrders(db: D1Database, orders: OrderRow[], now: Date): Promise<OrderRow[]> {
  return Promise.all(
    orders.map((order) =>
      isPastDeadline(order, now) ? findOrder(db, order.hotel_id, order.order_doc, now).then((fresh) => fresh ?? order) : order,
    ),
  );
}

export interface CancellationRow {
  via: string;
  points_returned: number;
  fee: number;
  refund: number;
  refund_status: "none" | "due" | "refunded";
  refund_rule: string;
  refund_percent: number;
  created_at: string;
}

/** What presenting an order reads besides the order itself. */
export interface OrderDetails {
  lines: OrderLineRow[];
  attempts: AttemptRow[];
  cancellation: CancellationRow | null;
  /** The order's rail tickets (decision 120). */
  rail?: RailRow[];
  /** The order's e-invoice row as stored (decision 159; its hotelIssuer is left to the hotel row); absent: none opened. */
  invoice?: StoredInvoice;
}

interface InvoiceDetailRow {
  order_id: number;
  issuer: Issuer;
  buyer: string | null;
  documents: string;
  latest_allowance: string | null;
}

function parsedOr<T>(json: string | null, fallback: T): T {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

/** How many payment attempts an order's answer lists, newest first. */
export const ATTEMPTS_SHOWN = 10;

/**
 * The lines, newest attempts (ten, or `attempts`) and cancellation of many orders in one batch (three
 * statements, one round trip), whatever their number: "My orders" costs the same for one order or fifty.
 */
export async function loadOrderDetails(
  db: D1Database,
  orderIds: readonly number[],
  attempts = ATTEMPTS_SHOWN,
): Promise<Map<number, OrderDetails>> {
  const ids = JSON.stringify(orderIds);
  const [lines, attemptRows, cancellations, railRows, invoiceRows] = await db.batch([
    db
      .prepare(
        `SELECT ol.order_id, ol.position, ol.room_class_id, ol.rate_plan_id, ol.num, ol.memo, ol.occupant_name, ol.occupant_phone,
              ol.occupant_email, ol.amount, rc.name AS room_name, rp.name AS plan_name, rp.refund_template_id
       FROM order_lines ol JOIN room_classes rc ON rc.id = ol.room_class_id JOIN rate_plans rp ON rp.id = ol.rate_plan_id
       WHERE ol.order_id IN (SELECT value FROM json_each(?1)) ORDER BY ol.order_id, ol.position`,
      )
      .bind(ids),
    db
      .prepare(
        `SELECT order_id, vendor_id, amount, purpose, status, code_info, paid_at, paid_with, created_at FROM (
         SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY id DESC) AS newest FROM payments
         WHERE order_id IN (SELECT value FROM json_each(?1))
       ) WHERE newest <= ?2 ORDER BY order_id, id DESC`,
      )
      .bind(ids, attempts),
    db
      .prepare(
        `SELECT order_id, via, fee, refund, refund_status, refund_rule, refund_percent, points_returned, created_at FROM cancellations
       WHERE order_id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(ids),
    db
      .prepare(
        `SELECT * FROM rail_reservations WHERE order_id IN (SELECT value FROM json_each(?1))
       ORDER BY order_id, CASE direction WHEN 'outbound' THEN 0 ELSE 1 END, id`,
      )
      .bind(ids),
    // The e-invoice: the order's row and its invoices (decision 159); the hotel's issuer is the hotel row's.
    db
      .prepare(
        `SELECT oi.order_id, oi.issuer, oi.buyer,
              (SELECT json_group_array(json_object('number', d.number, 'random_number', d.random_number, 'amount', d.amount,
                 'issued_on', d.issued_on, 'status', d.status))
               FROM (SELECT * FROM einvoice_documents WHERE order_id = oi.order_id ORDER BY seq) d) AS documents,
              -- The latest allowance made or asked, and whether by the buyer's consent (decision 167).
              (SELECT json_object('status', json_extract(a.value, '$.status'), 'amount', json_extract(a.value, '$.amount'),
                 'consent', json(CASE WHEN json_extract(a.value, '$.consent') THEN 'true' ELSE 'false' END))
               FROM json_each(oi.state, '$.allowances') a WHERE json_extract(a.value, '$.status') NOT IN ('sent', 'voided')
               ORDER BY json_extract(a.value, '$.seq') DESC LIMIT 1) AS latest_allowance
       FROM order_invoices oi WHERE oi.order_id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(ids),
  ]);
  const details = new Map<number, OrderDetails>(orderIds.map((id) => [id, { lines: [], attempts: [], cancellation: null, rail: [] }]));
  for (const row of (invoiceRows?.results ?? []) as InvoiceDetailRow[]) {
    const entry = details.get(row.order_id);
    if (entry)
      entry.invoice = {
        hotelIssuer: null,
        issuer: row.issuer,
        buyer: parsedOr<BuyerChoice | null>(row.buyer, null),
        documents: parsedOr<StoredInvoice["documents"]>(row.documents, []),
        latestAllowance: parsedOr<StoredInvoice["latestAllowance"]>(row.latest_allowance, null),
      };
  }
  for (const row of (railRows?.results ?? []) as RailRow[]) details.get(row.order_id)?.rail?.push(row);
  for (const { order_id, ...line } of (lines?.results ?? []) as (OrderLineRow & { order_id: number })[])
    details.get(order_id)?.lines.push(line);
  for (const { order_id, ...attempt } of (attemptRows?.results ?? []) as (AttemptRow & { order_id: number })[])
    details.get(order_id)?.attempts.push(attempt);
  for (const { order_id, ...row } of (cancellations?.results ?? []) as (CancellationRow & { order_id: number })[]) {
    const entry = details.get(order_id);
    if (entry) entry.cancellation = row;
  }
  return details;
}
