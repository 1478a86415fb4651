import { formatPercent } from "~/i18n/format";
import { paymentLabelKeys, type PaymentOption } from "~/domain/payments";
import { useTranslation } from "~/i18n/react";
import { FieldError, type FieldErrors, type Values } from "./fields";

/** How the guest pays: the hotel's methods, and all or the deposit when the hotel takes one. */
export function PaymentFields({
  payments,
  note,
  defaultPayment,
  deposit,
  values,
  fieldErrors,
  resetKey = "entered",
}: {
  payments: PaymentOption[];
  /** A translation key said under the choices, e.g. why paying at the hotel is not offered. */
  note?: string | null;
  defaultPayment: string | null;
  deposit: number | null;
  values: Values;
  fieldErrors: FieldErrors;
  /** Changes when the server replaced the way of paying the form sent. */
  resetKey?: string;
}) {
  const { t, i18n } = useTranslation();
  // The way the form sent, while it is still offered; else the first allowed: never none chosen
  // because the one named is no longer offered (rail tickets chosen since, issue 37 item 13).
  const chosen = payments.some((option) => option.value === values.payment) ? values.payment : defaultPayment;
  return (
    <fieldset>
      <legend>{t("checkout.payment")}</legend>
      {payments.map((option) => (
        <label key={option.value} className="choice">
          <input
            // With JavaScript, React sets a radio's checked state only when it is made: when the
            // server replaced the guest's choice, a new key makes the radios anew from `chosen`.
            key={resetKey}
            type="radio"
            name="payment"
            value={option.value}
            defaultChecked={chosen === option.value}
            required
          />{" "}
          {paymentLabelKeys(option.method, option.vendor)
            .map((key) => t(key))
            .join(" · ")}
        </label>
      ))}
      {note ? <p className="field__hint">{t(note)}</p> : null}
      <FieldError errors={fieldErrors} name="payment" />
      {deposit !== null ? (
        <div className="field">
          <p>{t("checkout.pay_option")}</p>
          <label className="choice">
            <input type="radio" name="pay_option" value="all" defaultChecked={values.pay_option !== "part"} /> {t("checkout.pay_all")}
          </label>
          <label className="choice">
            <input type="radio" name="pay_option" value="part" defaultChecked={values.pay_option === "part"} />{" "}
            {t("checkout.pay_part", { percent: formatPercent(deposit, i18n.language) })}
          </label>
        </div>
      ) : null}
    </fieldset>
  );
}
