import { Form } from "@remix-run/react";
import { AddonItems } from "~/features/addons/AddonFields";
import { useTranslation } from "~/i18n/react";
import type { ExtrasReply, OrderExtrasOffer } from "./extras.server";

type Reply = ExtrasReply["extras"] | null;

/**
 * "Add extras" on the order page (decision 126): the items the order's plans offer, how each is
 * charged, what the booking has of it and what is left, a count for each — per room line for items
 * counted per person when the order has several lines — and one plain POST form. A refusal shows
 * here, with the counts as typed. Without an offer (paid meanwhile, say) only the refusal is shown.
 */
export function AddExtras({ offer, csrf, seen, reply }: { offer: OrderExtrasOffer | null; csrf: string; seen: number; reply: Reply }) {
  const { t } = useTranslation();
  if (!offer && !reply) return null;
  const values = reply?.values ?? {};
  const fieldErrors = reply?.fieldErrors ?? {};
  const alert = reply ? (
    <p className="alert alert--danger" role="alert" id="extras-error">
      {t(reply.formError)}
    </p>
  ) : null;
  if (!offer)
    return (
      <section className="order-extras" aria-labelledby="extras-heading">
        <h2 id="extras-heading">{t("order_page.extras.heading")}</h2>
        {alert}
      </section>
    );
  const several = offer.groups.length > 1;
  const note = (item: { adds_id: number }) => {
    const known = offer.notes[item.adds_id];
    if (!known || (known.booked === 0 && known.left === null)) return null;
    return (
      <p className="addon__stock">
        {[
          known.booked > 0 ? t("order_page.extras.booked", { count: known.booked }) : null,
          known.left === 0
            ? t("order_page.extras.sold_out")
            : known.left !== null
              ? t("order_page.extras.left", { count: known.left })
              : null,
        ]
          .filter(Boolean)
          .join(" · ")}
      </p>
    );
  };
  return (
    <section className="order-extras" aria-labelledby="extras-heading">
      <h2 id="extras-heading">{t("order_page.extras.heading")}</h2>
      {alert}
      <Form method="post" className="order-extras__form">
        <input type="hidden" name="csrf" value={csrf} />
        {/* The extras the guest saw: a second send of this form (double click, replay) is refused, not added again. */}
        <input type="hidden" name="seen" value={seen} />
        <fieldset className="addons">
          <legend>{t("checkout.addons")}</legend>
          <p className="field__hint">{t("order_page.extras.intro")}</p>
          {offer.groups.map((group) => (
            <div
              key={group.room_index ?? "order"}
              className={group.room_index === null ? "addons__order" : "addons__line"}
              role="group"
              aria-labelledby={several ? `extras-line-${group.room_index ?? "order"}` : undefined}
            >
              {several ? (
                <p className="addons__line-name" id={`extras-line-${group.room_index ?? "order"}`}>
                  <strong>
                    {group.room_index === null
                      ? t("checkout.addons.for_order")
                      : t("checkout.addons.for_line", { line: group.label, number: group.room_index + 1 })}
                  </strong>
                </p>
              ) : null}
              <AddonItems group={group} values={values} fieldErrors={fieldErrors} note={note} />
            </div>
          ))}
        </fieldset>
        <button type="submit" className="button button--primary">
          {t("order_page.extras.submit")}
        </button>
      </Form>
    </section>
  );
}
