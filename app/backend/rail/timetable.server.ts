/**
 * The rail network from D1 (spec §7 Rail; decision 119): stations, the trains between two of them and
 * their fares, and the checks that a hotel sells rail and that a train of a day can be booked now.
 */
import { bookingWindowProblem, departureInstant, FARE_TYPES, runsOn, type Fares } from "~/domain/rail";
import { addDays, todayIn } from "~/domain/dates";
import type { Language } from "~/i18n/languages";
import { ApiError } from "~/backend/http.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";

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

/** One train of a day between two stations, as a line of rail tickets has it, stored or priced. */
export interface RailLeg {
  direction: "outbound" | "return";
  day: string;
  train_no: string;
  origin_id: string;
  destination_id: string;
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
