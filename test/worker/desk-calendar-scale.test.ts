/**
 * The bulk change at scale (issue 40 "At scale", decision 156): a generated hotel of 20 room types
 * and 5 plans on each (100 plan × room pairs), a whole year of every one of them changed at once.
 * What the apply sends must stay within D1's limits (100 bound parameters a statement, 100 KB of
 * SQL text a statement, 2 MB a value) in few statements; the numbers are printed for the record.
 */
import { env } from "cloudflare:test";
import { beforeAll, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { sha256Hex } from "~/lib/crypto";
import { handleBackendRequest } from "~/backend/router.server";
import { fixtureHotel, fixtureIds, loadHotel, type Envelope } from "./helpers";

const HOST = "desk-calendar-scale.localhost";
const ROOM_TYPES = 20;
const PLANS = 5;
const today = todayIn("Asia/Taipei");
let token = "";
let hotelId = 0;

beforeAll(async () => {
  const file = fixtureHotel(HOST, (hotel) => {
    hotel.inventory.months = 14;
    hotel.inventory.sold_out = [];
    hotel.room_classes = Array.from({ length: ROOM_TYPES }, (_, i) => ({
      room_code: `R${i}`,
      name: { "zh-TW": `房型 ${i}`, "en-US": `Room ${i}` },
      people: 2,
      total_rooms: 10,
    }));
    hotel.rate_plans = Array.from({ length: PLANS }, (_, p) => ({
      rate_plan_code: `P${p}`,
      name: { "zh-TW": `專案 ${p}`, "en-US": `Plan ${p}` },
      rooms: hotel.room_classes.map((room) => ({
        room_code: room.room_code,
        weekday: 3000 + p * 100,
        weekend: 3600,
        holiday: 4200,
        member_percent: 90,
      })),
    }));
  });
  await loadHotel(file);
  hotelId = (await fixtureIds(HOST)).hotel!;
  const staff = await env.DB.prepare(
    "INSERT INTO staff (hotel_id, email, name, role, status, password_hash) VALUES (?, 'owner@scale.example', 'Owner', 'owner', 'active', 'x') RETURNING id",
  )
    .bind(hotelId)
    .first<{ id: number }>();
  token = [...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  await env.DB.prepare("INSERT INTO staff_sessions (token_hash, staff_id, hotel_id, stage, expires_at) VALUES (?, ?, ?, 'full', ?)")
    .bind(await sha256Hex(token), staff!.id, hotelId, new Date(Date.now() + 3_600_000).toISOString())
    .run();
});

/** The D1 binding, keeping each batch's statements: their SQL and what was bound to them. */
function recordingDb(db: D1Database) {
  const batches: { sql: string; args: unknown[] }[][] = [];
  const seen = new WeakMap<object, { statement: D1PreparedStatement; sql: string; args: unknown[] }>();
  const wrap = (statement: D1PreparedStatement, sql: string, args: unknown[]): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql, values);
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    seen.set(proxy, { statement, sql, args });
    return proxy;
  };
  const recorded = new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql, []);
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          batches.push(statements.map((statement) => ({ sql: seen.get(statement)?.sql ?? "?", args: seen.get(statement)?.args ?? [] })));
          return target.batch(statements.map((statement) => seen.get(statement)?.statement ?? statement));
        };
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: recorded, batches };
}

async function call<T>(path: string, body: unknown, db: D1Database = env.DB) {
  const request = new Request(`http://${HOST}${path}?lang=en-US`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-desk-session": token },
    body: JSON.stringify(body),
  });
  const response = await handleBackendRequest(request, { db, signingSecret: env.SESSION_SECRET as string, now: new Date() });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

