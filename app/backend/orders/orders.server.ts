/**
 * Order calls of spec §7. Creating an order re-prices it from the database and takes its rooms in
 * one D1 batch guarded by CHECK constraints (docs/decisions/005); the same idempotency key never
 * makes a second order. Orders are shown only to their member or to the holder of a signed link.
 */
import * as v from "valibot";
import { CONTACT_LIMITS, contactSchemas } from "~/domain/contact-fields";
import { checkInStart, todayIn } from "~/domain/dates";
import { currentOrder, isPastDeadline } from "~/backend/payments/expiry.server";
import { freeCancelUntil, REFUND_RULES, refundFor, STANDARD_LADDERS, type Refund, type RefundPart, type RefundRule, type RefundStep } from "~/domain/refund";
import { MAX_GUESTS } from "~/domain/stay";
import type { Language } from "~/i18n/languages";
import { isOfflineMethod, PAYMENT_METHODS, paymentDeadline } from "~/domain/payments";
import { hotelDeadlines } from "~/backend/payments/payments.server";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { assertHotelBookable, mainLanguage, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { signOrderLink, verifyOrderLink } from "~/backend/orders/links.server";
import { queueMail } from "~/backend/mail/outbox.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import { memberFromRequest, type MemberRow } from "~/backend/account/members.server";
import { apiMessage, type ApiMessageCode } from "~/backend/messages";
import { lineErrorOf, priceOrder, type PricedOrder } from "~/backend/pricing/pricing.server";
import { lineUnitPrice } from "~/backend/pricing/present.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { WholeNumber } from "~/backend/pricing/stay.server";
import { assertOrderLimits, CaptchaRequired, orderEmailAllowed, orderIdentity, orderRisk, roomNights, type OrderIdentity } from "~/backend/orders/holds.server";
import { eventStatement, hotelLimits, registerRiskRule } from "~/backend/captcha/captcha.server";
import { sha256Hex } from "~/lib/crypto";

// /api/captcha/trigger asks the order's limits for "order" (decision 072).
registerRiskRule("order", async (ctx, hotel, subject) => (await orderRisk(ctx, hotel, orderIdentity(ctx, subject.email, subject.phone), subject.email)).risk);

// Text fields refuse control characters; names bidirectional controls too (decision 052); notes keep their line breaks (docs/decisions/017).
const contact = contactSchemas({
  required: "is required",
  tooLong: "is too long",
  controlCharacters: "contains control characters",
  link: "contains a web address",
  phone: "is not a phone number",
  email: "is not an email address",
  companyRegNumber: "is not a company registration number",
});
export const Note = contact.note;

const OrderPayload = v.object({
  domain: v.string(),
  ...contact.booker,
  booker_name: contact.fullName(101),
  booking_from: v.optional(v.literal("HXA"), "HXA"),
  check_in_day: v.string(),
  check_out_day: v.string(),
  pay_way: v.picklist(PAYMENT_METHODS),
  payment_vendor: WholeNumber(1, 15),
  pay_option: v.optional(v.picklist(["all", "part"]), "all"),
  point_used: v.optional(v.union([v.number(), v.string()]), 0),
  point_cost: v.optional(v.unknown()),
  coupon_array: v.optional(v.pipe(v.array(contact.coupon), v.maxLength(1)), []),
  orders: v.pipe(v.array(v.looseObject({})), v.minLength(1), v.maxLength(20)),
  rail_item_list: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(10)), []),
  room_attachment_detail: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(50)), []),
  room_attachment_exist: v.optional(v.boolean(), false),
  adults_count: WholeNumber(1, MAX_GUESTS),
  children_count: v.optional(WholeNumber(0, MAX_GUESTS), 0),
  idempotency_key: v.optional(v.string()),
  /** A pass of /api/captcha/verify for "order", when the limits asked for one (decision 072). */
  captcha_pass: v.optional(v.pipe(v.string(), v.maxLength(400)), ""),
});

const Occupant = v.object({
  ...contact.occupant,
  memo: Note(CONTACT_LIMITS.occupantMemo),
});

