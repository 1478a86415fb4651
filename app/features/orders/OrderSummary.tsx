import { useTranslation } from "~/i18n/react";
import { PersonName } from "~/ui/PersonName";
import { bookerName } from "~/i18n/names";
import { orderFreeCancelDate, orderMoneyLines, type MoneyLabel } from "~/domain/order-view";
import type { Order } from "~/contract/schemas";
import { orderPaidWith, paidWithLabelKeys } from "~/domain/payments";
import { lodgingUnit, unitKey } from "~/domain/units";
import { formatDate, formatPrice } from "~/i18n/format";
import { useSite } from "~/ui/site-data";

const moneyClass: Partial<Record<MoneyLabel, string>> = {
  total: "price-summary__total",
  due_now: "price-summary__due",
  due_at_hotel: "price-summary__due",
  remaining: "price-summary__due",
};

/**
 * An order as the guest sees it after booking (confirmation, payment, order pages): its state, and
 * money lines that add up on the page (rooms − discounts − points = total = paid + still to pay).
 */
export function OrderSummary({ order }: { order: Order }) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const unit = lodgingUnit(site?.hotel.kind);
  const freeCancel = orderFreeCancelDate(order);
  const moneyLabel = (label: MoneyLabel): string => {
    switch (label) {
      case "rooms":
        return t("checkout.room_price");
      case "addons":
        return t("order_page.addons");
      case "rail":
        return t("checkout.rail_price");
      case "rail_fees":
        return t("order.rail_fees");
      case "coupon":
        return t("checkout.discount", { code: order.used_coupon });
      case "member_discount":
        return t("checkout.member_discount");
      case "points":
        return t("checkout.points");
      case "total":
        return t("checkout.total");
      case "paid":
        return t("order.paid");
      case "due_now":
        return order.pay_option === "part" ? t("order.deposit_to_pay") : t("order.to_pay");
      case "due_at_hotel":
        return t("order.to_pay_at_hotel");
      case "balance_later":
        return t("order.balance_later");
      case "remaining":
        return t("order.remaining");
      case "to_refund":
        return t("order.to_refund");
    }
  };
  return (
    <section className="order-summary" aria-labelledby="order-heading">
      <h2 id="order-heading">{t("order.number", { number: order.order_doc })}</h2>
      <p className="order-summary__status">
        <span className={`status status--${order.status}`}>{order.display_status}</span>
      </p>
      <dl className="facts-list">
        <div>
          <dt>{t("order.stay")}</dt>
          <dd>
            {formatDate(order.check_in_day, lang)} – {formatDate(order.check_out_day, lang)}
          </dd>
        </div>
        <div>
          <dt>{t("order.booker")}</dt>
          <dd>
            <PersonName name={bookerName(order, lang)} /> · {order.booker_phone} · {order.booker_email}
          </dd>
        </div>
      </dl>
      <ul className="order-summary__lines">
        {order.orders.map((line, index) => (
          <li key={index}>
            {/* One item beside the amount: the line's words and the occupant's name flow together. */}
            <span>
              {line.room_class_name} · {line.rate_plan_name} · {t(unitKey("cart.rooms", unit), { count: line.num })}
              {line.occupant_name ? (
                <>
                  {" · "}
                  <PersonName name={line.occupant_name} />
                </>
              ) : null}
            </span>
            <span className="order-summary__amount">{formatPrice(line.amount, lang)}</span>
          </li>
        ))}
      </ul>
      <dl className="price-summary">
        {orderMoneyLines(order).map((line) => (
          <div key={line.label} className={moneyClass[line.label]} data-sign={line.sign}>
            <dt>{moneyLabel(line.label)}</dt>
            <dd>
              {line.sign === "-" ? "−" : ""}
              {formatPrice(line.amount, lang)}
            </dd>
          </div>
        ))}
      </dl>
      <p className="order-summary__payment">
        {paidWithLabelKeys(order.pay_way, order.payment_vendor, orderPaidWith(order))
          .map((key) => t(key))
          .join(" · ")}
      </p>
      {freeCancel ? <p>{t("room.free_cancel_until", { date: formatDate(freeCancel, lang) })}</p> : null}
    </section>
  );
}
