/**
 * TDX's published JSON for THSR (MOTC Transport Data eXchange, /api/basic/v2/Rail/THSR/): `Station`,
 * `GeneralTimetable` and `ODFare`, read into rows and written as the SQL that loads them into D1
 * (decision 119). Pure: the import command (scripts/rail-import.ts) reads the files, the tests call
 * it directly. Every refusal names the file's element and field.
 */
import * as v from "valibot";
import { sqlLiteral } from "~/backend/hotels/hotel-sql";
import type { RailFareType } from "~/contract/rail";

const Name = v.object({ Zh_tw: v.optional(v.string(), ""), En: v.optional(v.string(), "") });
const StationId = v.pipe(v.string(), v.regex(/^\d{4}$/, "must be a 4-digit StationID"));
const Time = v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM"));
const Day = v.pipe(
  v.string(),
  v.transform((text) => text.slice(0, 10)),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date"),
);

/** TDX `Station` (THSR): one element per station. */
const TdxStation = v.object({
  StationID: StationId,
  StationCode: v.optional(v.string(), ""),
  StationName: Name,
});

const ServiceDayFlag = v.optional(v.union([v.literal(0), v.literal(1), v.boolean()]), 0);

/** TDX `GeneralTimetable` (THSR): one element per train. */
const TdxGeneralTimetable = v.object({
  EffectiveDate: v.optional(Day),
  ExpiringDate: v.optional(Day),
  GeneralTimetable: v.object({
    GeneralTrainInfo: v.object({
      TrainNo: v.pipe(v.string(), v.regex(/^\d{1,6}$/, "must be a train number")),
      Direction: v.picklist([0, 1]),
    }),
    StopTimes: v.pipe(
      v.array(
        v.object({
          StopSequence: v.number(),
          StationID: StationId,
          ArrivalTime: v.optional(Time),
          DepartureTime: v.optional(Time),
        }),
      ),
      v.minLength(2),
    ),
    ServiceDay: v.object({
      Monday: ServiceDayFlag,
      Tuesday: ServiceDayFlag,
      Wednesday: ServiceDayFlag,
      Thursday: ServiceDayFlag,
      Friday: ServiceDayFlag,
      Saturday: ServiceDayFlag,
      Sunday: ServiceDayFlag,
    }),
  }),
});

/** TDX `ODFare` (THSR): one element per origin and destination. */
const TdxOdFare = v.object({
  OriginStationID: StationId,
  DestinationStationID: StationId,
  Fares: v.array(
    v.object({
      TicketType: v.optional(v.union([v.number(), v.string()]), 1),
      FareClass: v.optional(v.number(), 1),
      CabinClass: v.optional(v.number(), 1),
      Price: v.pipe(v.number(), v.integer(), v.minValue(0)),
    }),
  ),
});

/** TDX FareClass codes of THSR's fare types (1 adult, 3 child, 4 senior, 5 disabled). */
const FARE_CLASSES: Record<number, RailFareType> = { 1: "adult", 3: "child", 4: "senior", 5: "disabled" };
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

export interface StationRow {
  station_id: string;
  code: string;
  zh_tw: string;
  en: string;
}

export interface TrainRow {
  train_no: string;
  direction: 0 | 1;
  /** Monday first, "1" where it runs. */
  service_days: string;
  effective_date: string | null;
  expiring_date: string | null;
  stops: { stop_sequence: number; station_id: string; arrival_time: string; departure_time: string }[];
}

export interface FareRow {
  origin_id: string;
  destination_id: string;
  fare_type: RailFareType;
  price: number;
}

export class TdxFormatError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "TdxFormatError";
  }
}

/** TDX v2 answers a JSON array; v3 wraps it (`{ Stations: [...] }`): both are read. */
function elements(input: unknown, file: string, wrapper: string): unknown[] {
  if (Array.isArray(input)) return input;
  if (input && typeof input === "object" && Array.isArray((input as Record<string, unknown>)[wrapper])) {
    return (input as Record<string, unknown[]>)[wrapper] ?? [];
  }
  throw new TdxFormatError(file, `expected a JSON array (or { ${wrapper}: [...] })`);
}

function parseEach<TSchema extends v.GenericSchema>(schema: TSchema, items: unknown[], file: string): v.InferOutput<TSchema>[] {
  return items.map((item, index) => {
    const result = v.safeParse(schema, item);
    if (result.success) return result.output;
    const issue = result.issues[0];
    const path = issue ? v.getDotPath(issue) : null;
    throw new TdxFormatError(file, `element ${index}${path ? `, ${path}` : ""}: ${issue?.message ?? "not valid"}`);
  });
}

