/**
 * High-speed rail tickets booked with the room (spec §3 Rail, §7 Rail; issue 27; decisions 119-120):
 * stations, trains and fares from D1, the pricing and checking of a `rail_item_list`, the statements
 * that hold its seats in the order's batch, and the lines as the API answers them.
 */
import * as v from "valibot";
import {
  bookingWindowProblem,
  DEFAULT_REFUND_FEE,
  departureInstant,
  FARE_TYPES,
  lastBookableDay,
  minutesBetween,
  passengerProblem,
  railAmount,
  railRefund,
  runsOn,
  seatsOf,
  ticketLimitProblem,
  type Fares,
  type Passengers,
} from "~/domain/rail";
import { addDays, isIsoDate, todayIn } from "~/domain/dates";
import type { Language } from "~/i18n/languages";
import type { RailLine } from "~/contract/rail";
import { ApiError } from "~/backend/http.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import { WholeNumber } from "~/backend/pricing/stay.server";
import { railProviderFor, seatKey } from "~/backend/rail/provider";

/** Rail runs on Taiwan time, whatever the hotel's zone. */
export const RAIL_TIME_ZONE = "Asia/Taipei";

export interface StationRow {
  station_id: string;
  code: string;
  position: number;
  name: string;
}

export type Stations = Map<string, StationRow>;

export async function loadStations(db: D1Database): Promise<Stations> {
  const { results } = await db.prepare("SELECT * FROM rail_stations ORDER BY position").all<StationRow>();
  return new Map(results.map((row) => [row.station_id, row]));
}

export function presentStation(station: StationRow | undefined, id: string, lang: Language) {
  return {
    station_id: id,
    code: station?.code ?? "",
    name: station ? pickText(parseJson<LocalizedText>(station.name, {}), lang, "zh-TW") : id,
  };
}

/** The hotel sells rail tickets: thsr_support_on and a station; otherwise 400 rail_not_available. */
export function requireRail(hotel: HotelRow): string {
  if (hotel.thsr_support_on !== 1 || !hotel.thsr_station_id) throw new ApiError(400, "rail_not_available", {}, "domain");
  return hotel.thsr_station_id;
}

export interface TrainBetween {
  train_no: string;
  direction: 0 | 1;
  service_days: string;
  effective_date: string | null;
  expiring_date: string | null;
  departure_time: string;
  arrival_time: string;
}

/** The trains that stop at `origin` and then at `destination`, by departure time (any day). */
export async function trainsBetween(db: D1Database, origin: string, destination: string): Promise<TrainBetween[]> {
  const { results } = await db
    .prepare(
      `SELECT t.train_no, t.direction, t.service_days, t.effective_date, t.expiring_date,
              o.departure_time AS departure_time, d.arrival_time AS arrival_time
       FROM rail_trains t
       JOIN rail_stops o ON o.train_no = t.train_no AND o.station_id = ?1
       JOIN rail_stops d ON d.train_no = t.train_no AND d.station_id = ?2
       WHERE o.stop_sequence < d.stop_sequence
       ORDER BY o.departure_time, t.train_no`,
    )
    .bind(origin, destination)
    .all<TrainBetween>();
  return results;
}

