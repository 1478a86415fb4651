/** Coupons and the members-only discount (spec §6): finding a code, what it takes off, and the coupon_confirm call. */
import * as v from "valibot";
import { MEMBER_PROMOTION_CODE, memberPromotionPercent, type Discount } from "~/domain/pricing";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { mainLanguage, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import { memberFromRequest, type MemberRow } from "~/backend/account/members.server";
import type { BackendContext } from "~/backend/route";
import { requireStay } from "~/backend/pricing/stay.server";

export const CouponCode = v.pipe(v.string(), v.trim(), v.maxLength(40));

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

/** Checks coupon codes before a price check (spec §7 coupon_confirm). */
export async function couponConfirm(ctx: BackendContext): Promise<Response> {
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
}