/** Idempotency-Key header (IETF draft: an sf-string, so it may arrive quoted). */
export function idempotencyKeyOf(request: Request, bodyKey: string | undefined): string | null {
  const raw = request.headers.get("idempotency-key") ?? bodyKey ?? null;
  if (raw === null) return null;
  const key = raw.trim().replace(/^"(.*)"$/, "$1");
  if (!/^[A-Za-z0-9_.:-]{8,128}$/.test(key)) throw new ApiError(400, "idempotency_key_invalid", {}, "Idempotency-Key");
  return key;
}

const ORDER_DOC_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Order numbers: PT + hotel-local date + six random characters (not secrets; links are signed). */
export function newOrderDoc(today: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  const suffix = [...bytes].map((byte) => ORDER_DOC_ALPHABET[byte % ORDER_DOC_ALPHABET.length]).join("");
  return `PT${today.replace(/-/g, "").slice(2)}-${suffix}`;
}

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
  created_at: string;
  pay_deadline: string | null;
}

interface AttemptRow {
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
  return currentOrder(db, () => db.prepare("SELECT * FROM orders WHERE hotel_id = ? AND order_doc = ?").bind(hotelId, orderDoc).first<OrderRow>(), now);
}

/** Orders as they are now (see findOrder): any unpaid past its deadline is expired before it is shown. */
export async function currentOrders(db: D1Database, orders: OrderRow[], now: Date): Promise<OrderRow[]> {
  return Promise.all(orders.map((order) => (isPastDeadline(order, now) ? findOrder(db, order.hotel_id, order.order_doc, now).then((fresh) => fresh ?? order) : order)));
}

/** The free-cancellation date of a whole order: the earliest of its lines; none if any line has no free window (template 0). */
function orderFreeCancelUntil(order: OrderRow, lines: OrderLineRow[], today: string): string | null {
  let until: string | null = null;
  for (const line of lines) {
    const date = freeCancelUntil(order.check_in_day, line.refund_template_id, today);
    if (date === null) return null;
    if (until === null || date < until) until = date;
  }
  return until;
}

function displayStatus(order: OrderRow, lang: Language): string {
  if (order.status === "pending_payment" && order.payment_status === 2) return apiMessage("status.paid", lang);
  return apiMessage(`status.${order.status}` as ApiMessageCode, lang);
}

/** An order as returned (spec §3), in the request's language. */
export async function presentOrder(ctx: BackendContext, hotel: HotelRow, order: OrderRow, lines: OrderLineRow[], attempts: AttemptRow[] = []) {
  const main = mainLanguage(hotel);
  const today = todayIn(hotel.time_zone, ctx.now);
  const canCancel =
    hotel.support_client_cancel === 1 &&
    order.support_client_cancel === 1 &&
    order.status !== "cancelled" &&
    order.check_in_day > today;
  const remittance = order.pay_way === "remittance" ? parseJson<Record<string, string>>(hotel.remittance_info, {}) : null;
  return {
    order_doc: order.order_doc,
    booker_first_name: order.booker_first_name,
    booker_last_name: order.booker_last_name,
    booker_name: order.booker_name,
    booker_phone: order.booker_phone,
    booker_email: order.booker_email,
    memo: order.memo,
    company_name: order.company_name,
    company_reg_number: order.company_reg_number,
    check_in_day: order.check_in_day,
    check_out_day: order.check_out_day,
    check_in_time: `${order.check_in_day} ${hotel.checkin_start_time}`,
    check_out_time: `${order.check_out_day} ${hotel.checkout_time}`,
    adults_count: order.adults_count,
    children_count: order.children_count,
    orders: lines.map((line) => ({
      num: line.num,
      room_class_id: line.room_class_id,
      room_class_name: pickText(parseJson<LocalizedText>(line.room_name, {}), ctx.lang, main),
      rate_plan_id: line.rate_plan_id,
      rate_plan_name: pickText(parseJson<LocalizedText>(line.plan_name, {}), ctx.lang, main),
      occupant_name: line.occupant_name,
      occupant_phone: line.occupant_phone,
      occupant_email: line.occupant_email,
      memo: line.memo,
      amount: line.amount,
    })),
    pay_way: order.pay_way,
    payment_vendor: order.payment_vendor,
    pay_option: order.pay_option,
    pay_amount: order.pay_amount,
    paid_amount: order.paid_amount,
    sum: order.room_price,
    final_amount: order.total_price,
    deposit_amount: order.deposit_amount,
    is_deposit_payed: order.pay_option === "part" && order.payment_status >= 1,
    payment_status: order.payment_status,
    status: order.status,
    display_status: displayStatus(order, ctx.lang),
    attachment_list: parseJson<unknown[]>(order.room_attachment_detail, []),
    attachment_detail: { rooms: [], other: [] },
    room_attachment_exist: parseJson<unknown[]>(order.room_attachment_detail, []).length > 0,
    remittance_info: remittance && Object.keys(remittance).length > 0 ? remittance : null,
    remittance_notice: order.pay_way === "remittance" ? pickText(parseJson<LocalizedText>(hotel.remittance_notice, {}), ctx.lang, main) : "",
    // The contract's name for the order's one discount (coupon or member promotion).
    couponDiscount: order.promotion_discount,
    used_coupon: order.coupon_code,
    usedPoint: order.point_used,
    support_client_cancel: canCancel,
    free_cancel_before_date: orderFreeCancelUntil(order, lines, today),
    remain_total_amount: Math.max(0, order.total_price - order.paid_amount),
    remain_room_amount: Math.max(0, order.total_price - order.attachment_amount - order.paid_amount),
    created_at: order.created_at,
    pay_deadline: order.pay_deadline,
    payment_attempts: attempts.map((attempt) => ({
      vendor_id: attempt.vendor_id,
      amount: attempt.amount,
      purpose: attempt.purpose,
      status: attempt.status,
      code_info: attempt.status === "code_issued" ? parseJson<Record<string, string>>(attempt.code_info, {}) : null,
      paid_at: attempt.paid_at,
      paid_with: attempt.paid_with,
      created_at: attempt.created_at,
    })),
  };
}

