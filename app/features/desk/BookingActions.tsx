import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { deskBookingPath } from "~/contract/desk";
import type { DeskAction } from "~/contract/desk-actions-schemas";
import { formatPrice } from "~/i18n/format";
import { isLanguage, localizePath, DEFAULT_LANGUAGE } from "~/i18n/languages";
import { useTranslation } from "~/i18n/react";
import { actionsFor, type BookingForActions, type DeskRole } from "./booking-actions";

/** What the last action did, as the booking page's loader took it (action-notice.server.ts). */
export interface BookingActionsNotice {
  action: DeskAction;
  outcome: "done" | "already_done" | "refused";
  message?: string;
}

export interface BookingActionsProps {
  booking: BookingForActions;
  role: DeskRole;
  /** Today in the hotel's time zone. */
  today: string;
  csrf: string;
  /** One one-time key per form (newFormKeys), made by the page's loader. */
  formKeys: Record<DeskAction, string>;
  notice?: BookingActionsNotice | null;
}

/**
 * The booking page's action forms (decision 151): one small POST form per action that applies to
 * the booking and the staff member's role, each with the CSRF token and its one-time form_key,
 * working without JavaScript. They post to /desk/bookings/{order_doc}/act, which comes back here.
 */
export function BookingActions({ booking, role, today, csrf, formKeys, notice: last }: BookingActionsProps) {
  // The invoice's actions say what they did in the invoice panel.
  const notice = last && !last.action.startsWith("invoice_") ? last : null;
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const w = (key: string, values: Record<string, string | number> = {}) => t(key, { ns: "desk-actions", ...values });
  const price = (amount: number) => formatPrice(amount, lang);
  const target = localizePath(`${deskBookingPath(booking.order_doc)}/act`, lang);
  const offered = actionsFor(booking, role, today);
  if (offered.length === 0 && !notice) return null;
  const id = (action: DeskAction, field: string) => `desk-${action}-${field}`;

  const form = (action: DeskAction, title: string | null, submit: string, fields: ReactNode = null, danger = false) => (
    <Form key={action} method="post" action={target} className="desk-action" aria-label={title ?? submit}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="intent" value={action} />
      <input type="hidden" name="form_key" value={formKeys[action]} />
      {title ? <h3 className="desk-action__title">{title}</h3> : null}
      {fields}
      <button type="submit" className={danger ? "button button--danger" : "button"}>
        {submit}
      </button>
    </Form>
  );
  const amountField = (action: DeskAction, initial: number) => (
    <p className="field">
      <label htmlFor={id(action, "amount")}>{w("amount")}</label>
      <input
        id={id(action, "amount")}
        name="amount"
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        required
        defaultValue={initial || undefined}
      />
    </p>
  );
  const textField = (
    action: DeskAction,
    name: string,
    label: string,
    options: { required?: boolean; max?: number; type?: string; pattern?: string } = {},
  ) => (
    <p className="field">
      <label htmlFor={id(action, name)}>{label}</label>
      <input
        id={id(action, name)}
        name={name}
        type={options.type ?? "text"}
        required={options.required}
        maxLength={options.max}
        pattern={options.pattern}
        inputMode={options.pattern ? "numeric" : undefined}
      />
    </p>
  );

  // The invoice's actions have forms of their own, in the invoice panel (InvoicePanel.tsx).
  const forms: Partial<Record<DeskAction, () => ReactNode>> = {
    record_transfer: () =>
      form(
        "record_transfer",
        w("record_transfer.title"),
        w("record_transfer.submit"),
        <>
          {booking.reinstatable ? <p className="desk-action__hint">{w("record_transfer.reinstate")}</p> : null}
          {amountField("record_transfer", booking.owed)}
          {textField("record_transfer", "transfer_date", w("record_transfer.date"), { required: true, type: "date" })}
          {textField("record_transfer", "account_last5", w("record_transfer.last5"), { required: true, max: 5, pattern: "[0-9]{5}" })}
        </>,
      ),
    record_at_hotel: () =>
      form(
        "record_at_hotel",
        w("record_at_hotel.title"),
        w("record_at_hotel.submit"),
        <>
          {amountField("record_at_hotel", booking.owed)}
          <fieldset className="field">
            <legend>{w("record_at_hotel.method")}</legend>
            {(["cash", "card_terminal"] as const).map((method, index) => (
              <label key={method}>
                <input type="radio" name="method" value={method} defaultChecked={index === 0} /> {w(`record_at_hotel.${method}`)}
              </label>
            ))}
          </fieldset>
          {textField("record_at_hotel", "reference", w("record_at_hotel.reference"), { max: 40 })}
        </>,
      ),
    extend_deadline: () =>
      form(
        "extend_deadline",
        w("extend_deadline.title"),
        w("extend_deadline.submit"),
        textField("extend_deadline", "deadline_day", w("extend_deadline.day"), { required: true, type: "date" }),
      ),
    check_in: () => form("check_in", null, w("check_in.submit")),
    check_out: () => form("check_out", null, w("check_out.submit")),
    no_show: () =>
      form(
        "no_show",
        w("no_show.title"),
        w("no_show.submit"),
        <>
          <p className="desk-action__hint">{w("no_show.hint")}</p>
          {textField("no_show", "reason", w("no_show.reason"), { max: 500 })}
        </>,
        true,
      ),
    cancel: () =>
      form(
        "cancel",
        w("cancel.title"),
        w("cancel.submit"),
        <>
          {textField("cancel", "reason", w("cancel.reason"), { required: true, max: 500 })}
          <p className="field field--check">
            <label>
              <input type="checkbox" name="waive_fee" /> {w("cancel.waive")}
            </label>
          </p>
        </>,
        true,
      ),
    refund: () =>
      form(
        "refund",
        w("refund.title"),
        w("refund.submit"),
        <>
          <p>{w("due_back", { amount: price(booking.due_back) })}</p>
          {amountField("refund", booking.due_back)}
          <fieldset className="field">
            <legend>{w("refund.method")}</legend>
            {(["gateway", "manual"] as const).map((method, index) => (
              <label key={method}>
                <input type="radio" name="method" value={method} defaultChecked={index === 0} /> {w(`refund.${method}`)}
              </label>
            ))}
          </fieldset>
          {textField("refund", "reference", w("refund.reference"), { max: 80 })}
        </>,
      ),
    resend_confirmation: () => form("resend_confirmation", null, w("resend_confirmation.submit")),
    note: () =>
      form(
        "note",
        w("note.title"),
        w("note.submit"),
        <p className="field">
          <label htmlFor={id("note", "note")}>{w("note.note")}</label>
          <textarea id={id("note", "note")} name="note" required maxLength={1000} rows={2} />
        </p>,
      ),
  };

  return (
    <section className="desk-actions" aria-labelledby="desk-actions-heading">
      <h2 id="desk-actions-heading">{w("heading")}</h2>
      {notice ? (
        <div
          className={notice.outcome === "refused" ? "alert alert--danger" : "alert alert--info"}
          role={notice.outcome === "refused" ? "alert" : "status"}
        >
          <p>{w(`outcome.${notice.outcome}`, { action: w(`action.${notice.action}`) })}</p>
          {notice.outcome === "refused" && notice.message ? <p>{notice.message}</p> : null}
        </div>
      ) : null}
      {booking.owed > 0 && booking.status !== "cancelled" ? <p>{w("owed", { amount: price(booking.owed) })}</p> : null}
      {offered.map((action) => forms[action]?.())}
    </section>
  );
}
