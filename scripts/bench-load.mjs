/**
 * npm run bench:load — many guests booking at once: one Worker (the built Portico under Miniflare,
 * scripts/miniflare.mjs startPortico, fresh database with the demo hotels), and for
 * BENCH_LOAD_SECONDS (30) at each concurrency of BENCH_LOAD_CONCURRENCY (20,50) that many clients
 * each creating orders one after the other (POST /api/ota/order/personal-new on the built-in back
 * end, docs/api.md), at the demo hotel taipei.localhost: stays of 1 to 3 nights starting 20 to 79
 * days ahead, 1 or 2 rooms of a random room class and public plan, 1 or 2 adults per room, every
 * order a guest of its own (email and phone) and an Idempotency-Key of its own, paid by bank
 * transfer. The stays overlap, so rooms sell out during the run and later orders are refused (409):
 * the point is that none is sold twice.
 *
 * Reports per concurrency: requests, answers by status, requests per second, p50/p95/p99 of the
 * time to the whole answer (all answers), timeouts (no answer within 10 s: the request is
 * abandoned) and resets (connection reset or closed). Then reads D1 through Miniflare and checks
 * every room-night: booked <= capacity, and booked moved by exactly the rooms of the orders
 * written (order_nights); every plan-night: sold <= allotment; and that the orders written are the
 * 201 answers (a timed-out request may have written one).
 *
 * Before the check it waits until the Worker answers /api/health again (up to 2 minutes): a run that
 * left it stuck says so. A client's last request may end up to the timeout after the run's time.
 *
 * Twice, each time on a fresh database (decision 129): first with a new connection for each
 * request, then with the clients' connections kept alive. On Cloudflare a guest's connection ends
 * at Cloudflare's front end, never at the Worker's engine; locally the engine itself holds it, and
 * it stops reading a kept-alive connection for seconds (then resets it) while D1 work runs after
 * an answer. So the bench then runs the engine alone (bench/engine/worker.js, no Portico) under the
 * same client, with connections kept alive: a D1 read after the answer, then before it.
 *
 * Knobs: BENCH_PORT (8791), BENCH_LOAD_SECONDS (30), BENCH_LOAD_CONCURRENCY (20,50: a list),
 * BENCH_LOAD_CONNECTIONS (new,kept: a list), BENCH_LOAD_ENGINE (1; 0 skips the engine alone),
 * BENCH_LOAD_TIMEOUT_MS (10000), BENCH_INSPECTOR_PORT (V8's inspector of the Worker, e.g. to watch
 * its heap), BENCH_LOAD_LOG=1 (each answer as it comes, with its time; with MINIFLARE_LOG=INFO the
 * engine's own log too). Builds first unless BENCH_LOAD_SKIP_BUILD=1.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import { createRequire } from "node:module";
import { startPortico, startWorkers } from "./miniflare.mjs";

const PORT = process.env.BENCH_PORT ?? "8791";
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const CONCURRENCY = (process.env.BENCH_LOAD_CONCURRENCY ?? "20,50").split(",").map(Number);
const TIMEOUT_MS = Number(process.env.BENCH_LOAD_TIMEOUT_MS ?? 10_000);
const CONNECTIONS = (process.env.BENCH_LOAD_CONNECTIONS ?? "new,kept").split(",").filter(Boolean);
const DOMAIN = "taipei.localhost";
const STAY_STARTS = Array.from({ length: 60 }, (_, index) => 20 + index);
const KEY_PREFIX = `load-${Date.now().toString(36)}`;

const day = (offset) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const pick = (items) => items[Math.floor(Math.random() * items.length)];

function build() {
  const remix = createRequire(import.meta.url).resolve("@remix-run/dev/dist/cli.js");
  const result = spawnSync(process.execPath, [remix, "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error("remix build failed");
}

/** One call; resolves { status, ms, body } or { error: "timeout" | "reset" | message, ms }. */
function call(agent, method, path, body, headers = {}) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
    let settled = false;
    const settle = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, ms: ms() });
    };
    const req = request(
      {
        host: "127.0.0.1",
        port: PORT,
        path,
        method,
        agent,
        headers: {
          host: `${DOMAIN}:${PORT}`,
          ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => settle({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", (error) => settle({ error: kindOf(error) }));
      },
    );
    const timer = setTimeout(() => {
      settle({ error: "timeout" });
      req.destroy();
    }, TIMEOUT_MS);
    req.on("error", (error) =>
      settle({ error: kindOf(error), detail: `${error.code ?? ""} ${error.message}${req.reusedSocket ? " (kept-alive socket)" : ""}` }),
    );
    req.end(payload);
  });
}