export const linkSubject = (order: OrderRow) => ({ hotelId: order.hotel_id, orderDoc: order.order_doc, checkOutDay: order.check_out_day });

/** What cancelling the order today would give back (docs/decisions/040). */
/** The refund of cancelling `order` on `today` (the hotel's day) with `paid` paid: by what kind of money it is (decision 040). */
function refundOn(hotel: HotelRow, order: OrderRow, lines: OrderLineRow[], today: string, paid: number): Refund {
  return refundFor({
    checkIn: order.check_in_day,
    today,
    paid,
    // A deposit is what the guest agreed to pay as one (pay option "part"); a stay paid in full is room price paid in advance.
    deposit: order.pay_option === "part" ? order.deposit_amount : 0,
    total: order.total_price,
    refundTemplateIds: lines.map((line) => line.refund_template_id),
    ladder: hotelLadder(hotel),
  });
}

function hotelLadder(hotel: HotelRow): RefundStep[] {
  return parseJson<RefundStep[]>(hotel.refund_ladder ?? "[]", []);
}

/** What cancelling now gives back, from what is paid now. */
export function refundQuote(hotel: HotelRow, order: OrderRow, lines: OrderLineRow[], now: Date): Refund {
  return refundOn(hotel, order, lines, todayIn(hotel.time_zone, now), order.paid_amount);
}

/** A part of a refund as the API answers it: with the schedule's steps, so a page can print the rule. */
function presentParts(hotel: HotelRow, parts: RefundPart[]) {
  return parts.map((part) => ({
    ...part,
    steps: part.schedule === "free" ? [] : part.schedule === "hotel" ? hotelLadder(hotel) : [...STANDARD_LADDERS[part.kind]],
  }));
}

interface CancellationRow {
  via: string;
  points_returned: number;
  fee: number;
  refund: number;
  refund_status: "none" | "due" | "refunded";
  refund_rule: string;
  refund_percent: number;
  created_at: string;
}

/**
 * A cancellation as the API answers it. What was paid is the refund plus the fee; its parts are
 * worked out again for the day it was cancelled, and shown only when they add up to what was
 * recorded (a hotel that changed its schedule since leaves the totals and the rule alone).
 */
