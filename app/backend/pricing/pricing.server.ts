/** The price of an order (spec §3 price detail, §5, §6): what every order and price check goes through, and the pricing routes of spec §7. */
import * as v from "valibot";
import { validateOrderLines, type OrderLineError } from "~/domain/order-lines";
import { stayBounds } from "~/domain/stay-rules";
import { calculatePrice, type Discount, type PriceAmounts } from "~/domain/pricing";
import { MAX_GUESTS, MAX_ROOMS_PER_ORDER } from "~/domain/stay";
import { PAYMENT_METHODS } from "~/domain/payments";
import {
  loadAvailability,
  loadRatePlans,
  loadRoomClasses,
  planInventory,
  planKey,
  planRestriction,
  ruleRefusal,
  type PlanAvailability,
  type RatePlanRow,
  type RoomClassRow,
} from "~/backend/catalogue/catalogue.server";
import { ApiError } from "~/backend/http.server";
import { type HotelRow } from "~/backend/hotels/hotels.server";
import { memberFromRequest, type MemberRow } from "~/backend/account/members.server";
import { type ApiMessageCode } from "~/backend/messages";
import type { BackendContext } from "~/backend/route";
import { requireStay, stayRuleError, WholeNumber } from "~/backend/pricing/stay.server";
import { CouponCode, resolveDiscount } from "~/backend/pricing/coupons.server";
import { loadNightly, nightKey, nightlyLineErrors, type NightAmount } from "~/backend/pricing/nightly.server";
import { priceAttachments, type PricedAttachments } from "~/backend/addons/addons.server";
import { priceRail, type PricedRail } from "~/backend/rail/rail.server";

/** The first line naming a members-only plan of the hotel that is not among `visible`, or -1. */
async function membersOnlyPosition(
  db: D1Database,
  hotelId: number,
  lines: { proposal_id?: number | null; rate_plan_id?: number | null }[],
  visible: Map<number, unknown>,
): Promise<number> {
  const { results } = await db
    .prepare("SELECT id FROM rate_plans WHERE hotel_id = ? AND members_only = 1")
    .bind(hotelId)
    .all<{ id: number }>();
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

export const PriceRequest = v.object({
  domain: v.string(),
  check_in_day: v.string(),
  check_out_day: v.string(),
  orders: v.pipe(v.array(v.looseObject({})), v.minLength(1), v.maxLength(20)),
  coupon_code: v.optional(CouponCode, ""),
  coupon_array: v.optional(v.pipe(v.array(CouponCode), v.maxLength(1)), []),
  point_used: v.optional(v.union([v.number(), v.string()]), 0),
  pay_option: v.optional(v.picklist(["all", "part"]), "all"),
  /** Add-on choices (decision 116), priced into attachment_detail. */
  room_attachment_detail: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(50)), []),
  /** Rail tickets (docs/api.md "Rail"), priced into rail_item_list; nothing held. */
  rail_item_list: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(2)), []),
  /** The way the guest means to pay, when chosen: checked against the tickets as the order checks it. */
  pay_way: v.optional(v.picklist(PAYMENT_METHODS)),
  /** The party, when known: per-person add-ons count at most so many adults and children. */
  adults_count: v.optional(WholeNumber(1, MAX_GUESTS)),
  children_count: v.optional(WholeNumber(0, MAX_GUESTS), 0),
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
  /** The add-ons chosen, priced (decision 116). */
  attachments: PricedAttachments;
  /** The rail tickets chosen, priced and checked (decision 120); in detail.total_price and, in full, detail.pay_amount. */
  rail: PricedRail;
  detail: PriceAmounts;
}

/** Reads points as a whole number; negative or malformed values are refused (spec §5). */
export function parsePoints(value: unknown): number {
  const points = typeof value === "string" && /^-?\d{1,9}$/.test(value.trim()) ? Number(value) : value;
  if (typeof points !== "number" || !Number.isInteger(points))
    throw new ApiError(400, "invalid_field", { field: "point_used" }, "point_used");
  if (points < 0) throw new ApiError(400, "points_negative", {}, "point_used");
  return points;
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
    /** Add-on choices (room_attachment_detail) and the party they are for (null: not known). */
    attachments?: readonly unknown[];
    party?: { adults: number; children: number } | null;
    /** Rail ticket lines (rail_item_list). */
    rail?: readonly unknown[];
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
    // The stay rules first, as the guest's calendar tells them (decision 154).
    const refusal = ruleRefusal(availability, plan, room.id);
    if (refusal) {
      // A minimum that is only the plan's own nights (rate_plans.days) keeps its own code.
      if (refusal.rule === "min_stay" && stayBounds(availability.rules(room.id, plan.id)(start)).min < refusal.nights)
        throw new ApiError(409, "min_nights", { days: plan.days }, `orders.${position}.proposal_id`);
      throw stayRuleError(refusal, start, ctx.lang);
    }
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

  const attachments = await priceAttachments(ctx.db, hotel, { start, end, lines: resolved }, input.attachments ?? [], input.party ?? null);
  const rail = await priceRail(ctx.db, hotel, input.rail ?? [], ctx.now, { lang: ctx.lang });
  const discount = await resolveDiscount(ctx.db, hotel, member, input.couponCode, today);
  const result = calculatePrice({
    lines: pricedLines.flatMap((line, index) => {
      const common = { allow_member_price: line.plan.allow_member_price === 1, allow_coupon: line.plan.allow_coupon === 1 };
      if (!nightly) {
        return [
          {
            ...common,
            price: line.priced.price,
            member_price: line.plan.allow_member_price === 1 ? line.priced.member_price : null,
            num: line.num,
          },
        ];
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
    attachmentAmount: attachments.amount,
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
    attachments,
    rail,
    // Tickets are paid in full now: never part of a deposit, never discounted or paid with points (decision 120).
    detail: { ...result.detail, total_price: result.detail.total_price + rail.amount, pay_amount: result.detail.pay_amount + rail.amount },
  };
}

/** The first line error as an ApiError (any line error fails the whole order, spec §4). */
export function lineErrorOf(order: PricedOrder): ApiError | null {
  const failed = order.lines.find((line) => line.error !== null);
  if (!failed?.error) return null;
  return new ApiError(409, failed.error, {}, `orders.${failed.position}`);
}
