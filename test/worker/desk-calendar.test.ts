/**
 * The desk's calendar (issue 40, decision 156) against the built-in back end and a real D1: the
 * month's read, and the bulk change — what its preview lists is what its apply writes, a preview
 * gone stale is refused, a change below booked rooms is refused whole naming the nights (also when
 * the booking lands between the check and the batch), the audit entry, a replayed form, who may,
 * and the guest's very next search and calendar through the Worker.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOfWeek, todayIn } from "~/domain/dates";
import { sha256Hex } from "~/lib/crypto";
import { handleBackendRequest } from "~/backend/router.server";
import {
  apiJson,
  countingDb,
  fixtureHotel,
  fixtureIds,
  fixtureNightPrice,
  hotelRefs,
  loadHotel,
  orderOneNight,
  PLAIN_PLAN,
  type Envelope,
} from "./helpers";

const HOST = "desk-calendar.localhost";
const OTHER = "desk-calendar-other.localhost";
const today = todayIn("Asia/Taipei");
const ids: Record<string, Record<string, number>> = {};
const tokens: Record<string, string> = {};

const hotelFile = (domain: string) =>
  fixtureHotel(domain, (file) => {
    file.room_classes[0]!.total_rooms = 5;
    file.inventory.months = 3;
    file.inventory.sold_out = [];
    (file.rate_plans as unknown[]).push(structuredClone(PLAIN_PLAN));
    Object.assign(file.hotel, { payment_list: [{ vendor_id: 8, method: "remittance" }] });
  });

async function staffSession(domain: string, role: "owner" | "front_desk" | "read_only", email: string): Promise<string> {
  const hotelId = ids[domain]!.hotel!;
  const staff = await env.DB.prepare(
    "INSERT INTO staff (hotel_id, email, name, role, status, password_hash) VALUES (?, ?, ?, ?, 'active', 'x') RETURNING id",
  )
    .bind(hotelId, email, email.split("@")[0], role)
    .first<{ id: number }>();
  const token = [...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  await env.DB.prepare("INSERT INTO staff_sessions (token_hash, staff_id, hotel_id, stage, expires_at) VALUES (?, ?, ?, 'full', ?)")
    .bind(await sha256Hex(token), staff!.id, hotelId, new Date(Date.now() + 3_600_000).toISOString())
    .run();
  return token;
}

beforeAll(async () => {
  for (const domain of [HOST, OTHER]) {
    await loadHotel(hotelFile(domain));
    ids[domain] = await fixtureIds(domain);
  }
  tokens.desk = await staffSession(HOST, "front_desk", "desk@hotel.example");
  tokens.owner = await staffSession(HOST, "owner", "owner@hotel.example");
  tokens.reader = await staffSession(HOST, "read_only", "reader@hotel.example");
  tokens.other = await staffSession(OTHER, "owner", "owner@other.example");
});

/** The back end in this isolate, as the site calls it in process (the D1 binding may be a proxy). */
async function call<T>(method: "GET" | "POST", path: string, token: string, body?: unknown, db: D1Database = env.DB, lang = "en-US") {
  const request = new Request(`http://${HOST}${path}${path.includes("?") ? "&" : "?"}lang=${lang}`, {
    method,
    headers: { "content-type": "application/json", "x-desk-session": token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await handleBackendRequest(request, { db, signingSecret: env.SESSION_SECRET as string, now: new Date() });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

interface Preview {
  rows: number;
  digest: string;
  groups: {
    room_class_id: number;
    rate_plan_id: number | null;
    column: string;
    old: number | null;
    new: number | null;
    nights: number;
    runs: [string, string][];
  }[];
  refusals: { reason: string; night: string; room_name: string; taken: number | null }[];
}

const newFormKey = () => `fk${crypto.randomUUID().replaceAll("-", "")}`;
const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];

function change(over: Record<string, unknown>) {
  return { domain: HOST, weekdays: ALL_DAYS, room_class_ids: [], plans: [], value: null, ...over };
}

async function previewThenApply(body: Record<string, unknown>, token = tokens.desk!, formKey = newFormKey()) {
  const preview = await call<Preview>("POST", "/api/desk/calendar/preview", token, body);
  expect(preview.status, JSON.stringify(preview.body.msg)).toBe(200);
  const applied = await call<{ outcome: string; rows: number }>("POST", "/api/desk/calendar/apply", token, {
    ...body,
    digest: preview.body.data.digest,
    form_key: formKey,
  });
  return { preview: preview.body.data, applied };
}

const planNight = (plan: number, night: string) =>
  env.DB.prepare(
    "SELECT price, member_price, closed, min_stay, changed_at FROM plan_nights WHERE rate_plan_id = ? AND room_class_id = ? AND night = ?",
  )
    .bind(plan, ids[HOST]!.room, night)
    .first<{ price: number; member_price: number | null; closed: number; min_stay: number | null; changed_at: string | null }>();
const roomNight = (night: string, domain = HOST) =>
  env.DB.prepare("SELECT capacity, booked, closed, min_stay, changed_at FROM room_nights WHERE room_class_id = ? AND night = ?")
    .bind(ids[domain]!.room, night)
    .first<{ capacity: number; booked: number; closed: number; min_stay: number | null; changed_at: string | null }>();
const auditCount = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE hotel_id = ? AND action = 'calendar_bulk_change'")
    .bind(ids[HOST]!.hotel)
    .first<{ n: number }>())!.n;

describe("the month", () => {
  it("reads every night of the month per room class and plan, in one round trip for the nights", async () => {
    const month = addDays(today, 35).slice(0, 7);
    // The hotel's row is kept per content version after its first read: read it once first.
    await call("GET", `/api/desk/calendar?domain=${HOST}&month=${month}`, tokens.reader!);
    const counted = countingDb(env.DB);
    const { status, body } = await call<{
      nights: string[];
      room_classes: {
        id: number;
        name: string;
        nights: ({ to_sell: number; booked: number; closed: boolean } | null)[];
        plans: { code: string; nights: ({ price: number; member_price: number | null } | null)[] }[];
      }[];
    }>("GET", `/api/desk/calendar?domain=${HOST}&month=${month}`, tokens.reader!, undefined, counted.db);
    expect(status).toBe(200);
    // The hotel, the session, the staff member, then the month: room classes, plans and both night tables in one batch.
    expect(counted.count()).toBe(4);
    expect([counted.reads("room_nights"), counted.reads("plan_nights")]).toEqual([1, 1]);
    const [room] = body.data.room_classes;
    expect(room).toMatchObject({ id: ids[HOST]!.room, name: "Double" });
    expect(room!.plans.map((plan) => plan.code).sort()).toEqual(["BAR", "PLAIN"]);
    const at = body.data.nights.indexOf(addDays(today, 35));
    expect(room!.nights[at]).toMatchObject({ to_sell: 5, booked: 0, closed: false });
    const bar = room!.plans.find((plan) => plan.code === "BAR")!;
    const price = fixtureNightPrice(addDays(today, 35));
    expect(bar.nights[at]).toMatchObject({ price, member_price: Math.round(price * 0.9) });
  });

  it("refuses a month that is not YYYY-MM in the staff member's language, and another hotel's session", async () => {
    const bad = await call("GET", `/api/desk/calendar?domain=${HOST}&month=2026-13`, tokens.reader!, undefined, env.DB, "zh-TW");
    expect(bad.status).toBe(400);
    expect(bad.body.msg.code).toBe("invalid_field");
    const other = await call("GET", `/api/desk/calendar?domain=${HOST}&month=${today.slice(0, 7)}`, tokens.other!);
    expect(other.status).toBe(401);
  });
});

describe("the bulk change", () => {
  it("writes exactly what its preview listed: a 10 % raise on Fridays and Saturdays, member prices too, nothing else", async () => {
    const from = addDays(today, 20);
    const to = addDays(today, 33);
    const before = new Map<string, number>();
    for (let i = 0; i <= 13; i += 1) before.set(addDays(from, i), (await planNight(ids[HOST]!.BAR!, addDays(from, i)))!.price);
    const { preview, applied } = await previewThenApply(
      change({ from, to, weekdays: [5, 6], plans: [`${ids[HOST]!.BAR}:${ids[HOST]!.room}`], change: "price_raise_percent", value: 10 }),
    );
    expect(applied.status).toBe(200);
    expect(applied.body.data).toEqual({ outcome: "done", rows: preview.rows });
    // Two weeks hold four Friday and Saturday nights.
    expect(preview.rows).toBe(4);
    const listed = new Map<string, { price?: number; member?: number | null }>();
    for (const group of preview.groups) {
      for (const [first, last] of group.runs) {
        for (let night = first; night <= last; night = addDays(night, 1)) {
          const entry = listed.get(night) ?? {};
          if (group.column === "price") {
            expect(group.old).toBe(before.get(night));
            entry.price = group.new!;
          } else entry.member = group.new;
          listed.set(night, entry);
        }
      }
    }
    expect([...listed.keys()].every((night) => dayOfWeek(night) === 5 || dayOfWeek(night) === 6)).toBe(true);
    for (const [night, old] of before) {
      const row = (await planNight(ids[HOST]!.BAR!, night))!;
      const shown = listed.get(night);
      if (shown) {
        expect(row.price).toBe(shown.price);
        expect(row.price).toBe(Math.floor((2 * old * 110 + 100) / 200));
        expect(row.member_price).toBe(shown.member);
        expect(row.changed_at).not.toBeNull();
      } else {
        expect(row.price).toBe(old);
        expect(row.changed_at).toBeNull();
      }
    }
    // The other plan's nights are as they were.
    expect(
      (await planNight(ids[HOST]!.PLAIN!, addDays(from, [...Array(7).keys()].find((i) => dayOfWeek(addDays(from, i)) === 5)!)))!.changed_at,
    ).toBeNull();
  });

  it("refuses an apply whose preview has gone stale, and changes nothing", async () => {
    const night = addDays(today, 36);
    const body = change({ from: night, to: night, plans: [`${ids[HOST]!.PLAIN}:${ids[HOST]!.room}`], change: "price_set", value: 2500 });
    const preview = await call<Preview>("POST", "/api/desk/calendar/preview", tokens.desk!, body);
    // Another member of staff changes that night meanwhile.
    await env.DB.prepare("UPDATE plan_nights SET price = 2222 WHERE rate_plan_id = ? AND night = ?").bind(ids[HOST]!.PLAIN, night).run();
    const audits = await auditCount();
    const applied = await call("POST", "/api/desk/calendar/apply", tokens.desk!, {
      ...body,
      digest: preview.body.data.digest,
      form_key: newFormKey(),
    });
    expect(applied.status).toBe(409);
    expect(applied.body.msg.code).toBe("desk_calendar_changed");
    expect(applied.body.msg.message).toBe("The calendar changed since the preview; nothing was changed. Please preview again");
    expect((await planNight(ids[HOST]!.PLAIN!, night))!.price).toBe(2222);
    expect(await auditCount()).toBe(audits);
  });

  it("refuses rooms to sell below booked rooms whole, naming the nights and how many are booked", async () => {
    const booked = addDays(today, 40);
    const refs = await hotelRefs(HOST);
    const order = await orderOneNight<{ order_doc: string }>(HOST, refs, booked, { pay_way: "remittance", payment_vendor: 8 });
    expect(order.status, JSON.stringify(order.body.msg)).toBe(201);
    expect((await roomNight(booked))!.booked).toBe(1);
    const body = change({
      from: addDays(booked, -1),
      to: addDays(booked, 1),
      room_class_ids: [ids[HOST]!.room],
      change: "rooms_set",
      value: 0,
    });
    const preview = await call<Preview>("POST", "/api/desk/calendar/preview", tokens.desk!, body);
    expect(preview.body.data.refusals).toEqual([{ reason: "below_booked", night: booked, room_name: "Double", plan_name: null, taken: 1 }]);
    const audits = await auditCount();
    const applied = await call("POST", "/api/desk/calendar/apply", tokens.desk!, {
      ...body,
      digest: preview.body.data.digest,
      form_key: newFormKey(),
    });
    expect(applied.status).toBe(409);
    expect(applied.body.msg.code).toBe("desk_calendar_below_booked");
    expect(applied.body.msg.message).toContain(`${booked} Double: 1`);
    for (const night of [addDays(booked, -1), booked, addDays(booked, 1)]) expect((await roomNight(night))!.capacity).toBe(5);
    expect(await auditCount()).toBe(audits);
  });

  it("is refused whole by the database when a guest books between the check and the batch, naming that night", async () => {
    const night = addDays(today, 58);
    const refs = await hotelRefs(HOST);
    const body = change({ from: addDays(night, -2), to: night, room_class_ids: [ids[HOST]!.room], change: "rooms_set", value: 0 });
    const preview = await call<Preview>("POST", "/api/desk/calendar/preview", tokens.desk!, body);
    expect(preview.body.data.refusals).toEqual([]);
    let raced = false;
    let batches = 0;
    const racing = new Proxy(env.DB, {
      get(target, property) {
        if (property === "batch")
          return async (statements: D1PreparedStatement[]) => {
            // The apply reads the nights (its first batch) and then writes them (its second): the guest books in between.
            batches += 1;
            if (batches === 2) {
              raced = true;
              const order = await orderOneNight(HOST, refs, night, {
                pay_way: "remittance",
                payment_vendor: 8,
                booker_email: "race@example.com",
              });
              expect(order.status).toBe(201);
            }
            return target.batch(statements);
          };
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const audits = await auditCount();
    const applied = await call(
      "POST",
      "/api/desk/calendar/apply",
      tokens.desk!,
      { ...body, digest: preview.body.data.digest, form_key: newFormKey() },
      racing,
    );
    expect(raced).toBe(true);
    expect(applied.status).toBe(409);
    expect(applied.body.msg.code).toBe("desk_calendar_below_booked");
    expect(applied.body.msg.message).toContain(`${night} Double: 1`);
    for (const each of [addDays(night, -2), addDays(night, -1), night]) expect((await roomNight(each))!.capacity).toBe(5);
    expect(await auditCount()).toBe(audits);
  });

  it("writes its audit entry first, with who, the form's key and what changed; the same form again changes nothing", async () => {
    const from = addDays(today, 44);
    const body = change({
      from,
      to: addDays(from, 1),
      plans: [`${ids[HOST]!.PLAIN}:${ids[HOST]!.room}`],
      change: "price_raise",
      value: 100,
    });
    const old = (await planNight(ids[HOST]!.PLAIN!, from))!.price;
    const formKey = newFormKey();
    const { preview, applied } = await previewThenApply(body, tokens.owner!, formKey);
    expect(applied.body.data).toEqual({ outcome: "done", rows: 2 });
    const audit = await env.DB.prepare(
      "SELECT staff_email, subject, before, after, form_key FROM audit_log WHERE hotel_id = ? AND form_key = ?",
    )
      .bind(ids[HOST]!.hotel, formKey)
      .first<{ staff_email: string; subject: string; before: string; after: string; form_key: string }>();
    expect(audit).toMatchObject({ staff_email: "owner@hotel.example", subject: "calendar" });
    expect(JSON.parse(audit!.after)).toMatchObject({ change: "price_raise", value: 100, rows: 2, digest: preview.digest });
    expect(JSON.parse(audit!.before).groups[0]).toEqual(["Double", "Plain", "price", old, [[from, addDays(from, 1)]]]);
    // Sent again (a double click, the back button): already done, raised once.
    const again = await call<{ outcome: string }>("POST", "/api/desk/calendar/apply", tokens.owner!, {
      ...body,
      digest: preview.digest,
      form_key: formKey,
    });
    expect(again.body.data.outcome).toBe("already_done");
    expect((await planNight(ids[HOST]!.PLAIN!, from))!.price).toBe(old + 100);
  });

  it("is for owners and the front desk: read-only staff may read the month but not preview or apply; another hotel's session opens nothing", async () => {
    const body = change({ from: addDays(today, 46), to: addDays(today, 46), room_class_ids: [ids[HOST]!.room], change: "close" });
    const reader = await call("POST", "/api/desk/calendar/preview", tokens.reader!, body);
    expect(reader.status).toBe(403);
    const readerApply = await call("POST", "/api/desk/calendar/apply", tokens.reader!, {
      ...body,
      digest: "0".repeat(64),
      form_key: newFormKey(),
    });
    expect(readerApply.status).toBe(403);
    const other = await call("POST", "/api/desk/calendar/apply", tokens.other!, {
      ...body,
      digest: "0".repeat(64),
      form_key: newFormKey(),
    });
    expect(other.status).toBe(401);
    // Another hotel's room class, named by id in this hotel's change: not found, nothing read of it.
    const foreign = await call("POST", "/api/desk/calendar/preview", tokens.desk!, { ...body, room_class_ids: [ids[OTHER]!.room] });
    expect(foreign.status).toBe(404);
    expect((await roomNight(addDays(today, 46)))!.closed).toBe(0);
    expect((await roomNight(addDays(today, 46), OTHER))!.closed).toBe(0);
  });

  it("answers bad input with a clear error in the staff member's language and changes nothing", async () => {
    const night = addDays(today, 48);
    const cases: [Record<string, unknown>, string][] = [
      [
        change({ from: night, to: night, plans: [`${ids[HOST]!.BAR}:${ids[HOST]!.room}`], change: "price_lower_percent", value: 101 }),
        "desk_calendar_value",
      ],
      [change({ from: night, to: night, plans: [`${ids[HOST]!.BAR}:${ids[HOST]!.room}`], change: "price_set" }), "desk_calendar_value"],
      [change({ from: night, to: addDays(night, 366), room_class_ids: [ids[HOST]!.room], change: "close" }), "desk_calendar_range"],
      [change({ from: addDays(today, -1), to: night, room_class_ids: [ids[HOST]!.room], change: "close" }), "desk_calendar_range"],
      [
        change({ from: night, to: night, plans: [`${ids[HOST]!.BAR}:${ids[HOST]!.room}`], change: "rooms_set", value: 3 }),
        "desk_calendar_targets",
      ],
      [change({ from: night, to: night, room_class_ids: [ids[HOST]!.room], change: "min_stay_set", value: 31 }), "desk_calendar_value"],
      [change({ from: night, to: night, weekdays: [], room_class_ids: [ids[HOST]!.room], change: "close" }), "invalid_field"],
    ];
    for (const [body, code] of cases) {
      const answer = await call("POST", "/api/desk/calendar/preview", tokens.desk!, body, env.DB, "zh-TW");
      expect(answer.status, code).toBe(400);
      expect(answer.body.msg.code).toBe(code);
      expect(answer.body.msg.message).toMatch(/[\u4e00-\u9fff]/);
    }
    const row = (await roomNight(night))!;
    expect(row).toMatchObject({ capacity: 5, closed: 0, min_stay: null, changed_at: null });
  });

  it("refuses a minimum stay longer than a night's maximum whole, naming the nights", async () => {
    const night = addDays(today, 50);
    await previewThenApply(change({ from: night, to: night, room_class_ids: [ids[HOST]!.room], change: "max_stay_set", value: 2 }));
    const body = change({ from: addDays(night, -1), to: night, room_class_ids: [ids[HOST]!.room], change: "min_stay_set", value: 3 });
    const preview = await call<Preview>("POST", "/api/desk/calendar/preview", tokens.desk!, body);
    expect(preview.body.data.refusals).toEqual([{ reason: "min_above_max", night, room_name: "Double", plan_name: null, taken: null }]);
    const applied = await call("POST", "/api/desk/calendar/apply", tokens.desk!, {
      ...body,
      digest: preview.body.data.digest,
      form_key: newFormKey(),
    });
    expect(applied.status).toBe(409);
    expect(applied.body.msg.message).toContain(`${night} Double: minimum 3, maximum 2`);
    expect((await roomNight(addDays(night, -1)))!.min_stay).toBeNull();
  });
});

describe("the guest's next search", () => {
  it("shows a price set at the desk and a night closed there, through the Worker, at once", async () => {
    const priced = addDays(today, 52);
    const closed = addDays(today, 53);
    const search = () =>
      apiJson<{ rooms: { room_class_id: number; price_set: { rate_plan_code: string; price: number }[] }[] }>(
        HOST,
        `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${priced}&end_date=${addDays(priced, 1)}&lang=en-US`,
      );
    const calendar = () =>
      apiJson<{ days: { date: string; reason?: string }[] }>(
        HOST,
        `/api/portico/stay_calendar?domain=${HOST}&month=${closed.slice(0, 7)}&lang=en-US`,
      );
    // The guest looked before the change (anything cached would be cached now).
    const first = await search();
    const barBefore = first.body.data.rooms[0]!.price_set.find((plan) => plan.rate_plan_code === "BAR")!.price;
    expect(barBefore).toBe(fixtureNightPrice(priced));
    expect((await calendar()).body.data.days.find((day) => day.date === closed)!.reason).toBeUndefined();

    const setPrice = await previewThenApply(
      change({ from: priced, to: priced, plans: [`${ids[HOST]!.BAR}:${ids[HOST]!.room}`], change: "price_set", value: 4321 }),
    );
    expect(setPrice.applied.body.data.outcome).toBe("done");
    const close = await previewThenApply(change({ from: closed, to: closed, room_class_ids: [ids[HOST]!.room], change: "close" }));
    expect(close.applied.body.data.outcome).toBe("done");

    const after = await search();
    expect(after.body.data.rooms[0]!.price_set.find((plan) => plan.rate_plan_code === "BAR")!.price).toBe(4321);
    expect((await calendar()).body.data.days.find((day) => day.date === closed)!.reason).toBe("closed");
  });
});