export function presentCancellation(hotel: HotelRow, order: OrderRow, lines: OrderLineRow[], row: CancellationRow) {
  const paid = row.refund + row.fee;
  // Rows recorded before decision 040's amendment say "ladder": the deposit schedule, which they used.
  const rule: RefundRule = (REFUND_RULES as readonly string[]).includes(row.refund_rule) ? (row.refund_rule as RefundRule) : paid === 0 ? "unpaid" : "deposit";
  const again = refundOn(hotel, order, lines, todayIn(hotel.time_zone, new Date(row.created_at)), paid);
  const parts = again.rule === rule && again.refund === row.refund && again.fee === row.fee ? again.parts : [];
  return {
    via: row.via,
    fee: row.fee,
    refund: row.refund,
    refund_status: row.refund_status,
    rule,
    percent: row.refund_percent,
    paid,
    parts: presentParts(hotel, parts),
    points_returned: row.points_returned,
    created_at: row.created_at,
  };
}

export type PresentedCancellation = ReturnType<typeof presentCancellation>;

/** What presenting an order reads besides the order itself. */
export interface OrderDetails {
  lines: OrderLineRow[];
  attempts: AttemptRow[];
  cancellation: CancellationRow | null;
}

/** How many payment attempts an order's answer lists, newest first. */
const ATTEMPTS_SHOWN = 10;

/**
 * The lines, newest attempts (ten, or `attempts`) and cancellation of many orders in one batch (three
 * statements, one round trip), whatever their number: "My orders" costs the same for one order or fifty.
 */
export async function loadOrderDetails(db: D1Database, orderIds: readonly number[], attempts = ATTEMPTS_SHOWN): Promise<Map<number, OrderDetails>> {
  const ids = JSON.stringify(orderIds);
  const [lines, attemptRows, cancellations] = await db.batch([
    db.prepare(
      `SELECT ol.order_id, ol.position, ol.room_class_id, ol.rate_plan_id, ol.num, ol.memo, ol.occupant_name, ol.occupant_phone,
              ol.occupant_email, ol.amount, rc.name AS room_name, rp.name AS plan_name, rp.refund_template_id
       FROM order_lines ol JOIN room_classes rc ON rc.id = ol.room_class_id JOIN rate_plans rp ON rp.id = ol.rate_plan_id
       WHERE ol.order_id IN (SELECT value FROM json_each(?1)) ORDER BY ol.order_id, ol.position`,
    ).bind(ids),
    db.prepare(
      `SELECT order_id, vendor_id, amount, purpose, status, code_info, paid_at, paid_with, created_at FROM (
         SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY id DESC) AS newest FROM payments
         WHERE order_id IN (SELECT value FROM json_each(?1))
       ) WHERE newest <= ?2 ORDER BY order_id, id DESC`,
    ).bind(ids, attempts),
    db.prepare(
      `SELECT order_id, via, fee, refund, refund_status, refund_rule, refund_percent, points_returned, created_at FROM cancellations
       WHERE order_id IN (SELECT value FROM json_each(?1))`,
    ).bind(ids),
  ]);
  const details = new Map<number, OrderDetails>(orderIds.map((id) => [id, { lines: [], attempts: [], cancellation: null }]));
  for (const { order_id, ...line } of (lines?.results ?? []) as (OrderLineRow & { order_id: number })[]) details.get(order_id)?.lines.push(line);
  for (const { order_id, ...attempt } of (attemptRows?.results ?? []) as (AttemptRow & { order_id: number })[]) details.get(order_id)?.attempts.push(attempt);
  for (const { order_id, ...row } of (cancellations?.results ?? []) as (CancellationRow & { order_id: number })[]) {
    const entry = details.get(order_id);
    if (entry) entry.cancellation = row;
  }
  return details;
}

/**
 * An order as the API answers it. `cancel`: whether the caller may cancel it (decision 047) — its
 * creator, its signed-in owner, or the holder of its cancel link; then the answer carries the
 * cancel link's hash. A view link's holder gets `cancel_hash: ""`: view links are forwarded as
 * receipts and travel inside gateway addresses, and must never lead to a cancellation.
 */
