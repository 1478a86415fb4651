import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { formatDate, formatPrice } from "~/i18n/format";
import { fixedT } from "~/i18n/i18next.server";
import { loadMyOrders, ORDER_STATUSES } from "~/features/orders/my-orders.server";
import { useSite } from "~/ui/site-data";

/** /{product}/orders: the signed-in member's bookings at this hotel (a guest is sent to sign in first). */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const data = await loadMyOrders(context, request, params.product);
  const t = await fixedT(context.app.lang);
  return { ...data, title: `${t("my_orders.title")} | ${context.app.hotel?.hotel_name ?? ""}` };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function MyOrders() {
  const { orders, status } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  return (
    <main id="main" className="page my-orders-page">
      <h1>{t("my_orders.title")}</h1>
      <p>{t("my_orders.intro", { hotel: site?.hotel.name ?? "" })}</p>
      <form method="get" className="my-orders__filter">
        <label htmlFor="status">{t("my_orders.filter")}</label>{" "}
        <select id="status" name="status" defaultValue={status}>
          <option value="">{t("my_orders.filter_all")}</option>
          {ORDER_STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(`my_orders.status.${value}`)}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="button">
          {t("my_orders.apply")}
        </button>
      </form>
      {orders.length === 0 ? (
        <p role="status">{t("my_orders.empty")}</p>
      ) : (
        <ul className="my-orders__list">
          {orders.map((order) => (
            <li key={order.orderDoc} className="my-orders__item" data-order={order.orderDoc}>
              <h2>
                <a href={order.href} className="standalone-link">
                  {t("my_orders.view", { number: order.orderDoc })}
                </a>
              </h2>
              <p>
                {formatDate(order.checkIn, lang)} – {formatDate(order.checkOut, lang)} ·{" "}
                {t(`my_orders.status.${order.status}`, { defaultValue: order.status })}
              </p>
              <ul>
                {order.rooms.map((room, index) => (
                  <li key={index}>{room}</li>
                ))}
              </ul>
              <p>
                {t("my_orders.total")}: {formatPrice(order.total, lang)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
