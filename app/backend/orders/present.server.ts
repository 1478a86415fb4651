/** An order as the API answers it (spec §3), with what cancelling it would give back, in the request's language. */
import { todayIn } from "~/domain/dates";
import {
  freeCancelUntil,
  orderRefundPolicies,
  REFUND_RULES,
  refundFor,
  refundPolicy,
  type Refund,
  type RefundPart,
  type RefundRule,
  type RefundStep,
} from "~/domain/refund";
import type { Language } from "~/i18n/languages";
import { mainLanguage, type HotelRow } from "~/backend/hotels/hotels.server";
import { signOrderLink } from "~/backend/orders/links.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import { apiMessage, type ApiMessageCode } from "~/backend/messages";
import type { BackendContext } from "~/backend/route";
import { attachmentDetail, attachmentList, storedAttachments } from "~/backend/addons/addons.server";
import { bookedLineRefund, type RailRow } from "~/backend/rail/lines.server";
import { loadStations } from "~/backend/rail/timetable.server";
import { presentRailRow } from "~/backend/rail/present.server";
import { departureInstant } from "~/domain/rail";
import { guestInvoice, payloadOfChoice, type StoredInvoice } from "~/domain/einvoice/guest";
import {
  type AttemptRow,
  type CancellationRow,
  type OrderDetails,
  type OrderLineRow,
  type OrderRow,
  loadOrderDetails,
} from "~/backend/orders/store.server";

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
export async function presentOrder(
  ctx: BackendContext,
  hotel: HotelRow,
  order: OrderRow,
  lines: OrderLineRow[],
  attempts: AttemptRow[] = [],
  rail: RailRow[] = [],
  storedInvoice?: StoredInvoice,
) {
  const main = mainLanguage(hotel);
  const stations = rail.length > 0 ? await loadStations(ctx.db) : new Map();
  const today = todayIn(hotel.time_zone, ctx.now);
  const canCancel =
    hotel.support_client_cancel === 1 && order.support_client_cancel === 1 && order.status !== "cancelled" && order.check_in_day > today;
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
    attachment_list: attachmentList(order.room_attachment_detail, ctx.lang, main),
    attachment_detail: attachmentDetail(
      storedAttachments(order.room_attachment_detail),
      lines.map((line) => ({ position: line.position, room_class_id: line.room_class_id, proposal_id: line.rate_plan_id })),
      ctx.lang,
      main,
    ),
    attachment_amount: order.attachment_amount,
    room_attachment_exist: storedAttachments(order.room_attachment_detail).length > 0,
    // The tickets with their status, PNR and booking number (docs/api.md "Rail").
    rail_item_list: rail.map((row) => presentRailRow(row, stations, ctx.lang, { hotel, order, now: ctx.now })),
    rail_amount: order.rail_amount ?? 0,
    // What the total keeps of tickets refunded one by one (POST /api/rail/refund): their fees (decision 140).
    rail_fees_kept: Math.max(
      0,
      order.total_price -
        (order.room_price - order.promotion_discount - order.point_used) -
        order.attachment_amount -
        (order.rail_amount ?? 0),
    ),
    remittance_info: remittance && Object.keys(remittance).length > 0 ? remittance : null,
    remittance_notice:
      order.pay_way === "remittance" ? pickText(parseJson<LocalizedText>(hotel.remittance_notice, {}), ctx.lang, main) : "",
    // The contract's name for the order's one discount (coupon or member promotion).
    couponDiscount: order.promotion_discount,
    used_coupon: order.coupon_code,
    usedPoint: order.point_used,
    support_client_cancel: canCancel,
    free_cancel_before_date: orderFreeCancelUntil(order, lines, today),
    // The schedules a cancellation after the free window follows (issue 37): the one policy every page, email and the PDF state.
    refund_policy: orderRefundPolicies(orderDeposit(order), hotelLadder(hotel)),
    remain_total_amount: Math.max(0, order.total_price - order.paid_amount),
    remain_room_amount: Math.max(0, order.total_price - order.attachment_amount - (order.rail_amount ?? 0) - order.paid_amount),
    created_at: order.created_at,
    pay_deadline: order.pay_deadline,
    // The e-invoice as the guest is told of it (decision 159): its numbers, or when it will be issued.
    invoice: presentInvoice(hotel, storedInvoice, order),
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

/** The order's e-invoice as the API answers it (docs/api.md "The order object"): null when Portico issues none. */
function presentInvoice(hotel: HotelRow, stored: StoredInvoice | undefined, order: OrderRow) {
  const hotelIssuer = hotel.invoice_issuer ?? null;
  const invoice = guestInvoice(stored ? { ...stored, hotelIssuer } : { hotelIssuer, issuer: null, buyer: null, documents: [] }, order);
  if (!invoice) return null;
  return {
    status: invoice.status,
    invoices: invoice.invoices,
    buyer: invoice.buyer ? payloadOfChoice(invoice.buyer).invoice : null,
    ...(invoice.allowance ? { allowance: invoice.allowance } : {}),
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
    deposit: orderDeposit(order),
    total: order.total_price,
    refundTemplateIds: lines.map((line) => line.refund_template_id),
    ladder: hotelLadder(hotel),
  });
}

/** A deposit is what the guest agreed to pay as one (pay option "part"); a stay paid in full is room price paid in advance. */
function orderDeposit(order: OrderRow): number {
  return order.pay_option === "part" ? order.deposit_amount : 0;
}