export async function orderAnswer(ctx: BackendContext, hotel: HotelRow, order: OrderRow, access: { cancel: boolean }, loaded?: OrderDetails) {
  const { lines, attempts, cancellation } = loaded ?? (await loadOrderDetails(ctx.db, [order.id])).get(order.id) ?? { lines: [], attempts: [], cancellation: null };
  const quote = refundQuote(hotel, order, lines, ctx.now);
  return {
    ...(await presentOrder(ctx, hotel, order, lines, attempts)),
    cancellation: order.status === "cancelled" && cancellation ? presentCancellation(hotel, order, lines, cancellation) : null,
    refund_quote: {
      rule: quote.rule,
      percent: quote.percent,
      refund: quote.refund,
      fee: quote.fee,
      paid: quote.refund + quote.fee,
      days_before: quote.daysBefore,
      parts: presentParts(hotel, quote.parts),
      points: order.point_used,
    },
    valid_hash: await signOrderLink(ctx.signingSecret, linkSubject(order), "view"),
    cancel_hash: access.cancel ? await signOrderLink(ctx.signingSecret, linkSubject(order), "cancel") : "",
  };
}

/** Where the site goes after the order: the payment page, or the receipt for offline payment. */
function redirectPathFor(hotel: HotelRow, order: OrderRow, viewHash: string): string {
  const query = `?valid_hash=${encodeURIComponent(viewHash)}`;
  if (isOfflineMethod(order.pay_way) || order.pay_amount === 0) {
    return `/redirect/receipt/${order.order_doc}${query}`;
  }
  return `/pay/${hotel.id}/${order.order_doc}${query}`;
}

async function creationAnswer(ctx: BackendContext, hotel: HotelRow, order: OrderRow, status: number, replayed: boolean) {
  const answer = await orderAnswer(ctx, hotel, order, { cancel: true });
  const response = ok(
    { order_doc: order.order_doc, redirect_path: redirectPathFor(hotel, order, answer.valid_hash), order: answer },
    status,
  );
  if (replayed) response.headers.set("idempotent-replayed", "true");
  return response;
}

/** Maps the database's refusal of a batch to the message a guest understands. */
function constraintError(error: unknown): ApiError | "duplicate_key" | null {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes("room_nights_not_oversold") || message.includes("no_inventory")) return new ApiError(409, "not_enough_rooms", {}, "orders");
  // The site is rented as a whole on one of the nights, or an entire rental meets rooms already sold.
  if (message.includes("site_nights_entire_rent_exclusive")) return new ApiError(409, "room_sold_out", {}, "orders");
  if (message.includes("plan_nights_not_oversold") || message.includes("no_plan_price")) return new ApiError(409, "plan_sold_out", {}, "orders");
  if (message.includes("members_points_not_negative")) return new ApiError(409, "points_exceed_amount", {}, "point_used");
  if (message.includes("orders.hotel_id, orders.idempotency_key")) return "duplicate_key";
  return null;
}

