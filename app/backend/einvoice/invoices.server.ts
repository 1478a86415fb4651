/**
 * An order's e-invoices in D1 (decision 159): the row that keeps its state machine's state, what
 * the order says the hotel keeps, the statements that put an order on the queue in the same batch
 * as the change that calls for it, and the write of a new state that loses to any other writer.
 */
import { nightsBetween } from "~/domain/dates";
import { validateBuyer, type BuyerChoice } from "~/domain/einvoice/buyer";
import { hotelSale, type InvoiceSource } from "~/domain/einvoice/items";
import { refundDueSql } from "~/backend/payments/refund-ledger.server";
import { refuseUnless } from "~/backend/desk/action-batch.server";
import { initialState, invoiceStatus, netIssued, type InvoiceState, type Issuer } from "~/domain/einvoice/machine";

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
/** The guest's own emails about an order, as SQL: their links lead to the guest's site. */
const GUEST_MAIL_KINDS = "'order_confirmation', 'paid_receipt', 'order_cancellation'";
/** A change queues its order due at once, whatever the clocks say: before any instant the runner asks about. */
export const DUE_AT_ONCE = "1970-01-01T00:00:00.000Z";

export interface OrderInvoiceRow {
  order_id: number;
  hotel_id: number;
  issuer: Issuer;
  provider: string;
  buyer: string;
  state: string;
  status: string;
  version: number;
  updated_at: string;
}

/** What the order says now: what the hotel keeps for its own sale, what the stay sold, and how it ended. */
export interface OrderFacts {
  orderId: number;
  hotelId: number;
  orderDoc: string;
  bookerName: string;
  bookerEmail: string;
  target: number;
  sale: number;
  cancelled: boolean;
  checkedOut: boolean;
  source: InvoiceSource;
}

interface OrderFactRow {
  id: number;
  hotel_id: number;
  order_doc: string;
  booker_name: string;
  booker_email: string;
  status: string;
  stay_status: string | null;
  check_in_day: string;
  check_out_day: string;
  total_price: number;
  paid_amount: number;
  rail_amount: number;
  promotion_discount: number;
  point_used: number;
  attachment_amount: number;
  refunded: number;
  kept_aside: number;
  due: number;
  rail_fees: number;
}

/** Hotel text in the invoice's language (zh-TW), or the first there is. */
function zhName(json: string): string {
  try {
    const names = JSON.parse(json) as Record<string, string>;
    return names["zh-TW"] ?? Object.values(names)[0] ?? "";
  } catch {
    return "";
  }
}

/**
 * The order's facts. What the hotel keeps is what was paid (money kept aside to refund, late or
 * overpaid, included) less what was refunded (or is being refunded) and less what is still due back
 * (the refunds ledger, decision 151: a cancellation's refund before a gateway has paid it, or one a
 * gateway refused and the hotel must pay by hand): so a cancellation's batch already says what the
 * hotel keeps, its fee. Never more than its own sale: the order's total less the rail tickets and
 * their refund fees, which are THSR's, never the hotel's invoice.
 */
