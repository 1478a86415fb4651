/** Pricing and coupon calls of spec §7, and the pricing every order goes through. */
import * as v from "valibot";
import { nightsBetween, stayNights } from "~/domain/dates";
import { validateOrderLines, type OrderLineError } from "~/domain/order-lines";
import { calculatePrice, depositPercentOf, effectivePrice, MEMBER_PROMOTION_CODE, memberPromotionPercent, type Discount, type PriceAmounts } from "~/domain/pricing";
import { MAX_ROOMS_PER_ORDER } from "~/domain/stay";
import type { Language } from "~/i18n/languages";
import {
  loadAvailability,
  loadRatePlans,
  loadRoomClasses,
  planInventory,
  planKey,
  planRestriction,
  type PlanAvailability,
  type RatePlanRow,
  type RoomClassRow,
} from "~/backend/catalogue/catalogue.server";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { mainLanguage, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import { memberFromRequest, type MemberRow } from "~/backend/account/members.server";
import { apiMessage, type ApiMessageCode } from "~/backend/messages";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { requireStay, WholeNumber } from "~/backend/pricing/stay.server";

/** The first line naming a members-only plan of the hotel that is not among `visible`, or -1. */
async function membersOnlyPosition(db: D1Database, hotelId: number, lines: { proposal_id?: number | null; rate_plan_id?: number | null }[], visible: Map<number, unknown>): Promise<number> {
  const { results } = await db.prepare("SELECT id FROM rate_plans WHERE hotel_id = ? AND members_only = 1").bind(hotelId).all<{ id: number }>();
  const hidden = new Set(results.map((row) => row.id));
  return lines.findIndex((line) => {
    const id = line.proposal_id ?? line.rate_plan_id ?? 0;
    return !visible.has(id) && hidden.has(id);
  });
}

const Id = WholeNumber(1, 2_147_483_647);

export const OrderLineInput = v.pipe(
  v.object({
    room_class_id: Id,
    proposal_id: v.optional(Id),
    rate_plan_id: v.optional(Id),
    num: WholeNumber(1, MAX_ROOMS_PER_ORDER),
  }),
  v.check((line) => line.proposal_id !== undefined || line.rate_plan_id !== undefined, "proposal_id is required"),
);

const CouponCode = v.pipe(v.string(), v.trim(), v.maxLength(40));

export const PriceRequest = v.object({
  domain: v.string(),
  check_in_day: v.string(),
  check_out_day: v.string(),
  orders: v.pipe(v.array(v.looseObject({})), v.minLength(1), v.maxLength(20)),
  coupon_code: v.optional(CouponCode, ""),
  coupon_array: v.optional(v.pipe(v.array(CouponCode), v.maxLength(1)), []),
  point_used: v.optional(v.union([v.number(), v.string()]), 0),
  pay_option: v.optional(v.picklist(["all", "part"]), "all"),
});

export interface PricedOrderLine {
  position: number;
  room: RoomClassRow;
  plan: RatePlanRow;
  num: number;
  priced: PlanAvailability;
  inventory: number;
  error: OrderLineError | null;
}

export interface PricedOrder {
  hotel: HotelRow;
  member: MemberRow | null;
  start: string;
  end: string;
  today: string;
  lines: PricedOrderLine[];
  discount: Discount;
  couponCode: string;
  detail: PriceAmounts;
}

/** Reads points as a whole number; negative or malformed values are refused (spec §5). */
export function parsePoints(value: unknown): number {
  const points = typeof value === "string" && /^-?\d{1,9}$/.test(value.trim()) ? Number(value) : value;
  if (typeof points !== "number" || !Number.isInteger(points)) throw new ApiError(400, "invalid_field", { field: "point_used" }, "point_used");
  if (points < 0) throw new ApiError(400, "points_negative", {}, "point_used");
  return points;
}

/** The discount of a code: the members-only code, or a coupon (MASTRI hotels only). */
export async function resolveDiscount(
  db: D1Database,
  hotel: HotelRow,
  member: MemberRow | null,
  code: string,
  today: string,
): Promise<Discount> {
  if (!code) return { kind: "none" };
  if (code === MEMBER_PROMOTION_CODE) {
    if (hotel.close_member_system === 1) throw new ApiError(400, "member_system_closed", {}, "coupon_code");
    if (!member) throw new ApiError(401, "member_only", {}, "coupon_code");
    const started = !hotel.member_discount_start || hotel.member_discount_start <= today;
    const notEnded = !hotel.member_discount_end || hotel.member_discount_end >= today;
    const percent = memberPromotionPercent(hotel.member_discount_percent);
    if (!started || !notEnded || percent === 0) throw new ApiError(400, "coupon_invalid", {}, "coupon_code");
    return { kind: "percent", code, percent };
  }
  if (hotel.origin_pms !== "MASTRI") throw new ApiError(400, "coupon_not_supported", {}, "coupon_code");
  const coupon = await findCoupon(db, hotel.id, code, today);
  if (!coupon) throw new ApiError(400, "coupon_invalid", {}, "coupon_code");
  return coupon.type === "amount"
    ? { kind: "amount", code: coupon.code, amount: coupon.discount, minAmount: coupon.min_amount }
    : { kind: "percent", code: coupon.code, percent: coupon.percent, minAmount: coupon.min_amount };
}

interface CouponRow {
  code: string;
  name: string;
  type: "percent" | "amount";
  percent: number;
  discount: number;
  verify: number;
  card_number_length: number;
  min_amount: number;
}

async function findCoupon(db: D1Database, hotelId: number, code: string, today: string): Promise<CouponRow | null> {
  return db
    .prepare(
      `SELECT code, name, type, percent, discount, verify, card_number_length, min_amount FROM coupons
       WHERE hotel_id = ?1 AND code = ?2 AND active = 1
         AND (valid_from IS NULL OR valid_from <= ?3) AND (valid_to IS NULL OR valid_to >= ?3)`,
    )
    .bind(hotelId, code, today)
    .first<CouponRow>();
}

const PRICE_PROBLEM_STATUS: Record<string, number> = { points_exceed_balance: 400, points_exceed_amount: 400 };

/**
 * Prices an order from the database: the rooms, plans, inventory and prices of the stay, the
 * member's prices and points, and the discount. Line errors are kept per line for the caller.
 */
export async function priceOrder(
  ctx: BackendContext,
  hotel: HotelRow,
  input: {
    check_in_day: string;
    check_out_day: string;
    orders: unknown[];
    couponCode: string;
    points: unknown;
    payOption: "all" | "part";
    /**
     * Rooms night by night, per line (the legacy price check's `date_and_amount`): a line books
     * `amount` rooms on each listed night of the stay and none on the others. Without it, every
     * line books `num` rooms on every night.
     */
    nightly?: NightAmount[][];
    /** The signed-in member when the caller has looked them up already (null: nobody); else looked up here. */
    member?: MemberRow | null;
  },
): Promise<PricedOrder> {
  const { start, end, today } = requireStay(hotel, input.check_in_day, input.check_out_day, ctx.now, {
    start: "check_in_day",
    end: "check_out_day",
  });
  const lines = input.orders.map((line, index) => {
    const result = v.safeParse(OrderLineInput, line);
    if (!result.success) {
      const issue = result.issues[0];
      const field = `orders.${index}${issue && v.getDotPath(issue) ? `.${v.getDotPath(issue)}` : ""}`;
      throw new ApiError(400, "invalid_field", { field }, field);
    }
    return result.output;
  });
  const totalRooms = lines.reduce((sum, line) => sum + line.num, 0);
  if (totalRooms > MAX_ROOMS_PER_ORDER) throw new ApiError(400, "too_many_rooms", { max: MAX_ROOMS_PER_ORDER }, "orders");
  const points = parsePoints(input.points);

  const member = input.member !== undefined ? input.member : await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
  if (points > 0 && !member) throw new ApiError(401, "member_only", {}, "point_used");
  const [rooms, plans, availability] = await Promise.all([
    loadRoomClasses(ctx.db, hotel),
    loadRatePlans(ctx.db, hotel, { signedIn: member !== null }),
    loadAvailability(ctx.db, hotel.id, start, end),
  ]);
  const roomById = new Map(rooms.map((room) => [room.id, room]));
  const planById = new Map(plans.map((plan) => [plan.id, plan]));
  if (!member) {
    // A guest naming a members-only plan (signed out since the search) is asked to sign in.
    const named = lines.map((line) => line.proposal_id ?? line.rate_plan_id ?? 0).filter((id) => !planById.has(id));
    const position = named.length > 0 ? await membersOnlyPosition(ctx.db, hotel.id, lines, planById) : -1;
    if (position >= 0) throw new ApiError(401, "member_only", {}, `orders.${position}.proposal_id`);
  }

  const resolved = lines.map((line, position) => {
    const room = roomById.get(line.room_class_id);
    if (!room) throw new ApiError(404, "unknown_room", {}, `orders.${position}.room_class_id`);
    const planId = line.proposal_id ?? line.rate_plan_id ?? 0;
    const plan = planById.get(planId);
    if (!plan) throw new ApiError(404, "unknown_plan", {}, `orders.${position}.proposal_id`);
    const restriction = planRestriction(plan, start, availability.nights);
    if (restriction) throw new ApiError(409, restriction, { days: plan.days }, `orders.${position}.proposal_id`);
    const priced = availability.plans.get(planKey(room.id, plan.id));
    if (!priced || priced.nights !== availability.nights) {
      throw new ApiError(409, "plan_not_bookable", {}, `orders.${position}.proposal_id`);
    }
    return { position, room, plan, num: line.num, priced, inventory: planInventory(availability.rooms.get(room.id), priced) };
  });

  // Spec §4: entire-rent plans exclude any other line.
  if (resolved.length > 1 && resolved.some((line) => line.plan.support_entire_rent === 1)) {
    throw new ApiError(409, "entire_rent_exclusive", {}, "orders");
  }

  const nightly = input.nightly ? await loadNightly(ctx.db, hotel.id, start, end) : null;
  const errors = nightly
    ? nightlyLineErrors(resolved, input.nightly ?? [], nightly, member !== null)
    : validateOrderLines(
        resolved.map((line) => ({
          roomClassId: line.room.id,
          planId: line.plan.id,
          roomRemaining: availability.rooms.get(line.room.id)?.remaining ?? 0,
          planRemaining: line.priced.siteTaken ? 0 : line.priced.planRemaining,
          num: line.num,
          allow_member_price: line.plan.allow_member_price === 1,
        })),
        member !== null,
      );
  const pricedLines = resolved.map((line, index) => ({ ...line, error: errors[index] ?? null }));

  const discount = await resolveDiscount(ctx.db, hotel, member, input.couponCode, today);
  const result = calculatePrice({
    lines: pricedLines.flatMap((line, index) => {
      const common = { allow_member_price: line.plan.allow_member_price === 1, allow_coupon: line.plan.allow_coupon === 1 };
      if (!nightly) {
        return [{ ...common, price: line.priced.price, member_price: line.plan.allow_member_price === 1 ? line.priced.member_price : null, num: line.num }];
      }
      // Each night at its own price and number of rooms. As over a whole stay, the member price
      // applies only when every night of the stay has one.
      const memberPriced = line.plan.allow_member_price === 1 && line.priced.member_price !== null;
      return (input.nightly?.[index] ?? []).map(({ date, amount }) => {
        const night = nightly.get(nightKey(line.room.id, line.plan.id, date));
        return { ...common, price: night?.price ?? 0, member_price: memberPriced ? (night?.member_price ?? null) : null, num: amount };
      });
    }),
    loggedIn: member !== null,
    discount,
    points,
    pointsHeld: member?.points ?? 0,
    depositType: hotel.deposit_type,
    depositPercent: hotel.deposit_percent,
    payOption: input.payOption,
    attachmentAmount: 0,
  });
  if (!result.ok) {
    const field = result.problem.startsWith("points") ? "point_used" : result.problem.startsWith("coupon") ? "coupon_code" : "pay_option";
    throw new ApiError(PRICE_PROBLEM_STATUS[result.problem] ?? 400, result.problem as ApiMessageCode, result.params ?? {}, field);
  }
  return {
    hotel,
    member,
    start,
    end,
    today,
    lines: pricedLines,
    discount,
    couponCode: discount.kind === "none" ? "" : discount.code,
    detail: result.detail,
  };
}

export interface NightAmount {
  date: string;
  amount: number;
}

interface NightRow {
  price: number;
  member_price: number | null;
  /** Allotment left, null when the plan has none. */
  plan_left: number | null;
  /** Rooms of the class left that night, 0 when the site's entire-rent state excludes the plan. */
  room_left: number;
}

const nightKey = (roomClassId: number, planId: number, night: string) => `${roomClassId}-${planId}-${night}`;

/** Every plan's price and rooms left on each night of a stay. */
async function loadNightly(db: D1Database, hotelId: number, start: string, end: string): Promise<Map<string, NightRow>> {
  const { results } = await db
    .prepare(
      `SELECT pn.room_class_id, pn.rate_plan_id, pn.night, pn.price, pn.member_price,
              CASE WHEN pn.allotment IS NULL THEN NULL ELSE MAX(0, pn.allotment - pn.sold) END AS plan_left,
              CASE WHEN COALESCE(CASE WHEN rp.support_entire_rent = 1 THEN sn.unit_rooms ELSE sn.entire_rooms END, 0) > 0 THEN 0
                   ELSE MAX(0, COALESCE(rn.capacity - rn.booked, 0)) END AS room_left
       FROM plan_nights pn
       JOIN rate_plans rp ON rp.id = pn.rate_plan_id
       LEFT JOIN room_nights rn ON rn.room_class_id = pn.room_class_id AND rn.night = pn.night
       LEFT JOIN site_nights sn ON sn.hotel_id = rp.hotel_id AND sn.night = pn.night
       WHERE rp.hotel_id = ?1 AND pn.night >= ?2 AND pn.night < ?3`,
    )
    .bind(hotelId, start, end)
    .all<NightRow & { room_class_id: number; rate_plan_id: number; night: string }>();
  return new Map(results.map((row) => [nightKey(row.room_class_id, row.rate_plan_id, row.night), row]));
}

/**
 * Spec §5's line check night by night: on each night, the lines asking for rooms that night share
 * what is left of their room class (and plan). A line fails with its first failing night.
 */
function nightlyLineErrors(
  lines: { room: RoomClassRow; plan: RatePlanRow }[],
  amounts: NightAmount[][],
  nightly: Map<string, NightRow>,
  loggedIn: boolean,
): (OrderLineError | null)[] {
  const errors: (OrderLineError | null)[] = lines.map(() => null);
  const dates = [...new Set(amounts.flat().map((entry) => entry.date))].sort();
  for (const date of dates) {
    const tonight = lines.flatMap((line, index) => {
      const amount = amounts[index]?.find((entry) => entry.date === date)?.amount;
      if (amount === undefined) return [];
      const night = nightly.get(nightKey(line.room.id, line.plan.id, date));
      return [
        {
          index,
          roomClassId: line.room.id,
          planId: line.plan.id,
          roomRemaining: night?.room_left ?? 0,
          planRemaining: night ? night.plan_left : 0,
          num: amount,
          allow_member_price: line.plan.allow_member_price === 1,
        },
      ];
    });
    validateOrderLines(tonight, loggedIn).forEach((error, position) => {
      const index = tonight[position]?.index ?? -1;
      if (error && errors[index] === null) errors[index] = error;
    });
  }
  // A member mixing member-price plans with others fails whatever the nights (spec §5).
  if (loggedIn && lines.some((line) => line.plan.allow_member_price === 1) && lines.some((line) => line.plan.allow_member_price !== 1)) {
    return errors.map((error) => error ?? "member_price_mixed");
  }
  return errors;
}

/** The first line error as an ApiError (any line error fails the whole order, spec §4). */
export function lineErrorOf(order: PricedOrder): ApiError | null {
  const failed = order.lines.find((line) => line.error !== null);
  if (!failed?.error) return null;
  return new ApiError(409, failed.error, {}, `orders.${failed.position}`);
}

/**
 * What one room of a priced line costs for the stay, by the one rule of spec §5 (effectivePrice):
 * the member price for a signed-in member where the plan allows it, else the normal price.
 */
export function lineUnitPrice(line: Pick<PricedOrderLine, "plan" | "priced">, loggedIn: boolean): { price: number; memberApplied: boolean } {
  const plan = { price: line.priced.price, member_price: line.priced.member_price, allow_member_price: line.plan.allow_member_price === 1 };
  const price = effectivePrice(plan, loggedIn);
  return { price, memberApplied: plan.member_price !== null && price === plan.member_price && plan.allow_member_price && loggedIn };
}

/** The amounts both price answers carry (spec §3 and the legacy calculate), as the API names them. */
function wireAmounts(detail: PriceAmounts) {
  const { room_price, original_amount, promotion_discount, point_used, total_price, pay_amount, deposit_amount } = detail;
  return { room_price, original_amount, promotion_discount, point_used, total_price, pay_amount, deposit_amount };
}

/** Price detail (spec §3) with its per-line breakdown. */
export function presentPriceDetail(order: PricedOrder, lang: Language, messages: (code: ApiMessageCode) => string) {
  const main = mainLanguage(order.hotel);
  const loggedIn = order.member !== null;
  const lines = order.lines.map((line) => {
    const unit = lineUnitPrice(line, loggedIn);
    return {
      room_class_id: line.room.id,
      room_class_name: pickText(parseJson<LocalizedText>(line.room.name, {}), lang, main),
      proposal_id: line.plan.id,
      proposal_name: pickText(parseJson<LocalizedText>(line.plan.name, {}), lang, main),
      num: line.num,
      nights: nightsBetween(order.start, order.end),
      price: line.priced.price,
      member_price: line.plan.allow_member_price === 1 ? line.priced.member_price : null,
      unit_price: unit.price,
      amount: unit.price * line.num,
      inventory: line.inventory,
      allow_coupon: line.plan.allow_coupon === 1,
      error: line.error ? { code: line.error, message: messages(line.error) } : null,
    };
  });
  return {
    success: true,
    ...wireAmounts(order.detail),
    deposit_type: order.hotel.deposit_type,
    deposit_percent: depositPercentOf(order.hotel.deposit_percent),
    coupon_code: order.couponCode,
    member: order.member ? { points: order.member.points } : null,
    attachment_detail: { rooms: [], other: [] },
    lines,
    check_in_day: order.start,
    check_out_day: order.end,
  };
}

const LegacyRequest = v.object({
  domain: v.string(),
  check_in: v.string(),
  check_out: v.string(),
  coupon_code: v.optional(CouponCode, ""),
  plans: v.pipe(
    v.array(
      v.object({
        rate_plan_code: v.pipe(v.string(), v.maxLength(40)),
        inv_type_code: v.pipe(v.string(), v.maxLength(40)),
        date_and_amount: v.pipe(
          v.array(v.object({ date: v.string(), amount: WholeNumber(1, MAX_ROOMS_PER_ORDER) })),
          v.minLength(1),
          v.maxLength(31),
        ),
      }),
    ),
    v.minLength(1),
    v.maxLength(20),
  ),
  use_point: v.optional(v.union([v.number(), v.string()]), 0),
  use_deposit: v.optional(v.boolean(), false),
  // The member the site priced for (spec §7). The token says who is signed in; a member named here
  // must be that member. user_point is the balance the site showed; the database's balance counts.
  member: v.optional(
    v.nullable(
      v.object({
        user_email: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254)), ""),
        user_point: v.optional(v.union([v.number(), v.string()])),
      }),
    ),
  ),
});

