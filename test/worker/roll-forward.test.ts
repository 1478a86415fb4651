/**
 * The standing rates the import writes, what a re-import keeps, and the daily roll-forward across
 * the horizon's edge (issue 40, decision 155), on D1 through miniflare.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { validateHotelFile } from "~/backend/hotels/hotel-file";
import { hotelFileToSql } from "~/backend/hotels/hotel-sql";
import { rollCalendarsForward } from "~/backend/hotels/roll-forward.server";
import { fixtureHotel } from "./helpers";

const LOAD_DAY = "2027-01-30";

/** The parts of the fixture these tests change (rules and holidays are absent from it). */
type Editable = { hotel: { time_zone?: string }; inventory: Record<string, unknown> };

async function load(domain: string, change: (file: Editable) => void, resetDeskChanges = false) {
  const result = validateHotelFile(fixtureHotel(domain, change as never));
  if (!result.success) throw new Error(result.errors.join("; "));
  const sql = hotelFileToSql(result.file, { loadDay: LOAD_DAY, resetDeskChanges });
  await env.DB.batch(sql.map((statement) => env.DB.prepare(statement)));
}

const oneMonth = (zone?: string) => (file: Editable) => {
  if (zone) file.hotel.time_zone = zone;
  file.inventory = { months: 1, holidays: ["2027-02-28"], weekend_nights: [5, 6] };
};

async function hotel(domain: string) {
  return env.DB.prepare("SELECT id, horizon_days, opened_through, weekend_nights FROM hotels WHERE domain = ?")
    .bind(domain)
    .first<{ id: number; horizon_days: number; opened_through: string; weekend_nights: string }>();
}

async function lastNights(domain: string) {
  return env.DB.prepare(
    `SELECT (SELECT max(n.night) FROM room_nights n JOIN room_classes r ON r.id = n.room_class_id JOIN hotels h ON h.id = r.hotel_id WHERE h.domain = ?1) AS room,
            (SELECT max(n.night) FROM plan_nights n JOIN rate_plans p ON p.id = n.rate_plan_id JOIN hotels h ON h.id = p.hotel_id WHERE h.domain = ?1) AS plan`,
  )
    .bind(domain)
    .first<{ room: string; plan: string }>();
}

async function planNight(domain: string, night: string) {
  return env.DB.prepare(
    `SELECT n.price, n.member_price, n.allotment, n.closed, n.min_stay, n.no_arrival, n.changed_at FROM plan_nights n JOIN rate_plans p ON p.id = n.rate_plan_id JOIN hotels h ON h.id = p.hotel_id WHERE h.domain = ? AND n.night = ?`,
  )
    .bind(domain, night)
    .first<{
      price: number;
      member_price: number | null;
      closed: number;
      min_stay: number | null;
      no_arrival: number;
      changed_at: string | null;
    }>();
}

describe("the import's standing rates", () => {
  it("writes the horizon, weekend nights, holidays, plan rates and the last opened night", async () => {
    await load("standing.localhost", oneMonth());
    const row = await hotel("standing.localhost");
    // One month from 30 January ends on 28 February: 29 nights, the last on the 27th.
    expect(row).toMatchObject({ horizon_days: 29, opened_through: "2027-02-27", weekend_nights: "[5,6]" });
    expect(await lastNights("standing.localhost")).toEqual({ room: "2027-02-27", plan: "2027-02-27" });
    const rates = await env.DB.prepare(
      "SELECT weekday, weekend, holiday, member_percent FROM plan_rates r JOIN rate_plans p ON p.id = r.rate_plan_id WHERE p.hotel_id = ?",
    )
      .bind(row!.id)
      .all();
    expect(rates.results).toEqual([{ weekday: 3000, weekend: 3600, holiday: 4200, member_percent: 90 }]);
    const holidays = await env.DB.prepare("SELECT night FROM hotel_holidays WHERE hotel_id = ?").bind(row!.id).all();
    expect(holidays.results).toEqual([{ night: "2027-02-28" }]);
  });

  it("writes the file's stay rules and closures on their nights", async () => {
    await load("rules.localhost", (file) => {
      oneMonth()(file);
      file.inventory.rules = [
        { room_code: "double", nights: ["2027-02-05"], closed: true },
        { rate_plan_code: "BAR", nights: ["2027-02-12"], min_stay: 2, no_arrival: true },
      ];
    });
    const closed = await env.DB.prepare(
      "SELECT n.closed FROM room_nights n JOIN room_classes r ON r.id = n.room_class_id JOIN hotels h ON h.id = r.hotel_id WHERE h.domain = 'rules.localhost' AND n.night = '2027-02-05'",
    ).first<{ closed: number }>();
    expect(closed?.closed).toBe(1);
    expect(await planNight("rules.localhost", "2027-02-12")).toMatchObject({ min_stay: 2, no_arrival: 1, closed: 0 });
    expect(await planNight("rules.localhost", "2027-02-13")).toMatchObject({ min_stay: null, no_arrival: 0 });
  });

  it("refuses a rule naming an unknown room class or a minimum above the maximum", () => {
    const result = validateHotelFile(
      fixtureHotel("bad-rules.localhost", ((file: Editable) => {
        file.inventory.rules = [
          { room_code: "suite", nights: ["today"], closed: true },
          { rate_plan_code: "BAR", nights: ["today"], min_stay: 3, max_stay: 2 },
        ];
      }) as never),
    );
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.errors).toContain("inventory.rules.1: min_stay must not be above max_stay");
    }
    const unknown = validateHotelFile(
      fixtureHotel("bad-room.localhost", ((file: Editable) => {
        file.inventory.rules = [{ room_code: "suite", nights: ["today"], closed: true }];
      }) as never),
    );
    expect(unknown.success ? [] : unknown.errors).toEqual(['inventory.rules.0.room_code: no room class "suite"']);
  });
});

