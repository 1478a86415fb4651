/** A priced order as the API answers it (spec §3 price detail), in the request's language. */
import { nightsBetween } from "~/domain/dates";
import { depositPercentOf, effectivePrice, type PriceAmounts } from "~/domain/pricing";
import type { Language } from "~/i18n/languages";
import { mainLanguage } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import { type ApiMessageCode } from "~/backend/messages";
import type { PricedOrder, PricedOrderLine } from "~/backend/pricing/pricing.server";
import { attachmentDetail } from "~/backend/addons/addons.server";
import { presentPricedLine } from "~/backend/rail/present.server";
import type { Stations } from "~/backend/rail/timetable.server";

/**
 * What one room of a priced line costs for the stay, by the one rule of spec §5 (effectivePrice):
 * the member price for a signed-in member where the plan allows it, else the normal price.
 */
export function lineUnitPrice(
  line: Pick<PricedOrderLine, "plan" | "priced">,
  loggedIn: boolean,
): { price: number; memberApplied: boolean } {
  const plan = { price: line.priced.price, member_price: line.priced.member_price, allow_member_price: line.plan.allow_member_price === 1 };
  const price = effectivePrice(plan, loggedIn);
  return { price, memberApplied: plan.member_price !== null && price === plan.member_price && plan.allow_member_price && loggedIn };
}

/** The amounts both price answers carry (spec §3 and the legacy calculate), as the API names them. */
export function wireAmounts(detail: PriceAmounts) {
  const { room_price, original_amount, promotion_discount, point_used, attachment_amount, total_price, pay_amount, deposit_amount } =
    detail;
  return { room_price, original_amount, promotion_discount, point_used, attachment_amount, total_price, pay_amount, deposit_amount };
}

/** Price detail (spec §3) with its per-line breakdown. */
export function presentPriceDetail(
  order: PricedOrder,
  lang: Language,
  messages: (code: ApiMessageCode) => string,
  stations: Stations = new Map(),
) {
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
    attachment_detail: attachmentDetail(
      order.attachments.items,
      order.lines.map((line) => ({ position: line.position, room_class_id: line.room.id, proposal_id: line.plan.id })),
      lang,
      main,
    ),
    rail_item_list: order.rail.lines.map((line) => presentPricedLine(line, stations, lang)),
    rail_amount: order.rail.amount,
    lines,
    check_in_day: order.start,
    check_out_day: order.end,
  };
}
