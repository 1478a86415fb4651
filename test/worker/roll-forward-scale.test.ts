/**
 * The daily roll-forward for a thousand hotels fits one Cron run (issue 40, decision 155): one read
 * and one write batch on an ordinary day, measured on generated hotels (4 room classes and 2 plans
 * each, cloned in SQL from one imported hotel).
 */
import { env } from "cloudflare:test";
import { beforeAll, expect, it } from "vitest";
import { validateHotelFile } from "~/backend/hotels/hotel-file";
import { hotelFileToSql } from "~/backend/hotels/hotel-sql";
import { rollCalendarsForward } from "~/backend/hotels/roll-forward.server";
import { countingDb, fixtureHotel } from "./helpers";

const HOTELS = 1_000;
/** This file's hotels: the template and its generated copies. */
const OURS = "(h.domain = 'roll-template.localhost' OR h.domain LIKE 'roll-gen-%.localhost')";

type Editable = {
  room_classes: { room_code: string }[];
  rate_plans: { rate_plan_code: string; rooms: { room_code: string }[] }[];
  inventory: Record<string, unknown>;
};

async function columnsOf(table: string): Promise<string[]> {
  const { results } = await env.DB.prepare(`SELECT name FROM pragma_table_info('${table}') WHERE name != 'id'`).all<{ name: string }>();
  return results.map((row) => row.name);
}

/** The instant of the test: midnight in Taipei, every hotel's day turns. */
const MIDNIGHT = new Date("2027-01-30T16:00:00Z");

beforeAll(async () => {
  // Other test files share this database (decision 164): their hotels are rolled to the same day
  // first, so the run measured below opens this file's thousand hotels and no one else's.
  await rollCalendarsForward(env.DB, MIDNIGHT);
  const result = validateHotelFile(
    fixtureHotel("roll-template.localhost", ((file: Editable) => {
      const room = file.room_classes[0]!;
      file.room_classes = ["double", "twin", "family", "suite"].map((code) => ({ ...room, room_code: code }));
      const plan = file.rate_plans[0]!;
      const rooms = file.room_classes.map((entry) => ({ ...plan.rooms[0]!, room_code: entry.room_code }));
      file.rate_plans = ["BAR", "SAVER"].map((code) => ({ ...plan, rate_plan_code: code, rooms }));
      file.inventory = { months: 1, holidays: ["2027-02-28"] };
    }) as never),
  );
  if (!result.success) throw new Error(result.errors.join("; "));
  const sql = hotelFileToSql(result.file, { loadDay: "2027-01-30" });
  await env.DB.batch(sql.map((statement) => env.DB.prepare(statement)));
  const hotelColumns = (await columnsOf("hotels")).filter((name) => name !== "domain");
  const seq = `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${HOTELS - 1})`;
  const roomColumns = (await columnsOf("room_classes")).filter((name) => name !== "hotel_id");
  const planColumns = (await columnsOf("rate_plans")).filter((name) => name !== "hotel_id");
  const generated = "g.domain LIKE 'roll-gen-%.localhost'";
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO hotels (domain, ${hotelColumns.join(", ")}) ${seq} SELECT 'roll-gen-' || n || '.localhost', ${hotelColumns.map((name) => `t.${name}`).join(", ")} FROM seq, hotels t WHERE t.domain = 'roll-template.localhost'`,
    ),
    env.DB.prepare(
      `INSERT INTO room_classes (hotel_id, ${roomColumns.join(", ")}) SELECT g.id, ${roomColumns.map((name) => `r.${name}`).join(", ")} FROM room_classes r JOIN hotels t ON t.id = r.hotel_id AND t.domain = 'roll-template.localhost', hotels g WHERE ${generated}`,
    ),
    env.DB.prepare(
      `INSERT INTO rate_plans (hotel_id, ${planColumns.join(", ")}) SELECT g.id, ${planColumns.map((name) => `p.${name}`).join(", ")} FROM rate_plans p JOIN hotels t ON t.id = p.hotel_id AND t.domain = 'roll-template.localhost', hotels g WHERE ${generated}`,
    ),
    env.DB.prepare(
      `INSERT INTO plan_rates (rate_plan_id, room_class_id, weekday, weekend, holiday, member_percent, allotment)
       SELECT gp.id, gr.id, pr.weekday, pr.weekend, pr.holiday, pr.member_percent, pr.allotment
       FROM plan_rates pr JOIN rate_plans tp ON tp.id = pr.rate_plan_id JOIN room_classes tr ON tr.id = pr.room_class_id
       JOIN hotels t ON t.id = tp.hotel_id AND t.domain = 'roll-template.localhost'
       JOIN hotels g ON ${generated}
       JOIN rate_plans gp ON gp.hotel_id = g.id AND gp.rate_plan_code = tp.rate_plan_code
       JOIN room_classes gr ON gr.hotel_id = g.id AND gr.room_code = tr.room_code`,
    ),
    env.DB.prepare(
      `INSERT INTO hotel_holidays (hotel_id, night) SELECT g.id, hh.night FROM hotel_holidays hh JOIN hotels t ON t.id = hh.hotel_id AND t.domain = 'roll-template.localhost', hotels g WHERE ${generated}`,
    ),
  ]);
});

it("opens a thousand hotels' next night in one read and one write batch", async () => {
  const counting = countingDb(env.DB);
  const started = performance.now();
  // Midnight in Taipei: every hotel's day turns, one night each to open.
  const run = await rollCalendarsForward(counting.db, MIDNIGHT);
  const ms = performance.now() - started;
  expect(counting.count()).toBe(2);
  expect(run).toMatchObject({ hotels: HOTELS, nights: HOTELS, trips: 2 });
  const opened = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM room_nights n JOIN room_classes r ON r.id = n.room_class_id JOIN hotels h ON h.id = r.hotel_id
             WHERE n.night = '2027-02-28' AND ${OURS}) AS rooms,
            (SELECT count(*) FROM plan_nights n JOIN rate_plans p ON p.id = n.rate_plan_id JOIN hotels h ON h.id = p.hotel_id
             WHERE n.night = '2027-02-28' AND n.price = 4200 AND ${OURS}) AS plans`,
  ).first<{ rooms: number; plans: number }>();
  // 4 room classes and 8 plan rows (2 plans × 4 room classes) per hotel, at the holiday price.
  expect(opened).toEqual({ rooms: 4 * HOTELS, plans: 8 * HOTELS });
  console.log(`roll-forward of ${HOTELS} hotels: ${counting.count()} round trips, ${run.rowsWritten} rows written, ${Math.round(ms)} ms`);
  const again = await rollCalendarsForward(counting.db, new Date("2027-01-30T16:05:00Z"));
  expect(again).toMatchObject({ hotels: 0, rowsWritten: 0 });
});