function orderInsertStatements(
  ctx: BackendContext,
  priced: PricedOrder,
  payload: v.InferOutput<typeof OrderPayload>,
  occupants: v.InferOutput<typeof Occupant>[],
  orderDoc: string,
  idempotencyKey: string,
  requestHash: string,
  who: OrderIdentity,
  mailAllowed: boolean,
): D1PreparedStatement[] {
  const { db } = ctx;
  const { hotel, member, detail } = priced;
  const orderId = "(SELECT id FROM orders WHERE order_doc = ?)";
  const status = payload.pay_way === "pay_arrival" || detail.pay_amount === 0 ? "confirmed" : "pending_payment";
  const statements = [
    db
      .prepare(
        `INSERT INTO orders (hotel_id, order_doc, idempotency_key, request_hash, member_id, lang, booker_first_name,
           booker_last_name, booker_name, booker_phone, booker_email, booking_from, check_in_day, check_out_day,
           adults_count, children_count, pay_way, payment_vendor, pay_option, memo, company_reg_number, company_name,
           coupon_code, point_used, room_price, promotion_discount, attachment_amount, total_price,
           pay_amount, deposit_amount, status, support_client_cancel, room_attachment_detail, rail_item_list, pay_deadline, client_ip,
           email_key, phone_key, caller_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'HXA', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        hotel.id,
        orderDoc,
        idempotencyKey,
        requestHash,
        member?.id ?? null,
        ctx.lang,
        payload.booker_first_name,
        payload.booker_last_name,
        payload.booker_name || `${payload.booker_last_name} ${payload.booker_first_name}`.trim(),
        payload.booker_phone,
        payload.booker_email,
        priced.start,
        priced.end,
        payload.adults_count,
        payload.children_count,
        payload.pay_way,
        payload.payment_vendor,
        payload.pay_option,
        payload.memo,
        payload.company_reg_number,
        payload.company_name,
        priced.couponCode,
        detail.point_used,
        detail.room_price,
        detail.promotion_discount,
        detail.attachment_amount,
        detail.total_price,
        detail.pay_amount,
        detail.deposit_amount,
        status,
        hotel.support_client_cancel,
        JSON.stringify(payload.room_attachment_detail),
        JSON.stringify(payload.rail_item_list),
        status === "pending_payment" ? paymentDeadline(payload.pay_way, detail.pay_amount, ctx.now, hotelDeadlines(hotel), checkInStart(priced.start, hotel.time_zone)) : null,
        ctx.clientIp.slice(0, 64),
        who.emailKey,
        who.phoneKey,
        who.callerKey || null,
      ),
  ];
  if (who.callerKey) statements.push(eventStatement(db, hotel.id, "order_change", who.callerKey, ctx.now));
  const loggedIn = member !== null;
  priced.lines.forEach((line, index) => {
    const { price: unit, memberApplied: memberApplies } = lineUnitPrice(line, loggedIn);
    const occupant = occupants[index] ?? { memo: "", occupant_name: "", occupant_phone: "", occupant_email: "" };
    statements.push(
      db
        .prepare(
          `INSERT INTO order_lines (order_id, position, room_class_id, rate_plan_id, num, memo, occupant_name, occupant_phone,
             occupant_email, amount, member_price_applied) VALUES (${orderId}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          orderDoc,
          line.position,
          line.room.id,
          line.plan.id,
          line.num,
          occupant.memo,
          occupant.occupant_name,
          occupant.occupant_phone,
          occupant.occupant_email,
          unit * line.num,
          memberApplies ? 1 : 0,
        ),
      // Taking the rooms: one row per night; the triggers raise booked/sold and the site's entire-rent
      // state (decision 023), and the CHECKs guard them.
      db
        .prepare(
          `INSERT INTO order_nights (order_id, line_position, room_class_id, rate_plan_id, night, rooms, price, whole_site)
           SELECT ${orderId}, ?, pn.room_class_id, pn.rate_plan_id, pn.night, ?, CASE WHEN ? = 1 THEN pn.member_price ELSE pn.price END,
                  rp.support_entire_rent
           FROM plan_nights pn JOIN rate_plans rp ON rp.id = pn.rate_plan_id
           WHERE pn.rate_plan_id = ? AND pn.room_class_id = ? AND pn.night >= ? AND pn.night < ?`,
        )
        .bind(orderDoc, line.position, line.num, memberApplies ? 1 : 0, line.plan.id, line.room.id, priced.start, priced.end),
    );
  });
  // The confirmation email, in the same batch: no order is ever without it (decision 041), unless
  // this recipient had their day's emails of unpaid orders (decision 072).
  if (mailAllowed) {
    statements.push(
      queueMail(db, { hotelId: hotel.id, order: { doc: orderDoc }, kind: "order_confirmation", lang: ctx.lang, to: payload.booker_email, site: ctx.site }),
    );
  }
  if (member && detail.point_used > 0) {
    statements.push(
      db.prepare("UPDATE members SET points = points - ? WHERE id = ?").bind(detail.point_used, member.id),
      db
        .prepare(`INSERT INTO point_ledger (member_id, order_id, delta, reason) VALUES (?, ${orderId}, ?, 'order')`)
        .bind(member.id, orderDoc, -detail.point_used),
    );
  }
  return statements;
}

