import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { takeHandedOver } from "~/ui/handoff";
import { useTranslation } from "~/i18n/react";
import { OrderSummary } from "~/features/orders/OrderSummary";
import { PaymentPanel } from "~/features/checkout/PaymentPanel";
import { loadPayPage, startPayPage, type PayActionData } from "~/features/checkout/payment.server";
import { useSite } from "~/ui/site-data";
import { SentenceWithPhone } from "~/ui/PhoneLink";

/** Styled by the hotel's booking layout, like the rest of the booking flow. */
export const handle = { booking: true };

/**
 * /pay/{hotel_id}/{order_doc}: where card and wallet orders go after booking, and where the gateway
 * sends the guest back. Shows the payment's current state (docs/decisions/033); "pay now" starts an
 * attempt at the hotel's gateway. Offline methods go to the confirmation instead.
 */
export const loader = (args: LoaderFunctionArgs) => loadPayPage(args);
export const action = (args: ActionFunctionArgs) => startPayPage(args);

/** Right after "Place booking" with JavaScript, the data its answer handed over (decision 127); else the server's. */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  return takeHandedOver<Awaited<ReturnType<typeof serverLoader<typeof loader>>>>(new URL(request.url)) ?? serverLoader<typeof loader>();
}

/** Never refreshes by itself (WCAG 2.2.1): the guest checks again when they choose to (decision 047). */
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function PayPage() {
  const { order, view, payable, repayChoices, csrf, timeZone, phone, orderPage } = useLoaderData<typeof clientLoader>();
  const actionData = useActionData<PayActionData>();
  const { t } = useTranslation();
  const site = useSite();
  return (
    <main id="main" className={`page pay-page booking booking--${site?.layout.booking ?? "booking_100"}`}>
      <h1>{t(`pay.heading.${view}`)}</h1>
      <PaymentPanel
        order={order}
        view={view}
        payable={payable}
        repayChoices={repayChoices}
        csrf={csrf}
        timeZone={timeZone}
        gateway={actionData && "gateway" in actionData ? actionData.gateway : null}
        error={actionData && "error" in actionData ? actionData.error : null}
      />
      <OrderSummary order={order} />
      <p>
        <a href={orderPage} className="standalone-link">
          {t("receipt.order_page")}
        </a>
      </p>
      <p>
        <SentenceWithPhone sentence={(placeholder) => t("receipt.questions", { phone: placeholder })} phone={phone} />
      </p>
    </main>
  );
}