/** One ticket's fare by type between two stations; null when the fare table lacks any type. */
export async function loadFares(db: D1Database, origin: string, destination: string): Promise<Fares | null> {
  const { results } = await db
    .prepare("SELECT fare_type, price FROM rail_fares WHERE origin_id = ? AND destination_id = ?")
    .bind(origin, destination)
    .all<{ fare_type: string; price: number }>();
  const byType = new Map(results.map((row) => [row.fare_type, row.price]));
  if (FARE_TYPES.some((type) => !byType.has(type))) return null;
  return {
    adult: byType.get("adult") ?? 0,
    child: byType.get("child") ?? 0,
    senior: byType.get("senior") ?? 0,
    disabled: byType.get("disabled") ?? 0,
  };
}

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
export interface PricedRailLine {
  direction: "outbound" | "return";
  day: string;
  train_no: string;
  origin_id: string;
  destination_id: string;
  departure_time: string;
  arrival_time: string;
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

/** Checks two stations for a query or a line; `fields` name them in errors. */
export function checkStations(
  stations: Stations,
  origin: string,
  destination: string,
  fields = { origin: "origin", destination: "destination" },
) {
  if (!stations.has(origin)) throw new ApiError(400, "rail_station_unknown", {}, fields.origin);
  if (!stations.has(destination)) throw new ApiError(400, "rail_station_unknown", {}, fields.destination);
  if (origin === destination) throw new ApiError(400, "rail_same_station", {}, fields.destination);
}

/**
 * A train of `day` between two stations, bookable at `now`: 404 rail_train_unknown when it does not
 * run so, 409 when the booking window is not open or has closed.
 */
export async function requireTrain(
  db: D1Database,
  line: { day: string; train_no: string; origin: string; destination: string },
  now: Date,
  field: string,
): Promise<TrainBetween> {
  const train = (await trainsBetween(db, line.origin, line.destination)).find((entry) => entry.train_no === line.train_no);
  if (!train || !runsOn(train, line.day)) throw new ApiError(404, "rail_train_unknown", {}, field);
  const today = todayIn(RAIL_TIME_ZONE, now);
  const problem = bookingWindowProblem(line.day, departureInstant(line.day, train.departure_time), today, now);
  if (problem) throw new ApiError(409, problem, { date: addDays(line.day, -28) }, field);
  return train;
}

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

/**
 * The statements that hold the lines' seats for an order, for its batch: the provider's (the
 * allotment rows), then one reservation per line, whose trigger takes the seats under the CHECK.
 * `orderRef` is SQL naming the order's id, with its bindings; `onlyIf`, SQL a reservation is written
 * under (with its bindings), for an order that may have changed since it was read.
 */
export function railHoldStatements(
  db: D1Database,
  hotel: HotelRow,
  orderRef: { sql: string; bind: unknown[] },
  rail: PricedRail,
  onlyIf?: { sql: string; bind: unknown[] },
): D1PreparedStatement[] {
  if (rail.lines.length === 0) return [];
  const provider = railProviderFor(hotel);
  return [
    ...provider.prepareStatements(db, hotel, rail.lines),
    ...rail.lines.map((line) =>
      db
        .prepare(
          `INSERT INTO rail_reservations (order_id, hotel_id, provider, direction, day, train_no, origin_id, destination_id,
             departure_time, arrival_time, adult, child, senior, disabled, seats, fares, amount)
           SELECT ${orderRef.sql}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${onlyIf ? ` WHERE ${onlyIf.sql}` : ""}`,
        )
        .bind(
          ...orderRef.bind,
          hotel.id,
          provider.name,
          line.direction,
          line.day,
          line.train_no,
          line.origin_id,
          line.destination_id,
          line.departure_time,
          line.arrival_time,
          line.passengers.adult,
          line.passengers.child,
          line.passengers.senior,
          line.passengers.disabled,
          line.seats,
          JSON.stringify(line.fares),
          line.amount,
          ...(onlyIf?.bind ?? []),
        ),
    ),
  ];
}

/** The database refused seats (another order took them since they were counted). */
export function isRailSoldOut(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.includes("rail_allotments_not_oversold") || message.includes("no_rail_allotment");
}

export interface RailRow {
  id: number;
  order_id: number;
  direction: "outbound" | "return";
  day: string;
  train_no: string;
  origin_id: string;
  destination_id: string;
  departure_time: string;
  arrival_time: string;
  adult: number;
  child: number;
  senior: number;
  disabled: number;
  seats: number;
  fares: string;
  amount: number;
  status: "reserved" | "booked" | "refunded" | "released";
  pnr: string | null;
  booking_number: string | null;
  refund_fee: number;
  refund_amount: number;
}

/** The rail lines of orders, outbound first. */
export async function loadRail(db: D1Database, orderIds: readonly number[]): Promise<Map<number, RailRow[]>> {
  const out = new Map<number, RailRow[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return out;
  const { results } = await db
    .prepare(
      `SELECT * FROM rail_reservations WHERE order_id IN (SELECT value FROM json_each(?1))
       ORDER BY order_id, CASE direction WHEN 'outbound' THEN 0 ELSE 1 END, id`,
    )
    .bind(JSON.stringify(orderIds))
    .all<RailRow>();
  for (const row of results) out.get(row.order_id)?.push(row);
  return out;
}

export const passengersOf = (row: Pick<RailRow, "adult" | "child" | "senior" | "disabled">): Passengers => ({
  adult: row.adult,
  child: row.child,
  senior: row.senior,
  disabled: row.disabled,
});

/** What THSR's rule keeps of a booked line refunded before departure: the hotel's fee per ticket (decision 120). */
export function bookedLineRefund(hotel: Pick<HotelRow, "thsr_refund_fee">, row: Pick<RailRow, "amount" | "seats">) {
  return railRefund(row.amount, row.seats, hotel.thsr_refund_fee ?? DEFAULT_REFUND_FEE);
}

/** The order facts the refund calls check, as the order row has them. */
export interface RailOrderState {
  status: string;
  paid_amount: number;
  payment_status: number;
}

/**
 * What refunding a line now would keep and give back, by the rules `POST /api/rail/refund` and
 * `/refund_reserved` apply (decision 140): a booked line before its train leaves, its fare less the
 * fee per ticket; a reserved line of an order whose amounts may still change (unpaid, nothing paid),
 * nothing kept and nothing to give back (its fare leaves the amount to pay); otherwise null, the
 * calls refuse it. A payment under way is the call's to see.
 */
export function lineRefundQuote(
  hotel: Pick<HotelRow, "thsr_refund_fee">,
  order: RailOrderState,
  row: RailRow,
  now: Date,
): { fee: number; refund_amount: number } | null {
  if (order.status === "cancelled") return null;
  if (row.status === "booked") {
    if (departureInstant(row.day, row.departure_time).getTime() <= now.getTime()) return null;
    const { fee, refund } = bookedLineRefund(hotel, row);
    return { fee, refund_amount: refund };
  }
  if (row.status === "reserved" && order.status === "pending_payment" && order.paid_amount === 0 && order.payment_status === -1) {
    return { fee: 0, refund_amount: 0 };
  }
  return null;
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
    direction: row.direction,
    date: row.day,
    train_no: row.train_no,
    origin: presentStation(stations.get(row.origin_id), row.origin_id, lang),
    destination: presentStation(stations.get(row.destination_id), row.destination_id, lang),
    departure_time: row.departure_time,
    arrival_time: row.arrival_time,
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
    direction: line.direction,
    date: line.day,
    train_no: line.train_no,
    origin: presentStation(stations.get(line.origin_id), line.origin_id, lang),
    destination: presentStation(stations.get(line.destination_id), line.destination_id, lang),
    departure_time: line.departure_time,
    arrival_time: line.arrival_time,
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

/** Lines that hold seats and count in the order's amounts. */
export const isHeld = (row: Pick<RailRow, "status">) => row.status === "reserved" || row.status === "booked";

export { departureInstant, lastBookableDay, minutesBetween, runsOn };