export async function orderFacts(db: D1Database, orderId: number): Promise<OrderFacts | null> {
  const order = await db
    .prepare(
      `SELECT o.id, o.hotel_id, o.order_doc, o.booker_name, o.booker_email, o.status, o.stay_status, o.check_in_day, o.check_out_day,
              o.total_price, o.paid_amount, o.rail_amount, o.promotion_discount, o.point_used, o.attachment_amount,
              (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE order_id = o.id AND status != 'failed') AS refunded,
              (SELECT COALESCE(SUM(amount), 0) FROM payments WHERE order_id = o.id AND status IN ('overpaid', 'late')) AS kept_aside,
              ${refundDueSql(Number(orderId))} AS due,
              (SELECT COALESCE(SUM(refund_fee), 0) FROM rail_reservations WHERE order_id = o.id) AS rail_fees
       FROM orders o WHERE o.id = ?`,
    )
    .bind(orderId)
    .first<OrderFactRow>();
  if (!order) return null;
  const lines = await db
    .prepare(
      `SELECT l.num, l.amount, rc.name AS room_name, rp.name AS plan_name FROM order_lines l
       JOIN room_classes rc ON rc.id = l.room_class_id JOIN rate_plans rp ON rp.id = l.rate_plan_id
       WHERE l.order_id = ? ORDER BY l.position`,
    )
    .bind(orderId)
    .all<{ num: number; amount: number; room_name: string; plan_name: string }>();
  const nights = nightsBetween(order.check_in_day, order.check_out_day);
  const sale = Math.max(0, order.total_price - order.rail_amount - order.rail_fees);
  let source: InvoiceSource = {
    rooms: lines.results.map((line) => ({
      name: [zhName(line.room_name), zhName(line.plan_name)].filter(Boolean).join(" - "),
      rooms: line.num,
      nights,
      amount: line.amount,
    })),
    addons: order.attachment_amount > 0 ? [{ name: "加購項目", count: 1, amount: order.attachment_amount }] : [],
    discount: order.promotion_discount + order.point_used,
    rail: order.rail_amount,
  };
  // Lines that do not add up to the sale (changed by the desk, say) are invoiced as one stay item.
  if (hotelSale(source) !== sale)
    source = { rooms: [{ name: "住宿費用", rooms: 1, nights: 1, amount: sale }], addons: [], discount: 0, rail: 0 };
  return {
    orderId: order.id,
    hotelId: order.hotel_id,
    orderDoc: order.order_doc,
    bookerName: order.booker_name,
    bookerEmail: order.booker_email,
    target: Math.max(0, Math.min(order.paid_amount + order.kept_aside - order.refunded - order.due, sale)),
    sale,
    cancelled: order.status === "cancelled",
    checkedOut: order.stay_status === "checked_out",
    source,
  };
}

/**
 * The order's invoice row opened under its hotel's issuer (?2: the buyer's choice as JSON, or the
 * provider's member carrier by the booker's email), for the order `where` names; none for a hotel
 * without invoicing, and an existing row is kept.
 */
function openInvoiceSql(where: string): string {
  return `INSERT INTO order_invoices (order_id, hotel_id, issuer, provider, buyer, state, status)
    SELECT o.id, o.hotel_id, hi.issuer, CASE WHEN hi.issuer = 'hotel_system' THEN 'none' ELSE hi.provider END,
           COALESCE(?2, json_object('kind', 'carrier', 'carrier', 'member', 'code', '', 'email', o.booker_email)),
           json_object('issuer', hi.issuer, 'orderRef', replace(o.order_doc, '-', ''), 'target', 0, 'sale', 0,
             'cancelled', json('false'), 'checkedOut', json('false'), 'invoices', json('[]'), 'allowances', json('[]'),
             'inFlight', json('null'), 'failure', json('null')),
           CASE WHEN hi.issuer = 'hotel_system' THEN 'hotel_system' ELSE 'none' END
    FROM orders o JOIN hotel_invoicing hi ON hi.hotel_id = o.hotel_id WHERE ${where}
    ON CONFLICT (order_id) DO NOTHING`;
}

/**
 * The statements that open an order's invoice row (if it has none) under the hotel's issuer, and
 * put it on the queue to be looked at now: for a D1 batch, beside the change that calls for it (a
 * payment applied, a refund, a cancellation, a check-out). A hotel without invoicing gets no row.
 * `buyer` is what the guest chose at checkout (null: a cloud invoice on the provider's member
 * carrier by the booker's email, until the checkout asks).
 */
export function enqueueInvoiceStatements(
  db: D1Database,
  orderId: number,
  buyer: BuyerChoice | null = null,
  /** An SQL condition, checked inside the batch (the settlement's: only when it applied the money). */
  when = "1",
): D1PreparedStatement[] {
  return [
    db.prepare(openInvoiceSql(`o.id = ?1 AND (${when})`)).bind(orderId, buyer ? JSON.stringify(buyer) : null),
    db
      .prepare(
        `INSERT INTO einvoice_queue (order_id, hotel_id, next_attempt_at)
         SELECT order_id, hotel_id, '${DUE_AT_ONCE}' FROM order_invoices WHERE order_id = ?1 AND issuer != 'hotel_system' AND (${when})
         ON CONFLICT (order_id) DO UPDATE SET next_attempt_at = MIN(next_attempt_at, excluded.next_attempt_at)`,
      )
      .bind(orderId),
  ];
}