function hotelLadder(hotel: HotelRow): RefundStep[] {
  return parseJson<RefundStep[]>(hotel.refund_ladder ?? "[]", []);
}

/**
 * What cancelling now gives back, from what is paid now. Booked rail tickets follow THSR's rule, not
 * the stay's (decision 120): before departure their fare less the fee per ticket, after it nothing;
 * the stay's rule applies to the rest of what was paid.
 */
export function refundQuote(
  hotel: HotelRow,
  order: OrderRow,
  lines: OrderLineRow[],
  now: Date,
  rail: RailRow[] = [],
): Refund & { railFee: number } {
  // Tickets paid for: those booked, and those refunded already (their refund is recorded on the line).
  const paidRail = order.paid_amount > 0 ? rail.filter((row) => row.status === "booked" || row.status === "refunded") : [];
  const booked = paidRail.filter((row) => row.status === "booked");
  const railPaid = paidRail.reduce((sum, row) => sum + row.amount, 0);
  const feesKept = paidRail.reduce((sum, row) => sum + (row.status === "refunded" ? row.refund_fee : 0), 0);
  const stay = { ...order, total_price: order.total_price - (order.rail_amount ?? 0) - feesKept };
  const base = refundOn(hotel, stay, lines, todayIn(hotel.time_zone, now), Math.max(0, order.paid_amount - railPaid));
  if (booked.length === 0) return { ...base, railFee: 0 };
  // A ticket refunded leaves the rail operator's fee with the operator (railFee); a train gone has its fare spent.
  const tickets = booked.map((row) =>
    departureInstant(row.day, row.departure_time).getTime() > now.getTime()
      ? { ...bookedLineRefund(hotel, row), refunded: true }
      : { fee: row.amount, refund: 0, refunded: false },
  );
  return {
    ...base,
    refund: base.refund + tickets.reduce((sum, ticket) => sum + ticket.refund, 0),
    fee: base.fee + tickets.reduce((sum, ticket) => sum + ticket.fee, 0),
    railFee: tickets.reduce((sum, ticket) => sum + (ticket.refunded ? ticket.fee : 0), 0),
  };
}

/** A part of a refund as the API answers it: with the steps of the schedule it applied (refundPolicy), so a page can print the rule. */
function presentParts(hotel: HotelRow, parts: RefundPart[]) {
  return parts.map((part) => ({
    ...part,
    steps: part.schedule === "free" ? [] : refundPolicy(part.kind, hotelLadder(hotel)).steps,
  }));
}

/**
 * A cancellation as the API answers it. What was paid is the refund plus the fee; its parts are
 * worked out again for the day it was cancelled, and shown only when they add up to what was
 * recorded (a hotel that changed its schedule since leaves the totals and the rule alone).
 */
export function presentCancellation(hotel: HotelRow, order: OrderRow, lines: OrderLineRow[], row: CancellationRow) {
  const paid = row.refund + row.fee;
  // Rows recorded before decision 040's amendment say "ladder": the deposit schedule, which they used.
  const rule: RefundRule = (REFUND_RULES as readonly string[]).includes(row.refund_rule)
    ? (row.refund_rule as RefundRule)
    : paid === 0
      ? "unpaid"
      : "deposit";
  const again = refundOn(hotel, order, lines, todayIn(hotel.time_zone, new Date(row.created_at)), paid);
  // Rows recorded before issue 37 named the standard contract on a day the hotel's own terms gave
  // back as much: the same money, now named for the hotel's policy, is the same refund.
  const sameRule =
    again.rule === rule || (again.rule === "hotel" && (rule === "deposit" || rule === "advance" || rule === "deposit_advance"));
  const parts = sameRule && again.refund === row.refund && again.fee === row.fee ? again.parts : [];
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

/**
 * An order as the API answers it. `cancel`: whether the caller may cancel it (decision 047) — its
 * creator, its signed-in owner, or the holder of its cancel link; then the answer carries the
 * cancel link's hash. A view link's holder gets `cancel_hash: ""`: view links are forwarded as
 * receipts and travel inside gateway addresses, and must never lead to a cancellation.
 */
export async function orderAnswer(
  ctx: BackendContext,
  hotel: HotelRow,
  order: OrderRow,
  access: { cancel: boolean },
  loaded?: OrderDetails,
) {
  const {
    lines,
    attempts,
    cancellation,
    rail = [],
    invoice,
  } = loaded ?? (await loadOrderDetails(ctx.db, [order.id])).get(order.id) ?? { lines: [], attempts: [], cancellation: null };
  const quote = refundQuote(hotel, order, lines, ctx.now, rail);
  return {
    ...(await presentOrder(ctx, hotel, order, lines, attempts, rail, invoice)),
    cancellation: order.status === "cancelled" && cancellation ? presentCancellation(hotel, order, lines, cancellation) : null,
    refund_quote: {
      rule: quote.rule,
      percent: quote.percent,
      refund: quote.refund,
      fee: quote.fee,
      // The rail operator's refund fees within `fee`, on the tickets cancelling would refund.
      rail_fee: quote.railFee,
      paid: quote.refund + quote.fee,
      days_before: quote.daysBefore,
      parts: presentParts(hotel, quote.parts),
      points: order.point_used,
    },
    valid_hash: await signOrderLink(ctx.signingSecret, linkSubject(order), "view"),
    cancel_hash: access.cancel ? await signOrderLink(ctx.signingSecret, linkSubject(order), "cancel") : "",
  };
}
