import type { CartLine } from "~/domain/cart";
import { lodgingUnit, unitKey } from "~/domain/units";
import { useSite } from "~/ui/site-data";
import type { PriceDetail } from "~/contract/schemas";
import { formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";
import { FieldError, type FieldErrors, type FieldProps } from "./fields";

/** Each line of the cart with its price and the fields for the guest staying in its rooms. */
export function CheckoutLines({
  lines,
  price,
  field,
  fieldErrors,
}: {
  lines: CartLine[];
  price: PriceDetail | null;
  field: FieldProps;
  fieldErrors: FieldErrors;
}) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const unit = lodgingUnit(site?.hotel.kind);
  return (
    <fieldset>
      <legend>{t(unitKey("checkout.rooms", unit))}</legend>
      <ol className="checkout-lines">
        {lines.map((cartLine, index) => {
          // Names and amounts come from the price check; the line and its guest fields stay even when it failed.
          const line = price?.lines.find(
            (candidate) => candidate.room_class_id === cartLine.room_class_id && candidate.proposal_id === cartLine.proposal_id,
          );
          return (
            <li key={`${cartLine.room_class_id}-${cartLine.proposal_id}`} className="checkout-line">
              <p className="checkout-line__name">
                {line ? `${line.room_class_name} · ${line.proposal_name} · ` : ""}
                {t(unitKey("cart.rooms", unit), { count: cartLine.num })}
                {line ? <span className="checkout-line__amount">{formatPrice(line.amount, lang)}</span> : null}
              </p>
              {line?.error ? (
                <p className="field__error" role="alert">
                  {line.error.message}
                </p>
              ) : null}
              <div className="field">
                <label htmlFor={`occupant_name_${index}`}>{t(unitKey("checkout.occupant", unit))}</label>
                <input autoComplete="name" maxLength={100} {...field(`occupant_name_${index}`)} />
                <FieldError errors={fieldErrors} name={`occupant_name_${index}`} />
              </div>
              <div className="field-row">
                <div className="field">
                  <label htmlFor={`occupant_phone_${index}`}>{t("checkout.occupant_phone")}</label>
                  <input type="tel" autoComplete="off" maxLength={25} {...field(`occupant_phone_${index}`)} />
                  <FieldError errors={fieldErrors} name={`occupant_phone_${index}`} />
                </div>
                <div className="field">
                  <label htmlFor={`occupant_email_${index}`}>{t("checkout.occupant_email")}</label>
                  <input type="email" autoComplete="off" maxLength={254} {...field(`occupant_email_${index}`)} />
                  <FieldError errors={fieldErrors} name={`occupant_email_${index}`} />
                </div>
              </div>
            </li>
          );
        })}
      </ol>
    </fieldset>
  );
}