/**
 * The statement that opens a new order's invoice row with the buyer the guest chose, for the
 * order's own batch (decision 159, amended): under the hotel's issuer, not queued (nothing is owed
 * before a payment; the settlement queues it). A hotel without invoicing gets no row.
 */
export function openInvoiceStatement(db: D1Database, orderDoc: string, buyer: BuyerChoice | null): D1PreparedStatement {
  return db.prepare(openInvoiceSql("o.order_doc = ?1")).bind(orderDoc, buyer ? JSON.stringify(buyer) : null);
}

/**
 * SQL: whether order `orderId` has an invoice to look after: a row already, or money paid (a row
 * is then opened under the hotel's issuer). A never-paid order's cancellation queues nothing.
 */
export function invoicedSql(orderId: number): string {
  const id = Number(orderId);
  return `(EXISTS (SELECT 1 FROM order_invoices WHERE order_id = ${id}) OR (SELECT paid_amount FROM orders WHERE id = ${id}) > 0)`;
}

export async function loadInvoice(db: D1Database, orderId: number): Promise<(OrderInvoiceRow & { parsed: InvoiceState }) | null> {
  const row = await db.prepare("SELECT * FROM order_invoices WHERE order_id = ?").bind(orderId).first<OrderInvoiceRow>();
  if (!row) return null;
  const parsed = JSON.parse(row.state) as InvoiceState;
  return { ...row, parsed: { ...initialState(row.issuer, row.order_id.toString()), ...parsed } };
}

/**
 * Writes a new state if nobody wrote since `version` was read: the state, its summary, each invoice
 * and allowance in their tables, and the history lines, in one batch. Returns whether it was written.
 */
export async function saveInvoice(
  db: D1Database,
  row: { order_id: number; hotel_id: number; version: number },
  state: InvoiceState,
  history: HistoryLine[],
): Promise<boolean> {
  const [update, ...rest] = saveStatements(db, row, state, history);
  try {
    // The whole batch aborts when the guarded UPDATE changed nothing: the children's own guard
    // (the version this write makes) is also true after ANOTHER writer's write of that version, so
    // a loser's history lines and documents would land beside the winner's (found by two runs, the
    // payment's and the Cron's, started together: decision 163).
    await db.batch([update as D1PreparedStatement, refuseUnless(db, "changes() > 0"), ...rest]);
    return true;
  } catch (error) {
    if (String(error instanceof Error ? error.message : error).includes("desk_refused")) return false;
    throw error;
  }
}

/** One line of an order's invoice history (einvoice_events). */
export interface HistoryLine {
  kind: string;
  outcome: "recorded" | "sent" | "done" | "failed";
  detail: string;
}

/**
 * saveInvoice's statements, for a batch of its own or a desk action's: the first is the guarded
 * UPDATE (changes() = 0 when someone wrote since `version`); the others apply only after it did.
 */
