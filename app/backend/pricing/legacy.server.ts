/** The legacy price check (spec §7 /api/discount/calculate): plans by code and rooms by night, priced as every order is. */
import * as v from "valibot";
import { stayNights } from "~/domain/dates";
import { MAX_ROOMS_PER_ORDER } from "~/domain/stay";
import { loadRatePlans, loadRoomClasses } from "~/backend/catalogue/catalogue.server";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { requireHotel } from "~/backend/hotels/hotels.server";
import { memberFromRequest } from "~/backend/account/members.server";
import type { BackendContext } from "~/backend/route";
import { requireStay, WholeNumber } from "~/backend/pricing/stay.server";
import { CouponCode } from "~/backend/pricing/coupons.server";
import { lineErrorOf, priceOrder } from "~/backend/pricing/pricing.server";
import { wireAmounts } from "~/backend/pricing/present.server";

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

/** The legacy price check (spec §7 /api/discount/calculate): plans by code, rooms by night. */
export async function legacyDiscountCalculate(ctx: BackendContext): Promise<Response> {
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
}