export const pricingRoutes: BackendRoute[] = [
  {
    method: "POST",
    path: "/api/ota/order/calculate",
    handler: async (ctx) => {
      const body = parseInput(PriceRequest, await readJsonBody(ctx.request));
      const hotel = await requireHotel(ctx.db, body.domain);
      const order = await priceOrder(ctx, hotel, {
        check_in_day: body.check_in_day,
        check_out_day: body.check_out_day,
        orders: body.orders,
        couponCode: body.coupon_code || body.coupon_array[0] || "",
        points: body.point_used,
        payOption: body.pay_option,
      });
      const detail = presentPriceDetail(order, ctx.lang, (code) => apiMessage(code, ctx.lang));
      const lineError = lineErrorOf(order);
      if (lineError) {
        // The price is still shown, with each line's problem.
        const message = apiMessage(lineError.code, ctx.lang);
        return new Response(
          JSON.stringify({ success: false, msg: { code: lineError.code, message, extrainfo: { message, field: lineError.field } }, data: detail }),
          { status: 409, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } },
        );
      }
      return ok(detail);
    },
  },
  {
    method: "POST",
    path: "/api/discount/calculate",
    handler: async (ctx) => {
      const body = parseInput(LegacyRequest, await readJsonBody(ctx.request));
      const hotel = await requireHotel(ctx.db, body.domain);
      const { start, end } = requireStay(hotel, body.check_in, body.check_out, ctx.now, { start: "check_in_day", end: "check_out_day" });
      const stay = new Set(stayNights(start, end));
      // Each night of a line at most once, and only nights of the stay.
      body.plans.forEach((plan, index) => {
        const seen = new Set<string>();
        plan.date_and_amount.forEach((entry, night) => {
          if (!stay.has(entry.date) || seen.has(entry.date)) {
            const field = `plans.${index}.date_and_amount.${night}.date`;
            throw new ApiError(400, "invalid_field", { field }, field);
          }
          seen.add(entry.date);
        });
      });
      const signedIn = await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
      const named = body.member?.user_email ?? "";
      if (named && (!signedIn || signedIn.email.toLowerCase() !== named.toLowerCase())) {
        throw new ApiError(401, "member_only", {}, "member.user_email");
      }
      const [rooms, plans] = await Promise.all([loadRoomClasses(ctx.db, hotel), loadRatePlans(ctx.db, hotel, { signedIn: signedIn !== null })]);
      const orders = body.plans.map((plan, index) => {
        const room = rooms.find((candidate) => candidate.room_code === plan.inv_type_code);
        if (!room) throw new ApiError(404, "unknown_room", {}, `plans.${index}.inv_type_code`);
        const ratePlan = plans.find((candidate) => candidate.rate_plan_code === plan.rate_plan_code);
        if (!ratePlan) throw new ApiError(404, "unknown_plan", {}, `plans.${index}.rate_plan_code`);
        // The most rooms the line holds on any night; each night is priced and checked on its own.
        const num = Math.max(...plan.date_and_amount.map((entry) => entry.amount));
        return { room_class_id: room.id, rate_plan_id: ratePlan.id, num };
      });
      const order = await priceOrder(ctx, hotel, {
        check_in_day: start,
        check_out_day: end,
        orders,
        couponCode: body.coupon_code,
        points: body.use_point,
        payOption: body.use_deposit ? "part" : "all",
        nightly: body.plans.map((plan) => plan.date_and_amount),
      });
      const lineError = lineErrorOf(order);
      if (lineError) throw new ApiError(lineError.status, lineError.code, lineError.params, lineError.field?.replace(/^orders\./, "plans."));
      return ok({
        success: true,
        ...wireAmounts(order.detail),
        coupon_code: order.couponCode,
        member: order.member ? { user_email: order.member.email, user_point: order.member.points } : null,
        attachment_detail: { rooms: [], other: [] },
      });
    },
  },
  {
    method: "POST",
    path: "/api/discount/coupon_confirm",
    handler: async (ctx) => {
      const body = parseInput(
        v.object({
          domain: v.string(),
          coupon_code: v.pipe(v.array(CouponCode), v.minLength(1), v.maxLength(5)),
          check_in_date: v.string(),
          check_out_date: v.string(),
          room_code: v.optional(v.pipe(v.string(), v.maxLength(40))),
        }),
        await readJsonBody(ctx.request),
      );
      const hotel = await requireHotel(ctx.db, body.domain);
      const { today } = requireStay(hotel, body.check_in_date, body.check_out_date, ctx.now, {
        start: "check_in_date",
        end: "check_out_date",
      });
      const member = await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
      const main = mainLanguage(hotel);
      const confirmed = [];
      for (const code of body.coupon_code) {
        const discount = await resolveDiscount(ctx.db, hotel, member, code, today);
        if (discount.kind === "none") throw new ApiError(400, "coupon_invalid", {}, "coupon_code");
        const row = code === MEMBER_PROMOTION_CODE ? null : await findCoupon(ctx.db, hotel.id, code, today);
        confirmed.push({
          code: discount.code,
          name: row ? pickText(parseJson<LocalizedText>(row.name, {}), ctx.lang, main) : discount.code,
          type: discount.kind,
          percent: discount.kind === "percent" ? discount.percent : 0,
          discount: discount.kind === "amount" ? discount.amount : 0,
          min_amount: discount.minAmount ?? 0,
          verify: row?.verify === 1,
          card_number_length: row?.card_number_length ?? 0,
        });
      }
      return ok(confirmed);
    },
  },
];

