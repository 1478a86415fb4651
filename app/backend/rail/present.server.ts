/** Rail lines as the API answers them (spec §7 Rail): a stored line, or a priced one of a price check. */
import { type Fares } from "~/domain/rail";
import type { Language } from "~/i18n/languages";
import type { RailLine } from "~/contract/rail";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson } from "~/backend/localize";
import { lineRefundQuote, passengersOf, type RailOrderState, type RailRow } from "./lines.server";
import { type PricedRailLine } from "./rail.server";
import { presentStation, type RailLeg, type Stations } from "./timetable.server";

/** What a stored and a priced line answer alike: the train, its stations by name, its times. */
function presentLeg(leg: RailLeg, stations: Stations, lang: Language) {
  return {
    direction: leg.direction,
    date: leg.day,
    train_no: leg.train_no,
    origin: presentStation(stations.get(leg.origin_id), leg.origin_id, lang),
    destination: presentStation(stations.get(leg.destination_id), leg.destination_id, lang),
    departure_time: leg.departure_time,
    arrival_time: leg.arrival_time,
  };
}

/** A stored line as the API answers it; with the order (and its hotel) known, what refunding it now would give back. */
export function presentRailRow(
  row: RailRow,
  stations: Stations,
  lang: Language,
  terms?: { hotel: Pick<HotelRow, "thsr_refund_fee">; order: RailOrderState; now: Date },
): RailLine {
  return {
    rail_id: row.id,
    ...presentLeg(row, stations, lang),
    passengers: passengersOf(row),
    fares: parseJson<Fares>(row.fares, { adult: 0, child: 0, senior: 0, disabled: 0 }),
    amount: row.amount,
    status: row.status,
    pnr: row.pnr,
    booking_number: row.booking_number,
    refund_fee: row.refund_fee,
    refund_amount: row.refund_amount,
    refund_quote: terms ? lineRefundQuote(terms.hotel, terms.order, row, terms.now) : null,
  };
}

/** A priced line (a price check: nothing held) as the API answers it. */
export function presentPricedLine(line: PricedRailLine, stations: Stations, lang: Language): RailLine {
  return {
    rail_id: null,
    ...presentLeg(line, stations, lang),
    passengers: line.passengers,
    fares: line.fares,
    amount: line.amount,
    status: "quoted",
    pnr: null,
    booking_number: null,
    refund_fee: 0,
    refund_amount: 0,
    refund_quote: null,
  };
}
