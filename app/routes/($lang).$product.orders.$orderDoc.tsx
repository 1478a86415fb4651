import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { OrderSummary } from "~/features/orders/OrderSummary";
import { HotelContact, OrderExtras, RefundNote, RemittanceDetails } from "~/features/orders/OrderDetails";
import { orderState } from "~/domain/order-view";
import { loadOrderPage } from "~/features/orders/order-page.server";
import { AddExtras } from "~/features/orders/AddExtras";
import { orderExtrasAction } from "~/features/orders/extras.server";
import { orderRailAction } from "~/features/orders/rail-changes.server";
import { RailChanges, RailStatusNote } from "~/features/orders/RailChanges";
import { readForm } from "~/platform/forms.server";
import { useSite } from "~/ui/site-data";

/** Styled by the hotel's booking layout; no JavaScript needed (links and plain forms). */
export const handle = { booking: true };

/**
 * /{product}/orders/{order_doc}: one order, for the member who made it or the holder of its signed
 * view link (?valid_hash=). Never indexed. Its POST adds extras to an unpaid order (decision 126),
 * or changes or refunds one of its rail tickets (`intent` rail_…, decision 140).
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  return loadOrderPage(context, params, request);
}

export async function action({ context, params, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  if (String(form?.get("intent") ?? "").startsWith("rail_")) return orderRailAction(context, params, request, form);
  return orderExtrasAction(context, params, request, form);
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function OrderPage() {
  const { order, actions, justCancelled, justAdded, refund, policy, invoice, extras, rail, csrf } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const extrasReply = acted && "extras" in acted ? acted.extras : null;
  const railReply = acted && "rail" in acted ? acted.rail : null;
  const { t } = useTranslation();
  const site = useSite();
  const state = orderState(order);
  return (
    <main id="main" className={`page order-page booking booking--${site?.layout.booking ?? "booking_100"}`}>
      <h1>{t("order_page.heading")}</h1>
      {justCancelled ? (
        <p className="alert alert--success" role="status">
          {t("cancel_page.done", { email: order.booker_email })}
        </p>
      ) : justAdded && !acted ? (
        <p className="alert alert--success" role="status">
          {t("order_page.extras.added")}
        </p>
      ) : rail?.done && !acted ? (
        <RailStatusNote done={rail.done} />
      ) : state === "cancelled" ? (
        <p className="alert alert--info" role="status">
          {t("order.cancelled_note")}
        </p>
      ) : null}
      <RefundNote refund={refund} />
      <OrderSummary order={order} />
      {policy ? (
        <section className="order-page__policy">
          <h2>{policy.heading}</h2>
          {policy.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </section>
      ) : null}
      {invoice.lines.length > 0 ? (
        <section className="order-page__invoice">
          <h2>{invoice.heading}</h2>
          <dl className="facts-list">
            {invoice.lines.map(([label, value]) => (
              <div key={`${label}${value}`}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      <OrderExtras order={order} rail={rail ? <RailChanges order={order} view={rail} csrf={csrf} reply={railReply} /> : null} />
      <AddExtras offer={extras} csrf={csrf} seen={order.attachment_list.length} reply={extrasReply} />
      <RemittanceDetails order={order} />
      <section className="order-page__actions">
        <h2>{t("order_page.actions")}</h2>
        <ul>
          {actions.pay ? (
            <li>
              <a href={actions.pay} className="standalone-link">
                {t(state === "unpaid" ? "order_page.pay_now" : "order_page.pay")}
              </a>
            </li>
          ) : null}
          <li>
            <a href={actions.pdf} download="BOOKING_CONFIRMATION.pdf" className="standalone-link">
              {t("order_page.download")}
            </a>
          </li>
          {actions.cancel ? (
            <li>
              <a href={actions.cancel} className="standalone-link">
                {t("order_page.cancel")}
              </a>
            </li>
          ) : actions.cancelByEmail ? (
            <li>{t("order_page.cancel_by_email")}</li>
          ) : null}
        </ul>
      </section>
      <HotelContact />
    </main>
  );
}
