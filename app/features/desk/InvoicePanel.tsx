import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { deskBookingPath } from "~/contract/desk";
import type { DeskAction } from "~/contract/desk-actions-schemas";
import type { DeskInvoice } from "~/contract/desk-bookings-schemas";
import { formatPrice } from "~/i18n/format";
import { isLanguage, localizePath, DEFAULT_LANGUAGE } from "~/i18n/languages";
import { useTranslation } from "~/i18n/react";
import { ACTING_ROLES, type DeskRole } from "./booking-actions";
import type { BookingActionsNotice } from "./BookingActions";

export interface InvoicePanelProps {
  invoice: DeskInvoice | null;
  order_doc: string;
  role: DeskRole;
  csrf: string;
  formKeys: Record<DeskAction, string>;
  /** The last action's notice, when it was one of the invoice's. */
  notice?: BookingActionsNotice | null;
}

/** An ISO instant as the desk prints it (UTC, to the second, as the timeline does). */
const instant = (iso: string) => `${iso.replace("T", " ").slice(0, 19)} UTC`;

/**
 * The booking's e-invoice at the desk (decision 159, the hotel's side): who issues it, its state,
 * the invoices and allowances, what went wrong, the history (newest first, folded), and the staff's
 * actions by role, each a small POST form working without JavaScript (issue now, void and issue
 * again, allowance and issue again, mark as handled; for an allowance the buyer refused or let lapse,
 * ask again or make it now: decision 167). They post to the booking's /act route.
 */
