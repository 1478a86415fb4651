/**
 * The desk's booking reads (decision 152) through the real back end and D1: the lists on fixed
 * dates either side of the hotel's midnight, "new since the last visit", search, keyset paging,
 * rows read that do not grow with the hotel's history, another hotel's booking, a booking's money
 * and timeline, and the month report against the orders it counts.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { handleBackendRequest } from "~/backend/router.server";
import { readBookingList, searchBookings } from "~/backend/desk/booking-lists.server";
import { monthReport, paymentExportPage } from "~/backend/desk/reports.server";
import { monthSpan } from "~/domain/months";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import type { StaffPrincipal } from "~/backend/desk/staff.server";
import { orderAccount, type OrderMoney } from "~/domain/order-view";
import { addDays, todayIn } from "~/domain/dates";
import { sha256Hex } from "~/lib/crypto";
import { deskCookieHeader } from "~/features/desk/cookie.server";
import type { AppEnv } from "~/platform/env.server";
import { apiJson, Browser, fetchAs, fixtureHotel, text, hotelRefs, loadHotel, orderOneNight, payInFull, type Envelope } from "./helpers";

const HOST = "desk-bookings.localhost";
const OTHER = "desk-bookings-other.localhost";
const BIG = "desk-bookings-big.localhost";
const SMALL = "desk-bookings-small.localhost";

async function hotelRow(domain: string): Promise<HotelRow> {
  const row = await env.DB.prepare("SELECT * FROM hotels WHERE domain = ?").bind(domain).first<HotelRow>();
  if (!row) throw new Error(`no hotel ${domain}`);
  return row;
}

let staffCount = 0;
/** A signed-in staff member: a staff row and a full session whose token's SHA-256 is kept, as sign-in leaves them. */
async function staffSession(domain: string, role: "owner" | "front_desk" | "read_only" = "read_only") {
  const hotel = await hotelRow(domain);
  const row = await env.DB.prepare(
    "INSERT INTO staff (hotel_id, email, name, role, status) VALUES (?, ?, ?, ?, 'active') RETURNING id, email, name, role, lang",
  )
    .bind(hotel.id, `bookings${++staffCount}@desk.example`, `Clerk ${staffCount}`, role)
    .first<{ id: number; email: string; name: string; role: "read_only"; lang: string }>();
  const token = crypto.randomUUID().replace(/-/g, "") + crypto.randomUUID().replace(/-/g, "");
  await env.DB.prepare(
    "INSERT INTO staff_sessions (token_hash, staff_id, hotel_id, stage, expires_at) VALUES (?, ?, ?, 'full', '9999-01-01')",
  )
    .bind(await sha256Hex(token), row!.id, hotel.id)
    .run();
  const principal: StaffPrincipal = {
    id: row!.id,
    hotelId: hotel.id,
    email: row!.email,
    name: row!.name,
    role: row!.role,
    lang: row!.lang,
  };
  return { token, principal, hotel };
}

