/**
 * High-speed rail tickets booked with the room (spec §3 Rail, §7 Rail; issue 27; decisions 119-120):
 * the pricing and checking of a `rail_item_list`. The network is read in timetable.server.ts, seats
 * are held in holds.server.ts, stored lines are read in lines.server.ts and answered in
 * present.server.ts.
 */
import * as v from "valibot";
import { departureInstant, passengerProblem, railAmount, seatsOf, ticketLimitProblem, type Fares, type Passengers } from "~/domain/rail";
import { isIsoDate } from "~/domain/dates";
import type { Language } from "~/i18n/languages";
import { ApiError } from "~/backend/http.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { WholeNumber } from "~/backend/pricing/stay.server";
import { railProviderFor, seatKey } from "~/backend/rail/provider";
import { checkStations, loadFares, loadStations, presentStation, requireTrain, type RailLeg } from "./timetable.server";

const Count = WholeNumber(0, 10);
export const PassengersInput = v.object({
  adult: v.optional(Count, 0),
  child: v.optional(Count, 0),
  senior: v.optional(Count, 0),
  disabled: v.optional(Count, 0),
});
export const StationInput = v.pipe(v.string(), v.regex(/^\d{4}$/));
export const DayInput = v.pipe(
  v.string(),
  v.check((value: string) => isIsoDate(value)),
);
export const TrainNoInput = v.pipe(v.string(), v.regex(/^\d{1,6}$/));

export const RailItemInput = v.object({
  direction: v.picklist(["outbound", "return"]),
  date: DayInput,
  train_no: TrainNoInput,
  origin: StationInput,
  destination: StationInput,
  passengers: PassengersInput,
  amount: v.optional(WholeNumber(0, 10_000_000)),
});

/** A line priced and checked, ready to hold. */
export interface PricedRailLine extends RailLeg {
  passengers: Passengers;
  fares: Fares;
  amount: number;
  seats: number;
}

export interface PricedRail {
  lines: PricedRailLine[];
  amount: number;
}

export const NO_RAIL: PricedRail = { lines: [], amount: 0 };

/**
 * Prices and checks the lines of a `rail_item_list` (nothing but the choice is read from the
 * caller): the hotel sells rail, each line's stations, direction, passengers and train, THSR's
 * limits over the lines and those the order `held` already, the fare the guest was shown, and the
 * seats left. Refuses, naming the line, anything that cannot be booked. The batch that holds the
 * seats guards them again (migration 0011).
 */
export async function priceRail(
  db: D1Database,
  hotel: HotelRow,
  input: readonly unknown[],
  now: Date,
  options: { field?: string; held?: readonly { direction: string; passengers: Passengers }[]; lang?: Language } = {},
): Promise<PricedRail> {
  if (input.length === 0) return NO_RAIL;
  const prefix = options.field ?? "rail_item_list";
  if (hotel.thsr_support_on !== 1 || !hotel.thsr_station_id) throw new ApiError(400, "rail_not_available", {}, prefix);
  const home = hotel.thsr_station_id;
  const items = input.map((raw, index) => {
    const result = v.safeParse(RailItemInput, raw);
    if (!result.success) {
      const issue = result.issues[0];
      const path = issue ? v.getDotPath(issue) : null;
      const field = `${prefix}.${index}${path ? `.${path}` : ""}`;
      throw new ApiError(400, "invalid_field", { field }, field);
    }
    return result.output;
  });
  const held = options.held ?? [];
  const stations = await loadStations(db);
  const directions = new Set(held.map((line) => line.direction));
  const lines: PricedRailLine[] = [];
  for (const [index, item] of items.entries()) {
    const field = `${prefix}.${index}`;
    if (directions.has(item.direction)) throw new ApiError(400, "rail_one_per_direction", {}, `${field}.direction`);
    directions.add(item.direction);
    checkStations(stations, item.origin, item.destination, { origin: `${field}.origin`, destination: `${field}.destination` });
    const atHome = item.direction === "outbound" ? item.destination === home : item.origin === home;
    if (!atHome) {
      const station = presentStation(stations.get(home), home, options.lang ?? "zh-TW").name;
      throw new ApiError(
        400,
        "rail_not_hotel_station",
        { station },
        `${field}.${item.direction === "outbound" ? "destination" : "origin"}`,
      );
    }
    const problem = passengerProblem(item.passengers);
    if (problem) throw new ApiError(400, problem, {}, `${field}.passengers`);
    lines.push({
      direction: item.direction,
      day: item.date,
      train_no: item.train_no,
      origin_id: item.origin,
      destination_id: item.destination,
      departure_time: "",
      arrival_time: "",
      passengers: item.passengers,
      fares: { adult: 0, child: 0, senior: 0, disabled: 0 },
      amount: 0,
      seats: seatsOf(item.passengers),
    });
  }
  const limit = ticketLimitProblem([...held, ...lines]);
  if (limit) throw new ApiError(400, "rail_too_many_tickets", limit, prefix);

  for (const [index, line] of lines.entries()) {
    const field = `${prefix}.${index}`;
    const train = await requireTrain(
      db,
      { day: line.day, train_no: line.train_no, origin: line.origin_id, destination: line.destination_id },
      now,
      `${field}.train_no`,
    );
    const fares = await loadFares(db, line.origin_id, line.destination_id);
    if (!fares) throw new ApiError(404, "rail_train_unknown", {}, `${field}.train_no`);
    line.departure_time = train.departure_time;
    line.arrival_time = train.arrival_time;
    line.fares = fares;
    line.amount = railAmount(line.passengers, fares);
    const shown = items[index]?.amount;
    if (shown !== undefined && shown !== line.amount) throw new ApiError(409, "rail_fare_changed", {}, `${field}.amount`);
  }
  const left = await railProviderFor(hotel).seatsLeft(db, hotel, lines);
  // Two lines on one train and day (a round trip on the same train is impossible, but be exact) add up.
  const wanted = new Map<string, number>();
  for (const line of lines) wanted.set(seatKey(line), (wanted.get(seatKey(line)) ?? 0) + line.seats);
  for (const [index, line] of lines.entries()) {
    if ((left.get(seatKey(line)) ?? 0) < (wanted.get(seatKey(line)) ?? 0)) {
      throw new ApiError(409, "rail_sold_out", {}, `${prefix}.${index}.train_no`);
    }
  }
  return { lines, amount: lines.reduce((sum, line) => sum + line.amount, 0) };
}

/** Refuses a line whose train leaves before the order's payment deadline (ISO instant; null: none). */
export function assertDepartsAfterDeadline(rail: PricedRail, deadline: string | null, prefix = "rail_item_list") {
  if (!deadline) return;
  rail.lines.forEach((line, index) => {
    if (departureInstant(line.day, line.departure_time).toISOString() <= deadline) {
      throw new ApiError(409, "rail_departs_before_payment", {}, `${prefix}.${index}.train_no`);
    }
  });
}
