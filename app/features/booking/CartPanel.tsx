import { Form, useLocation, useNavigation } from "@remix-run/react";
import { lodgingUnit, unitKey } from "~/domain/units";
import { useSite } from "~/ui/site-data";
import { formatDate, formatPrice } from "~/i18n/format";
import { localizePath } from "~/i18n/languages";
import { useTranslation } from "~/i18n/react";
import type { BookingData } from "./types";

/** The cart beside the results: its lines, their total and the way to the checkout. */
export function CartPanel({ data }: { data: BookingData }) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const location = useLocation();
  const navigation = useNavigation();
  const unit = lodgingUnit(site?.hotel.kind);
  const checkout = `${localizePath(`/${site?.product ?? "hxa"}/checkout`, lang)}?${data.query}`;
  return (
    <aside className="booking-cart" id="cart" aria-labelledby="cart-heading" aria-busy={navigation.state !== "idle" || undefined}>
      <h2 id="cart-heading" tabIndex={-1}>
        {t("cart.heading")}
      </h2>
      <p className="booking-cart__stay">
        {formatDate(data.search.start, lang)} – {formatDate(data.search.end, lang)}
      </p>
      {data.cart.lines.length === 0 ? (
        <p className="booking-cart__empty">{t(unitKey("cart.empty", unit))}</p>
      ) : (
        <>
          <ul className="booking-cart__lines">
            {data.cart.lines.map((line) => (
              <li key={`${line.room_class_id}-${line.proposal_id}`} className={line.error ? "cart-line cart-line--stale" : "cart-line"}>
                <span className="cart-line__name">
                  {line.roomName} · {line.planName}
                </span>
                <span className="cart-line__count">{t(unitKey("cart.rooms", unit), { count: line.num })}</span>
                {line.unitPrice !== null ? <span className="cart-line__price">{formatPrice(line.unitPrice * line.num, lang)}</span> : null}
                {line.error ? (
                  <span className="cart-line__error" role="alert">
                    {t(`cart.error.${line.error}`)}
                  </span>
                ) : null}
                <Form method="post" action={`${location.pathname}${location.search}`} preventScrollReset>
                  <input type="hidden" name="csrf" value={data.csrf} />
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="room_class_id" value={line.room_class_id} />
                  <input type="hidden" name="proposal_id" value={line.proposal_id} />
                  <button type="submit" className="link-button">
                    {t("cart.remove")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
          <p className="booking-cart__total">
            <span>{t(unitKey("cart.total_rooms", unit), { count: data.cart.totals.rooms })}</span>
            <strong>{formatPrice(data.cart.totals.price, lang)}</strong>
          </p>
          <a className="button button--block" href={checkout} id="cart-checkout">
            {t("cart.checkout")}
          </a>
        </>
      )}
    </aside>
  );
}
