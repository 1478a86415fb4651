import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import type { Order } from "~/hotel-api/schemas";
import { paymentLabelKeys } from "~/booking/payments";
import { lodgingUnit, unitKey } from "~/booking/units";
import { formatDate, formatPrice } from "~/i18n/format";
import type { SiteData } from "~/site.server";

/** An order as the guest sees it after booking (confirmation, payment, order pages). */
export function OrderSummary({ order }: { order: Order }) {
  const { t } = useTranslation();
  const site = useRouteLoaderData<SiteData>("routes/($lang)");
  const lang = site?.lang ?? "zh-TW";
  const unit = lodgingUnit(site?.hotel.kind);
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
            {order.booker_name} · {order.booker_phone} · {order.booker_email}
          </dd>
        </div>
      </dl>
      <ul className="order-summary__lines">
        {order.orders.map((line, index) => (
          <li key={index}>
            {line.room_class_name} · {line.rate_plan_name} · {t(unitKey("cart.rooms", unit), { count: line.num })}
            {line.occupant_name ? ` · ${line.occupant_name}` : ""}
            <span className="order-summary__amount">{formatPrice(line.amount, lang)}</span>
          </li>
        ))}
      </ul>
      <dl className="price-summary">
        {order.couponDiscount > 0 ? (
          <div>
            <dt>{t("checkout.discount", { code: order.used_coupon })}</dt>
            <dd>−{formatPrice(order.couponDiscount, lang)}</dd>
          </div>
        ) : null}
        <div className="price-summary__total">
          <dt>{t("checkout.total")}</dt>
          <dd>{formatPrice(order.final_amount, lang)}</dd>
        </div>
        <div className="price-summary__due">
          <dt>{t("order.to_pay")}</dt>
          <dd>{formatPrice(order.pay_amount, lang)}</dd>
        </div>
      </dl>
      <p className="order-summary__payment">
        {paymentLabelKeys(order.pay_way, order.payment_vendor)
          .map((key) => t(key))
          .join(" · ")}
      </p>
      {order.free_cancel_before_date ? <p>{t("room.free_cancel_until", { date: formatDate(order.free_cancel_before_date, lang) })}</p> : null}
    </section>
  );
}
