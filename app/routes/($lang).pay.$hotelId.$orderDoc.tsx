import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { OrderSummary } from "~/components/OrderSummary";
import { orderState } from "~/booking/order-view";
import { orderFromSignedLink } from "~/booking-flow/order-link.server";
import { i18nServer } from "~/i18n/i18next.server";
import { localizePath } from "~/i18n/languages";
import { useSite } from "~/components/site-data";

/** Styled by the hotel's booking layout, like the rest of the booking flow. */
export const handle = { booking: true };

/**
 * /pay/{hotel_id}/{order_doc}: where card and wallet orders go after booking. The hand-off to the
 * payment vendors belongs to the payments work; until it lands this page shows the order, says
 * that online payment is not open yet and how the hotel will be in touch. A cancelled or paid order
 * says so instead: there is nothing to pay. An order paid offline (bank transfer, at arrival) goes
 * to its confirmation, which has the transfer details.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (!app.hotel || String(app.hotel.hotel_id) !== params.hotelId) throw new Response(null, { status: 404 });
  const order = await orderFromSignedLink(context, params.orderDoc, request);
  // Nothing to pay online (bank transfer, pay at arrival, or nothing due): the confirmation is the
  // page for it, with the transfer details (decision 022). The same rule the booking redirect follows.
  if (order.pay_way === "remittance" || order.pay_way === "pay_arrival" || order.pay_amount === 0) {
    const hash = new URL(request.url).searchParams.get("valid_hash") ?? "";
    const receipt = `/redirect/receipt/${encodeURIComponent(order.order_doc)}?valid_hash=${encodeURIComponent(hash)}`;
    throw redirect(localizePath(receipt, app.lang), 303);
  }
  const t = await i18nServer.getFixedT(app.lang);
  return { title: `${t("pay.title")} | ${app.hotel.hotel_name}`, order, phone: app.hotel.phone, email: app.hotel.email };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : []);

export default function PayPage() {
  const { order, phone, email } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const site = useSite();
  const state = orderState(order);
  return (
    <main id="main" className={`page pay-page booking--${site?.layout.booking ?? "booking_100"}`}>
      <h1>{t("pay.title")}</h1>
      <p className={`alert ${state === "paid" ? "alert--success" : "alert--info"}`} role="status">
        {state === "cancelled" ? t("order.cancelled_note") : state === "paid" ? t("order.paid_note") : t("pay.not_open", { phone, email })}
      </p>
      <OrderSummary order={order} />
    </main>
  );
}