export function saveStatements(
  db: D1Database,
  row: { order_id: number; hotel_id: number; version: number },
  state: InvoiceState,
  history: HistoryLine[],
): D1PreparedStatement[] {
  const next = row.version + 1;
  const latest = [...state.invoices].reverse().find((invoice) => invoice.status === "issued");
  const guard = `(SELECT version FROM order_invoices WHERE order_id = ${Number(row.order_id)}) = ${next}`;
  return [
    db
      .prepare(
        `UPDATE order_invoices SET state = ?1, status = ?2, amount = ?3, number = ?4, random_number = ?5, issued_on = ?6,
           version = version + 1, updated_at = ${NOW}
         WHERE order_id = ?7 AND version = ?8`,
      )
      .bind(
        JSON.stringify(state),
        invoiceStatus(state),
        netIssued(state),
        latest?.number ?? "",
        latest?.randomNumber ?? "",
        latest?.issuedOn ?? "",
        row.order_id,
        row.version,
      ),
    // The guest's "invoice issued" email, for each number this write issues (before the documents
    // below record it as issued): composed later, and skipped then if an email before it already
    // carried the number (decision 163). Links lead where the guest's own emails of the order led.
    ...state.invoices
      .filter((invoice) => invoice.status === "issued" && invoice.number !== "")
      .map((invoice) =>
        db
          .prepare(
            `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin, product, about)
             SELECT o.hotel_id, o.id, 'invoice_issued', o.lang, o.booker_email,
               COALESCE((SELECT m.site_origin FROM mail_outbox m WHERE m.order_id = o.id AND m.kind IN (${GUEST_MAIL_KINDS}) ORDER BY m.id DESC LIMIT 1), 'https://' || h.domain),
               COALESCE((SELECT m.product FROM mail_outbox m WHERE m.order_id = o.id AND m.kind IN (${GUEST_MAIL_KINDS}) ORDER BY m.id DESC LIMIT 1), 'hxa'),
               ?2
             FROM orders o JOIN hotels h ON h.id = o.hotel_id
             WHERE o.id = ?1 AND o.booker_email != '' AND ${guard}
               AND NOT EXISTS (SELECT 1 FROM einvoice_documents d WHERE d.relate_number = ?3 AND d.status = 'issued' AND d.number = ?2)
               AND NOT EXISTS (SELECT 1 FROM mail_outbox m WHERE m.order_id = o.id AND m.kind = 'invoice_issued' AND m.about = ?2)`,
          )
          .bind(row.order_id, invoice.number, invoice.relateNumber),
      ),
    ...state.invoices.map((invoice) =>
      db
        .prepare(
          `INSERT INTO einvoice_documents (relate_number, order_id, seq, amount, purpose, status, number, random_number, issued_on)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE ${guard}
           ON CONFLICT (relate_number) DO UPDATE SET amount = excluded.amount, purpose = excluded.purpose, status = excluded.status,
             number = excluded.number, random_number = excluded.random_number, issued_on = excluded.issued_on`,
        )
        .bind(
          invoice.relateNumber,
          row.order_id,
          invoice.seq,
          invoice.amount,
          invoice.purpose,
          invoice.status,
          invoice.number,
          invoice.randomNumber,
          invoice.issuedOn,
        ),
    ),
    ...state.allowances.map((allowance) =>
      db
        .prepare(
          `INSERT INTO einvoice_allowances (order_id, seq, invoice_seq, amount, status, number)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE ${guard}
           ON CONFLICT (order_id, seq) DO UPDATE SET invoice_seq = excluded.invoice_seq, amount = excluded.amount, status = excluded.status, number = excluded.number`,
        )
        .bind(row.order_id, allowance.seq, allowance.invoiceSeq, allowance.amount, allowance.status, allowance.number),
    ),
    ...history.map((line) =>
      db
        .prepare(`INSERT INTO einvoice_events (order_id, hotel_id, kind, outcome, detail) SELECT ?1, ?2, ?3, ?4, ?5 WHERE ${guard}`)
        .bind(row.order_id, row.hotel_id, line.kind, line.outcome, line.detail.slice(0, 500)),
    ),
  ];
}

/** Keeps a member's choice for the next checkout (the statement, for the order's batch). */
export function rememberBuyerStatement(db: D1Database, memberId: number, choice: BuyerChoice): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO member_invoice_choices (member_id, choice) VALUES (?1, ?2)
       ON CONFLICT (member_id) DO UPDATE SET choice = excluded.choice, updated_at = ${NOW}`,
    )
    .bind(memberId, JSON.stringify(choice));
}

/** A member's last choice, checked again as if typed (a rule may have changed since), or null. */
export async function rememberedBuyer(db: D1Database, memberId: number): Promise<BuyerChoice | null> {
  const row = await db.prepare("SELECT choice FROM member_invoice_choices WHERE member_id = ?").bind(memberId).first<{ choice: string }>();
  if (!row) return null;
  let stored: Partial<Record<string, string>>;
  try {
    stored = JSON.parse(row.choice) as Partial<Record<string, string>>;
  } catch {
    return null;
  }
  const result = validateBuyer({
    invoice_kind: stored.kind,
    carrier_kind: stored.carrier,
    carrier_code: stored.code,
    love_code: stored.loveCode,
    tax_id: stored.taxId,
    company_name: stored.companyName,
    company_address: stored.companyAddress,
    email: stored.email,
  });
  return result.ok ? result.choice : null;
}