async function measure(label: string, change: Record<string, unknown>) {
  const ids = await env.DB.prepare(
    `SELECT rpr.rate_plan_id AS plan, rpr.room_class_id AS room FROM rate_plan_rooms rpr JOIN rate_plans rp ON rp.id = rpr.rate_plan_id WHERE rp.hotel_id = ?`,
  )
    .bind(hotelId)
    .all<{ plan: number; room: number }>();
  const rooms = await env.DB.prepare("SELECT id FROM room_classes WHERE hotel_id = ?").bind(hotelId).all<{ id: number }>();
  const body = {
    domain: HOST,
    from: addDays(today, 1),
    to: addDays(today, 366),
    weekdays: [0, 1, 2, 3, 4, 5, 6],
    room_class_ids: rooms.results.map((row) => row.id),
    plans: ids.results.map((row) => `${row.plan}:${row.room}`),
    value: null,
    ...change,
  };
  const startPreview = performance.now();
  const preview = await call<{ rows: number; digest: string }>("/api/desk/calendar/preview", body);
  const previewMs = performance.now() - startPreview;
  expect(preview.status, JSON.stringify(preview.body.msg)).toBe(200);
  const recorder = recordingDb(env.DB);
  const startApply = performance.now();
  const applied = await call<{ outcome: string; rows: number }>(
    "/api/desk/calendar/apply",
    { ...body, digest: preview.body.data.digest, form_key: `scale${crypto.randomUUID().replaceAll("-", "")}` },
    recorder.db,
  );
  const applyMs = performance.now() - startApply;
  expect(applied.status, JSON.stringify(applied.body.msg)).toBe(200);
  expect(applied.body.data).toEqual({ outcome: "done", rows: preview.body.data.rows });
  // The apply's read (one batch) and its write (one batch).
  expect(recorder.batches).toHaveLength(2);
  const write = recorder.batches[1]!;
  const largestValue = Math.max(
    ...write.flatMap((statement) => statement.args.map((arg) => (typeof arg === "string" ? new TextEncoder().encode(arg).length : 8))),
  );
  const longestSql = Math.max(...write.map((statement) => statement.sql.length));
  const mostParams = Math.max(...write.map((statement) => statement.args.length));
  const figures = {
    label,
    rows: applied.body.data.rows,
    statements: write.length,
    largestValueBytes: largestValue,
    longestSqlChars: longestSql,
    mostParams,
    previewMs: Math.round(previewMs),
    applyMs: Math.round(applyMs),
  };
  console.log(JSON.stringify(figures));
  return figures;
}

it("raises every price of a year of 20 room types × 5 plans within D1's limits, in few statements", async () => {
  const figures = await measure("price +5 % (plan rows)", { change: "price_raise_percent", value: 5 });
  // Every plan's night of the year: 100 pairs × 366 nights.
  expect(figures.rows).toBe(ROOM_TYPES * PLANS * 366);
  // The audit entry, ceil(36,600 / 5,000) = 8 updates each with its guard, the stock version.
  expect(figures.statements).toBe(1 + 2 * Math.ceil(figures.rows / 5000) + 1);
  expect(figures.mostParams).toBeLessThanOrEqual(100);
  expect(figures.longestSqlChars).toBeLessThan(100_000);
  expect(figures.largestValueBytes).toBeLessThan(2_000_000);
  const written = await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM plan_nights pn JOIN rate_plans rp ON rp.id = pn.rate_plan_id WHERE rp.hotel_id = ? AND pn.changed_at IS NOT NULL",
  )
    .bind(hotelId)
    .first<{ n: number }>();
  expect(written!.n).toBe(figures.rows);
});

it("closes a whole year of every room type and plan (room and plan rows) within the same limits", async () => {
  const figures = await measure("close (room and plan rows)", { change: "close" });
  expect(figures.rows).toBe(ROOM_TYPES * 366 + ROOM_TYPES * PLANS * 366);
  expect(figures.statements).toBe(1 + 2 * Math.ceil((ROOM_TYPES * 366) / 5000) + 2 * Math.ceil((ROOM_TYPES * PLANS * 366) / 5000) + 1);
  expect(figures.statements).toBeLessThan(50);
  expect(figures.mostParams).toBeLessThanOrEqual(100);
  expect(figures.longestSqlChars).toBeLessThan(100_000);
  expect(figures.largestValueBytes).toBeLessThan(2_000_000);
});
