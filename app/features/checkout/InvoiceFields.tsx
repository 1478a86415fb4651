import { useState, type ChangeEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { useHydrated } from "~/ui/forms";
import { FieldError, type FieldErrors, type FieldProps, type Values } from "./fields";

const KINDS = ["carrier", "donation", "company"] as const;
const CARRIERS = ["member", "mobile", "citizen"] as const;

/**
 * How the guest receives the Taiwan e-invoice (decision 159), where Portico issues it: a cloud
 * carrier (the provider's member carrier by the booker's email, a mobile barcode, a citizen
 * certificate), a donation, or a company invoice. Without JavaScript every kind's fields are on the
 * page under its choice; with it, only the chosen kind's (the others disabled, so never sent).
 */
export function InvoiceFields({
  issuer,
  field,
  values,
  fieldErrors,
  registeredName,
}: {
  issuer: "portico_at_payment" | "portico_at_checkout";
  /** Text fields' props: what was typed, else the member's remembered choice. */
  field: FieldProps;
  /** What was sent or remembered, for the radios. */
  values: Values;
  fieldErrors: FieldErrors;
  /** The name the invoice platform registers the 統一編號 to, when it is not the one typed (decision 168). */
  registeredName?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [kind, setKind] = useState(KINDS.find((entry) => entry === values.invoice_kind) ?? "carrier");
  const carrier = CARRIERS.find((entry) => entry === values.carrier_kind) ?? "member";
  const onKind = (event: ChangeEvent<HTMLInputElement>) => setKind(event.target.value as (typeof KINDS)[number]);
  // With JavaScript, the fields of a kind not chosen are out of view and out of the form.
  const closed = (which: (typeof KINDS)[number]) => hydrated && kind !== which;
  const choice = (which: (typeof KINDS)[number]) => (
    <label className="choice">
      <input
        type="radio"
        name="invoice_kind"
        value={which}
        defaultChecked={kind === which}
        onChange={onKind}
        aria-invalid={fieldErrors.invoice_kind ? true : undefined}
        aria-describedby={fieldErrors.invoice_kind ? "invoice_kind-error" : undefined}
      />{" "}
      {t(`checkout.invoice.kind.${which}`)}
    </label>
  );
  return (
    <fieldset className="invoice-fields" id="invoice">
      <legend>{t("checkout.invoice.title")}</legend>
      <p className="field__hint">
        {t("checkout.invoice.intro")}
        {issuer === "portico_at_checkout" ? ` ${t("checkout.invoice.at_checkout")}` : ""}
      </p>
      <FieldError errors={fieldErrors} name="invoice_kind" />
      {/* The code the invoice platform did not know, once the guest was told: placed again, it is used as typed (decision 166). */}
      {values.invoice_advised ? <input type="hidden" name="invoice_advised" value={values.invoice_advised} /> : null}
      <div className="invoice-fields__kind">
        {choice("carrier")}
        {/* Named without a legend: a hidden legend widens a phone's page (it is laid out before it is hidden). */}
        <fieldset
          className="invoice-fields__more"
          hidden={closed("carrier")}
          disabled={closed("carrier")}
          aria-label={t("checkout.invoice.carrier_kind")}
        >
          {CARRIERS.map((which) => (
            <div key={which} className="invoice-fields__carrier">
              <label className="choice">
                <input
                  type="radio"
                  name="carrier_kind"
                  value={which}
                  defaultChecked={carrier === which}
                  aria-invalid={fieldErrors.carrier_kind ? true : undefined}
                  aria-describedby={fieldErrors.carrier_kind ? "carrier_kind-error" : undefined}
                />{" "}
                {t(`checkout.invoice.carrier.${which}`)}
              </label>
              {which === "mobile" ? (
                <div className="field">
                  <label htmlFor="mobile_barcode">{t("checkout.invoice.mobile_barcode")}</label>
                  <input autoCapitalize="characters" autoComplete="off" spellCheck={false} maxLength={16} {...field("mobile_barcode")} />
                  <FieldError errors={fieldErrors} name="mobile_barcode" />
                </div>
              ) : null}
              {which === "citizen" ? (
                <div className="field">
                  <label htmlFor="citizen_certificate">{t("checkout.invoice.citizen_certificate")}</label>
                  <input
                    autoCapitalize="characters"
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={24}
                    {...field("citizen_certificate")}
                  />
                  <FieldError errors={fieldErrors} name="citizen_certificate" />
                </div>
              ) : null}
            </div>
          ))}
          <FieldError errors={fieldErrors} name="carrier_kind" />
          <p className="field__hint">{t("checkout.invoice.email_note")}</p>
        </fieldset>
      </div>
      <div className="invoice-fields__kind">
        {choice("donation")}
        <div className="invoice-fields__more" hidden={closed("donation")}>
          <div className="field">
            <label htmlFor="love_code">{t("checkout.invoice.love_code")}</label>
            <input inputMode="numeric" autoComplete="off" maxLength={10} disabled={closed("donation")} {...field("love_code")} />
            <FieldError errors={fieldErrors} name="love_code" />
          </div>
        </div>
      </div>
      <div className="invoice-fields__kind">
        {choice("company")}
        <fieldset
          className="invoice-fields__more"
          hidden={closed("company")}
          disabled={closed("company")}
          aria-label={t("checkout.invoice.kind.company")}
        >
          <div className="field">
            <label htmlFor="company_reg_number">{t("checkout.invoice.company_reg_number")}</label>
            <input inputMode="numeric" autoComplete="off" maxLength={10} {...field("company_reg_number")} />
            <FieldError errors={fieldErrors} name="company_reg_number" />
          </div>
          <div className="field">
            <label htmlFor="company_name">{t("checkout.invoice.company_name")}</label>
            <input autoComplete="organization" maxLength={60} {...field("company_name")} />
            <FieldError errors={fieldErrors} name="company_name" params={registeredName ? { name: registeredName } : undefined} />
            {/* One tap to place the booking with the registered name: a submit of this form, so it works without JavaScript too. */}
            {registeredName && fieldErrors.company_name ? (
              <button
                type="submit"
                name="invoice_registered_name"
                value={registeredName}
                className="button button--secondary invoice-fields__use-name"
                aria-describedby="company_name-error"
              >
                {t("checkout.invoice.advice.use_registered")}
              </button>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="company_address">{t("checkout.invoice.company_address")}</label>
            <input autoComplete="off" maxLength={100} {...field("company_address")} />
            <FieldError errors={fieldErrors} name="company_address" />
          </div>
        </fieldset>
      </div>
    </fieldset>
  );
}
