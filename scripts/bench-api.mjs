/**
 * npm run bench:api — times the built-in back end on this machine, as ratios against a trivial
 * endpoint (/api/health) of the same Worker in the same run:
 *   - an availability search over a 7-night stay at the busiest demo hotel (taipei.localhost),
 *   - order creation (price re-check, inventory taken atomically, order written).
 * Starts its own server on a fresh database (the built Worker under Miniflare, as the browser tests
 * run it) on a free port (BENCH_PORT to choose one), unless BENCH_URL is given.
 *
 * Each order is cancelled through its cancel link right after it is timed (the cancellation is not
 * timed): the bench is one guest, and a hotel lets one guest hold only so many unpaid orders at once
 * (max_unpaid_per_guest, decision 032; the demo's is 30). The bench keeps the demo hotel as it is
 * and, against a server of your own (BENCH_URL), leaves no orders holding its rooms.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { startPortico } from "./miniflare.mjs";

let BASE = process.env.BENCH_URL ?? "";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const DOMAIN = "taipei.localhost";

function call(method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const url = new URL(path, BASE);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = process.hrtime.bigint();
    const req = request(
      url,
      { method, headers: { host: DOMAIN, ...(payload ? { "content-type": "application/json" } : {}), ...headers } },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}

async function waitForServer() {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await call("GET", "/api/health")).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no server at ${BASE}`);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)];

function isoDay(offset) {
  const date = new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000);
  return date.toISOString().slice(0, 10);
}

async function main() {
  let server;
  if (!BASE) {
    // Port 0: the system picks a free one, so the bench never collides with another server here.
    server = await startPortico({
      port: process.env.BENCH_PORT ?? 0,
      state: ".wrangler/bench-api-state",
      vars: { SESSION_SECRET: randomBytes(32).toString("base64url") },
    });
    BASE = (await server.ready).origin;
  }
  try {
    await waitForServer();
    const rooms = JSON.parse((await call("GET", `/api/ota/room/list?domain=${DOMAIN}`)).body).data;
    const search = (offset) =>
      `/api/ota/room/empty-by-date?domain=${DOMAIN}&start_date=${isoDay(offset)}&end_date=${isoDay(offset + 7)}&lang=en-US`;
    const firstSearch = JSON.parse((await call("GET", search(30))).body).data;
    const room = firstSearch.rooms.find((row) => row.price_set.length > 0 && row.inventory >= 2) ?? firstSearch.rooms[0];
    const plan = room.price_set[0];
    const order = (offset) => ({
      domain: DOMAIN,
      booker_first_name: "Bench",
      booker_last_name: "Mark",
      booker_phone: "0912345678",
      booker_email: "bench@example.com",
      check_in_day: isoDay(offset),
      check_out_day: isoDay(offset + 1),
      pay_way: "remittance",
      payment_vendor: 8,
      orders: [{ room_class_id: room.room_class_id, proposal_id: plan.proposal_id, num: 1 }],
      adults_count: 2,
      children_count: 0,
    });
    // Warm up every path once.
    await call("GET", "/api/health");
    await call("GET", search(31));
    const timings = { health: [], search: [], order: [] };
    for (let round = 0; round < ROUNDS; round++) {
      timings.health.push((await call("GET", "/api/health")).ms);
      timings.search.push((await call("GET", search(20 + (round % 60)))).ms);
      const created = await call("POST", "/api/ota/order/personal-new", order(100 + round), {
        "idempotency-key": `bench-${Date.now()}-${round}`,
      });
      if (created.status !== 201) throw new Error(`order failed: ${created.status} ${created.body.slice(0, 200)}`);
      timings.order.push(created.ms);
      const { order_doc: orderDoc, order: placed } = JSON.parse(created.body).data;
      const cancelled = await call("POST", `/api/wota/order/cancel-via-hash/${encodeURIComponent(orderDoc)}`, {
        domain: DOMAIN,
        valid_hash: placed.cancel_hash,
        reason: "bench",
      });
      if (cancelled.status !== 200) throw new Error(`cancelling ${orderDoc} failed: ${cancelled.status} ${cancelled.body.slice(0, 200)}`);
    }
    const base = median(timings.health);
    console.log(`hotel: ${DOMAIN} (${rooms.length} room classes), ${ROUNDS} rounds, sequential, on ${BASE}`);
    console.log("call                               median ms   p95 ms   ratio to /api/health (median)");
    for (const [name, label] of [
      ["health", "GET /api/health (baseline)"],
      ["search", "7-night availability search"],
      ["order", "order creation"],
    ]) {
      const values = timings[name];
      console.log(
        `${label.padEnd(34)} ${median(values).toFixed(1).padStart(9)} ${p95(values).toFixed(1).padStart(8)}   ${(median(values) / base).toFixed(2)}x`,
      );
    }
  } finally {
    await server?.dispose();
  }
}

await main();
