import { formatPercent } from "~/i18n/format";
import type { ReactNode } from "react";
import type { PriceDetail } from "~/contract/schemas";
import { useTranslation } from "~/i18n/react";
import { FieldError, type FieldErrors, type FieldProps, type Values } from "./fields";
import { PriceSummary } from "./PriceSummary";

export interface MemberBenefits {
  points: number;
  promotionPercent: number;
}

interface Props {
  member: MemberBenefits | null;
  coupons: boolean;
  price: PriceDetail | null;
  /** Which button is being sent ("price" or "order"), while it is. */
  busy: FormDataEntryValue | null | undefined;
  /** A new key each time the promotion fields were cleared. */
  promotionKey: string;
  values: Values;
  field: FieldProps;
  fieldErrors: FieldErrors;
  /** Shown just before "Book": the challenge, when the back end asks for one (decision 072). */
  beforeOrder?: ReactNode;
}

/** The side of the form: member benefits, the coupon, the price check's summary and "Book". */
export function CheckoutSummary({ member, coupons, price, busy, promotionKey, values, field, fieldErrors, beforeOrder }: Props) {
  const { t, i18n } = useTranslation();
  // The members-only discount is offered only where a chosen plan takes it (issue 25 item 17).
  const discountable = price === null || price.lines.some((line) => line.allow_coupon);
  return (
    <aside className="checkout-summary">
      <h2>{t("checkout.summary")}</h2>
      {member && ((member.promotionPercent > 0 && discountable) || member.points > 0) ? (
        <fieldset className="member-benefits">
          <legend>{t("checkout.member_benefits")}</legend>
          {member.promotionPercent > 0 && discountable ? (
            <label className="choice">
              <input
                key={promotionKey}
                type="checkbox"
                name="member_promotion"
                value="1"
                defaultChecked={values.member_promotion === "1"}
              />{" "}
              {t("checkout.member_promotion", { percent: formatPercent(member.promotionPercent, i18n.language) })}
            </label>
          ) : null}
          {member.points > 0 ? (
            <div className="field">
              <label htmlFor="points">{t("checkout.points_use")}</label>
              <input
                key={promotionKey}
                type="number"
                inputMode="numeric"
                min={0}
                max={member.points}
                step={1}
                {...field("points")}
                aria-describedby={fieldErrors.points ? "points-help points-error" : "points-help"}
              />
              <p className="field__help" id="points-help">
                {t("checkout.points_have", { points: member.points })}
              </p>
              <FieldError errors={fieldErrors} name="points" params={{ points: member.points }} />
            </div>
          ) : null}
        </fieldset>
      ) : null}
      {coupons ? (
        <div className="field coupon-field">
          <label htmlFor="coupon_code">{t("checkout.coupon")}</label>
          <div className="coupon-field__row">
            <input key={promotionKey} autoComplete="off" maxLength={40} {...field("coupon_code")} />
            <button
              type="submit"
              name="intent"
              value="price"
              className="button button--secondary"
              formNoValidate
              disabled={busy === "price"}
            >
              {busy === "price" ? t("loading") : t("checkout.apply")}
            </button>
          </div>
          <FieldError errors={fieldErrors} name="coupon_code" />
        </div>
      ) : (
        <button type="submit" name="intent" value="price" className="button button--secondary" formNoValidate>
          {t("checkout.check_price")}
        </button>
      )}
      {price ? (
        <>
          <PriceSummary price={price} pending={busy === "price"} />
          {/* The amount the guest sees as due now: the order is placed only at this amount (decision 065). */}
          <input type="hidden" name="due_now" value={price.pay_amount} />
        </>
      ) : null}
      {beforeOrder}
      <button type="submit" name="intent" value="order" className="button button--block button--primary" disabled={busy === "order"}>
        {busy === "order" ? t("loading") : t("checkout.place_order")}
      </button>
      <p className="checkout-summary__note">{t("checkout.note")}</p>
    </aside>
  );
}