/** A staff API call at a fixed moment (the session's idle clock set to it, as if its last request were just before). */
async function desk<T>(token: string, path: string, now = new Date(), host = HOST) {
  await env.DB.prepare("UPDATE staff_sessions SET last_seen_at = ? WHERE token_hash = ?")
    .bind(now.toISOString(), await sha256Hex(token))
    .run();
  const separator = path.includes("?") ? "&" : "?";
  const response = await handleBackendRequest(
    new Request(`http://${host}${path}${separator}domain=${host}&lang=en-US`, { headers: { "x-desk-session": token } }),
    { db: env.DB, signingSecret: "test", now },
  );
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

interface ListAnswer {
  rows: { order_doc: string; booker_name: string; refund: number; pay_deadline: string | null }[];
  next: string | null;
  since: string | null;
  truncated: boolean;
  kind: string | null;
}

let docCount = 0;
/** An order row as the booking API leaves it (the columns the desk reads), written directly for fixed dates. */
async function insertOrder(domain: string, fields: Record<string, string | number | null> = {}) {
  const hotel = await hotelRow(domain);
  const doc = `PT300101-T${String(++docCount).padStart(5, "0")}`;
  const row = {
    hotel_id: hotel.id,
    order_doc: doc,
    idempotency_key: doc,
    request_hash: "x",
    booker_first_name: "Mei",
    booker_last_name: "Lin",
    booker_name: "Mei Lin",
    booker_phone: "0912 345 678",
    booker_email: "mei@example.com",
    email_key: "mei@example.com",
    phone_key: "+886912345678",
    check_in_day: "2030-03-10",
    check_out_day: "2030-03-11",
    room_price: 3000,
    total_price: 3000,
    pay_amount: 3000,
    status: "confirmed",
    ...fields,
  };
  const columns = Object.keys(row);
  const inserted = await env.DB.prepare(
    `INSERT INTO orders (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) RETURNING id`,
  )
    .bind(...Object.values(row))
    .first<{ id: number }>();
  return { id: inserted!.id, doc };
}

/** Bank transfer: an order the test then pays as the transfer's arrival would. */
const REMITTANCE = { pay_way: "remittance", payment_vendor: 8 };

const docs = (answer: { body: Envelope<ListAnswer> }) => answer.body.data.rows.map((row) => row.order_doc);

beforeAll(async () => {
  for (const domain of [HOST, OTHER, BIG, SMALL]) {
    await loadHotel(
      fixtureHotel(domain, (file) => {
        (file.hotel as Record<string, unknown>).payment_deadlines = { max_unpaid_per_guest: 100 };
      }),
    );
  }
});

describe("the lists", () => {
  it("count 'today' in the hotel's time zone: an arrival on the 10th is tomorrow's at 23:30 Taipei on the 9th and today's at 00:30", async () => {
    const { token } = await staffSession(HOST);
    const arriving = await insertOrder(HOST, { check_in_day: "2031-03-10", check_out_day: "2031-03-12" });
    const later = await insertOrder(HOST, { check_in_day: "2031-03-11", check_out_day: "2031-03-12" });
    const cancelled = await insertOrder(HOST, { check_in_day: "2031-03-10", check_out_day: "2031-03-11", status: "cancelled" });
    const leaving = await insertOrder(HOST, { check_in_day: "2031-03-08", check_out_day: "2031-03-10", stay_status: "in_house" });
    const beforeMidnight = new Date("2031-03-09T15:30:00Z"); // 23:30 on the 9th in Taipei (UTC+8)
    const afterMidnight = new Date("2031-03-09T16:30:00Z"); // 00:30 on the 10th

    expect(docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=arriving_today", beforeMidnight))).not.toContain(arriving.doc);
    expect(docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=arriving_tomorrow", beforeMidnight))).toEqual([arriving.doc]);
    expect(docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=departing_today", beforeMidnight))).not.toContain(leaving.doc);

    expect(docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=arriving_today", afterMidnight))).toEqual([arriving.doc]);
    expect(docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=arriving_tomorrow", afterMidnight))).toEqual([later.doc]);
    expect(docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=departing_today", afterMidnight))).toEqual([leaving.doc]);
    const inHouse = docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=in_house", afterMidnight));
    expect(inHouse).toContain(leaving.doc);
    expect(inHouse).not.toContain(arriving.doc);
    expect(docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=cancelled", afterMidnight))).toContain(cancelled.doc);
  });

  it("list what awaits payment by deadline (none last), and the refunds still due with their amounts", async () => {
    const { token } = await staffSession(OTHER);
    const late = await insertOrder(OTHER, { status: "pending_payment", pay_deadline: "2031-01-02T10:00:00.000Z" });
    const soon = await insertOrder(OTHER, { status: "pending_payment", pay_deadline: "2031-01-01T10:00:00.000Z" });
    const open = await insertOrder(OTHER, { status: "pending_payment", pay_deadline: null });
    await insertOrder(OTHER, { status: "confirmed" });
    const due = await insertOrder(OTHER, { status: "cancelled", paid_amount: 3000, payment_status: 2 });
    const done = await insertOrder(OTHER, { status: "cancelled", paid_amount: 3000, payment_status: 2 });
    await env.DB.batch([
      env.DB.prepare("INSERT INTO cancellations (order_id, via, fee, refund, refund_status) VALUES (?, 'hotel', 600, 2400, 'due')").bind(
        due.id,
      ),
      env.DB.prepare("INSERT INTO cancellations (order_id, via, fee, refund, refund_status) VALUES (?, 'hotel', 0, 3000, 'refunded')").bind(
        done.id,
      ),
    ]);
    const now = new Date("2030-12-31T00:00:00Z");
    expect(docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=awaiting_payment", now, OTHER))).toEqual([
      soon.doc,
      late.doc,
      open.doc,
    ]);
    const refunds = await desk<ListAnswer>(token, "/api/desk/bookings?list=refund_due", now, OTHER);
    expect(refunds.body.data.rows.map((row) => [row.order_doc, row.refund])).toEqual([[due.doc, 2400]]);
  });

  it("'new' shows what came since this staff member's last visit, moves it forward on opening, and keeps its start across pages", async () => {
    const { token } = await staffSession(SMALL);
    const t0 = new Date("2032-05-01T00:00:00Z");
    const old = await insertOrder(SMALL, { created_at: "2032-04-01T00:00:00.000Z" });
    const recent = await insertOrder(SMALL, { created_at: "2032-04-30T12:00:00.000Z" });
    // First visit: the last 7 days.
    const first = docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=new", t0, SMALL));
    expect(first).toContain(recent.doc);
    expect(first).not.toContain(old.doc);
    const after = await insertOrder(SMALL, { created_at: "2032-05-01T06:00:00.000Z" });
    const second = await desk<ListAnswer>(token, "/api/desk/bookings?list=new", new Date("2032-05-01T08:00:00Z"), SMALL);
    expect(docs(second)).toEqual([after.doc]);
    expect(second.body.data.since).toBe(t0.toISOString());
    // Opened again: nothing new since.
    expect(docs(await desk<ListAnswer>(token, "/api/desk/bookings?list=new", new Date("2032-05-01T09:00:00Z"), SMALL))).toEqual([]);
  });

  it("page by a keyset cursor: every booking once, in order; a forged cursor is a 400 that names it", async () => {
    const { token } = await staffSession(HOST);
    const made: string[] = [];
    for (let i = 0; i < 30; i++) made.push((await insertOrder(HOST, { check_in_day: "2033-07-01", check_out_day: "2033-07-02" })).doc);
    const now = new Date("2033-06-30T20:00:00Z"); // 04:00 on 1 July in Taipei
    const first = await desk<ListAnswer>(token, "/api/desk/bookings?list=arriving_today", now);
    expect(first.body.data.rows).toHaveLength(25);
    const second = await desk<ListAnswer>(token, `/api/desk/bookings?list=arriving_today&cursor=${first.body.data.next}`, now);
    expect(second.body.data.next).toBeNull();
    expect([...docs(first), ...docs(second)]).toEqual(made);
    const forged = await desk<ListAnswer>(token, "/api/desk/bookings?list=arriving_today&cursor=not-a-cursor", now);
    expect(forged.status).toBe(400);
    expect(forged.body.msg.extrainfo?.field).toBe("cursor");
    expect((await desk(token, "/api/desk/bookings?list=everything", now)).status).toBe(400);
  });
});

describe("rows read", () => {
  it("stay the same for a hotel with thousands of old orders as for one with a handful", async () => {
    const big = await staffSession(BIG);
    const small = await staffSession(SMALL);
    // 3,000 old orders of the big hotel, over years, some cancelled, some awaiting payment, all named Lin.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
       INSERT INTO orders (hotel_id, order_doc, idempotency_key, request_hash, booker_last_name, booker_name, booker_phone, booker_email,
                           email_key, phone_key, check_in_day, check_out_day, room_price, total_price, pay_amount, status, created_at)
       SELECT ?1, 'PT200101-OLD' || i, 'old' || i, 'x', 'Lin', 'Lin Old' || i, '0911000000', 'old' || i || '@example.com',
              'old' || i || '@example.com', '+886911000000', date('2020-01-01', '+' || (i % 1500) || ' days'),
              date('2020-01-02', '+' || (i % 1500) || ' days'), 1000, 1000, 1000,
              CASE i % 3 WHEN 0 THEN 'cancelled' WHEN 1 THEN 'pending_payment' ELSE 'confirmed' END, '2020-01-01T00:00:00.000Z'
       FROM n`,
    )
      .bind(big.hotel.id)
      .run();
    for (const domain of [BIG, SMALL]) {
      for (let i = 0; i < 3; i++)
        await insertOrder(domain, { check_in_day: "2034-02-02", check_out_day: "2034-02-03", status: "pending_payment" });
    }
    const now = new Date("2034-02-02T02:00:00Z");
    const read = async (session: typeof big, list: Parameters<typeof readBookingList>[3]) =>
      (await readBookingList(env.DB, session.hotel, session.principal, list, { cursor: null, now })).rowsRead;
    // D1 reports what it read: the three arrivals at least.
    expect(await read(small, "arriving_today")).toBeGreaterThanOrEqual(3);
    for (const list of ["arriving_today", "departing_today", "in_house", "new", "cancelled", "refund_due"] as const) {
      const [bigRead, smallRead] = [await read(big, list), await read(small, list)];
      // Same list sizes at both hotels' fronts: the big hotel's history must not be read.
      expect(bigRead, list).toBeLessThanOrEqual(Math.max(smallRead, 1) + 2 * 26 + 10);
      expect(bigRead, list).toBeLessThan(200);
    }
    // A page of the awaiting list reads a page, though the big hotel has a thousand unpaid orders.
    expect(await read(big, "awaiting_payment")).toBeLessThan(100);
    // A name prefix every old order shares reads a bounded number and says to type more.
    const search = await searchBookings(env.DB, big.hotel, "lin");
    expect(search.truncated).toBe(true);
    expect(search.rowsRead).toBeLessThan(600);
    expect((await searchBookings(env.DB, big.hotel, "old17@example.com")).rows.map((row) => row.booker_name)).toEqual(["Lin Old17"]);
  });
});

describe("search", () => {
  it("finds by booking number, name prefix (any case, CJK too), phone however written, and email; never another hotel's", async () => {
    const { token } = await staffSession(HOST);
    const chen = await insertOrder(HOST, {
      booker_first_name: "Wei",
      booker_last_name: "Chen",
      booker_name: "Wei Chen",
      booker_phone: "+886 933 111 222",
      phone_key: "+886933111222",
      booker_email: "Wei.Chen@Example.com",
      email_key: "wei.chen@example.com",
    });
    const lin = await insertOrder(HOST, { booker_last_name: "林", booker_first_name: "美玲", booker_name: "林美玲" });
    await insertOrder(OTHER, { booker_last_name: "Chen", booker_name: "Wei Chen", phone_key: "+886933111222" });
    const search = async (q: string) => docs(await desk<ListAnswer>(token, `/api/desk/bookings?q=${encodeURIComponent(q)}`));
    expect(await search(chen.doc.toLowerCase())).toEqual([chen.doc]);
    expect(await search("WEI c")).toEqual([chen.doc]);
    expect(await search("chen")).toEqual([chen.doc]);
    expect(await search("林美")).toEqual([lin.doc]);
    expect(await search("0933-111-222")).toEqual([chen.doc]);
    expect(await search("WEI.CHEN@example.com")).toEqual([chen.doc]);
    expect(await search("Nobody")).toEqual([]);
    expect((await desk(token, `/api/desk/bookings?q=${"x".repeat(101)}`)).status).toBe(400);
  });
});

describe("a booking's page", () => {
  it("is another hotel's: not found; without a session: sign in", async () => {
    const { token } = await staffSession(HOST);
    const foreign = await insertOrder(OTHER);
    const answer = await desk(token, `/api/desk/bookings/${foreign.doc}`);
    expect(answer.status).toBe(404);
    expect(JSON.stringify(answer.body.data)).not.toContain(foreign.doc);
    const response = await handleBackendRequest(new Request(`http://${HOST}/api/desk/bookings/${foreign.doc}?domain=${HOST}`), {
      db: env.DB,
      signingSecret: "test",
    });
    expect(response.status).toBe(401);
  });

  it("says the guest's amounts and adds up, and tells its timeline newest first with who did what", async () => {
    const { token } = await staffSession(HOST);
    const hotel = await hotelRefs(HOST);
    const checkIn = addDays(todayIn("Asia/Taipei"), 40);
    const created = await orderOneNight<{ order_doc: string; order: { valid_hash: string } }>(HOST, hotel, checkIn, REMITTANCE);
    expect(created.status, JSON.stringify(created.body.msg)).toBe(201);
    const doc = created.body.data.order_doc;
    await payInFull(doc, "DB");
    const trade = await env.DB.prepare("SELECT trade_no FROM payments WHERE order_id = (SELECT id FROM orders WHERE order_doc = ?)")
      .bind(doc)
      .first<{ trade_no: string }>();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO payment_events (hotel_id, route, outcome, reason, trade_no, created_at) VALUES (?, 'ecpay', 'ignored', 'replay', ?, '2099-01-01T00:00:00.000Z')",
      ).bind(hotel.id, trade!.trade_no),
      env.DB.prepare(
        "INSERT INTO audit_log (hotel_id, staff_email, action, subject, after, created_at) VALUES (?, 'front@desk.example', 'booking.note', ?, '{\"note\":\"late arrival\"}', '2099-01-02T00:00:00.000Z')",
      ).bind(hotel.id, `order:${doc}`),
      env.DB.prepare(
        "INSERT INTO audit_log (hotel_id, staff_email, action, subject, created_at) VALUES (?, 'other@desk.example', 'booking.note', 'order:PT000000-ELSE', '2099-01-03T00:00:00.000Z')",
      ).bind(hotel.id),
    ]);

    const page = await desk<{
      booking: OrderMoney & { order_doc: string; orders: { occupant_name: string }[] };
      stay_status: string;
      money: { total: number; charged: number; refunded: number; to_be_refunded: number; kept_hotel: number; owed: number };
      timeline: { at: string; kind: string; who: string; detail: Record<string, string | number> }[];
    }>(token, `/api/desk/bookings/${doc}`);
    expect(page.status).toBe(200);
    const data = page.body.data;
    // The guest's own order answer, read through their view link: the same money.
    const guest = await apiJson<OrderMoney>(
      HOST,
      `/api/ota/order/via-hash?domain=${HOST}&valid_hash=${encodeURIComponent(created.body.data.order.valid_hash)}&lang=en-US`,
    );
    const account = orderAccount(guest.body.data);
    expect(data.money.total).toBe(guest.body.data.final_amount);
    expect(data.money.charged).toBe(account.charged);
    expect(data.money.charged).toBe(guest.body.data.paid_amount);
    expect(data.money.owed).toBe(0);
    expect(data.money.charged - data.money.refunded - data.money.to_be_refunded).toBe(data.money.kept_hotel);
    expect(data.stay_status).toBe("expected");

    const kinds = data.timeline.map((entry) => entry.kind);
    expect(kinds.slice(0, 2)).toEqual(["staff", "callback"]);
    expect(data.timeline[0]).toMatchObject({ who: "front@desk.example", detail: { action: "booking.note" } });
    expect(kinds).toEqual(expect.arrayContaining(["created", "payment", "payment_paid"]));
    expect(kinds[kinds.length - 1]).toBe("created");
    expect(JSON.stringify(data.timeline)).not.toContain("other@desk.example");
    const times = data.timeline.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("owes the rest of an unpaid booking, and nothing of a cancelled one", async () => {
    const { token } = await staffSession(HOST);
    const unpaid = await insertOrder(HOST, { status: "pending_payment", total_price: 4200, pay_amount: 4200, room_price: 4200 });
    const page = await desk<{ money: { total: number; owed: number; charged: number } }>(
      token,
      `/api/desk/bookings/${unpaid.doc}`,
      new Date("2030-01-01T00:00:00Z"),
    );
    expect(page.body.data.money).toMatchObject({ total: 4200, charged: 0, owed: 4200 });
  });
});

describe("the month report", () => {
  it("adds up to the orders and payments it counts, and occupancy is rooms sold of rooms to sell", async () => {
    const { token } = await staffSession(SMALL);
    const hotel = await hotelRefs(SMALL);
    const checkIn = addDays(todayIn("Asia/Taipei"), 45);
    const month = checkIn.slice(0, 7);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await orderOneNight<{ order_doc: string }>(SMALL, hotel, checkIn, {
        ...REMITTANCE,
        booker_email: `report${i}@example.com`,
      });
      expect(created.status, JSON.stringify(created.body.msg)).toBe(201);
      made.push(created.body.data.order_doc);
    }
    await payInFull(made[0]!, "RP");
    const report = await desk<{
      bookings: number;
      booked_value: number;
      room_nights: number;
      received: number;
      occupancy: { sold: number; to_sell: number; name: string }[];
    }>(token, `/api/desk/reports/month?month=${month}`, new Date(), SMALL);
    expect(report.status).toBe(200);
    const expected = await env.DB.prepare(
      `SELECT count(*) AS count, sum(total_price) AS value FROM orders WHERE hotel_id = ? AND substr(check_in_day, 1, 7) = ? AND status <> 'cancelled'`,
    )
      .bind(hotel.id, month)
      .first<{ count: number; value: number }>();
    expect(report.body.data.bookings).toBe(expected!.count);
    expect(report.body.data.booked_value).toBe(expected!.value);
    const nights = await env.DB.prepare("SELECT sum(rooms) AS rooms FROM order_nights WHERE room_class_id = ? AND substr(night, 1, 7) = ?")
      .bind(hotel.room, month)
      .first<{ rooms: number }>();
    expect(report.body.data.room_nights).toBe(nights!.rooms);
    const sold = report.body.data.occupancy.reduce((sum, row) => sum + row.sold, 0);
    expect(sold).toBe(report.body.data.room_nights);
    expect(report.body.data.occupancy.every((row) => row.to_sell >= row.sold && row.name !== "")).toBe(true);
    const paid = await env.DB.prepare("SELECT paid_amount FROM orders WHERE order_doc = ?").bind(made[0]).first<{ paid_amount: number }>();
    // Paid today: the only money this hotel received this month.
    const thisMonth = todayIn("Asia/Taipei").slice(0, 7);
    const now = await desk<{ received: number }>(token, `/api/desk/reports/month?month=${thisMonth}`, new Date(), SMALL);
    expect(now.body.data.received).toBe(paid!.paid_amount);
    expect((await desk(token, "/api/desk/reports/month?month=2026-13", new Date(), SMALL)).status).toBe(400);
  });
});

describe("the month's money, one hotel's", () => {
  /** The D1 binding, adding up the rows D1 says each statement read. */
  function rowsReadOf(db: D1Database) {
    let rows = 0;
    const add = (result: D1Result) => (rows += result.meta.rows_read ?? 0);
    const wrap = (statement: D1PreparedStatement): D1PreparedStatement =>
      new Proxy(statement, {
        get(target, property) {
          const value = Reflect.get(target, property) as unknown;
          if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
          if (property === "all" || property === "run")
            return async () => {
              const result = (await (value as () => Promise<D1Result>).apply(target)) as D1Result;
              add(result);
              return result;
            };
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    const originals = new WeakMap<object, D1PreparedStatement>();
    const counted = new Proxy(db, {
      get(target, property) {
        if (property === "prepare")
          return (query: string) => {
            const real = target.prepare(query);
            const proxy = wrap(real);
            originals.set(proxy, real);
            return proxy;
          };
        if (property === "batch")
          return async (statements: D1PreparedStatement[]) => {
            const results = await target.batch(statements);
            results.forEach(add);
            return results;
          };
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { db: counted, rows: () => rows };
  }

  it("reads the hotel's own payments and cancellations, however many another hotel has that month", async () => {
    const big = await staffSession(BIG);
    const small = await staffSession(SMALL);
    const month = "2035-03";
    const at = "2035-03-10T02:00:00.000Z";
    // 2,000 bookings of the big hotel paid and then cancelled in March 2035.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
       INSERT INTO orders (hotel_id, order_doc, idempotency_key, request_hash, booker_last_name, booker_name, booker_phone, booker_email,
                           email_key, phone_key, check_in_day, check_out_day, room_price, total_price, pay_amount, status, created_at)
       SELECT ?1, 'PT350301-MNY' || i, 'money' || i, 'x', 'Wu', 'Wu ' || i, '0911000000', 'money' || i || '@example.com',
              'money' || i || '@example.com', '+886911000000', '2035-04-01', '2035-04-02', 1000, 1000, 1000, 'cancelled', ?2
       FROM n`,
    )
      .bind(big.hotel.id, at)
      .run();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose, status, applied, paid_at, created_at)
         SELECT id, 1, 'sandbox', 'MNY' || id, 1000, 'full', 'paid', 1, ?2, ?2 FROM orders WHERE hotel_id = ?1 AND order_doc LIKE 'PT350301-MNY%'`,
      ).bind(big.hotel.id, at),
      env.DB.prepare(
        `INSERT INTO cancellations (order_id, via, reason, fee, refund, created_at)
         SELECT id, 'hotel', 'guest_asked', 0, 1000, ?2 FROM orders WHERE hotel_id = ?1 AND order_doc LIKE 'PT350301-MNY%'`,
      ).bind(big.hotel.id, at),
    ]);
    const bigReport = await monthReport(env.DB, big.hotel, month);
    expect(bigReport).toMatchObject({ received: 2_000_000, cancellations: 2000 });

    const report = rowsReadOf(env.DB);
    const smallReport = await monthReport(report.db, small.hotel, month);
    expect(smallReport).toMatchObject({ received: 0, cancellations: 0 });
    // Its rooms' nights of the month and little else: not the big hotel's 4,000 rows.
    expect(report.rows()).toBeLessThan(200);

    const exported = rowsReadOf(env.DB);
    const page = await paymentExportPage(exported.db, small.hotel, monthSpan(month, small.hotel.time_zone), null);
    expect(page.rows).toEqual([]);
    expect(exported.rows()).toBeLessThan(10);
    const bigPage = await paymentExportPage(env.DB, big.hotel, monthSpan(month, big.hotel.time_zone), null);
    expect(bigPage.rows.length).toBeGreaterThan(0);
  });
});

/** A browser at the desk: the site's signed desk cookie naming a full session, as sign-in leaves it. */
async function deskBrowser(domain: string) {
  const session = await staffSession(domain);
  const cookie = await deskCookieHeader({ SESSION_SECRET: env.SESSION_SECRET } as AppEnv, {
    domain,
    token: session.token,
    stage: "full",
    enrol: false,
  });
  return { ...session, cookie, browser: new Browser(domain, [cookie]) };
}

describe("the pages, without JavaScript", () => {
  it("list, search and open a booking; private and noindex; another hotel's booking is a 404 page", async () => {
    const { browser, cookie } = await deskBrowser(HOST);
    const pageCookie = cookie.split(";")[0]!;
    const hotel = await hotelRefs(HOST);
    const created = await orderOneNight<{ order_doc: string }>(HOST, hotel, addDays(todayIn("Asia/Taipei"), 41), {
      ...REMITTANCE,
      booker_last_name: "Tsai",
      booker_first_name: "Ying",
      booker_name: "Tsai Ying",
    });
    const doc = created.body.data.order_doc;
    const list = await browser.request("/en-US/desk/bookings?list=awaiting_payment");
    expect(list.status).toBe(200);
    expect(list.html).toContain(`href="/en-US/desk/bookings/${doc}"`);
    expect(text(list.html)).toContain("Awaiting payment");
    const found = await browser.request("/en-US/desk/bookings?q=tsai");
    expect(found.html).toContain(`href="/en-US/desk/bookings/${doc}"`);
    const stale = await browser.request("/en-US/desk/bookings?list=new&cursor=forged");
    expect(stale.status).toBe(200);
    expect(text(stale.html)).toContain("The value of cursor is not valid");

    const page = await browser.request(`/en-US/desk/bookings/${doc}`);
    expect(page.status).toBe(200);
    expect(text(page.html)).toContain("Still owed by the guest");
    expect(page.html).toContain("data-booking-actions");
    expect(page.html).toContain('data-timeline-kind="created"');
    const response = await fetchAs(HOST, `/en-US/desk/bookings/${doc}`, { headers: { cookie: pageCookie } });
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("x-robots-tag")).toBe("noindex");
    const foreign = await insertOrder(OTHER);
    expect((await browser.request(`/en-US/desk/bookings/${foreign.doc}`)).status).toBe(404);
    // Nobody signed in: the sign-in page.
    expect((await new Browser(HOST).request(`/en-US/desk/bookings/${doc}`)).location).toBe("/en-US/desk/sign-in");
  });

  it("show the month report and export its bookings as CSV: BOM, CRLF, quoted, formulas neutralized, an attachment", async () => {
    const { browser, cookie } = await deskBrowser(SMALL);
    const hotel = await hotelRefs(SMALL);
    const checkIn = addDays(todayIn("Asia/Taipei"), 50);
    const month = checkIn.slice(0, 7);
    const created = await orderOneNight<{ order_doc: string }>(SMALL, hotel, checkIn, {
      ...REMITTANCE,
      booker_first_name: 'Mei, "May"',
      booker_last_name: "=HYPERLINK(1)",
      booker_name: '=HYPERLINK(1) Mei, "May"',
      booker_email: "csv@example.com",
    });
    expect(created.status, JSON.stringify(created.body.msg)).toBe(201);
    const report = await browser.request(`/en-US/desk/reports?month=${month}`);
    expect(report.status).toBe(200);
    expect(text(report.html)).toContain("Occupancy by room type");
    expect(report.html).toContain(`/en-US/desk/exports/bookings.csv?month=${month}`);
    expect(text((await browser.request("/en-US/desk/reports?month=2026-13")).html)).toContain("A month is written YYYY-MM");

    const response = await fetchAs(SMALL, `/en-US/desk/exports/bookings.csv?month=${month}`, {
      headers: { cookie: cookie.split(";")[0]! },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="bookings-${month}.csv"`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = new TextDecoder().decode(bytes.slice(3));
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      "Booking,Made (UTC),Status,Payment status,Stay status,Name,Phone,Email,Check-in,Check-out,Adults,Children,Rooms,Total,Paid",
    );
    const row = lines.find((line) => line.startsWith(created.body.data.order_doc));
    expect(row).toContain(`"'=HYPERLINK(1) Mei, ""May"""`);
    expect(row).toContain(",'+886 912 345 678,");
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(csv.replace(/\r\n/g, "")).not.toMatch(/\n/);
    // The payments made this month (the hotel's): the transfer just recorded, with its trade number.
    await payInFull(created.body.data.order_doc, "CSV");
    const payments = await fetchAs(SMALL, `/en-US/desk/exports/payments.csv?month=${todayIn("Asia/Taipei").slice(0, 7)}`, {
      headers: { cookie: cookie.split(";")[0]! },
    });
    const paymentLines = new TextDecoder().decode(new Uint8Array(await payments.arrayBuffer()).slice(3)).split("\r\n");
    expect(paymentLines[0]).toBe("Trade number,Booking,Made (UTC),Paid at (UTC),Provider,Purpose,Status,Amount,Paid with");
    expect(
      paymentLines.some((line) => line.startsWith(`CSV${created.body.data.order_doc.replace(/-/g, "")},${created.body.data.order_doc},`)),
    ).toBe(true);
    const bad = await fetchAs(SMALL, "/en-US/desk/exports/bookings.csv?month=november", { headers: { cookie: cookie.split(";")[0]! } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("A month is written YYYY-MM");
  });
});
