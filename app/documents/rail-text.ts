/**
 * An order's high-speed rail tickets (issue 27) as the confirmation PDF and the emails list them:
 * which way, the day and the train, then from and to with their times, who travels, the fare, and
 * once booked the PNR and the booking number. Pure, for the site and the back end alike.
 */
import * as v from "valibot";
import { RailLineSchema, RAIL_FARE_TYPES } from "~/contract/rail";
import type { Language } from "~/i18n/languages";
import { formatDate, formatPrice } from "~/i18n/format";
import { docText } from "~/documents/labels";

export interface RailTextLine {
  /** "To the hotel · Sun, Dec 20, 2026 · Train 803" */
  what: string;
  /** "Zuoying 08:00 → Taipei 09:35 · 2 adults · NT$2,980 · PNR …" */
  detail: string;
}

/** The order's `rail_item_list` as lines; released or refunded lines say so. A line another back end sent in another shape is left out. */
export function railTextLines(lang: Language, list: readonly unknown[] | undefined): RailTextLine[] {
  return (list ?? []).flatMap((raw): RailTextLine[] => {
    const parsed = v.safeParse(RailLineSchema, raw);
    if (!parsed.success) return [];
    const line = parsed.output;
    const t = (key: Parameters<typeof docText>[1], params?: Record<string, string | number>) => docText(lang, key, params);
    const passengers = RAIL_FARE_TYPES.filter((type) => line.passengers[type] > 0)
      .map((type) => `${t(`rail.fare.${type}`)} × ${line.passengers[type]}`)
      .join(t("rail.passengers.separator"));
    const booked = line.pnr
      ? [t("rail.pnr", { pnr: line.pnr }), ...(line.booking_number ? [t("rail.booking_number", { number: line.booking_number })] : [])]
      : [];
    return [
      {
        what: [t(`rail.direction.${line.direction}`), formatDate(line.date, lang), t("rail.train", { train: line.train_no })].join(" · "),
        detail: [
          t("rail.route", {
            origin: line.origin.name,
            departure: line.departure_time,
            destination: line.destination.name,
            arrival: line.arrival_time,
          }),
          passengers,
          formatPrice(line.amount, lang),
          ...(line.status === "booked" || line.status === "reserved" || line.status === "quoted" ? [] : [t(`rail.status.${line.status}`)]),
          ...booked,
        ].join(" · "),
      },
    ];
  });
}