async function createOrder(ctx: BackendContext): Promise<Response> {
  const body = await readJsonBody(ctx.request);
  const payload = parseInput(OrderPayload, body);
  const hotel = await requireHotel(ctx.db, payload.domain);
  assertHotelBookable(hotel);
  const occupants = payload.orders.map((line, index) => {
    const result = v.safeParse(Occupant, line);
    if (!result.success) {
      const issue = result.issues[0];
      const field = `orders.${index}.${issue ? v.getDotPath(issue) : "occupant"}`;
      throw new ApiError(400, "invalid_field", { field }, field);
    }
    return result.output;
  });
  if (payload.rail_item_list.length > 0 && hotel.thsr_support_on !== 1) throw new ApiError(400, "rail_not_available", {}, "rail_item_list");
  // Rail tickets are not built yet (issue 27): nothing reserves or issues them, so an order carrying
  // any would be confirmed with no ticket. Refused even where the hotel declares rail support.
  if (payload.rail_item_list.length > 0) throw new ApiError(400, "rail_not_bookable", {}, "rail_item_list");
  // Add-ons are not built yet: nothing prices them, so an order carrying any would get them free.
  if (payload.room_attachment_detail.length > 0) throw new ApiError(400, "attachment_not_available", {}, "room_attachment_detail");
  const paymentList = parseJson<{ vendor_id: number; method: string }[]>(hotel.payment_list, []);
  if (!paymentList.some((entry) => entry.vendor_id === payload.payment_vendor && entry.method === payload.pay_way)) {
    throw new ApiError(400, "payment_not_available", {}, "payment_vendor");
  }

  const { idempotency_key: bodyKey, captcha_pass: captchaPass, ...rest } = payload;
  const key = idempotencyKeyOf(ctx.request, bodyKey);
  // Who sends the order is part of it: a key never replays another caller's order.
  const caller = await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
  const requestHash = await sha256Hex(JSON.stringify({ ...rest, member: caller?.id ?? null }));
  const idempotencyKey = key ?? `auto-${crypto.randomUUID()}`;
  if (key) {
    const existing = await ctx.db
      .prepare("SELECT * FROM orders WHERE hotel_id = ? AND idempotency_key = ?")
      .bind(hotel.id, key)
      .first<OrderRow>();
    if (existing) {
      if (existing.request_hash !== requestHash) throw new ApiError(422, "idempotency_key_reused", {}, "Idempotency-Key");
      return creationAnswer(ctx, hotel, existing, 200, true);
    }
  }

  // Holds that hold (decision 072): unpaid orders by every spelling of the guest, and the caller's
  // orders created and cancelled; past a limit a captcha pass, past a few more a refusal.
  const who = orderIdentity(ctx, payload.booker_email, payload.booker_phone);
  try {
    await assertOrderLimits(ctx, hotel, who, payload.booker_email, captchaPass);
  } catch (error) {
    if (error instanceof CaptchaRequired) return error.response(ctx.lang);
    throw error;
  }
  const priced = await priceOrder(ctx, hotel, {
    check_in_day: payload.check_in_day,
    check_out_day: payload.check_out_day,
    orders: payload.orders,
    couponCode: payload.coupon_array[0] ?? "",
    points: payload.point_used,
    payOption: payload.pay_option,
    member: caller,
  });
  // An order that pays nothing online holds at most so many rooms × nights, whatever is left to sell.
  const maxRoomNights = hotelLimits(hotel).max_room_nights_unpaid;
  if (isOfflineMethod(payload.pay_way) && roomNights(priced.lines, priced.start, priced.end) > maxRoomNights) {
    throw new ApiError(422, "too_many_room_nights", { max: maxRoomNights }, "orders");
  }
  const lineError = lineErrorOf(priced);
  if (lineError) throw lineError;
  const mailAllowed = priced.detail.pay_amount === 0 || (await orderEmailAllowed(ctx.db, hotel, payload.booker_email, ctx.now));

  const orderDoc = newOrderDoc(priced.today);
  try {
    await ctx.db.batch(orderInsertStatements(ctx, priced, payload, occupants, orderDoc, idempotencyKey, requestHash, who, mailAllowed));
  } catch (error) {
    const mapped = constraintError(error);
    if (mapped === "duplicate_key") {
      // A concurrent request with the same key won: answer with its order.
      const first = await ctx.db
        .prepare("SELECT * FROM orders WHERE hotel_id = ? AND idempotency_key = ?")
        .bind(hotel.id, idempotencyKey)
        .first<OrderRow>();
      if (first && first.request_hash === requestHash) return creationAnswer(ctx, hotel, first, 200, true);
      throw new ApiError(422, "idempotency_key_reused", {}, "Idempotency-Key");
    }
    if (mapped) throw mapped;
    throw error;
  }
  const order = await findOrder(ctx.db, hotel.id, orderDoc);
  if (!order) throw new ApiError(500, "internal_error");
  return creationAnswer(ctx, hotel, order, 201, false);
}

export async function requireMember(ctx: BackendContext, hotel: HotelRow): Promise<MemberRow> {
  const member = await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
  if (!member) throw new ApiError(401, "unauthorized");
  return member;
}