const kindOf = (error) =>
  ["ECONNRESET", "EPIPE", "ECONNREFUSED"].includes(error.code) || /socket hang up/.test(error.message) ? "reset" : error.message;

/** The bookable (room class, public plan) pairs of each stay, read once before the load. */
async function stayChoices(agent) {
  const stays = [];
  for (const start of STAY_STARTS) {
    for (const nights of [1, 2, 3]) {
      const query = `domain=${DOMAIN}&lang=en-US&start_date=${day(start)}&end_date=${day(start + nights)}`;
      const answer = await call(agent, "GET", `/api/ota/room/empty-by-date?${query}`);
      if (answer.status !== 200) throw new Error(`search failed: ${answer.status ?? answer.error}`);
      const choices = JSON.parse(answer.body).data.rooms.flatMap((room) =>
        room.price_set
          .filter((plan) => !plan.members_only)
          .map((plan) => ({ room: room.room_class_id, plan: plan.proposal_id, people: room.people })),
      );
      if (choices.length) stays.push({ start: day(start), end: day(start + nights), nights, choices });
    }
  }
  return stays;
}

let serial = 0;
function order(stays) {
  serial += 1;
  const stay = pick(stays);
  const choice = pick(stay.choices);
  const num = 1 + Math.floor(Math.random() * 2);
  const perRoom = Math.min(choice.people, 1 + Math.floor(Math.random() * 2));
  return {
    key: `${KEY_PREFIX}-${serial}`,
    body: {
      domain: DOMAIN,
      booker_first_name: "Load",
      booker_last_name: `Guest${serial}`,
      booker_phone: `09${String(40_000_000 + serial).padStart(8, "0")}`,
      booker_email: `load-${KEY_PREFIX}-${serial}@example.com`,
      booking_from: "HXA",
      check_in_day: stay.start,
      check_out_day: stay.end,
      pay_way: "remittance",
      payment_vendor: 8,
      pay_option: "all",
      orders: [{ room_class_id: choice.room, proposal_id: choice.plan, num, occupant_name: `Load Guest${serial}` }],
      adults_count: perRoom * num,
      children_count: 0,
    },
  };
}

const percentile = (sorted, share) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? NaN;

/**
 * `concurrency` clients, each sending `next()`'s request after the answer to its last one until
 * the time is up, over connections kept alive (`keepAlive`) or one new connection per request.
 */