export function InvoicePanel({ invoice, order_doc, role, csrf, formKeys, notice }: InvoicePanelProps) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const w = (key: string, values: Record<string, string | number> = {}) => t(`invoice.${key}`, { ns: "desk-actions", ...values });
  const price = (amount: number) => formatPrice(amount, lang);
  if (!invoice) return null;
  const acting = ACTING_ROLES.includes(role);
  const target = localizePath(`${deskBookingPath(order_doc)}/act`, lang);
  const offered = new Set(acting ? invoice.actions : []);
  const ownSystem = invoice.issuer === "hotel_system";
  // A history line's kind: "call:issue", "answered:issue", "failed:issue" (the call, its outcome beside it), "staff:withdraw", or an event.
  const historyLabel = (kind: string) => {
    const [phase, name = ""] = kind.split(":");
    if (phase === "staff") return `${w("history.staff")}: ${w(`event.${name}`, { defaultValue: name })}`;
    if (phase === "consent") return w(`consent.history.${name}`, { defaultValue: kind });
    if (name) return w(`op.${name}`, { defaultValue: name });
    return w(`event.${kind}`, { defaultValue: kind });
  };

  const form = (action: DeskAction, submit: string, fields: ReactNode = null, key: string = action, danger = false) => (
    <Form key={key} method="post" action={target} className="desk-action" aria-label={submit}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="intent" value={action} />
      {/* One key per rendered form: two invoices' void forms never share one. */}
      <input
        type="hidden"
        name="form_key"
        value={key === action ? formKeys[action] : `${formKeys[action]}-${key.replace(/[^A-Za-z0-9]/g, "")}`}
      />
      {fields}
      <button type="submit" className={danger ? "button button--danger" : "button"}>
        {submit}
      </button>
    </Form>
  );

  // A line's detail: a failure's message as it came, or the few fields of a recorded event or answer that staff read.
  const historyDetail = (detail: string): string => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(detail);
    } catch {
      return detail;
    }
    if (typeof parsed !== "object" || parsed === null) return detail;
    const fields = parsed as Record<string, unknown>;
    const shown: [string, unknown][] = [
      [w("number"), fields.number],
      [w("handled.number"), fields.allowanceNumber],
      [w("kept"), typeof fields.target === "number" ? price(fields.target) : undefined],
      [w("history.by"), fields.by],
      [w("handled.note"), fields.note],
    ];
    return shown
      .filter(([, value]) => typeof value === "string" && value !== "")
      .map(([label, value]) => `${label}: ${String(value)}`)
      .join(" · ");
  };

  return (
    <section className="desk-invoice" aria-labelledby="desk-invoice-heading" data-invoice-status={invoice.status}>
      <h2 id="desk-invoice-heading">{w("heading")}</h2>
      {notice ? (
        <div
          className={notice.outcome === "refused" ? "alert alert--danger" : "alert alert--info"}
          role={notice.outcome === "refused" ? "alert" : "status"}
        >
          <p>{t(`outcome.${notice.outcome}`, { ns: "desk-actions", action: w(`action.${notice.action}`) })}</p>
          {notice.outcome === "refused" && notice.message ? <p>{notice.message}</p> : null}
        </div>
      ) : null}
      <p data-invoice-issuer={invoice.issuer ?? "none"}>
        <strong>{w("issuer.label")}</strong> {w(`issuer.${invoice.issuer ?? "none"}`)}
      </p>
      {ownSystem ? null : (
        <>
          {invoice.handled_outside ? <p className="alert alert--info">{w("handled_outside")}</p> : null}
          <dl className="desk-invoice__facts">
            <div>
              <dt>{w("status.label")}</dt>
              <dd data-invoice-field="status">{w(`status.${invoice.status}`)}</dd>
            </div>
            <div>
              <dt>{w("number")}</dt>
              <dd data-invoice-field="number">{invoice.number || "—"}</dd>
            </div>
            {invoice.random_number ? (
              <div>
                <dt>{w("random_number")}</dt>
                <dd data-invoice-field="random_number">{invoice.random_number}</dd>
              </div>
            ) : null}
            <div>
              <dt>{w("amount")}</dt>
              <dd>{price(invoice.amount)}</dd>
            </div>
            <div>
              <dt>{w("kept")}</dt>
              <dd>{price(invoice.kept)}</dd>
            </div>
          </dl>
          {invoice.failure ? (
            <div className="alert alert--danger" role="note">
              <p>
                {w(`failure.${invoice.failure.kind}`)} · {w("failure.attempts", { n: invoice.failure.attempts })}
              </p>
              <p>{invoice.failure.message}</p>
              <p>{invoice.failure.retry_at ? w("failure.retry_at", { at: instant(invoice.failure.retry_at) }) : w("failure.staff")}</p>
            </div>
          ) : null}
          {invoice.invoices.length > 0 ? (
            <>
              <h3>{w("invoices")}</h3>
              <ul className="desk-invoice__list">
                {invoice.invoices.map((doc, index) => (
                  <li key={`${doc.number}-${index}`} data-invoice-number={doc.number || undefined}>
                    <strong>{doc.number || w("no_number")}</strong> · {price(doc.amount)} · {w(`purpose.${doc.purpose}`)} ·{" "}
                    {w(`doc.${doc.status}`)}
                    {doc.issued_on ? ` · ${w("issued_on", { day: doc.issued_on })}` : ""}
                    {doc.status === "issued" && doc.remaining !== doc.amount
                      ? ` · ${w("remaining", { amount: price(doc.remaining) })}`
                      : ""}
                    {doc.last_void_day ? (
                      <>
                        <br />
                        <small>{w("void_until", { day: doc.last_void_day })}</small>
                      </>
                    ) : null}
                    {acting && (doc.can_void || doc.can_allowance) ? (
                      <div className="desk-invoice__doc-actions">
                        {doc.can_void
                          ? form(
                              "invoice_void",
                              w("void.submit"),
                              <input type="hidden" name="number" value={doc.number} />,
                              `void-${doc.number}`,
                              true,
                            )
                          : null}
                        {doc.can_allowance
                          ? form(
                              "invoice_allowance",
                              w("allowance.submit"),
                              <input type="hidden" name="number" value={doc.number} />,
                              `allowance-${doc.number}`,
                              true,
                            )
                          : null}
                      </div>
                    ) : null}
                  </li>
                ))}
              </ul>
              {acting && invoice.invoices.some((doc) => doc.can_void || doc.can_allowance) ? (
                <p className="desk-action__hint">{w("correct_hint")}</p>
              ) : null}
            </>
          ) : null}
          {invoice.allowances.length > 0 ? (
            <>
              <h3>{w("allowances")}</h3>
              <ul className="desk-invoice__list">
                {invoice.allowances.map((allowance, index) => (
                  <li key={index} data-allowance-status={allowance.status}>
                    {allowance.number || w("no_number")} · {price(allowance.amount)} ·{" "}
                    {w("of_invoice", { number: allowance.invoice_number })} · {w(`allowance_status.${allowance.status}`)}
                    {allowance.consent ? ` · ${w("consent.by_consent")}` : ""}
                    {allowance.expires_at ? ` · ${w("consent.until", { at: instant(allowance.expires_at) })}` : ""}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {invoice.lapsed_consent ? (
            <div className="alert alert--danger" role="note" data-invoice-consent={invoice.lapsed_consent.status}>
              <p>{w(`consent.lapsed.${invoice.lapsed_consent.status}`, { amount: price(invoice.lapsed_consent.amount) })}</p>
              {offered.has("invoice_consent_again") || offered.has("invoice_allowance_now") ? (
                <div className="desk-actions">
                  {offered.has("invoice_consent_again") ? form("invoice_consent_again", w("consent.again.submit")) : null}
                  {offered.has("invoice_allowance_now")
                    ? form(
                        "invoice_allowance_now",
                        w("consent.now.submit"),
                        <p className="desk-action__hint">{w("consent.now.hint")}</p>,
                        "invoice_allowance_now",
                        true,
                      )
                    : null}
                </div>
              ) : null}
            </div>
          ) : null}
          {offered.has("invoice_issue_now") || offered.has("invoice_handled") ? (
            <div className="desk-actions">
              {offered.has("invoice_issue_now")
                ? form("invoice_issue_now", invoice.failure ? w("retry_now.submit") : w("issue_now.submit"))
                : null}
              {offered.has("invoice_handled")
                ? form(
                    "invoice_handled",
                    w("handled.submit"),
                    <>
                      <h3 className="desk-action__title">{w("handled.title")}</h3>
                      {invoice.lost_allowance ? (
                        <fieldset className="field">
                          <legend>{w("handled.lost")}</legend>
                          <label>
                            <input type="radio" name="resolution" value="allowance_found" defaultChecked /> {w("handled.found")}
                          </label>
                          <label>
                            <input type="radio" name="resolution" value="allowance_absent" /> {w("handled.absent")}
                          </label>
                        </fieldset>
                      ) : (
                        <>
                          <input type="hidden" name="resolution" value="outside" />
                          <p className="desk-action__hint">{w("handled.outside")}</p>
                        </>
                      )}
                      {invoice.lost_allowance ? (
                        <p className="field">
                          <label htmlFor="desk-invoice-allowance-number">{w("handled.number")}</label>
                          <input id="desk-invoice-allowance-number" name="allowance_number" maxLength={20} pattern="[A-Za-z0-9]*" />
                        </p>
                      ) : null}
                      <p className="field">
                        <label htmlFor="desk-invoice-note">{w("handled.note")}</label>
                        <textarea id="desk-invoice-note" name="note" required maxLength={500} rows={2} />
                      </p>
                    </>,
                  )
                : null}
            </div>
          ) : null}
          {invoice.history.length > 0 ? (
            <details className="desk-invoice__history">
              <summary>{w("history.summary", { n: invoice.history.length })}</summary>
              <ol className="desk-bookings__timeline">
                {invoice.history.map((line, index) => (
                  <li key={index} data-invoice-history={line.kind}>
                    <time dateTime={line.at}>{instant(line.at)}</time> · <strong>{historyLabel(line.kind)}</strong> ·{" "}
                    {w(`outcome.${line.outcome}`)}
                    {historyDetail(line.detail) ? (
                      <>
                        <br />
                        <span className="desk-bookings__contact">{historyDetail(line.detail)}</span>
                      </>
                    ) : null}
                  </li>
                ))}
              </ol>
            </details>
          ) : null}
        </>
      )}
    </section>
  );
}
