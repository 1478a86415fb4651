import { useTranslation } from "~/i18n/react";
import { FieldError, type FieldErrors, type FieldProps } from "./fields";

/**
 * Who books: name, phone, email, company and a note for the hotel. Where Portico issues the
 * e-invoice, the company's fields are the invoice section's (`company` false).
 */
export function BookerFields({ field, fieldErrors, company = true }: { field: FieldProps; fieldErrors: FieldErrors; company?: boolean }) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend>{t("checkout.booker")}</legend>
      <div className="field-row">
        <div className="field">
          <label htmlFor="booker_last_name">{t("checkout.last_name")}</label>
          <input autoComplete="family-name" required maxLength={50} {...field("booker_last_name")} />
          <FieldError errors={fieldErrors} name="booker_last_name" />
        </div>
        <div className="field">
          <label htmlFor="booker_first_name">{t("checkout.first_name")}</label>
          <input autoComplete="given-name" required maxLength={50} {...field("booker_first_name")} />
          <FieldError errors={fieldErrors} name="booker_first_name" />
        </div>
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor="booker_phone">{t("checkout.phone")}</label>
          <input type="tel" autoComplete="tel" required {...field("booker_phone")} />
          <FieldError errors={fieldErrors} name="booker_phone" />
        </div>
        <div className="field">
          <label htmlFor="booker_email">{t("checkout.email")}</label>
          <input type="email" autoComplete="email" required {...field("booker_email")} />
          <FieldError errors={fieldErrors} name="booker_email" />
        </div>
      </div>
      {company ? (
        <div className="field-row">
          <div className="field">
            <label htmlFor="company_name">{t("checkout.company_name")}</label>
            <input autoComplete="organization" {...field("company_name")} />
            <FieldError errors={fieldErrors} name="company_name" />
          </div>
          <div className="field">
            <label htmlFor="company_reg_number">{t("checkout.company_reg_number")}</label>
            <input inputMode="numeric" maxLength={8} {...field("company_reg_number")} />
            <FieldError errors={fieldErrors} name="company_reg_number" />
          </div>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="memo">{t("checkout.memo")}</label>
        <textarea rows={3} maxLength={500} {...field("memo")} />
        <FieldError errors={fieldErrors} name="memo" />
      </div>
    </fieldset>
  );
}
