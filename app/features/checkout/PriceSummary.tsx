import { MEMBER_PROMOTION_CODE } from "~/domain/pricing";
import { lodgingUnit, unitKey } from "~/domain/units";
import { useSite } from "~/ui/site-data";
import type { PriceDetail } from "~/contract/schemas";
import { formatPercent, formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";
import { pricedAddons } from "~/features/addons/addons";

/**
 * The price check's answer: rooms, discounts, points, the total and what is paid now. While the
 * price is being checked again (`pending`), what is due now is not shown: it may be about to change.
 */
export function PriceSummary({ price, pending = false }: { price: PriceDetail; pending?: boolean }) {
  const { t, i18n } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  return (
    <dl className="price-summary" aria-busy={pending || undefined}>
      <div>
        <dt>{t(unitKey("checkout.room_price", lodgingUnit(site?.hotel.kind)))}</dt>
        <dd>{formatPrice(price.room_price, lang)}</dd>
      </div>
      {price.promotion_discount > 0 ? (
        <div>
          <dt>
            {price.coupon_code === MEMBER_PROMOTION_CODE
              ? t("checkout.member_discount")
              : t("checkout.discount", { code: price.coupon_code })}
          </dt>
          <dd>−{formatPrice(price.promotion_discount, lang)}</dd>
        </div>
      ) : null}
      {pricedAddons(price.attachment_detail).map((item, index) => (
        <div key={`addon-${index}`} className="price-summary__addon">
          <dt>{t("checkout.addons.item", { name: item.name, count: item.quantity + item.child_quantity })}</dt>
          <dd>{formatPrice(item.amount, lang)}</dd>
        </div>
      ))}
      {(price.rail_amount ?? 0) > 0 ? (
        <div className="price-summary__rail">
          <dt>{t("checkout.rail_price")}</dt>
          <dd>{formatPrice(price.rail_amount, lang)}</dd>
        </div>
      ) : null}
      {price.point_used > 0 ? (
        <div>
          <dt>{t("checkout.points")}</dt>
          <dd>−{formatPrice(price.point_used, lang)}</dd>
        </div>
      ) : null}
      <div className="price-summary__total">
        <dt>{t("checkout.total")}</dt>
        <dd>{formatPrice(price.total_price, lang)}</dd>
      </div>
      {price.deposit_amount > 0 ? (
        <div>
          <dt>{t("checkout.deposit", { percent: formatPercent(price.deposit_percent, i18n.language) })}</dt>
          <dd>{formatPrice(price.deposit_amount, lang)}</dd>
        </div>
      ) : null}
      <div className="price-summary__due">
        <dt>{t("checkout.pay_now")}</dt>
        <dd>{pending ? t("loading") : formatPrice(price.pay_amount, lang)}</dd>
      </div>
    </dl>
  );
}