describe("a re-import and the desk's changes", () => {
  it("keeps a night staff changed unless told to reset it", async () => {
    await load("desk-kept.localhost", oneMonth());
    await env.DB.prepare(
      `UPDATE plan_nights SET price = 5000, closed = 1, changed_at = '2027-01-30T02:00:00Z' WHERE night = '2027-02-10' AND rate_plan_id IN (SELECT p.id FROM rate_plans p JOIN hotels h ON h.id = p.hotel_id WHERE h.domain = 'desk-kept.localhost')`,
    ).run();
    await load("desk-kept.localhost", oneMonth());
    expect(await planNight("desk-kept.localhost", "2027-02-10")).toMatchObject({ price: 5000, closed: 1 });
    await load("desk-kept.localhost", oneMonth(), true);
    // 10 February 2027 is a Wednesday: the weekday price, open, no longer marked as the desk's.
    expect(await planNight("desk-kept.localhost", "2027-02-10")).toMatchObject({ price: 3000, closed: 0, changed_at: null });
  });
});

describe("the daily roll-forward", () => {
  it("opens the night at the horizon when the hotel's day turns, in its own time zone, and once only", async () => {
    await load("roll-taipei.localhost", oneMonth("Asia/Taipei"));
    await load("roll-la.localhost", oneMonth("America/Los_Angeles"));
    // 23:59 on 30 January in Taipei (UTC+8): nothing is due there yet.
    await rollCalendarsForward(env.DB, new Date("2027-01-30T15:59:00Z"));
    expect((await lastNights("roll-taipei.localhost"))?.plan).toBe("2027-02-27");
    // Midnight in Taipei: 31 January + 29 nights of horizon → the last sellable night is 28 February.
    const first = await rollCalendarsForward(env.DB, new Date("2027-01-30T16:00:00Z"));
    expect(first.trips).toBe(2);
    expect(await lastNights("roll-taipei.localhost")).toEqual({ room: "2027-02-28", plan: "2027-02-28" });
    // 28 February is a holiday: the holiday price, and the member price from the standing percent.
    expect(await planNight("roll-taipei.localhost", "2027-02-28")).toMatchObject({ price: 4200, member_price: 3780, closed: 0 });
    expect((await hotel("roll-taipei.localhost"))?.opened_through).toBe("2027-02-28");
    // Los Angeles is still on 30 January.
    expect((await lastNights("roll-la.localhost"))?.plan).toBe("2027-02-27");
    const again = await rollCalendarsForward(env.DB, new Date("2027-01-30T16:05:00Z"));
    expect(again).toMatchObject({ hotels: 0, rowsWritten: 0, trips: 1 });
    // Midnight in Los Angeles (UTC-8): its turn.
    await rollCalendarsForward(env.DB, new Date("2027-01-31T08:00:00Z"));
    expect(await lastNights("roll-la.localhost")).toEqual({ room: "2027-02-28", plan: "2027-02-28" });
  });

  it("crosses a month end and never overwrites a night that exists", async () => {
    await load("roll-month.localhost", oneMonth("Asia/Taipei"));
    await env.DB.prepare(
      `INSERT INTO plan_nights (rate_plan_id, room_class_id, night, price) SELECT p.id, r.id, '2027-03-01', 9999 FROM rate_plans p JOIN room_classes r ON r.hotel_id = p.hotel_id JOIN hotels h ON h.id = p.hotel_id WHERE h.domain = 'roll-month.localhost'`,
    ).run();
    // Two days later in Taipei: 1 February + 28 → 1 March, two nights opened across the month's end.
    await rollCalendarsForward(env.DB, new Date("2027-02-01T00:30:00Z"));
    expect(await lastNights("roll-month.localhost")).toEqual({ room: "2027-03-01", plan: "2027-03-01" });
    expect(await planNight("roll-month.localhost", "2027-03-01")).toMatchObject({ price: 9999 });
    expect(await planNight("roll-month.localhost", "2027-02-28")).toMatchObject({ price: 4200 });
  });
});
