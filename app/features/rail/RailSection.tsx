import type { PriceDetail } from "~/contract/schemas";
import { useTranslation } from "~/i18n/react";
import { RailLines } from "./RailLines";

/**
 * The checkout's rail tickets (issue 27): the lines chosen, as the price check priced them, and a
 * button to the rail page to add or change them. Only at a hotel that sells tickets. The button is
 * one of the checkout form's (a link cannot carry the form): it keeps what was typed and chosen as
 * the checkout's draft, which the checkout starts from when the guest comes back (issue 37 item 12).
 */
export function RailSection({ rail, price, busy }: { rail: { chosen: number } | null; price: PriceDetail | null; busy?: boolean }) {
  const { t } = useTranslation();
  if (!rail) return null;
  const lines = (price?.rail_item_list ?? []).map((line) => ({ ...line, origin: line.origin.name, destination: line.destination.name }));
  return (
    <section className="rail-section" aria-labelledby="checkout-rail">
      <h2 id="checkout-rail">{t("rail.title")}</h2>
      {rail.chosen === 0 ? <p className="field__hint">{t("checkout.rail.intro")}</p> : null}
      <RailLines lines={lines} />
      <p>
        <button type="submit" name="intent" value="rail" className="button button--secondary" formNoValidate disabled={busy}>
          {t(rail.chosen === 0 ? "checkout.rail.add" : "checkout.rail.change")}
        </button>
      </p>
    </section>
  );
}
