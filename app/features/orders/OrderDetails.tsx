import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { PersonName } from "~/ui/PersonName";
import { orderState } from "~/domain/order-view";
import type { Order } from "~/contract/schemas";
import * as v from "valibot";
import { formatCapacity, formatCountry, formatPrice } from "~/i18n/format";
import { PricedAddonSchema } from "~/contract/addons";
import { RailLines } from "~/features/rail/RailLines";
import { RichText } from "~/features/content/RichText";
import { PhoneLink } from "~/ui/PhoneLink";
import { useSite } from "~/ui/site-data";

/** How to transfer, while something is left to pay; `deadline` (the pay-by line) goes before the hotel's notice. */
export function RemittanceDetails({ order, deadline }: { order: Order; deadline?: ReactNode }) {
  const { t } = useTranslation();
  const site = useSite();
  const state = orderState(order);
  if (!order.remittance_info || !(state === "unpaid" || state === "paid_in_part")) return null;
  return (
    <section className="remittance">
      <h2>{t("receipt.remittance_heading")}</h2>
      <dl className="facts-list">
        {(["bank", "branch", "account_name", "account_number", "country"] as const).map((key) =>
          order.remittance_info?.[key] ? (
            <div key={key}>
              <dt>{t(`receipt.remittance.${key}`)}</dt>
              <dd>{key === "country" ? formatCountry(order.remittance_info[key], site?.lang ?? "zh-TW") : order.remittance_info[key]}</dd>
            </div>
          ) : null,
        )}
      </dl>
      {deadline}
      {order.remittance_notice ? <RichText html={order.remittance_notice} className="remittance__notice" /> : null}
    </section>
  );
}

/** The refund of a cancelled order, in the words of the email and the PDF (worked out by the loader): its status, what the hotel kept, and by which rule. */
export function RefundNote({ refund }: { refund: { heading: string; status: string; lines: string[] } | null }) {
  if (!refund) return null;
  const [status, ...details] = refund.lines;
  return (
    <section className="order-page__refund" data-refund-status={refund.status}>
      <h2>{refund.heading}</h2>
      <p>
        <strong>{status}</strong>
      </p>
      {details.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </section>
  );
}

/** Guests per room, the booking's notes and add-ons: what the summary leaves out. `rail`: the tickets with what may be changed of them, in place of the plain list. */
export function OrderExtras({ order, rail }: { order: Order; rail?: ReactNode }) {
  const { t } = useTranslation();
  const site = useSite();
  const occupants = order.orders.filter((line) => line.occupant_name || line.occupant_phone || line.occupant_email || line.memo);
  return (
    <>
      <dl className="facts-list">
        <div>
          <dt>{t("order_page.guests")}</dt>
          <dd>{formatCapacity(t, order.adults_count, order.children_count)}</dd>
        </div>
        {order.memo ? (
          <div>
            <dt>{t("order_page.memo")}</dt>
            <dd>{order.memo}</dd>
          </div>
        ) : null}
      </dl>
      {occupants.length > 0 ? (
        <section>
          <h2>{t("order_page.occupants")}</h2>
          <ul className="order-page__occupants">
            {occupants.map((line, index) => (
              <li key={index}>
                {line.room_class_name}: {line.occupant_name ? <PersonName name={line.occupant_name} /> : null}
                {line.occupant_name && (line.occupant_phone || line.occupant_email || line.memo) ? " · " : ""}
                {[line.occupant_phone, line.occupant_email, line.memo].filter(Boolean).join(" · ")}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {order.attachment_list.length > 0 ? (
        <section>
          <h2>{t("order_page.addons")}</h2>
          <ul>
            {order.attachment_list.map((item, index) => {
              const priced = v.safeParse(PricedAddonSchema, item);
              if (!priced.success) {
                return (
                  <li key={index}>
                    {typeof item === "object" && item !== null && "name" in item
                      ? String((item as { name: unknown }).name)
                      : JSON.stringify(item)}
                  </li>
                );
              }
              const { name, quantity, child_quantity, amount } = priced.output;
              return (
                <li key={index}>
                  {t("checkout.addons.item", { name, count: quantity + child_quantity })}: {formatPrice(amount, site?.lang ?? "zh-TW")}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      {rail ? (
        rail
      ) : (order.rail_item_list ?? []).length > 0 ? (
        <section className="order-rail">
          <h2>{t("rail.title")}</h2>
          <RailLines
            lines={(order.rail_item_list ?? []).map((line) => ({ ...line, origin: line.origin.name, destination: line.destination.name }))}
          />
        </section>
      ) : null}
    </>
  );
}

/** The hotel's contact, for any question about the booking. */
export function HotelContact() {
  const { t } = useTranslation();
  const hotel = useSite()?.hotel;
  if (!hotel) return null;
  return (
    <section className="order-page__contact">
      <h2>{t("order_page.contact")}</h2>
      <p>
        {hotel.name}
        {hotel.address ? (
          <>
            <br />
            {hotel.address}
          </>
        ) : null}
        {hotel.phone ? (
          <>
            <br />
            <PhoneLink phone={hotel.phone} />
          </>
        ) : null}
        {hotel.email ? (
          <>
            <br />
            <a href={`mailto:${hotel.email}`}>{hotel.email}</a>
          </>
        ) : null}
      </p>
    </section>
  );
}
