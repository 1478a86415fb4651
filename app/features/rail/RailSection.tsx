import type { PriceDetail } from "~/contract/schemas";
import { useTranslation } from "~/i18n/react";
import { RailLines } from "./RailLines";

/**
 * The checkout's rail tickets (issue 27): the lines chosen, as the price check priced them, and a
 * link to the rail page to add or change them. Only at a hotel that sells tickets.
 */
export function RailSection({ rail, price }: { rail: { page: string; chosen: number } | null; price: PriceDetail | null }) {
  const { t } = useTranslation();
  if (!rail) return null;
  const lines = (price?.rail_item_list ?? []).map((line) => ({ ...line, origin: line.origin.name, destination: line.destination.name }));
  return (
    <section className="rail-section" aria-labelledby="checkout-rail">
      <h2 id="checkout-rail">{t("rail.title")}</h2>
      {rail.chosen === 0 ? <p className="field__hint">{t("checkout.rail.intro")}</p> : null}
      <RailLines lines={lines} />
      <p>
        <a href={rail.page} className="standalone-link">
          {t(rail.chosen === 0 ? "checkout.rail.add" : "checkout.rail.change")}
        </a>
      </p>
    </section>
  );
}
