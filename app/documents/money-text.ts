/**
 * An order's money lines as the confirmation PDF and the emails print them (issue 37): the lines
 * orderMoneyLines adds up (decision 019), each named for what it is — a coupon with its code, the
 * members-only discount, the points with how many were used — so that what a guest reads adds up to
 * the total there as on the order page. Pure, for the site and the back end alike.
 */
import { orderMoneyLines, type MoneyLine, type OrderMoney } from "~/domain/order-view";
import type { Language } from "~/i18n/languages";
import { formatCount, formatPrice } from "~/i18n/format";
import type { LodgingUnit } from "~/domain/units";
import { docText } from "~/documents/labels";

export interface MoneyTextLine extends MoneyLine {
  /** "Points (1,000 pts)", "Discount WELCOME10", "Total" … */
  text: string;
  /** "NT$3,200", or "−NT$1,000" for what is taken off. */
  shown: string;
}

export function moneyTextLines(lang: Language, order: OrderMoney, unit: LodgingUnit = "room"): MoneyTextLine[] {
  const t = (key: Parameters<typeof docText>[1], params?: Record<string, string | number>) => docText(lang, key, params, unit);
  const text = (line: MoneyLine): string => {
    switch (line.label) {
      case "rooms":
        return t("pdf.room_price");
      case "addons":
        return t("pdf.addons");
      case "rail":
        return t("rail.title");
      case "coupon":
        return t("pdf.coupon", { code: order.used_coupon });
      case "member_discount":
        return t("pdf.member_discount");
      case "points":
        // One point takes NT$1 off (pricing.ts): the count is the amount, said as points.
        return t("pdf.points_used", { points: formatCount(order.usedPoint, lang) });
      case "total":
        return t("pdf.total");
      case "rail_refund":
        return t("pdf.rail_refund");
      case "paid":
        return t("pdf.paid");
      case "charged":
        return t("pdf.charged");
      case "refunded":
        return t("pdf.refunded");
      case "to_be_refunded":
        return t("pdf.to_be_refunded");
      case "kept_hotel":
        return t("pdf.kept_hotel");
      case "kept_rail_fee":
        return t("pdf.kept_rail_fee");
      case "due_now":
      case "due_at_hotel":
      case "balance_later":
      case "remaining":
        return t("pdf.remaining");
    }
  };
  return orderMoneyLines(order).map((line) => ({
    ...line,
    text: text(line),
    shown: `${line.sign === "-" ? "−" : ""}${formatPrice(line.amount, lang)}`,
  }));
}
