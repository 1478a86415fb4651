import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { RemittanceDetails } from "~/features/orders/OrderDetails";
import { OrderSummary } from "~/features/orders/OrderSummary";
import { orderState } from "~/domain/order-view";
import { orderFromSignedLink, signedOrderPage } from "~/features/orders/order-link.server";
import { formatDateTime } from "~/i18n/format";
import { fixedT } from "~/i18n/i18next.server";
import { useSite } from "~/ui/site-data";
import { SentenceWithPhone } from "~/ui/PhoneLink";
import { notFound } from "~/platform/not-found.server";

/** Styled by the hotel's booking layout, like the rest of the booking flow. */
export const handle = { booking: true };

/**
 * /redirect/receipt/{order_doc}: the confirmation after booking, for remittance and pay at arrival.
 * Reachable only with the order's signed link (valid_hash), which the booking redirect carries.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (!app.hotel) throw notFound();
  const order = await orderFromSignedLink(context, params.orderDoc, request);
  const t = await fixedT(app.lang);
  return {
    title: `${t(orderState(order) === "cancelled" ? "receipt.title_cancelled" : "receipt.title")} | ${app.hotel.hotel_name}`,
    order,
    hotelPhone: app.hotel.phone,
    timeZone: app.hotel.time_zone,
    // The order's own page (decision 044): the PDF, cancellation, and the order again later.
    orderPage: signedOrderPage(context, order),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function ReceiptPage() {
  const { order, hotelPhone, timeZone, orderPage } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const site = useSite();
  const state = orderState(order);
  return (
    <main id="main" className={`page receipt-page booking booking--${site?.layout.booking ?? "booking_100"}`}>
      <h1>{t(state === "cancelled" ? "receipt.title_cancelled" : "receipt.title")}</h1>
      {state === "cancelled" ? (
        <p className="alert alert--info" role="status">
          {t("order.cancelled_note")}
        </p>
      ) : (
        <p className="alert alert--success" role="status">
          {t(order.pay_way === "remittance" && state !== "paid" ? "receipt.thanks_remittance" : "receipt.thanks", {
            email: order.booker_email,
          })}
        </p>
      )}
      <OrderSummary order={order} />
      {/* How to transfer is shown only while something is left to pay. */}
      <RemittanceDetails
        order={order}
        deadline={
          order.pay_deadline && state === "unpaid" ? (
            <p className="payment-deadline">
              {t("pay.deadline", { deadline: formatDateTime(order.pay_deadline, site?.lang ?? "zh-TW", timeZone) })}
            </p>
          ) : null
        }
      />
      <p>
        <a href={orderPage} className="standalone-link">
          {t("receipt.order_page")}
        </a>
      </p>
      <p>
        <SentenceWithPhone sentence={(placeholder) => t("receipt.questions", { phone: placeholder })} phone={hotelPhone} />
      </p>
    </main>
  );
}
