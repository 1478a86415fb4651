import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { OrderSummary } from "~/features/orders/OrderSummary";
import { CANCEL_REASON_MAX_LENGTH } from "~/domain/contact";
import { cancelAction, loadCancelPage } from "~/features/orders/cancel.server";
import { useSite } from "~/ui/site-data";

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

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function CancelPage() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const { order, csrf, refund } = loaded;
  const block = acted && "block" in acted ? acted.block : loaded.block;
  const error = acted && "error" in acted ? acted.error : null;
  const reasonError = acted && "reasonError" in acted ? acted.reasonError : null;
  const { t } = useTranslation();
  const site = useSite();
  const quote = order.refund_quote;
  return (
    <main id="main" className={`page cancel-page booking booking--${site?.layout.booking ?? "booking_100"}`}>
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
      {!block && quote && refund ? (
        <section className="cancel-page__refund">
          <h2>{refund.heading}</h2>
          {refund.lines.map((line, index) => (
            <p key={line} data-refund={index === 0 ? quote.refund : undefined}>
              {line}
            </p>
          ))}
          {quote.points > 0 ? <p>{t("cancel_page.points", { points: quote.points })}</p> : null}
        </section>
      ) : null}
      {!block ? (
        <Form method="post" className="cancel-page__form">
          <input type="hidden" name="csrf" value={csrf} />
          <label htmlFor="cancel-reason">{t("cancel_page.reason")}</label>
          <textarea
            id="cancel-reason"
            name="reason"
            maxLength={CANCEL_REASON_MAX_LENGTH}
            rows={3}
            defaultValue={acted && "reason" in acted ? acted.reason : undefined}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? "cancel-reason-error" : undefined}
          />
          {reasonError ? (
            <p id="cancel-reason-error" className="field__error" role="alert">
              {t(reasonError)}
            </p>
          ) : null}
          <button type="submit" className="button button--danger">
            {t("cancel_page.confirm")}
          </button>
        </Form>
      ) : null}
    </main>
  );
}