export function parseStations(input: unknown, file = "Station.json"): StationRow[] {
  return parseEach(TdxStation, elements(input, file, "Stations"), file).map((station) => ({
    station_id: station.StationID,
    code: station.StationCode,
    zh_tw: station.StationName.Zh_tw,
    en: station.StationName.En,
  }));
}

export function parseGeneralTimetable(input: unknown, file = "GeneralTimetable.json"): TrainRow[] {
  return parseEach(TdxGeneralTimetable, elements(input, file, "TrainTimetables"), file).map((entry, index) => {
    const { GeneralTrainInfo: info, StopTimes: stops, ServiceDay: days } = entry.GeneralTimetable;
    const sorted = [...stops].sort((a, b) => a.StopSequence - b.StopSequence);
    return {
      train_no: info.TrainNo,
      direction: info.Direction,
      service_days: DAYS.map((day) => (days[day] === 1 || days[day] === true ? "1" : "0")).join(""),
      effective_date: entry.EffectiveDate ?? null,
      expiring_date: entry.ExpiringDate ?? null,
      stops: sorted.map((stop, position) => {
        // The first stop has only a departure, the last only an arrival.
        const arrival = stop.ArrivalTime ?? stop.DepartureTime;
        const departure = stop.DepartureTime ?? stop.ArrivalTime;
        if (!arrival || !departure) {
          throw new TdxFormatError(file, `element ${index}, GeneralTimetable.StopTimes.${position}: needs ArrivalTime or DepartureTime`);
        }
        return { stop_sequence: stop.StopSequence, station_id: stop.StationID, arrival_time: arrival, departure_time: departure };
      }),
    };
  });
}

/** The one-way, standard-car fares of THSR's four fare types; other tickets (business, non-reserved, groups) are left out. */
export function parseOdFares(input: unknown, file = "ODFare.json"): FareRow[] {
  return parseEach(TdxOdFare, elements(input, file, "ODFares"), file).flatMap((od) =>
    od.Fares.flatMap((fare) => {
      const type = FARE_CLASSES[fare.FareClass];
      const oneWay = fare.TicketType === 1 || fare.TicketType === "1" || fare.TicketType === "標準";
      if (!type || !oneWay || fare.CabinClass !== 1 || od.OriginStationID === od.DestinationStationID) return [];
      return [{ origin_id: od.OriginStationID, destination_id: od.DestinationStationID, fare_type: type, price: fare.Price }];
    }),
  );
}

export interface RailData {
  stations: StationRow[];
  trains: TrainRow[];
  fares: FareRow[];
}

/**
 * The SQL that loads a timetable and fares: both are replaced whole (what TDX publishes is the
 * whole set); stations are updated by id (their zh-TW and English names and code), their other
 * languages kept. Tickets already sold keep their times (stored on the reservation).
 */
export function railDataToSql(data: RailData): string[] {
  const sql: string[] = [];
  data.stations.forEach((station, index) => {
    sql.push(
      `INSERT INTO rail_stations (station_id, code, position, name) VALUES (${sqlLiteral(station.station_id)}, ${sqlLiteral(station.code)}, ${index + 1}, ${sqlLiteral(JSON.stringify({ "zh-TW": station.zh_tw, "en-US": station.en }))}) ON CONFLICT (station_id) DO UPDATE SET code = CASE WHEN excluded.code = '' THEN code ELSE excluded.code END, name = json_patch(name, excluded.name);`,
    );
  });
  if (data.trains.length > 0) {
    sql.push("DELETE FROM rail_stops;", "DELETE FROM rail_trains;");
    for (const train of data.trains) {
      sql.push(
        `INSERT INTO rail_trains (train_no, direction, service_days, effective_date, expiring_date) VALUES (${sqlLiteral(train.train_no)}, ${train.direction}, ${sqlLiteral(train.service_days)}, ${sqlLiteral(train.effective_date)}, ${sqlLiteral(train.expiring_date)});`,
      );
      for (const stop of train.stops) {
        sql.push(
          `INSERT INTO rail_stops (train_no, stop_sequence, station_id, arrival_time, departure_time) VALUES (${sqlLiteral(train.train_no)}, ${stop.stop_sequence}, ${sqlLiteral(stop.station_id)}, ${sqlLiteral(stop.arrival_time)}, ${sqlLiteral(stop.departure_time)});`,
        );
      }
    }
  }
  if (data.fares.length > 0) {
    sql.push("DELETE FROM rail_fares;");
    for (const fare of data.fares) {
      sql.push(
        `INSERT INTO rail_fares (origin_id, destination_id, fare_type, price) VALUES (${sqlLiteral(fare.origin_id)}, ${sqlLiteral(fare.destination_id)}, ${sqlLiteral(fare.fare_type)}, ${fare.price}) ON CONFLICT (origin_id, destination_id, fare_type) DO UPDATE SET price = excluded.price;`,
      );
    }
  }
  return sql;
}
