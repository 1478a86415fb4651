import type { ReactNode } from "react";
import type { RailFareType } from "~/contract/rail";
import { formatDate, formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";
import { useSite } from "~/ui/site-data";

/** One ticket line as the pages show it: chosen (rail page, checkout) or booked (order page). */
export interface RailLineView {
  /** The reservation, once held (an order's line). */
  rail_id?: number | null;
  direction: "outbound" | "return";
  date: string;
  train_no: string;
  origin: string;
  destination: string;
  departure_time: string;
  arrival_time: string;
  passengers: Record<RailFareType, number>;
  amount: number;
  status?: string;
  pnr?: string | null;
  booking_number?: string | null;
  /** When refunded: the fee kept and what comes back. */
  refund_fee?: number;
  refund_amount?: number;
}

const FARE_TYPES: RailFareType[] = ["adult", "child", "senior", "disabled"];

/** "2 adults, 1 child" in the guest's language. */
export function usePassengerText() {
  const { t } = useTranslation();
  return (passengers: Record<RailFareType, number>) =>
    FARE_TYPES.filter((type) => passengers[type] > 0)
      .map((type) => t(`rail.passengers.${type}`, { count: passengers[type] }))
      .join(t("rail.passengers.separator"));
}

/**
 * The ticket lines: which way, the day, the train, from and to with their times, who travels and
 * what it costs; booked lines also their PNR and booking number. `action` adds a control per line.
 */
export function RailLines({ lines, action }: { lines: RailLineView[]; action?: (line: RailLineView) => ReactNode }) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const passengerText = usePassengerText();
  if (lines.length === 0) return null;
  return (
    <ul className="rail-lines">
      {lines.map((line) => (
        <li key={line.rail_id ?? line.direction} className="rail-line">
          <p className="rail-line__what">
            <strong>{t(`rail.direction.${line.direction}`)}</strong> · {formatDate(line.date, lang)} ·{" "}
            {t("rail.train", { train: line.train_no })}
          </p>
          <p className="rail-line__route">
            {t("rail.route", {
              origin: line.origin,
              departure: line.departure_time,
              destination: line.destination,
              arrival: line.arrival_time,
            })}
          </p>
          <p className="rail-line__who">
            {passengerText(line.passengers)} · {formatPrice(line.amount, lang)}
          </p>
          {line.status && line.status !== "quoted" ? (
            <p className="rail-line__status">
              {t(`rail.status.${line.status}`)}
              {line.pnr ? <> · {t("rail.pnr", { pnr: line.pnr })}</> : null}
              {line.booking_number ? <> · {t("rail.booking_number", { number: line.booking_number })}</> : null}
              {line.status === "refunded" && line.refund_fee !== undefined && line.refund_amount !== undefined ? (
                <>
                  {" · "}
                  {t("rail.refunded_amounts", { refund: formatPrice(line.refund_amount, lang), fee: formatPrice(line.refund_fee, lang) })}
                </>
              ) : null}
            </p>
          ) : null}
          {action ? action(line) : null}
        </li>
      ))}
    </ul>
  );
}
