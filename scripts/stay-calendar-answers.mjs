/**
 * node scripts/stay-calendar-answers.mjs path/to/index.js answers.txt — every answer of one build's
 * guest calendar (GET /api/portico/stay_calendar, decision 157) to some 2,100 questions, one a line,
 * to tell with `cmp` whether a change to the calendar kept every answer byte for byte (decision 165).
 *
 * The build runs under Miniflare (scripts/miniflare.mjs) on a fresh database with the demo hotels,
 * to which the same pseudo-random changes are made on every run (a fixed seed, rows in key order):
 * about 2 % of room nights and of plan nights each closed, closed to arrival, closed to departure,
 * given a minimum stay; 1 % a maximum; some room nights' rooms cut to 0–2, some plan nights given
 * an allotment partly or wholly sold, some plan nights deleted; and the campsite rented as a whole
 * or by pitches on some nights. Then it asks, for each hotel and seven parties (one to three rooms),
 * thirteen months from last month (two or three months a question); on the three hotels that sell,
 * also four check-ins a month, a room class, two plans (members-only ones among them), both; and
 * four refusals (a bad month, a check-in outside the months, an unknown room, an unknown hotel).
 * Answers depend on the day (today is the hotels' today): compare two builds on the same day.
 *
 * The build must sit under the current directory (workerd refuses a path outside it): copy
 * build/index.js to .wrangler/ after each `npm run build`. Knob: STAY_ANSWERS_PORT (8797).
 */
import { writeFileSync } from "node:fs";
import { startPortico } from "./miniflare.mjs";