async function loadRun(concurrency, keepAlive, next) {
  const agent = new Agent({ keepAlive, maxSockets: concurrency });
  const results = [];
  const deadline = Date.now() + SECONDS * 1000;
  const started = Date.now();
  const client = async () => {
    while (Date.now() < deadline) {
      const { path, body, headers } = next();
      const answer = await call(agent, "POST", path, body, headers);
      const code = answer.body ? safeCode(answer.body) : null;
      results.push({ status: answer.status ?? null, error: answer.error ?? null, detail: answer.detail, ms: answer.ms, code });
      if (process.env.BENCH_LOAD_LOG)
        console.log(
          `${((Date.now() - started) / 1000).toFixed(1)} s: ${answer.status ?? answer.error} after ${Math.round(answer.ms)} ms ${answer.detail ?? ""}`,
        );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  return { concurrency, results, elapsed };
}

function safeCode(body) {
  try {
    return JSON.parse(body).msg?.code ?? null;
  } catch {
    return null;
  }
}

function printRun({ concurrency, results, elapsed }, label = String(concurrency)) {
  const answered = results.filter((result) => result.status !== null);
  const sorted = answered.map((result) => result.ms).sort((a, b) => a - b);
  const byStatus = new Map();
  for (const result of answered) {
    const key = `${result.status}${result.status === 201 ? "" : ` ${result.code ?? ""}`}`.trim();
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  }
  const timeouts = results.filter((result) => result.error === "timeout").length;
  const resets = results.filter((result) => result.error === "reset").length;
  const other = results.filter((result) => result.error && result.error !== "timeout" && result.error !== "reset");
  const ms = (value) => `${Math.round(value)} ms`;
  console.log(
    `${label.padStart(11)}${String(results.length).padStart(10)}${(results.length / elapsed).toFixed(1).padStart(9)}${ms(percentile(sorted, 0.5)).padStart(10)}${ms(percentile(sorted, 0.95)).padStart(10)}${ms(percentile(sorted, 0.99)).padStart(10)}${String(timeouts).padStart(10)}${String(resets).padStart(8)}   ${[...byStatus].map(([key, count]) => `${key}: ${count}`).join(", ")}${other.length ? `, errors: ${other.length} (${other[0].error})` : ""}`,
  );
}

/** Room-nights and plan-nights before the load, to tell what the load moved. */
async function snapshot(db) {
  const rows = (await db.prepare("SELECT room_class_id, night, booked FROM room_nights").all()).results;
  return new Map(rows.map((row) => [`${row.room_class_id}|${row.night}`, row.booked]));
}

async function checkInventory(db, before, created) {
  const problems = [];
  const over = (
    await db.prepare("SELECT room_class_id, night, booked, capacity FROM room_nights WHERE booked > capacity OR booked < 0").all()
  ).results;
  for (const row of over) problems.push(`room ${row.room_class_id} on ${row.night}: ${row.booked} booked of ${row.capacity}`);
  const overPlans = (
    await db
      .prepare(
        "SELECT rate_plan_id, room_class_id, night, sold, allotment FROM plan_nights WHERE allotment IS NOT NULL AND sold > allotment",
      )
      .all()
  ).results;
  for (const row of overPlans)
    problems.push(`plan ${row.rate_plan_id} room ${row.room_class_id} on ${row.night}: ${row.sold} sold of ${row.allotment}`);
  // What the load's orders hold, night by night, against how far booked moved.
  const held = (
    await db
      .prepare(
        `SELECT n.room_class_id, n.night, SUM(n.rooms) AS rooms FROM order_nights n JOIN orders o ON o.id = n.order_id
         WHERE o.idempotency_key LIKE ? GROUP BY n.room_class_id, n.night`,
      )
      .bind(`${KEY_PREFIX}-%`)
      .all()
  ).results;
  const heldBy = new Map(held.map((row) => [`${row.room_class_id}|${row.night}`, row.rooms]));
  const after = await snapshot(db);
  let roomNights = 0;
  let roomsSold = 0;
  let full = 0;
  const capacities = new Map(
    (await db.prepare("SELECT room_class_id, night, capacity FROM room_nights").all()).results.map((row) => [
      `${row.room_class_id}|${row.night}`,
      row.capacity,
    ]),
  );
  for (const [key, booked] of after) {
    roomNights += 1;
    const moved = booked - (before.get(key) ?? 0);
    const expected = heldBy.get(key) ?? 0;
    roomsSold += moved;
    if (moved > 0 && booked === capacities.get(key)) full += 1;
    if (moved !== expected) problems.push(`room-night ${key}: booked moved by ${moved}, the load's orders hold ${expected}`);
  }
  const orders = (await db.prepare("SELECT COUNT(*) AS count FROM orders WHERE idempotency_key LIKE ?").bind(`${KEY_PREFIX}-%`).first())
    .count;
  return { problems, roomNights, roomsSold, full, orders, created };
}

/** Waits until the Worker answers /api/health; resolves how long that took (ms), or null after 2 minutes. */
async function settled() {
  const agent = new Agent({ keepAlive: false });
  const started = Date.now();
  try {
    while (Date.now() - started < 120_000) {
      const answer = await call(agent, "GET", "/api/health");
      if (answer.status === 200) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    return null;
  } finally {
    agent.destroy();
  }
}

const HEADER = `${"concurrency".padStart(11)}${"requests".padStart(10)}${"req/s".padStart(9)}${"p50".padStart(10)}${"p95".padStart(10)}${"p99".padStart(10)}${"timeouts".padStart(10)}${"resets".padStart(8)}   answers`;
const CONNECTION_WORDS = { new: "a new connection for each request", kept: "connections kept alive" };

/** Portico on a fresh database, every concurrency in turn, then the inventory check. */
async function portico(connections) {
  const server = await startPortico({
    port: PORT,
    state: `.wrangler/bench-load-state-${PORT}`,
    vars: { SESSION_SECRET: randomBytes(32).toString("base64url") },
    ...(process.env.BENCH_INSPECTOR_PORT ? { inspectorPort: Number(process.env.BENCH_INSPECTOR_PORT) } : {}),
  });
  try {
    const db = await server.getD1Database("DB");
    const setup = new Agent({ keepAlive: true });
    const stays = await stayChoices(setup);
    setup.destroy();
    const before = await snapshot(db);
    console.log(
      `\nOrder creation under load at ${DOMAIN}, ${CONNECTION_WORDS[connections]}: ${SECONDS} s per concurrency, ${stays.length} stays (1-3 nights, ${day(STAY_STARTS[0])} on), timeout ${TIMEOUT_MS / 1000} s`,
    );
    console.log(HEADER);
    const next = () => {
      const { key, body } = order(stays);
      return { path: "/api/ota/order/personal-new?lang=en-US", body, headers: { "idempotency-key": key } };
    };
    let created = 0;
    let timeouts = 0;
    let resets = 0;
    for (const concurrency of CONCURRENCY) {
      const run = await loadRun(concurrency, connections === "kept", next);
      printRun(run);
      created += run.results.filter((result) => result.status === 201).length;
      timeouts += run.results.filter((result) => result.error === "timeout").length;
      resets += run.results.filter((result) => result.error === "reset").length;
    }
    const recovered = await settled();
    console.log(
      recovered === null
        ? "The Worker did not answer /api/health within 2 minutes after the load."
        : `The Worker answered /api/health ${(recovered / 1000).toFixed(1)} s after the load.`,
    );
    // Miniflare's own connection to the engine may have been dropped under the load: try again.
    let check;
    for (let attempt = 1; !check; attempt++) {
      try {
        check = await checkInventory(db, before, created);
      } catch (error) {
        if (attempt === 3) throw error;
        console.log(`Reading D1 failed (${error.message}); again in 5 s`);
        await new Promise((resolve) => setTimeout(resolve, 5_000));
      }
    }
    console.log(
      `Inventory after the load (D1): ${check.roomNights} room-nights, ${check.roomsSold} room-nights sold by the load, ${check.full} of them now full; ${check.orders} orders written for ${check.created} answers 201${check.orders !== check.created ? ` (${timeouts} requests timed out, ${resets} reset: an order may be written without its answer)` : ""}`,
    );
    if (check.problems.length) {
      console.log(`OVERSOLD or out of step (${check.problems.length}):\n${check.problems.slice(0, 20).join("\n")}`);
      process.exitCode = 1;
    } else {
      console.log(
        "No room-night over-sold: booked <= capacity everywhere, booked moved by exactly the rooms the orders hold, no plan over its allotment.",
      );
    }
    if (check.orders < check.created || check.orders > check.created + timeouts + resets) {
      console.log("The orders written do not match the answers 201.");
      process.exitCode = 1;
    }
  } finally {
    await server.dispose();
  }
}

/**
 * The engine alone (decision 129): bench/engine/worker.js, no Portico, under the same client with
 * connections kept alive, at the first concurrency: a D1 read after the answer, then the same read
 * before it.
 */
async function engine() {
  const concurrency = CONCURRENCY[0];
  console.log(
    `\nThe engine alone (bench/engine/worker.js, no Portico): each request writes a row to D1, then reads D1 after the answer (ctx.waitUntil) or before it; ${concurrency} clients, connections kept alive, ${SECONDS} s`,
  );
  console.log(HEADER.replace("concurrency".padStart(11), "read".padStart(11)));
  for (const after of ["1", "0"]) {
    const server = await startWorkers({
      port: PORT,
      workers: [{ name: "engine", scriptPath: "bench/engine/worker.js", d1Databases: ["DB"] }],
    });
    try {
      const run = await loadRun(concurrency, true, () => ({ path: `/?after=${after}`, body: { guest: "load" }, headers: {} }));
      printRun(run, after === "1" ? "after" : "before");
    } finally {
      await server.dispose();
    }
  }
}

async function main() {
  if (process.env.BENCH_LOAD_SKIP_BUILD !== "1") build();
  for (const connections of CONNECTIONS) {
    if (!CONNECTION_WORDS[connections]) throw new Error(`BENCH_LOAD_CONNECTIONS: "${connections}" is neither "new" nor "kept"`);
    await portico(connections);
  }
  if (process.env.BENCH_LOAD_ENGINE !== "0") await engine();
}

await main();
