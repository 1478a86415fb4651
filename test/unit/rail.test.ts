/**
 * Rail (issue 27, decisions 119-120): the TDX import's parser on the demo's sample files and on
 * broken ones, and THSR's rules (window, tickets per booking, a child with an adult, the refund fee).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGeneralTimetable, parseOdFares, parseStations, railDataToSql, TdxFormatError } from "~/backend/rail/tdx";
import {
  bookingWindowProblem,
  departureInstant,
  passengerProblem,
  railAmount,
  railRefund,
  runsOn,
  ticketLimitProblem,
  type Passengers,
} from "~/domain/rail";

const sample = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../demo/thsr-sample/${name}`, import.meta.url), "utf8"));
const people = (counts: Partial<Passengers>): Passengers => ({ adult: 0, child: 0, senior: 0, disabled: 0, ...counts });

describe("the TDX import reads the published THSR formats", () => {
  it("Station: the 12 stations with their ids, codes and names", () => {
    const stations = parseStations(sample("Station.json"));
    expect(stations).toHaveLength(12);
    expect(stations[1]).toEqual({ station_id: "1000", code: "TPE", zh_tw: "台北", en: "Taipei" });
    expect(stations.map((station) => station.station_id)).toEqual([
      "0990",
      "1000",
      "1010",
      "1020",
      "1030",
      "1035",
      "1040",
      "1043",
      "1047",
      "1050",
      "1060",
      "1070",
    ]);
  });

  it("GeneralTimetable: trains, their direction, service days and stops (first stop without arrival, last without departure)", () => {
    const trains = parseGeneralTimetable(sample("GeneralTimetable.json"));
    expect(trains).toHaveLength(8);
    const first = trains.find((train) => train.train_no === "0806");
    expect(first).toMatchObject({ direction: 1, service_days: "1111111", effective_date: "2026-01-01", expiring_date: "2030-12-31" });
    expect(first?.stops[0]).toEqual({ stop_sequence: 1, station_id: "1070", arrival_time: "08:00", departure_time: "08:00" });
    expect(first?.stops.at(-1)).toEqual({ stop_sequence: 5, station_id: "0990", arrival_time: "09:47", departure_time: "09:47" });
    expect(trains.find((train) => train.train_no === "0861")?.service_days).toBe("0000111");
  });

  it("ODFare: one-way standard-car fares of the four fare types, other cabins left out", () => {
    const fares = parseOdFares(sample("ODFare.json"));
    expect(fares).toHaveLength(80);
    const taipeiZuoying = fares.filter((fare) => fare.origin_id === "1000" && fare.destination_id === "1070");
    expect(taipeiZuoying).toEqual([
      { origin_id: "1000", destination_id: "1070", fare_type: "adult", price: 1490 },
      { origin_id: "1000", destination_id: "1070", fare_type: "child", price: 745 },
      { origin_id: "1000", destination_id: "1070", fare_type: "senior", price: 745 },
      { origin_id: "1000", destination_id: "1070", fare_type: "disabled", price: 745 },
    ]);
  });

  it("the v3 wrapper ({ Stations: [...] }) is read too", () => {
    expect(parseStations({ Stations: sample("Station.json") })).toHaveLength(12);
  });

  it("a broken file is refused naming the element and the field", () => {
    const timetable = sample("GeneralTimetable.json") as { GeneralTimetable: { StopTimes: { StationID: string }[] } }[];
    timetable[2]!.GeneralTimetable.StopTimes[1]!.StationID = "TPE";
    expect(() => parseGeneralTimetable(timetable)).toThrow(TdxFormatError);
    expect(() => parseGeneralTimetable(timetable)).toThrow(
      /element 2, GeneralTimetable\.StopTimes\.1\.StationID: must be a 4-digit StationID/,
    );
    expect(() => parseOdFares({ nothing: [] })).toThrow(/ODFare\.json: expected a JSON array/);
  });

  it("writes SQL that replaces the timetable and fares whole and updates stations in place", () => {
    const sql = railDataToSql({ stations: parseStations(sample("Station.json")), trains: [], fares: parseOdFares(sample("ODFare.json")) });
    expect(sql.filter((line) => line.startsWith("INSERT INTO rail_stations"))).toHaveLength(12);
    expect(sql).toContain("DELETE FROM rail_fares;");
    // No timetable in this load: the one loaded before stays.
    expect(sql).not.toContain("DELETE FROM rail_trains;");
  });
});

describe("THSR's rules", () => {
  const now = new Date("2026-11-24T02:00:00Z"); // 10:00 in Taiwan
  const today = "2026-11-24";

  it("booking opens 28 days ahead and closes an hour before departure", () => {
    expect(bookingWindowProblem("2026-12-22", departureInstant("2026-12-22", "08:00"), today, now)).toBeNull();
    expect(bookingWindowProblem("2026-12-23", departureInstant("2026-12-23", "08:00"), today, now)).toBe("rail_not_open_yet");
    expect(bookingWindowProblem(today, departureInstant(today, "11:00"), today, now)).toBeNull();
    expect(bookingWindowProblem(today, departureInstant(today, "10:59"), today, now)).toBe("rail_booking_closed");
    expect(bookingWindowProblem("2026-11-23", departureInstant("2026-11-23", "20:00"), today, now)).toBe("rail_booking_closed");
  });

  it("a line has a passenger, and a child an adult or a senior with them", () => {
    expect(passengerProblem(people({}))).toBe("rail_no_passenger");
    expect(passengerProblem(people({ child: 1 }))).toBe("rail_child_alone");
    expect(passengerProblem(people({ child: 1, disabled: 1 }))).toBe("rail_child_alone");
    expect(passengerProblem(people({ child: 2, senior: 1 }))).toBeNull();
    expect(passengerProblem(people({ disabled: 1 }))).toBeNull();
  });

  it("at most 10 tickets a booking, 5 a direction on a return trip", () => {
    expect(ticketLimitProblem([{ direction: "outbound", passengers: people({ adult: 10 }) }])).toBeNull();
    expect(ticketLimitProblem([{ direction: "outbound", passengers: people({ adult: 9, child: 2 }) }])).toEqual({ max: 10 });
    expect(
      ticketLimitProblem([
        { direction: "outbound", passengers: people({ adult: 5 }) },
        { direction: "return", passengers: people({ adult: 5 }) },
      ]),
    ).toBeNull();
    expect(
      ticketLimitProblem([
        { direction: "outbound", passengers: people({ adult: 6 }) },
        { direction: "return", passengers: people({ adult: 1 }) },
      ]),
    ).toEqual({ max: 5 });
  });

  it("prices passengers by fare type and keeps the fee per ticket on a refund", () => {
    const fares = { adult: 1490, child: 745, senior: 745, disabled: 745 };
    expect(railAmount(people({ adult: 2, child: 1 }), fares)).toBe(3725);
    expect(railRefund(3725, 3, 20)).toEqual({ fee: 60, refund: 3665 });
    expect(railRefund(30, 2, 20)).toEqual({ fee: 30, refund: 0 });
  });

  it("a train runs on its service days within its validity", () => {
    const weekend = { service_days: "0000111", effective_date: "2026-01-01", expiring_date: "2030-12-31" };
    expect(runsOn(weekend, "2026-11-27")).toBe(true); // a Friday
    expect(runsOn(weekend, "2026-11-24")).toBe(false); // a Tuesday
    expect(runsOn(weekend, "2031-01-03")).toBe(false); // expired
  });
});