const [script, out] = process.argv.slice(2);
if (!script || !out) throw new Error("usage: node scripts/stay-calendar-answers.mjs path/to/index.js answers.txt");
const PORT = Number(process.env.STAY_ANSWERS_PORT ?? 8797);
const server = await startPortico({
  port: PORT,
  state: `.wrangler/stay-answers-${PORT}`,
  script,
  vars: { SESSION_SECRET: "stay-calendar-answers-not-a-secret-000000000" },
});
try {
  const db = await server.getD1Database("DB");
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
  const changes = [];
  const roomKey = "WHERE room_class_id = ? AND night = ?";
  const planKey = "WHERE rate_plan_id = ? AND room_class_id = ? AND night = ?";
  const roomNights = (await db.prepare("SELECT room_class_id, night FROM room_nights ORDER BY room_class_id, night").all()).results;
  for (const { room_class_id: room, night } of roomNights) {
    const x = random();
    const set = (assignments, ...values) =>
      changes.push(db.prepare(`UPDATE room_nights SET ${assignments} ${roomKey}`).bind(...values, room, night));
    if (x < 0.02) set("closed = 1");
    else if (x < 0.04) set("no_arrival = 1");
    else if (x < 0.06) set("no_departure = 1");
    else if (x < 0.08) set("min_stay = ?", 1 + Math.floor(random() * 4));
    else if (x < 0.09) set("max_stay = ?", 1 + Math.floor(random() * 3));
    else if (x < 0.12) set("capacity = ?", Math.floor(random() * 3));
  }
  const planNights = (
    await db.prepare("SELECT rate_plan_id, room_class_id, night FROM plan_nights ORDER BY rate_plan_id, room_class_id, night").all()
  ).results;
  for (const { rate_plan_id: plan, room_class_id: room, night } of planNights) {
    const x = random();
    const set = (assignments, ...values) =>
      changes.push(db.prepare(`UPDATE plan_nights SET ${assignments} ${planKey}`).bind(...values, plan, room, night));
    if (x < 0.02) set("closed = 1");
    else if (x < 0.04) set("no_arrival = 1");
    else if (x < 0.06) set("no_departure = 1");
    else if (x < 0.08) set("min_stay = ?", 1 + Math.floor(random() * 4));
    else if (x < 0.09) set("max_stay = ?", 1 + Math.floor(random() * 3));
    else if (x < 0.13) {
      const allotment = Math.floor(random() * 3);
      set("allotment = ?, sold = ?", allotment, Math.floor(random() * (allotment + 1)));
    } else if (x < 0.14) changes.push(db.prepare(`DELETE FROM plan_nights ${planKey}`).bind(plan, room, night));
  }
  const hotels = (await db.prepare("SELECT id, domain FROM hotels ORDER BY id").all()).results;
  const camp = hotels.find((hotel) => hotel.domain === "camp.localhost");
  const now = new Date(Date.now() + 8 * 3600_000);
  const day = (offset) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  for (let offset = 0; offset < 200; offset += 1) {
    const x = random();
    const site = "INSERT OR REPLACE INTO site_nights (hotel_id, night, entire_rooms, unit_rooms) VALUES (?, ?, ?, ?)";
    if (x < 0.1) changes.push(db.prepare(site).bind(camp.id, day(offset), 1, 0));
    else if (x < 0.2) changes.push(db.prepare(site).bind(camp.id, day(offset), 0, 2));
  }
  for (let at = 0; at < changes.length; at += 200) await db.batch(changes.slice(at, at + 200));

  const ids = {};
  for (const { id, domain } of hotels) {
    const column = async (sql) => (await db.prepare(sql).bind(id).all()).results.map((row) => row.id);
    ids[domain] = {
      rooms: await column("SELECT id FROM room_classes WHERE hotel_id = ? ORDER BY id"),
      plans: await column("SELECT id FROM rate_plans WHERE hotel_id = ? ORDER BY id"),
    };
  }
  const lines = [];
  const ask = async (domain, query) => {
    const response = await fetch(`http://127.0.0.1:${PORT}/api/portico/stay_calendar?domain=${domain}&${query}&lang=en-US`, {
      headers: { host: `${domain}:${PORT}` },
    });
    lines.push(`${domain} ${query} ${response.status} ${await response.text()}`);
  };
  const PARTIES = [
    [1, 0, 1],
    [2, 0, 1],
    [2, 1, 1],
    [3, 1, 2],
    [4, 0, 1],
    [2, 0, 3],
    [6, 2, 2],
  ];
  const months = Array.from({ length: 13 }, (_, index) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + index - 1, 1)).toISOString().slice(0, 7),
  );
  for (const { domain } of hotels) {
    const { rooms, plans } = ids[domain];
    for (const [adults, children, count] of PARTIES) {
      for (const [index, month] of months.entries()) {
        const base = `month=${month}&months=${index % 3 === 0 ? 3 : 2}&adults=${adults}&children=${children}&rooms=${count}`;
        await ask(domain, base);
        if (!["taipei.localhost", "camp.localhost", "lakeside.localhost"].includes(domain)) continue;
        for (const date of ["01", "09", "17", "28"]) await ask(domain, `${base}&check_in=${month}-${date}`);
        if (index % 2 === 0) await ask(domain, `${base}&room_class_ids=${rooms[index % rooms.length]}`);
        if (index % 3 === 1)
          await ask(domain, `${base}&rate_plan_ids=${plans[index % plans.length]}&rate_plan_ids=${plans[(index + 1) % plans.length]}`);
        if (index % 4 === 2) await ask(domain, `${base}&room_class_ids=${rooms[0]}&rate_plan_ids=${plans[0]}&check_in=${month}-14`);
      }
    }
  }
  await ask("taipei.localhost", "month=2026-13&adults=2");
  await ask("taipei.localhost", `month=${months[1]}&adults=2&check_in=2020-01-01`);
  await ask("taipei.localhost", `month=${months[1]}&adults=2&room_class_ids=999999`);
  await ask("nowhere.localhost", `month=${months[1]}&adults=2`);
  writeFileSync(out, `${lines.join("\n")}\n`);
  console.log(`${changes.length} changes made, ${lines.length} answers written to ${out}`);
} finally {
  await server.dispose();
}
