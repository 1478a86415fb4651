import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { formatDateTime, formatPrice } from "~/i18n/format";
import { paidWithLabelKeys } from "~/domain/payments";
import type { Order } from "~/contract/schemas";
import { useSite } from "~/ui/site-data";

type View = "paid" | "cancelled" | "expired" | "not_received" | "code_issued" | "declined" | "due" | "part_paid";

interface Props {
  order: Order;
  view: View;
  payable: number | null;
  /** Ways to pay the rest of a deposit (spec §9 ids), when there is a choice to make. */
  repayChoices: readonly { id: number; vendor: number }[];
  csrf: string;
  timeZone: string;
  gateway: { action: string; fields: Record<string, string> } | null;
  error: string | null;
}

/**
 * The payment part of the /pay page: the state of the order's payment, the "pay now" form, and —
 * after it — the form that takes the browser to the gateway: sent by a script at once, a visible
 * "continue to payment" button without JavaScript.
 */
export function PaymentPanel({ order, view, payable, repayChoices, csrf, timeZone, gateway, error }: Props) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const root = useRouteLoaderData<{ nonce?: string }>("root");
  const price = (amount: number) => formatPrice(amount, lang);
  const method = (vendor: number, paidWith = "") =>
    paidWithLabelKeys(order.pay_way, vendor, paidWith)
      .map((key) => t(key))
      .join(" · ");
  if (gateway) {
    return (
      <section className="payment-panel">
        <form method="post" action={gateway.action} id="gateway-form" acceptCharset="UTF-8">
          {Object.entries(gateway.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <p role="status">{t("pay.redirecting")}</p>
          <button type="submit" className="button button--primary">
            {t("pay.continue")}
          </button>
        </form>
        <script nonce={root?.nonce} dangerouslySetInnerHTML={{ __html: 'document.getElementById("gateway-form").submit();' }} />
      </section>
    );
  }
  const code = order.payment_attempts.find((attempt) => attempt.status === "code_issued")?.code_info ?? null;
  const paid = order.payment_attempts.filter((attempt) => attempt.status === "paid");
  const rest = Math.max(0, order.final_amount - order.paid_amount);
  // An ATM account is paid by the order's own deadline, which never passes check-in (decision 047).
  const payBy = order.pay_deadline ? formatDateTime(order.pay_deadline, lang, timeZone) : (code?.expire_date ?? "");
  const note: Record<View, string> = {
    paid: t("order.paid_note"),
    cancelled: t("order.cancelled_note"),
    expired: t("pay.expired"),
    not_received: t("pay.waiting"),
    code_issued: t("pay.code_issued", { amount: price(order.pay_amount), date: payBy }),
    declined: t("pay.declined"),
    due: t("pay.due", { amount: price(order.pay_amount) }),
    part_paid: t(payable ? "pay.part_paid_repay" : "pay.part_paid", { amount: price(rest) }),
  };
  const tone =
    view === "paid" || view === "part_paid"
      ? "alert--success"
      : view === "declined" || view === "expired"
        ? "alert--warning"
        : "alert--info";
  return (
    <section className="payment-panel" aria-live="polite">
      <p className={`alert ${tone}`} role="status" data-payment-view={view}>
        {note[view]}
      </p>
      {error ? (
        <p className="alert alert--danger" role="alert">
          {error}
        </p>
      ) : null}
      {code && view === "code_issued" ? (
        <dl className="payment-code">
          {(["bank_code", "account"] as const).map((key) => (
            <div key={key}>
              <dt>{t(`pay.code.${key}`)}</dt>
              <dd>{code[key]}</dd>
            </div>
          ))}
          <div>
            <dt>{t("pay.code.expire_date")}</dt>
            <dd>{payBy}</dd>
          </div>
        </dl>
      ) : null}
      {paid.length > 0 ? (
        <ul className="payment-paid">
          {paid.map((attempt) => (
            <li key={attempt.created_at}>
              {t("pay.paid_by", { amount: price(attempt.amount), method: method(attempt.vendor_id, attempt.paid_with) })}
            </li>
          ))}
        </ul>
      ) : null}
      {order.pay_deadline && order.payment_status === -1 && view !== "expired" && view !== "cancelled" && view !== "code_issued" ? (
        <p className="payment-deadline">{t("pay.deadline", { deadline: formatDateTime(order.pay_deadline, lang, timeZone) })}</p>
      ) : null}
      {view === "not_received" ? (
        <p>
          <a href="" className="payment-check-again standalone-link">
            {t("pay.check_again")}
          </a>
        </p>
      ) : null}
      {payable ? (
        <form method="post">
          <input type="hidden" name="csrf" value={csrf} />
          {repayChoices.length > 1 ? (
            <fieldset className="payment-repay">
              <legend>{t("pay.repay_method")}</legend>
              {repayChoices.map((choice, index) => (
                <label key={choice.id}>
                  <input type="radio" name="repay_method" value={choice.id} defaultChecked={index === 0} />{" "}
                  {t(`payment.vendor.${choice.vendor}`)}
                </label>
              ))}
            </fieldset>
          ) : repayChoices.length === 1 ? (
            <input type="hidden" name="repay_method" value={repayChoices[0]?.id} />
          ) : null}
          <button type="submit" className="button button--primary">
            {t(order.payment_status === 1 ? "pay.button_rest" : "pay.button", { amount: price(payable) })}
          </button>
        </form>
      ) : null}
    </section>
  );
}
