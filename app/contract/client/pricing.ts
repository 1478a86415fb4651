/** Prices and coupons (spec §7): the price check, the legacy price check and the coupon confirmation. */
import * as v from "valibot";
import { CouponSchema, LegacyPriceSchema, PriceDetailSchema, type PriceDetail } from "../schemas";
import type { RailItemInput } from "../rail";
import { HotelApiError, type ClientClass } from "./core";

/** A refused price check that still says which lines failed: `detail.lines[n].error`. */
export class PriceCheckError extends HotelApiError {
  constructor(
    error: HotelApiError,
    readonly detail: PriceDetail,
  ) {
    super(error.status, error.code, error.message, error.field, error.data);
    this.name = "PriceCheckError";
  }
}

/** The calls of prices and coupons. */
export function withPricingCalls<TBase extends ClientClass>(Base: TBase) {
  return class PricingCalls extends Base {
    /** POST /api/ota/order/calculate (price check v2) */
    async calculate(input: PriceCheckInput) {
      try {
        return await this.call(PriceDetailSchema, "POST", "/api/ota/order/calculate", { body: { ...this.hotel, ...input } });
      } catch (error) {
        // A line problem still comes with the price detail, each line with its own error (api.md).
        const detail = error instanceof HotelApiError ? v.safeParse(PriceDetailSchema, error.data) : null;
        if (error instanceof HotelApiError && detail?.success) throw new PriceCheckError(error, detail.output);
        throw error;
      }
    }

    /** POST /api/discount/calculate (legacy price check) */
    legacyCalculate(input: LegacyPriceCheckInput) {
      return this.call(LegacyPriceSchema, "POST", "/api/discount/calculate", { body: { ...this.hotel, ...input } });
    }

    /** POST /api/discount/coupon_confirm */
    confirmCoupon(input: { coupon_code: string[]; check_in_date: string; check_out_date: string; room_code?: string }) {
      return this.call(v.array(CouponSchema), "POST", "/api/discount/coupon_confirm", { body: { ...this.hotel, ...input } });
    }
  };
}

export interface OrderLineInput {
  room_class_id: number;
  proposal_id: number;
  num: number;
}

export interface PriceCheckInput {
  check_in_day: string;
  check_out_day: string;
  orders: OrderLineInput[];
  coupon_code?: string;
  point_used?: number;
  pay_option?: "all" | "part";
  /** Add-on choices (docs/api.md "Add-ons") and the party they are for. */
  room_attachment_detail?: { adds_id: number; quantity: number; child_quantity: number; room_index?: number }[];
  /** Rail tickets to price (docs/api.md "Rail"). */
  rail_item_list?: RailItemInput[];
  adults_count?: number;
  children_count?: number;
}

export interface LegacyPriceCheckInput {
  check_in: string;
  check_out: string;
  coupon_code?: string;
  plans: { rate_plan_code: string; inv_type_code: string; date_and_amount: { date: string; amount: number }[] }[];
  use_point?: number;
  use_deposit?: boolean;
  /** The signed-in member the price is for (spec §7); left out for a guest. */
  member?: { user_email: string; user_point: number };
}
