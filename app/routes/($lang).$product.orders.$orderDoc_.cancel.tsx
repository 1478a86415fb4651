import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { OrderSummary } from "~/components/OrderSummary";
import { formatPrice } from "~/i18n/format";
import { cancelAction, loadCancelPage } from "~/order-pages/cancel.server";
import { useSite } from "~/components/site-data";

/** Styled by the booking layout; a plain form, no JavaScript needed. */
export const handle = { booking: true };

/**
 * /{product}/orders/{order_doc}/cancel: what will be cancelled and the refund that applies, with a
 * confirmation form. GET never cancels; the POST does (CSRF token), then shows the order page.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  return loadCancelPage(context, params, request);
}

export async function action({ context, params, request }: ActionFunctionArgs) {
  return cancelAction(context, params, request);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : []);

export default function CancelPage() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const { order, csrf } = loaded;
  const block = acted && "block" in acted ? acted.block : loaded.block;
  const error = acted && "error" in acted ? acted.error : null;
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const quote = order.refund_quote;
  const paid = Math.min(order.paid_amount, order.final_amount);
  return (
    <main id="main" className={`page cancel-page booking--${site?.layout.booking ?? "booking_100"}`}>
      <h1>{t("cancel_page.title", { number: order.order_doc })}</h1>
      {error ? (
        <p className="alert alert--danger" role="alert">
          {t(error)}
        </p>
      ) : block ? (
        <p className="alert alert--info" role="status">
          {t(block)}
        </p>
      ) : (
        <p>{t("cancel_page.intro")}</p>
      )}
      <OrderSummary order={order} />
      {!block && quote ? (
        <section className="cancel-page__refund">
          <h2>{t("cancel_page.refund_heading")}</h2>
          <p data-refund={quote.refund}>
            {quote.rule === "unpaid"
              ? t("cancel_page.refund_unpaid")
              : quote.rule === "free"
                ? t("cancel_page.refund_free", { amount: formatPrice(quote.refund, lang) })
                : t("cancel_page.refund_ladder", {
                    percent: quote.percent,
                    paid: formatPrice(paid, lang),
                    amount: formatPrice(quote.refund, lang),
                    fee: formatPrice(quote.fee, lang),
                  })}
          </p>
          {quote.points > 0 ? <p>{t("cancel_page.points", { points: quote.points })}</p> : null}
        </section>
      ) : null}
      {!block ? (
        <Form method="post" className="cancel-page__form">
          <input type="hidden" name="csrf" value={csrf} />
          <label htmlFor="cancel-reason">{t("cancel_page.reason")}</label>
          <textarea id="cancel-reason" name="reason" maxLength={500} rows={3} />
          <button type="submit" className="button button--danger">
            {t("cancel_page.confirm")}
          </button>
        </Form>
      ) : null}
    </main>
  );
}