export const DocParam = v.pipe(v.string(), v.regex(/^[A-Z0-9-]{4,40}$/));

export const orderRoutes: BackendRoute[] = [
  { method: "POST", path: "/api/ota/order/personal-new", handler: (ctx) => createOrder(ctx) },
  {
    method: "GET",
    path: "/api/ota/order/personal-order-list",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const member = await requireMember(ctx, hotel);
      const orderDoc = ctx.url.searchParams.get("order_doc") ?? "";
      const status = ctx.url.searchParams.get("status") ?? "";
      if (status && !["pending_payment", "confirmed", "cancel_requested", "cancelled"].includes(status)) {
        throw new ApiError(400, "invalid_field", { field: "status" }, "status");
      }
      const { results } = await ctx.db
        .prepare(
          `SELECT * FROM orders WHERE hotel_id = ?1 AND member_id = ?2 AND (?3 = '' OR order_doc = ?3) AND (?4 = '' OR status = ?4)
           ORDER BY created_at DESC LIMIT 50`,
        )
        .bind(hotel.id, member.id, orderDoc, status)
        .all<OrderRow>();
      const orders = await currentOrders(ctx.db, results, ctx.now);
      const details = await loadOrderDetails(ctx.db, orders.map((order) => order.id));
      return ok(await Promise.all(orders.map((order) => orderAnswer(ctx, hotel, order, { cancel: true }, details.get(order.id)))));
    },
  },
  {
    method: "GET",
    path: "/api/ota/order/personal-history",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const orderDoc = await verifyOrderLink(ctx.signingSecret, ctx.url.searchParams.get("hash_code"), "view", hotel.id, ctx.now);
      const order = orderDoc ? await findOrder(ctx.db, hotel.id, orderDoc) : null;
      if (!order) throw new ApiError(403, "hash_invalid", {}, "hash_code");
      // Every attempt, read once with the rest: the answer's payment_attempts are the newest ten, its payments all of them, oldest first.
      const details = (await loadOrderDetails(ctx.db, [order.id], Number.MAX_SAFE_INTEGER)).get(order.id) ?? { lines: [], attempts: [], cancellation: null };
      const payments = details.attempts.map(({ vendor_id, amount, status, created_at }) => ({ vendor_id, amount, status, created_at })).reverse();
      return ok({ ...(await orderAnswer(ctx, hotel, order, { cancel: false }, { ...details, attempts: details.attempts.slice(0, ATTEMPTS_SHOWN) })), payments });
    },
  },
  {
    method: "GET",
    path: "/api/ota/order/via-hash",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const hash = ctx.url.searchParams.get("valid_hash");
      // A cancel link shows the order it cancels, so its page can say what will be cancelled; only
      // a cancel link's answer carries what cancels (decision 047).
      const viewed = await verifyOrderLink(ctx.signingSecret, hash, "view", hotel.id, ctx.now);
      const orderDoc = viewed ?? (await verifyOrderLink(ctx.signingSecret, hash, "cancel", hotel.id, ctx.now));
      const order = orderDoc ? await findOrder(ctx.db, hotel.id, orderDoc) : null;
      if (!order) throw new ApiError(403, "hash_invalid", {}, "valid_hash");
      return ok(await orderAnswer(ctx, hotel, order, { cancel: viewed === null }));
    },
  },
  {
    method: "POST",
    path: "/api/ota/order/attachment",
    handler: async (ctx) => {
      const body = parseInput(
        v.object({ domain: v.string(), order_doc: DocParam, valid_hash: v.optional(v.pipe(v.string(), v.maxLength(200))) }),
        await readJsonBody(ctx.request),
      );
      const hotel = await requireHotel(ctx.db, body.domain);
      const order = await findOrder(ctx.db, hotel.id, body.order_doc);
      const viaHash = (await verifyOrderLink(ctx.signingSecret, body.valid_hash, "view", hotel.id, ctx.now)) === body.order_doc;
      const member = viaHash ? null : await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
      if (!order || (!viaHash && (!member || order.member_id !== member.id))) throw new ApiError(404, "order_not_found");
      return ok({ order_doc: order.order_doc, attachment_list: parseJson<unknown[]>(order.room_attachment_detail, []) });
    },
  },
];
