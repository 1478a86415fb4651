/** The pricing and coupon calls of spec §7: calculate, the legacy discount/calculate, coupon_confirm. */
import { paidAtTheHotel } from "~/domain/payments";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { requireHotel } from "~/backend/hotels/hotels.server";
import { apiMessage } from "~/backend/messages";
import type { BackendRoute } from "~/backend/route";
import { couponConfirm } from "~/backend/pricing/coupons.server";
import { presentPriceDetail } from "~/backend/pricing/present.server";
import { legacyDiscountCalculate } from "~/backend/pricing/legacy.server";
import { PriceRequest, lineErrorOf, priceOrder } from "~/backend/pricing/pricing.server";
import { loadStations } from "~/backend/rail/timetable.server";

export const pricingRoutes: BackendRoute[] = [
  {
    method: "POST",
    path: "/api/ota/order/calculate",
    handler: async (ctx) => {
      const body = parseInput(PriceRequest, await readJsonBody(ctx.request));
      const hotel = await requireHotel(ctx.db, body.domain);
      // A ticket is issued only when paid (decision 120): the price check refuses paying at the hotel
      // with tickets in the same words as the order, so a price it accepts is one the order takes.
      if (body.rail_item_list.length > 0 && body.pay_way !== undefined && paidAtTheHotel(body.pay_way)) {
        throw new ApiError(400, "rail_needs_payment", {}, "pay_way");
      }
      const order = await priceOrder(ctx, hotel, {
        check_in_day: body.check_in_day,
        check_out_day: body.check_out_day,
        orders: body.orders,
        couponCode: body.coupon_code || body.coupon_array[0] || "",
        points: body.point_used,
        payOption: body.pay_option,
        attachments: body.room_attachment_detail,
        rail: body.rail_item_list,
        party: body.adults_count === undefined ? null : { adults: body.adults_count, children: body.children_count },
      });
      const stations = order.rail.lines.length > 0 ? await loadStations(ctx.db) : new Map();
      const detail = presentPriceDetail(order, ctx.lang, (code) => apiMessage(code, ctx.lang), stations);
      const lineError = lineErrorOf(order);
      if (lineError) {
        // The price is still shown, with each line's problem.
        const message = apiMessage(lineError.code, ctx.lang);
        return new Response(
          JSON.stringify({
            success: false,
            msg: { code: lineError.code, message, extrainfo: { message, field: lineError.field } },
            data: detail,
          }),
          { status: 409, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } },
        );
      }
      return ok(detail);
    },
  },
  {
    method: "POST",
    path: "/api/discount/calculate",
    handler: legacyDiscountCalculate,
  },
  {
    method: "POST",
    path: "/api/discount/coupon_confirm",
    handler: couponConfirm,
  },
];
