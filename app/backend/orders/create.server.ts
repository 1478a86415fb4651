/**
 * Creating an order (spec §7 personal-new). The order is re-priced from the database and takes its
 * rooms in one D1 batch guarded by CHECK constraints (docs/decisions/005); the same idempotency key
 * never makes a second order.
 */
import * as v from "valibot";
import { checkInStart } from "~/domain/dates";
import { isOfflineMethod, paidAtTheHotel, paymentDeadline } from "~/domain/payments";
import { hotelDeadlines } from "~/backend/payments/payments.server";
import { ApiError, fail, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { assertHotelBookable, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { queueMail } from "~/backend/mail/outbox.server";
import { queueHotelMail } from "~/backend/mail/hotel-outbox.server";
import { parseJson } from "~/backend/localize";
import { memberFromRequest } from "~/backend/account/members.server";
import { lineErrorOf, priceOrder, type PricedOrder } from "~/backend/pricing/pricing.server";
import { lineUnitPrice } from "~/backend/pricing/present.server";
import type { BackendContext } from "~/backend/route";
import {
  assertOrderLimits,
  CaptchaRequired,
  orderEmailAllowed,
  orderIdentity,
  roomNights,
  type OrderIdentity,
} from "~/backend/orders/holds.server";
import { eventStatement, hotelLimits } from "~/backend/captcha/captcha.server";
import { sha256Hex } from "~/lib/crypto";
import { Occupant, OrderPayload, idempotencyKeyOf, newOrderDoc } from "~/backend/orders/schema";
import { type OrderRow, findOrder } from "~/backend/orders/store.server";
import { orderAnswer } from "~/backend/orders/present.server";
import { holdStatements } from "~/backend/addons/addons.server";
import { assertDepartsAfterDeadline } from "~/backend/rail/rail.server";
import { isRailSoldOut, railHoldStatements } from "~/backend/rail/holds.server";
import { isStayRuleRefusal, stayRulesGuard } from "~/backend/orders/stay-guard.server";
import { loadAvailability, ruleRefusal } from "~/backend/catalogue/catalogue.server";
import { stayRuleError } from "~/backend/pricing/stay.server";
import { validateBuyer, type BuyerChoice, type BuyerField } from "~/domain/einvoice/buyer";
import { buyerFieldsOfPayload } from "~/domain/einvoice/guest";
import { openInvoiceStatement, rememberBuyerStatement } from "~/backend/einvoice/invoices.server";
import { adviseBuyer, type BuyerAdvice } from "~/backend/einvoice/advice.server";

/** The payload's field a refused part of the buyer's choice names (docs/api.md). */
const INVOICE_PAYLOAD_FIELDS: Record<BuyerField, string> = {
  invoice_kind: "invoice.kind",
  carrier_kind: "invoice.carrier",
  carrier_code: "invoice.carrier_code",
  love_code: "invoice.love_code",
  tax_id: "company_reg_number",
  company_name: "company_name",
  company_address: "invoice.company_address",
  email: "booker_email",
};

/**
 * The e-invoice buyer the payload chose, checked as the checkout checks it (decision 159); null
 * when it names none. A refusal names the payload's field. The provider's remote checks are asked
 * later, beside the pricing, and only advise (decision 166: adviseBuyer).
 */
function invoiceBuyerOf(payload: v.InferOutput<typeof OrderPayload>): BuyerChoice | null {
  if (!payload.invoice) return null;
  const result = validateBuyer(buyerFieldsOfPayload(payload.invoice, payload));
  if (result.ok) return result.choice;
  const [field] = Object.keys(result.errors) as BuyerField[];
  const name = INVOICE_PAYLOAD_FIELDS[field ?? "invoice_kind"];
  throw new ApiError(400, "invalid_field", { field: name }, name);
}

/**
 * The advice as the order's answer (409, naming the payload's field; nothing of the order written).
 * It counts as one of the caller's order changes, as a created order does: a script cannot have the
 * hotel's provider asked without end by orders that are never written (decision 072's limits).
 * A company name advice (decision 168) carries the registered name in its message and as
 * `data.registered_name`, for a client to offer it.
 */
async function adviceAnswer(ctx: BackendContext, hotel: HotelRow, who: OrderIdentity, advice: BuyerAdvice): Promise<Response> {
  const counted: D1PreparedStatement[] = [];
  if (who.callerKey) counted.push(eventStatement(ctx.db, hotel.id, "order_change", who.callerKey, ctx.now));
  if (who.net48) counted.push(eventStatement(ctx.db, hotel.id, "order_change_network", who.net48, ctx.now));
  if (counted.length > 0) await ctx.db.batch(counted).catch((error: unknown) => ctx.log.warn("the advice's attempt not counted", error));
  if (advice.kind === "tax_id") {
    const error = new ApiError(409, "invoice_company_name_differs", { name: advice.registeredName }, advice.field);
    return fail(error, ctx.lang, { registered_name: advice.registeredName });
  }
  const code = advice.kind === "mobile_barcode" ? "invoice_barcode_unknown" : "invoice_love_code_unknown";
  return fail(new ApiError(409, code, {}, advice.field), ctx.lang);
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
  if (message.includes("room_nights_not_oversold") || message.includes("no_inventory"))
    return new ApiError(409, "not_enough_rooms", {}, "orders");
  // The site is rented as a whole on one of the nights, or an entire rental meets rooms already sold.
  if (message.includes("site_nights_entire_rent_exclusive")) return new ApiError(409, "room_sold_out", {}, "orders");
  if (message.includes("plan_nights_not_oversold") || message.includes("no_plan_price"))
    return new ApiError(409, "plan_sold_out", {}, "orders");
  // The last of an add-on went to another order since the price was read (migration 0010).
  if (message.includes("addon_days_not_oversold") || message.includes("no_addon_inventory"))
    return new ApiError(409, "addon_sold_out", {}, "room_attachment_detail");
  // The last seats of a train went to another order since they were counted (migration 0011).
  if (isRailSoldOut(error)) return new ApiError(409, "rail_sold_out", {}, "rail_item_list");
  // The rooms of a class a night that orders paying nothing online may hold are taken (migration 0013).
  if (message.includes("unpaid_share_reached")) return new ApiError(409, "unpaid_share_reached", {}, "pay_way");
  if (message.includes("members_points_not_negative")) return new ApiError(409, "points_exceed_amount", {}, "point_used");
  if (message.includes("orders.hotel_id, orders.idempotency_key")) return "duplicate_key";
  return null;
}

/**
 * The rule that refused the order's batch, read again to tell the guest which (decision 154); if
 * it was lifted again meanwhile, that the rules changed.
 */
async function changedRuleError(ctx: BackendContext, priced: PricedOrder): Promise<ApiError> {
  const availability = await loadAvailability(ctx.db, priced.hotel.id, priced.start, priced.end);
  for (const line of priced.lines) {
    const refusal = ruleRefusal(availability, line.plan, line.room.id);
    if (refusal) return stayRuleError(refusal, priced.start, ctx.lang);
  }
  return new ApiError(409, "stay_rule_changed", {}, "check_in_day");
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
  deadline: string | null,
  buyer: BuyerChoice | null,
): D1PreparedStatement[] {
  const { db } = ctx;
  const { hotel, member, detail } = priced;
  const orderId = "(SELECT id FROM orders WHERE order_doc = ?)";
  const status = payload.pay_way === "pay_arrival" || detail.pay_amount === 0 ? "confirmed" : "pending_payment";
  const statements = [
    // First: the stay rules as they are now, not as they were read (decision 154).
    stayRulesGuard(db, priced.start, priced.end, priced.lines),
    db
      .prepare(
        `INSERT INTO orders (hotel_id, order_doc, idempotency_key, request_hash, member_id, lang, booker_first_name,
           booker_last_name, booker_name, booker_phone, booker_email, booking_from, check_in_day, check_out_day,
           adults_count, children_count, pay_way, payment_vendor, pay_option, memo, company_reg_number, company_name,
           coupon_code, point_used, room_price, promotion_discount, attachment_amount, rail_amount, total_price,
           pay_amount, deposit_amount, status, support_client_cancel, room_attachment_detail, rail_item_list, pay_deadline, client_ip,
           email_key, phone_key, caller_key, caller_net56, caller_net48)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'HXA', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        priced.rail.amount,
        detail.total_price,
        detail.pay_amount,
        detail.deposit_amount,
        status,
        hotel.support_client_cancel,
        // The choices as priced, names in every language (decision 116).
        JSON.stringify(priced.attachments.items),
        JSON.stringify(payload.rail_item_list),
        status === "pending_payment" ? deadline : null,
        ctx.clientIp.slice(0, 64),
        who.emailKey,
        who.phoneKey,
        who.callerKey || null,
        who.net56,
        who.net48,
      ),
  ];
  if (who.callerKey) statements.push(eventStatement(db, hotel.id, "order_change", who.callerKey, ctx.now));
  if (who.net48) statements.push(eventStatement(db, hotel.id, "order_change_network", who.net48, ctx.now));
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
  // The guest's e-invoice choice, on the order's invoice row (where the hotel has invoicing) and
  // remembered for a member's next checkout (decision 159).
  if (buyer) {
    statements.push(openInvoiceStatement(db, orderDoc, buyer));
    if (member) statements.push(rememberBuyerStatement(db, member.id, buyer));
  }
  // Taking the add-ons' inventory in the same batch as the rooms: the CHECK on addon_days refuses an oversell.
  statements.push(...holdStatements(db, orderDoc, priced.attachments));
  // And the rail seats (decision 120): the allotment's CHECK refuses an oversell, all or nothing with the rooms.
  statements.push(...railHoldStatements(db, hotel, { sql: orderId, bind: [orderDoc] }, priced.rail));
  // The confirmation email, in the same batch: no order is ever without it (decision 041), unless
  // this recipient had their day's emails of unpaid orders (decision 072).
  if (mailAllowed) {
    statements.push(
      queueMail(db, {
        hotelId: hotel.id,
        order: { doc: orderDoc },
        kind: "order_confirmation",
        lang: ctx.lang,
        to: payload.booker_email,
        site: ctx.site,
      }),
    );
  }
  // The hotel hears of every booking, whatever the guest's limit (decision 150).
  statements.push(
    queueHotelMail(db, {
      orderSql: "SELECT id FROM orders WHERE order_doc = ?",
      orderBind: [orderDoc],
      kind: "hotel_new_booking",
      site: ctx.site,
    }),
  );
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

export async function createOrder(ctx: BackendContext): Promise<Response> {
  const body = await readJsonBody(ctx.request);
  const payload = parseInput(OrderPayload, body);
  const buyer = invoiceBuyerOf(payload);
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
  // A ticket is issued only when paid (decision 120): an order with tickets is paid online or by transfer.
  if (payload.rail_item_list.length > 0 && paidAtTheHotel(payload.pay_way)) {
    throw new ApiError(400, "rail_needs_payment", {}, "pay_way");
  }
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
    await assertOrderLimits(ctx, hotel, who, payload.booker_email, captchaPass, payload.pay_way);
  } catch (error) {
    if (error instanceof CaptchaRequired) return error.response(ctx.lang);
    throw error;
  }
  // The provider's remote check of a mobile barcode or a donation code (decision 166), or of a
  // company's registered name (decision 168), asked beside the pricing, for a caller the limits let
  // through: it never throws and waits at most its deadline.
  const advising = buyer ? adviseBuyer(ctx, hotel.id, buyer, payload.invoice?.advised_code ?? "", caller?.id ?? null) : null;
  const priced = await priceOrder(ctx, hotel, {
    check_in_day: payload.check_in_day,
    check_out_day: payload.check_out_day,
    orders: payload.orders,
    couponCode: payload.coupon_array[0] ?? "",
    points: payload.point_used,
    payOption: payload.pay_option,
    member: caller,
    attachments: payload.room_attachment_detail,
    party: { adults: payload.adults_count, children: payload.children_count },
    rail: payload.rail_item_list,
  });
  // An order that pays nothing online holds at most so many rooms × nights, whatever is left to sell.
  const maxRoomNights = hotelLimits(hotel).max_room_nights_unpaid;
  if (isOfflineMethod(payload.pay_way) && roomNights(priced.lines, priced.start, priced.end) > maxRoomNights) {
    throw new ApiError(422, "too_many_room_nights", { max: maxRoomNights }, "orders");
  }
  const lineError = lineErrorOf(priced);
  if (lineError) throw lineError;
  const deadline = paymentDeadline(
    payload.pay_way,
    priced.detail.pay_amount,
    ctx.now,
    hotelDeadlines(hotel),
    checkInStart(priced.start, hotel.time_zone),
  );
  // A train must leave after the order can still be paid: otherwise its seats would be held for a ticket nobody can issue.
  assertDepartsAfterDeadline(priced.rail, deadline);
  const mailAllowed = priced.detail.pay_amount === 0 || (await orderEmailAllowed(ctx.db, hotel, payload.booker_email, ctx.now));

  // The provider does not know the code, or registers the company to another name: the guest is
  // told before anything is written, once per code.
  const advice = advising ? await advising : null;
  if (advice) return adviceAnswer(ctx, hotel, who, advice);

  const orderDoc = newOrderDoc(priced.today);
  try {
    await ctx.db.batch(
      orderInsertStatements(ctx, priced, payload, occupants, orderDoc, idempotencyKey, requestHash, who, mailAllowed, deadline, buyer),
    );
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
    if (isStayRuleRefusal(error)) throw await changedRuleError(ctx, priced);
    throw error;
  }
  const order = await findOrder(ctx.db, hotel.id, orderDoc);
  if (!order) throw new ApiError(500, "internal_error");
  return creationAnswer(ctx, hotel, order, 201, false);
}
