/**
 * The desk's booking actions (issue 39, decision 151), against the built-in back end and a real D1:
 * every action, and every race the issue names. A race is played deterministically: the competing
 * change (a gateway callback, the expiry sweep, a second member of staff, another guest's booking)
 * lands between the moment the desk read the booking and the moment its batch runs (`racing`), so
 * only the checks inside the batch can keep the money right.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { sha256Hex } from "~/lib/crypto";
import { handleBackendRequest } from "~/backend/router.server";
import { markOrderPaid } from "~/backend/payments/settle.server";
import { expireOrder } from "~/backend/payments/expiry.server";
import { issueMemberToken } from "~/backend/account/members.server";
import { createLogger } from "~/platform/log.server";
import { parseEnv } from "~/platform/env.server";
import { refundDue } from "~/backend/payments/refund-ledger.server";
import { takeDeskNotice } from "~/features/desk/action-notice.server";
import { deskCookieHeader } from "~/features/desk/cookie.server";
import { BOOKER, Browser, TEST_ADDONS, fetchAs, fixtureHotel, fixtureIds, hidden, loadHotel, type Envelope } from "./helpers";

const HOST = "desk-actions.localhost";
const OTHER = "desk-actions-other.localhost";
const today = todayIn("Asia/Taipei");
const log = createLogger("test");

const ids: Record<string, Record<string, number>> = {};
const tokens: Record<string, string> = {};

const hotelFile = (domain: string) =>
  fixtureHotel(domain, (file) => {
    file.room_classes[0]!.total_rooms = 30;
    Object.assign(file.hotel, {
      payment_list: [
        { vendor_id: 8, method: "remittance" },
        { vendor_id: 14, method: "pay_arrival" },
        { vendor_id: 1, method: "credit" },
      ],
      payment_gateways: [
        { vendor_id: 1, provider: "sandbox", merchant_id: "3002607" },
        // ECPay's staging merchant, whose answers a test gives in place of ECPay (the desk's refunds through a real adapter).
        {
          vendor_id: 2,
          provider: "ecpay_aio",
          mode: "test",
          merchant_id: "3002607",
          secrets: { hash_key: "PAY_ECPAY_KEY", hash_iv: "PAY_ECPAY_IV" },
        },
      ],
    });
    // No free window: the standard contract decides (advance money: 3+ days 100 %, 1–2 days 50 %, the day 0 %).
    for (const plan of file.rate_plans as { refund_template_id?: number }[]) plan.refund_template_id = 0;
    file.inventory.sold_out = [];
    (file as Record<string, unknown>).addons = [TEST_ADDONS.pickup];
    (file as Record<string, unknown>).members = [
      { email: "points@guest.example", first_name: "Yu", last_name: "Chen", phone: "0912 000 111", points: 1_000 },
    ];
  });

/** A staff member of `domain` with a full session made directly in D1 (only the token's SHA-256 is kept). */
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
  tokens.second = await staffSession(HOST, "front_desk", "second@hotel.example");
  tokens.owner = await staffSession(HOST, "owner", "owner@hotel.example");
  tokens.reader = await staffSession(HOST, "read_only", "reader@hotel.example");
  tokens.other = await staffSession(OTHER, "owner", "owner@other.example");
});

/**
 * The D1 binding with a competitor: `before` runs once, just before the first batch sent through
 * it — after the desk read the booking, before the batch that applies the action.
 */
function racing(db: D1Database, before: () => Promise<unknown>): D1Database {
  let raced = false;
  return new Proxy(db, {
    get(target, property) {
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (!raced) {
            raced = true;
            await before();
          }
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The D1 binding with a competitor that runs once, just before the first statement whose SQL
 * matches `at` is sent (a statement run on its own, not in a batch).
 */
function racingAt(db: D1Database, at: RegExp, before: () => Promise<unknown>): D1Database {
  let raced = false;
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property) as unknown;
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        if ((property === "first" || property === "run" || property === "all") && at.test(sql)) {
          return async (...args: unknown[]) => {
            if (!raced) {
              raced = true;
              await before();
            }
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function call<T>(path: string, body: unknown, headers: Record<string, string> = {}, db: D1Database = env.DB) {
  const request = new Request(`http://${HOST}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const response = await handleBackendRequest(request, { db, signingSecret: env.SESSION_SECRET as string, now: new Date() });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

const newFormKey = () => `fk${crypto.randomUUID().replaceAll("-", "")}`;

interface ActResult {
  outcome: "done" | "already_done";
  reinstated?: boolean;
  refund?: number;
  fee?: number;
  due?: number;
}

function act(
  doc: string,
  action: string,
  fields: Record<string, unknown> = {},
  { token = tokens.desk!, formKey = newFormKey(), db = env.DB, domain = HOST } = {},
) {
  return call<ActResult>(
    `/api/desk/bookings/${doc}/actions/${action}?lang=en-US`,
    { domain, form_key: formKey, ...fields },
    { "x-desk-session": token },
    db,
  );
}

let seq = 0;
/** Books one night from `checkIn` (remittance unless told), through the API as a guest would. */
async function book(checkIn: string, overrides: Record<string, unknown> = {}, domain = HOST) {
  const refs = ids[domain]!;
  const created = await call<{ order_doc: string }>(
    "/api/ota/order/personal-new?lang=en-US",
    {
      domain,
      ...BOOKER,
      check_in_day: checkIn,
      check_out_day: addDays(checkIn, 1),
      pay_way: "remittance",
      payment_vendor: 8,
      orders: [{ room_class_id: refs.room, proposal_id: refs.BAR, num: 1 }],
      adults_count: 2,
      ...overrides,
    },
    { "idempotency-key": `desk-actions-${++seq}-${Date.now()}` },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.order_doc;
}

interface OrderState {
  id: number;
  status: string;
  paid_amount: number;
  total_price: number;
  payment_status: number;
  pay_deadline: string | null;
  stay_status: string;
}

const orderOf = (doc: string) =>
  env.DB.prepare("SELECT id, status, paid_amount, total_price, payment_status, pay_deadline, stay_status FROM orders WHERE order_doc = ?")
    .bind(doc)
    .first<OrderState>() as Promise<OrderState>;

const deskPayments = async (doc: string) =>
  (
    await env.DB.prepare(
      "SELECT p.amount, p.status, p.paid_with, p.reference, p.staff_id, p.purpose FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.order_doc = ? AND p.provider = 'desk' ORDER BY p.id",
    )
      .bind(doc)
      .all<{ amount: number; status: string; paid_with: string; reference: string; staff_id: number; purpose: string }>()
  ).results;

const auditRows = async (doc: string) =>
  (
    await env.DB.prepare("SELECT action, staff_email, form_key, after FROM audit_log WHERE subject = ? ORDER BY id")
      .bind(`order:${doc}`)
      .all<{ action: string; staff_email: string; form_key: string | null; after: string }>()
  ).results;

const mails = async (doc: string, kind: string) =>
  (
    await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox m JOIN orders o ON o.id = m.order_id WHERE o.order_doc = ? AND m.kind = ?")
      .bind(doc, kind)
      .first<{ n: number }>()
  )?.n ?? 0;

const roomsHeld = async (doc: string) =>
  (
    await env.DB.prepare("SELECT COUNT(*) AS n FROM order_nights n JOIN orders o ON o.id = n.order_id WHERE o.order_doc = ?")
      .bind(doc)
      .first<{ n: number }>()
  )?.n ?? 0;

const refundDueOf = async (doc: string) => refundDue(env.DB, (await orderOf(doc)).id);

const transfer = (amount: number) => ({ amount, transfer_date: today, account_last5: "54321" });

/** A gateway attempt for the order, pending, as /api/payment/start leaves it. */
async function gatewayAttempt(doc: string, amount: number) {
  const order = await orderOf(doc);
  const tradeNo = `GW${++seq}${Date.now()}`.slice(0, 20);
  return env.DB.prepare(
    "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) VALUES (?, 1, 'sandbox', ?, ?, 'full') RETURNING id, order_id, amount",
  )
    .bind(order.id, tradeNo, amount)
    .first<{ id: number; order_id: number; amount: number }>() as Promise<{ id: number; order_id: number; amount: number }>;
}

/** The expiry sweep, for one order whose deadline has just passed. */
async function sweep(doc: string) {
  await env.DB.prepare("UPDATE orders SET pay_deadline = ? WHERE order_doc = ?")
    .bind(new Date(Date.now() - 60_000).toISOString(), doc)
    .run();
  const order = await env.DB.prepare(
    "SELECT id, order_doc, member_id, point_used, status, payment_status, pay_deadline FROM orders WHERE order_doc = ?",
  )
    .bind(doc)
    .first<Parameters<typeof expireOrder>[1]>();
  expect(await expireOrder(env.DB, order!, new Date())).toBe(true);
}

describe("record a bank transfer", () => {
  it("settles the order as a gateway callback would: paid, the receipt queued, the transfer and the staff member recorded, audited", async () => {
    const doc = await book(addDays(today, 20));
    const before = await orderOf(doc);
    expect(before.status).toBe("pending_payment");
    const formKey = newFormKey();
    const done = await act(doc, "record_transfer", transfer(before.total_price), { formKey });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.outcome).toBe("done");
    const after = await orderOf(doc);
    expect(after).toMatchObject({ status: "confirmed", paid_amount: before.total_price, payment_status: 2, pay_deadline: null });
    const [payment] = await deskPayments(doc);
    expect(payment).toMatchObject({
      amount: before.total_price,
      status: "paid",
      paid_with: "transfer",
      reference: `${today} *54321`,
      purpose: "full",
    });
    expect(await mails(doc, "paid_receipt")).toBe(1);
    const audit = await auditRows(doc);
    expect(audit.map((row) => [row.action, row.staff_email, row.form_key])).toEqual([["record_transfer", "desk@hotel.example", formKey]]);

    // The same form again (a double click, a back button): "already done", nothing counted twice.
    const replay = await act(doc, "record_transfer", transfer(before.total_price), { formKey });
    expect(replay.status).toBe(200);
    expect(replay.body.data.outcome).toBe("already_done");
    expect((await orderOf(doc)).paid_amount).toBe(before.total_price);
    expect(await deskPayments(doc)).toHaveLength(1);
    expect(await mails(doc, "paid_receipt")).toBe(1);
    expect(await auditRows(doc)).toHaveLength(1);
  });

  it("takes a deposit, then the rest at the hotel (cash): paid in part, then in full", async () => {
    const doc = await book(addDays(today, 21));
    const { total_price: total } = await orderOf(doc);
    const deposit = Math.floor(total * 0.3);
    expect((await act(doc, "record_transfer", transfer(deposit))).status).toBe(200);
    expect(await orderOf(doc)).toMatchObject({ status: "confirmed", paid_amount: deposit, payment_status: 1 });
    const rest = await act(doc, "record_at_hotel", { amount: total - deposit, method: "cash", reference: "R-88" });
    expect(rest.status).toBe(200);
    expect(await orderOf(doc)).toMatchObject({ paid_amount: total, payment_status: 2 });
    expect((await deskPayments(doc)).map((row) => [row.purpose, row.paid_with])).toEqual([
      ["deposit", "transfer"],
      ["balance", "cash"],
    ]);
  });

  it("refuses more than is owed, and bad input, in the staff member's language, writing nothing", async () => {
    const doc = await book(addDays(today, 22));
    const { total_price: total } = await orderOf(doc);
    const over = await act(doc, "record_transfer", transfer(total + 1));
    expect(over.status).toBe(400);
    expect(over.body.msg.code).toBe("desk_amount_over_owed");
    expect(over.body.msg.message).toContain(String(total));
    for (const fields of [
      { amount: 100, transfer_date: today, account_last5: "12ab5" },
      { amount: -5, transfer_date: today, account_last5: "12345" },
      { amount: 100, transfer_date: "2026-13-40", account_last5: "12345" },
      { amount: 100, transfer_date: addDays(today, 1), account_last5: "12345" },
    ]) {
      const bad = await act(doc, "record_transfer", fields);
      expect(bad.status, JSON.stringify(fields)).toBe(400);
    }
    const zh = await call<unknown>(
      `/api/desk/bookings/${doc}/actions/record_transfer?lang=zh-TW`,
      { domain: HOST, form_key: newFormKey(), ...transfer(total + 1) },
      { "x-desk-session": tokens.desk! },
    );
    expect(zh.body.msg.message).toContain("尚欠");
    expect(await deskPayments(doc)).toHaveLength(0);
    expect(await auditRows(doc)).toHaveLength(0);
    expect((await orderOf(doc)).paid_amount).toBe(0);
  });

  it("race: a gateway callback for the same order lands first: the desk's record is refused, the money counted once", async () => {
    const doc = await book(addDays(today, 23));
    const { total_price: total } = await orderOf(doc);
    const attempt = await gatewayAttempt(doc, total);
    const formKey = newFormKey();
    const raced = await act(doc, "record_transfer", transfer(total), {
      formKey,
      db: racing(env.DB, () => markOrderPaid(env.DB, log, attempt, "G-CALLBACK")),
    });
    expect(raced.status, JSON.stringify(raced.body)).toBe(409);
    expect(raced.body.msg.code).toBe("desk_nothing_owed");
    expect(await orderOf(doc)).toMatchObject({ paid_amount: total, payment_status: 2 });
    expect(await deskPayments(doc)).toHaveLength(0);
    // Refused whole: no audit entry, and the form's key is still unused.
    expect(await auditRows(doc)).toHaveLength(0);
  });

  it("race: the desk's record lands first: the callback's money is kept as overpaid (to refund), never counted", async () => {
    const doc = await book(addDays(today, 24));
    const { total_price: total } = await orderOf(doc);
    const attempt = await gatewayAttempt(doc, total);
    expect((await act(doc, "record_transfer", transfer(total))).status).toBe(200);
    const late = await markOrderPaid(env.DB, log, attempt, "G-CALLBACK");
    expect(late).toMatchObject({ changed: false, owed: "overpaid" });
    expect((await orderOf(doc)).paid_amount).toBe(total);
  });

  it("race: two staff record the same transfer at once: one is applied, the other refused", async () => {
    const doc = await book(addDays(today, 25));
    const { total_price: total } = await orderOf(doc);
    const first = await act(doc, "record_transfer", transfer(total), {
      token: tokens.desk,
      db: racing(env.DB, async () => {
        const second = await act(doc, "record_transfer", transfer(total), { token: tokens.second });
        expect(second.status).toBe(200);
      }),
    });
    expect(first.status).toBe(409);
    expect(first.body.msg.code).toBe("desk_nothing_owed");
    expect(await deskPayments(doc)).toHaveLength(1);
    expect((await orderOf(doc)).paid_amount).toBe(total);
    expect((await auditRows(doc)).map((row) => row.staff_email)).toEqual(["second@hotel.example"]);
  });

  it("race: the expiry sweep cancels the booking while the transfer is recorded: it is reinstated and paid", async () => {
    const doc = await book(addDays(today, 26));
    const { total_price: total } = await orderOf(doc);
    const done = await act(doc, "record_transfer", transfer(total), { db: racing(env.DB, () => sweep(doc)) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await orderOf(doc)).toMatchObject({ status: "confirmed", paid_amount: total, payment_status: 2 });
    expect(await roomsHeld(doc)).toBe(1);
    const cancellation = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE o.order_doc = ?",
    )
      .bind(doc)
      .first<{ n: number }>();
    expect(cancellation?.n).toBe(0);
  });

  it("reinstates a booking the sweep already cancelled when its room is still free", async () => {
    const night = addDays(today, 27);
    const doc = await book(night);
    await sweep(doc);
    expect(await roomsHeld(doc)).toBe(0);
    const { total_price: total } = await orderOf(doc);
    const done = await act(doc, "record_transfer", transfer(total));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.reinstated).toBe(true);
    expect(await orderOf(doc)).toMatchObject({ status: "confirmed", paid_amount: total });
    expect(await roomsHeld(doc)).toBe(1);
    const booked = await env.DB.prepare("SELECT booked FROM room_nights WHERE room_class_id = ? AND night = ?")
      .bind(ids[HOST]!.room, night)
      .first<{ booked: number }>();
    expect(booked?.booked).toBe(1);
  });

  it("race: another guest takes the last room while a swept booking is reinstated: refused with the reason, nothing written", async () => {
    const night = addDays(today, 28);
    await env.DB.prepare("UPDATE room_nights SET capacity = 1 WHERE room_class_id = ? AND night = ?").bind(ids[HOST]!.room, night).run();
    const doc = await book(night);
    await sweep(doc);
    const { total_price: total } = await orderOf(doc);
    let taker = "";
    const refused = await act(doc, "record_transfer", transfer(total), {
      db: racing(env.DB, async () => {
        taker = await book(night, { pay_way: "pay_arrival", payment_vendor: 14 });
      }),
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.msg.code).toBe("desk_reinstate_taken");
    expect(refused.body.msg.message).toMatch(/cannot be reinstated/);
    expect(await orderOf(doc)).toMatchObject({ status: "cancelled", paid_amount: 0 });
    expect(await deskPayments(doc)).toHaveLength(0);
    expect(await auditRows(doc)).toHaveLength(0);
    expect(await roomsHeld(taker)).toBe(1);
  });
});

describe("reinstating a booking paid partly with points", () => {
  const memberPoints = async () =>
    (
      await env.DB.prepare("SELECT m.points FROM members m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ? AND m.email = ?")
        .bind(HOST, "points@guest.example")
        .first<{ points: number }>()
    )?.points;
  const setPoints = (points: number) =>
    env.DB.prepare("UPDATE members SET points = ? WHERE email = ? AND hotel_id = (SELECT id FROM hotels WHERE domain = ?)")
      .bind(points, "points@guest.example", HOST)
      .run();
  async function memberBooking(night: string) {
    const member = await env.DB.prepare("SELECT m.id FROM members m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ? AND m.email = ?")
      .bind(HOST, "points@guest.example")
      .first<{ id: number }>();
    const bearer = await issueMemberToken(env.DB, member?.id ?? 0);
    const refs = ids[HOST]!;
    const created = await call<{ order_doc: string }>(
      "/api/ota/order/personal-new?lang=en-US",
      {
        domain: HOST,
        ...BOOKER,
        check_in_day: night,
        check_out_day: addDays(night, 1),
        pay_way: "remittance",
        payment_vendor: 8,
        orders: [{ room_class_id: refs.room, proposal_id: refs.BAR, num: 1 }],
        adults_count: 2,
        point_used: 300,
      },
      { "idempotency-key": `desk-actions-points-${++seq}-${Date.now()}`, authorization: `Bearer ${bearer}` },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.order_doc;
  }
  const ledger = async (doc: string) =>
    (
      await env.DB.prepare(
        "SELECT l.delta, l.reason FROM point_ledger l JOIN orders o ON o.id = l.order_id WHERE o.order_doc = ? ORDER BY l.id",
      )
        .bind(doc)
        .all<{ delta: number; reason: string }>()
    ).results;

  it("spends the member's points again when the transfer is recorded after the sweep gave them back", async () => {
    await setPoints(1_000);
    const doc = await memberBooking(addDays(today, 38));
    expect(await memberPoints()).toBe(700);
    await sweep(doc);
    expect(await memberPoints()).toBe(1_000);
    const { total_price: total } = await orderOf(doc);
    const done = await act(doc, "record_transfer", transfer(total));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.reinstated).toBe(true);
    expect(await orderOf(doc)).toMatchObject({ status: "confirmed", paid_amount: total });
    expect(await memberPoints()).toBe(700);
    expect(await ledger(doc)).toEqual([
      { delta: -300, reason: "order" },
      { delta: 300, reason: "cancellation" },
      { delta: -300, reason: "reinstatement" },
    ]);
  });

  it("refuses when the member has spent the points meanwhile, saying so, and writes nothing", async () => {
    await setPoints(1_000);
    const doc = await memberBooking(addDays(today, 39));
    await sweep(doc);
    await setPoints(100);
    const { total_price: total } = await orderOf(doc);
    const refused = await act(doc, "record_transfer", transfer(total));
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.msg.code).toBe("desk_reinstate_points");
    expect(refused.body.msg.message).toMatch(/points/);
    expect(await orderOf(doc)).toMatchObject({ status: "cancelled", paid_amount: 0 });
    expect(await memberPoints()).toBe(100);
    expect(await deskPayments(doc)).toHaveLength(0);
    expect(await auditRows(doc)).toHaveLength(0);
    expect(await roomsHeld(doc)).toBe(0);
  });
});

describe("reinstating takes back add-ons and train seats too", () => {
  /** What the booking holds besides its room: one limited add-on unit and one reserved train seat, as its batch would take them. */
  async function holdExtras(doc: string, day: string, train: string) {
    const { id } = await orderOf(doc);
    await env.DB.prepare("INSERT OR IGNORE INTO rail_allotments (hotel_id, train_no, day, seats) VALUES (?, ?, ?, 1)")
      .bind(ids[HOST]!.hotel, train, day)
      .run();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO order_addon_days (order_id, addon_id, day, units) VALUES (?, ?, ?, 1)").bind(id, ids[HOST]!.pickup, day),
      env.DB.prepare(
        `INSERT INTO rail_reservations (order_id, hotel_id, direction, day, train_no, origin_id, destination_id, departure_time, arrival_time, adult, seats, fares, amount)
         VALUES (?, ?, 'outbound', ?, ?, '1000', '1070', '08:00', '09:30', 1, 1, '{}', 0)`,
      ).bind(id, ids[HOST]!.hotel, day, train),
    ]);
  }
  const seatsTaken = async (train: string, day: string) =>
    (
      await env.DB.prepare("SELECT taken FROM rail_allotments WHERE hotel_id = ? AND train_no = ? AND day = ?")
        .bind(ids[HOST]!.hotel, train, day)
        .first<{ taken: number }>()
    )?.taken;
  const unitsTaken = async (day: string) =>
    (
      await env.DB.prepare("SELECT taken FROM addon_days WHERE addon_id = ? AND day = ?")
        .bind(ids[HOST]!.pickup, day)
        .first<{ taken: number }>()
    )?.taken;

  it("a swept booking gets its add-on and its train seat back, and its tickets are issued with the payment", async () => {
    const day = addDays(today, 36);
    const doc = await book(day);
    await holdExtras(doc, day, "0601");
    await sweep(doc);
    expect([await seatsTaken("0601", day), await unitsTaken(day)]).toEqual([0, 0]);
    const done = await act(doc, "record_transfer", transfer((await orderOf(doc)).total_price));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect([await seatsTaken("0601", day), await unitsTaken(day)]).toEqual([1, 1]);
    const line = await env.DB.prepare("SELECT r.status FROM rail_reservations r JOIN orders o ON o.id = r.order_id WHERE o.order_doc = ?")
      .bind(doc)
      .first<{ status: string }>();
    expect(line?.status).toBe("booked");
  });

  it("refuses when another booking took the train seat meanwhile, and writes nothing", async () => {
    const day = addDays(today, 37);
    const doc = await book(day);
    await holdExtras(doc, day, "0603");
    await sweep(doc);
    const other = await book(day);
    await env.DB.prepare(
      `INSERT INTO rail_reservations (order_id, hotel_id, direction, day, train_no, origin_id, destination_id, departure_time, arrival_time, adult, seats, fares, amount)
       VALUES (?, ?, 'outbound', ?, '0603', '1000', '1070', '08:00', '09:30', 1, 1, '{}', 0)`,
    )
      .bind((await orderOf(other)).id, ids[HOST]!.hotel, day)
      .run();
    const refused = await act(doc, "record_transfer", transfer((await orderOf(doc)).total_price));
    expect(refused.status).toBe(409);
    expect(refused.body.msg.code).toBe("desk_reinstate_taken");
    expect(await orderOf(doc)).toMatchObject({ status: "cancelled", paid_amount: 0 });
    expect([await roomsHeld(doc), await unitsTaken(day), await seatsTaken("0603", day)]).toEqual([0, 0, 1]);
  });
});

describe("who may act, and on what", () => {
  it("refuses read-only staff, no session, and another hotel's session, writing nothing", async () => {
    const doc = await book(addDays(today, 30));
    const { total_price: total } = await orderOf(doc);
    const reader = await act(doc, "record_transfer", transfer(total), { token: tokens.reader });
    expect(reader.status).toBe(403);
    expect(reader.body.msg.code).toBe("desk_forbidden");
    const nobody = await act(doc, "note", { note: "x" }, { token: "" });
    expect(nobody.status).toBe(401);
    const otherHotel = await act(doc, "record_transfer", transfer(total), { token: tokens.other });
    expect(otherHotel.status).toBe(401);
    expect(await deskPayments(doc)).toHaveLength(0);
    expect(await auditRows(doc)).toHaveLength(0);
  });

  it("answers another hotel's booking as not found, never its data", async () => {
    const theirs = await book(addDays(today, 30), {}, OTHER);
    const tried = await act(theirs, "record_transfer", transfer(100));
    expect(tried.status).toBe(404);
    expect(tried.body.msg.code).toBe("order_not_found");
    expect(JSON.stringify(tried.body)).not.toContain(BOOKER.booker_email);
    expect((await orderOf(theirs)).paid_amount).toBe(0);
    const unknown = await act(theirs, "launch_rockets");
    expect(unknown.status).toBe(404);
  });
});

describe("deadline, stay and paperwork", () => {
  it("extends a payment deadline, never past the start of the check-in day, only ever later", async () => {
    const checkIn = addDays(today, 10);
    const doc = await book(checkIn);
    const before = (await orderOf(doc)).pay_deadline!;
    const later = await act(doc, "extend_deadline", { deadline_day: addDays(today, 6) });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    const extended = (await orderOf(doc)).pay_deadline!;
    expect(extended > before).toBe(true);
    const capped = await act(doc, "extend_deadline", { deadline_day: addDays(today, 40) });
    expect(capped.status).toBe(200);
    const cap = (await orderOf(doc)).pay_deadline!;
    // The start of the check-in day in Taipei (UTC+8).
    expect(cap).toBe(new Date(`${checkIn}T00:00:00+08:00`).toISOString());
    const earlier = await act(doc, "extend_deadline", { deadline_day: addDays(today, 3) });
    expect(earlier.status).toBe(400);
    expect(earlier.body.msg.code).toBe("desk_deadline_invalid");
  });

  it("checks a pay-at-arrival guest in, takes the payment at the desk by card, checks out", async () => {
    const doc = await book(today, { pay_way: "pay_arrival", payment_vendor: 14 });
    expect((await orderOf(doc)).status).toBe("confirmed");
    expect((await act(doc, "check_out")).body.msg.code).toBe("desk_stay_stage");
    const checkIn = await act(doc, "check_in");
    expect(checkIn.status, JSON.stringify(checkIn.body)).toBe(200);
    expect((await orderOf(doc)).stay_status).toBe("in_house");
    const { total_price: total } = await orderOf(doc);
    expect((await act(doc, "record_at_hotel", { amount: total, method: "card_terminal", reference: "slip 0042" })).status).toBe(200);
    expect(await orderOf(doc)).toMatchObject({ paid_amount: total, payment_status: 2 });
    expect((await act(doc, "check_out")).status).toBe(200);
    expect((await orderOf(doc)).stay_status).toBe("checked_out");
    expect((await act(doc, "check_in")).body.msg.code).toBe("desk_stay_stage");
    expect((await auditRows(doc)).map((row) => row.action)).toEqual(["check_in", "record_at_hotel", "check_out"]);
  });

  it("refuses to check in before the check-in day, and a booking still awaiting its transfer", async () => {
    const early = await book(addDays(today, 2), { pay_way: "pay_arrival", payment_vendor: 14 });
    expect((await act(early, "check_in")).body.msg.code).toBe("desk_checkin_day");
    const unpaid = await book(today);
    expect((await act(unpaid, "check_in")).body.msg.code).toBe("desk_checkin_unpaid");
  });

  it("marks a no-show from the check-in day: the booking ends, its room is released, the fee follows the rules", async () => {
    const doc = await book(today, { pay_way: "pay_arrival", payment_vendor: 14 });
    const { total_price: total } = await orderOf(doc);
    expect((await act(doc, "record_at_hotel", { amount: total, method: "cash" })).status).toBe(200);
    const noShow = await act(doc, "no_show", { reason: "did not come" });
    expect(noShow.status, JSON.stringify(noShow.body)).toBe(200);
    // On the day, the standard contract gives nothing back: the hotel keeps what was paid.
    expect(noShow.body.data).toMatchObject({ refund: 0, fee: total });
    expect(await orderOf(doc)).toMatchObject({ status: "cancelled", stay_status: "no_show" });
    expect(await roomsHeld(doc)).toBe(0);
  });

  it("resends the confirmation, at most three a day", async () => {
    const doc = await book(addDays(today, 31));
    const first = await mails(doc, "order_confirmation");
    let sent = first;
    while (sent < 3) {
      expect((await act(doc, "resend_confirmation")).status).toBe(200);
      sent += 1;
    }
    expect(await mails(doc, "order_confirmation")).toBe(3);
    const refused = await act(doc, "resend_confirmation");
    expect(refused.status).toBe(429);
    expect(refused.body.msg.code).toBe("desk_resend_limit");
    expect(await mails(doc, "order_confirmation")).toBe(3);
  });

  it("adds a note to the booking's audit trail", async () => {
    const doc = await book(addDays(today, 31));
    expect((await act(doc, "note", { note: "Guest asked for a quiet room" })).status).toBe(200);
    expect((await act(doc, "note", { note: "" })).status).toBe(400);
    const [row] = await auditRows(doc);
    expect(JSON.parse(row!.after)).toEqual({ note: "Guest asked for a quiet room" });
  });
});

describe("cancel on the guest's behalf, and refunds", () => {
  it("cancels with the refund the rules give; the refund paid back by hand once, never twice", async () => {
    // Two days ahead: money paid in advance comes back at 50 %.
    const doc = await book(addDays(today, 2));
    const { total_price: total } = await orderOf(doc);
    expect((await act(doc, "record_transfer", transfer(total))).status).toBe(200);
    const cancelled = await act(doc, "cancel", { reason: "Guest phoned" });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const half = Math.floor(total / 2);
    expect(cancelled.body.data.refund).toBeGreaterThanOrEqual(half);
    const refund = cancelled.body.data.refund!;
    expect(refund).toBeLessThan(total);
    expect(await orderOf(doc)).toMatchObject({ status: "cancelled" });
    expect(await roomsHeld(doc)).toBe(0);
    const record = () =>
      env.DB.prepare(
        "SELECT c.refund, c.refund_status, c.via FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE o.order_doc = ?",
      )
        .bind(doc)
        .first<{ refund: number; refund_status: string; via: string }>();
    // Money recorded at the desk is not a gateway's to give back: it stays due, for the hotel.
    expect(await record()).toMatchObject({ refund, refund_status: "due", via: "hotel" });

    // Race: two staff pay the same refund back by hand at once: one is recorded.
    const first = await act(
      doc,
      "refund",
      { method: "manual", amount: refund, reference: "bank ref A" },
      {
        db: racing(env.DB, async () => {
          const second = await act(doc, "refund", { method: "manual", amount: refund, reference: "bank ref B" }, { token: tokens.second });
          expect(second.status, JSON.stringify(second.body)).toBe(200);
        }),
      },
    );
    expect(first.status).toBe(409);
    expect(first.body.msg.code).toBe("desk_nothing_due");
    const refunds = await env.DB.prepare(
      "SELECT r.amount, r.reference FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.order_doc = ?",
    )
      .bind(doc)
      .all<{ amount: number; reference: string }>();
    expect(refunds.results).toEqual([{ amount: refund, reference: "bank ref B" }]);
    expect(await record()).toMatchObject({ refund_status: "refunded" });
    expect((await act(doc, "refund", { method: "manual", amount: 1, reference: "again" })).body.msg.code).toBe("desk_nothing_due");
  });

  it("race: the guest cancels by the emailed link while staff cancel: one cancellation, its refund due once", async () => {
    const refs = ids[HOST]!;
    const checkIn = addDays(today, 40);
    const created = await call<{ order_doc: string; order: { cancel_hash: string } }>(
      "/api/ota/order/personal-new?lang=en-US",
      {
        domain: HOST,
        ...BOOKER,
        check_in_day: checkIn,
        check_out_day: addDays(checkIn, 1),
        pay_way: "remittance",
        payment_vendor: 8,
        orders: [{ room_class_id: refs.room, proposal_id: refs.BAR, num: 1 }],
        adults_count: 2,
      },
      { "idempotency-key": `desk-actions-race-cancel-${Date.now()}` },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const doc = created.body.data.order_doc;
    const { total_price: total } = await orderOf(doc);
    expect((await act(doc, "record_transfer", transfer(total))).status).toBe(200);
    const byStaff = await act(
      doc,
      "cancel",
      { reason: "Guest phoned" },
      {
        db: racing(env.DB, async () => {
          const byGuest = await call(`/api/wota/order/cancel-via-hash/${doc}?lang=en-US`, {
            domain: HOST,
            valid_hash: created.body.data.order.cancel_hash,
            reason: "Plans changed",
          });
          expect(byGuest.status, JSON.stringify(byGuest.body)).toBe(200);
        }),
      },
    );
    expect([byStaff.status, byStaff.body.msg.code]).toEqual([409, "already_cancelled"]);
    const cancellations = await env.DB.prepare(
      "SELECT c.via, c.refund FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE o.order_doc = ?",
    )
      .bind(doc)
      .all<{ via: string; refund: number }>();
    // Forty days ahead the rules give everything back: due once, by the guest's cancellation.
    expect(cancellations.results).toEqual([{ via: "hash", refund: total }]);
    expect(await refundDueOf(doc)).toBe(total);
    expect(await roomsHeld(doc)).toBe(0);
  });

  it("cancels with the fee waived: everything paid is due back", async () => {
    const doc = await book(addDays(today, 1));
    const { total_price: total } = await orderOf(doc);
    expect((await act(doc, "record_transfer", transfer(total))).status).toBe(200);
    const cancelled = await act(doc, "cancel", { reason: "Typhoon", waive_fee: true });
    expect(cancelled.body.data).toMatchObject({ refund: total, fee: 0 });
    expect((await act(doc, "refund", { method: "manual", amount: total + 1, reference: "r" })).body.msg.code).toBe("desk_refund_over_due");
    // A transfer is not a gateway's to give back, and money paid back by hand names its reference.
    expect((await act(doc, "refund", { method: "gateway", amount: total })).body.msg.code).toBe("desk_refund_no_gateway");
    expect((await act(doc, "refund", { method: "manual", amount: total, reference: "" })).status).toBe(400);
    expect((await act(doc, "cancel", { reason: "again" })).body.msg.code).toBe("desk_order_cancelled");
  });

  it("refunds overpaid money through the gateway that took it, and records it", async () => {
    const doc = await book(addDays(today, 32), { pay_way: "credit", payment_vendor: 1 });
    const { total_price: total } = await orderOf(doc);
    const paid = await gatewayAttempt(doc, total);
    await markOrderPaid(env.DB, log, paid, "G-ONE");
    const twice = await gatewayAttempt(doc, total);
    expect((await markOrderPaid(env.DB, log, twice, "G-TWO")).owed).toBe("overpaid");
    const back = await act(doc, "refund", { method: "gateway", amount: total });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.data.due).toBe(0);
    const rows = await env.DB.prepare("SELECT amount, method, status, payment_id FROM refunds WHERE order_id = ?")
      .bind(paid.order_id)
      .all<{ amount: number; method: string; status: string; payment_id: number }>();
    expect(rows.results).toEqual([{ amount: total, method: "gateway", status: "done", payment_id: twice.id }]);
    expect((await act(doc, "refund", { method: "gateway", amount: total })).body.msg.code).toBe("desk_nothing_due");
    expect((await orderOf(doc)).paid_amount).toBe(total);
  });

  it("race: staff pay a cancellation's refund back by hand while the gateway is about to be asked: it is not asked", async () => {
    // Two days ahead: half comes back, so two refunds of it would still be within what was paid.
    const doc = await book(addDays(today, 2), { pay_way: "credit", payment_vendor: 1 });
    const { total_price: total } = await orderOf(doc);
    const paid = await gatewayAttempt(doc, total);
    await markOrderPaid(env.DB, log, paid, "G-CANCEL");
    let byHand = 0;
    const cancelled = await act(
      doc,
      "cancel",
      { reason: "Guest phoned" },
      {
        db: racingAt(env.DB, /INSERT INTO refunds/, async () => {
          byHand = (await refundDueOf(doc)) ?? 0;
          const manual = await act(
            doc,
            "refund",
            { method: "manual", amount: byHand, reference: "cash at desk" },
            { token: tokens.second },
          );
          expect(manual.status, JSON.stringify(manual.body)).toBe(200);
        }),
      },
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(byHand).toBe(cancelled.body.data.refund);
    expect(byHand).toBeLessThan(total);
    const rows = await env.DB.prepare("SELECT method, status, amount FROM refunds WHERE order_id = ? AND status != 'failed'")
      .bind(paid.order_id)
      .all<{ method: string; status: string; amount: number }>();
    expect(rows.results).toEqual([{ method: "manual", status: "done", amount: byHand }]);
    const payment = await env.DB.prepare("SELECT status FROM payments WHERE id = ?").bind(paid.id).first<{ status: string }>();
    expect(payment?.status).toBe("paid");
  });

  it("a refund ECPay refuses stays due, saying ECPay's reason; asked again, it is paid back once", async () => {
    const doc = await book(addDays(today, 34), { pay_way: "credit", payment_vendor: 1 });
    const { id, total_price: total } = await orderOf(doc);
    const tradeNo = `EC${++seq}${Date.now()}`.slice(0, 20);
    const payment = await env.DB.prepare(
      "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) VALUES (?, 2, 'ecpay_aio', ?, ?, 'full') RETURNING id, order_id, amount",
    )
      .bind(id, tradeNo, total)
      .first<{ id: number; order_id: number; amount: number }>();
    await markOrderPaid(env.DB, log, payment!, "2303121530230001");
    const cancelled = await act(doc, "cancel", { reason: "Guest phoned", waive_fee: true });
    expect(cancelled.body.data).toMatchObject({ refund: total });
    const rows = async () =>
      (await env.DB.prepare("SELECT amount, method, status, message FROM refunds WHERE order_id = ? ORDER BY id").bind(id).all()).results;
    // The cancellation asked the gateway and could not (no ECPay keys given to that call): the claim
    // is freed and the money stays due, never hidden by a claim left pending.
    expect(await rows()).toEqual([{ amount: total, method: "gateway", status: "failed", message: "payment_not_configured" }]);
    expect(await refundDueOf(doc)).toBe(total);
    // Only this payment's trade can give the money back through its gateway, so the desk asks ECPay.
    const asked: URLSearchParams[] = [];
    const ecpay = (answer: string | Error) => async (request: Request) => {
      asked.push(new URLSearchParams(await request.text()));
      expect(request.url).toBe("https://payment-stage.ecpay.com.tw/CreditDetail/DoAction");
      if (answer instanceof Error) throw answer;
      return new Response(answer);
    };
    const refund = (fetcher: (request: Request) => Promise<Response>) =>
      handleBackendRequest(
        new Request(`http://${HOST}/api/desk/bookings/${doc}/actions/refund?lang=en-US`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-desk-session": tokens.desk! },
          body: JSON.stringify({ domain: HOST, form_key: newFormKey(), method: "gateway", amount: total }),
        }),
        {
          db: env.DB,
          signingSecret: env.SESSION_SECRET as string,
          secret: (name) => ({ PAY_ECPAY_KEY: "pwFHCqoQZGmho4w6", PAY_ECPAY_IV: "EkRm7iFT261dpevs" })[name],
          fetcher,
        },
      ).then(async (response) => ({ status: response.status, body: (await response.json()) as Envelope<ActResult> }));

    const refused = await refund(
      ecpay(`MerchantID=3002607&MerchantTradeNo=${tradeNo}&TradeNo=2303121530230001&RtnCode=0&RtnMsg=Exceed+refund+amount`),
    );
    expect(refused.status, JSON.stringify(refused.body)).toBe(424);
    expect(refused.body.msg.code).toBe("desk_refund_gateway_failed");
    expect(refused.body.msg.message).toContain("Exceed refund amount");
    expect(asked[0]?.get("Action")).toBe("R");
    expect(asked[0]?.get("TotalAmount")).toBe(String(total));
    expect(asked[0]?.get("TradeNo")).toBe("2303121530230001");
    expect(asked[0]?.get("CheckMacValue")).toMatch(/^[0-9A-F]{64}$/);
    expect(await refundDueOf(doc)).toBe(total);
    expect((await rows())[1]).toEqual({ amount: total, method: "gateway", status: "failed", message: "Exceed refund amount" });

    const unreachable = await refund(ecpay(new Error("connect ETIMEDOUT")));
    expect(unreachable.status).toBe(424);
    expect(await refundDueOf(doc)).toBe(total);

    const done = await refund(ecpay(`MerchantID=3002607&MerchantTradeNo=${tradeNo}&TradeNo=2303121530230001&RtnCode=1&RtnMsg=OK`));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.due).toBe(0);
    expect((await rows()).map((row) => row.status)).toEqual(["failed", "failed", "failed", "done"]);
    const afterwards = await refund(ecpay("RtnCode=1&RtnMsg=OK"));
    expect(afterwards.body.msg.code).toBe("desk_nothing_due");
    expect(asked).toHaveLength(3);
    const results = await env.DB.prepare("SELECT after FROM audit_log WHERE subject = ? AND action = 'refund_result' ORDER BY id")
      .bind(`order:${doc}`)
      .all<{ after: string }>();
    expect(results.results.map((row) => (JSON.parse(row.after) as { ok: boolean }).ok)).toEqual([false, false, true]);
  });

  it("the database itself never lets refunds pass what was paid", async () => {
    const doc = await book(addDays(today, 33));
    const { id, total_price: total } = await orderOf(doc);
    expect((await act(doc, "record_transfer", transfer(total))).status).toBe(200);
    const insert = (amount: number) =>
      env.DB.prepare("INSERT INTO refunds (hotel_id, order_id, amount, method, status) VALUES (?, ?, ?, 'manual', 'done')")
        .bind(ids[HOST]!.hotel, id, amount)
        .run();
    await insert(total - 1);
    await expect(insert(2)).rejects.toThrow(/refund_more_than_paid/);
  });
});

describe("the booking page's action forms (resource route, JavaScript off)", () => {
  /** The desk's cookie (decision 149) a signed-in staff member's browser holds: name=value. */
  async function deskCookie(token: string): Promise<string> {
    const header = await deskCookieHeader(parseEnv(env as unknown as Record<string, unknown>), {
      domain: HOST,
      token,
      stage: "full",
      enrol: false,
    });
    return header.split(";")[0]!;
  }

  /** A browser of a signed-in staff member, with the site's CSRF token (as a page of the site hands it out). */
  async function staffBrowser(token = tokens.desk!) {
    const browser = new Browser(HOST, [await deskCookie(token)]);
    const page = await browser.request("/en-US/hxa/booking");
    const csrf = hidden(page.html, "csrf");
    expect(csrf).not.toBe("");
    return { browser, csrf };
  }

  it("records a transfer from the form, then comes back to the booking with what happened", async () => {
    const doc = await book(addDays(today, 34));
    const { total_price: total } = await orderOf(doc);
    const { browser, csrf } = await staffBrowser();
    const form = {
      csrf,
      intent: "record_transfer",
      form_key: newFormKey(),
      amount: String(total),
      transfer_date: today,
      account_last5: "11111",
    };
    const posted = await browser.request(`/en-US/desk/bookings/${doc}/act`, form);
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`/en-US/desk/bookings/${doc}`);
    expect(await orderOf(doc)).toMatchObject({ status: "confirmed", paid_amount: total });
    // The same form sent again (back button, resubmit): nothing twice.
    expect((await browser.request(`/en-US/desk/bookings/${doc}/act`, form)).status).toBe(303);
    expect(await deskPayments(doc)).toHaveLength(1);
  });

  it("says on the booking what happened, in the staff member's language, from a signed cookie only", async () => {
    const doc = await book(addDays(today, 34));
    const page = await fetchAs(HOST, "/zh-TW/hxa/booking");
    const csrfCookie = page.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("csrf="))!
      .split(";")[0]!;
    const cookie = `${csrfCookie}; ${await deskCookie(tokens.desk!)}`;
    const post = (fields: Record<string, string>) =>
      fetchAs(HOST, `/desk/bookings/${doc}/act`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ csrf: hidden(pageHtml, "csrf"), form_key: newFormKey(), ...fields }),
      });
    const pageHtml = await page.text();
    const refused = await post({ intent: "record_transfer", amount: "99999999", transfer_date: today, account_last5: "11111" });
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(`/desk/bookings/${doc}`);
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
    const noticeCookie = refused.headers
      .getSetCookie()
      .find((value) => value.startsWith("desk_notice="))!
      .split(";")[0]!;
    const appEnv = parseEnv(env as unknown as Record<string, unknown>);
    const taken = await takeDeskNotice(
      new Request(`http://${HOST}/desk/bookings/${doc}`, { headers: { cookie: noticeCookie } }),
      appEnv,
      doc,
    );
    expect(taken.notice).toMatchObject({ action: "record_transfer", outcome: "refused" });
    expect(taken.notice?.message).toContain("尚欠");
    expect(taken.setCookie).toMatch(/Max-Age=0/);
    // Another booking's page does not say it; a forged cookie says nothing.
    expect(
      (await takeDeskNotice(new Request(`http://${HOST}/`, { headers: { cookie: noticeCookie } }), appEnv, "PT000000-OTHER")).notice,
    ).toBeNull();
    const forged = `desk_notice=${btoa(JSON.stringify({ order_doc: doc, action: "note", outcome: "refused", message: "Call +1 555" }))}`;
    expect((await takeDeskNotice(new Request(`http://${HOST}/`, { headers: { cookie: forged } }), appEnv, doc)).notice).toBeNull();
  });

  it("refuses a form without the CSRF token, and one posted from another site", async () => {
    const doc = await book(addDays(today, 35));
    const { browser } = await staffBrowser();
    const forged = await browser.request(`/en-US/desk/bookings/${doc}/act`, {
      csrf: "",
      intent: "note",
      form_key: newFormKey(),
      note: "x",
    });
    expect(forged.status).toBe(403);
    const { csrf } = await staffBrowser();
    const crossSite = await fetchAs(HOST, `/en-US/desk/bookings/${doc}/act`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://evil.example",
        cookie: await deskCookie(tokens.desk!),
      },
      body: new URLSearchParams({ csrf, intent: "note", form_key: newFormKey(), note: "x" }),
    });
    expect(crossSite.status).toBe(403);
    expect(await auditRows(doc)).toHaveLength(0);
  });

  it("sends a visitor without a desk session to the desk's sign-in", async () => {
    const doc = await book(addDays(today, 35));
    const browser = new Browser(HOST);
    const page = await browser.request("/en-US/hxa/booking");
    const posted = await browser.request(`/en-US/desk/bookings/${doc}/act`, {
      csrf: hidden(page.html, "csrf"),
      intent: "note",
      form_key: newFormKey(),
      note: "x",
    });
    // The desk's guard (decision 149) sends anyone not signed in to the sign-in page.
    expect(posted.status).toBe(302);
    expect(posted.location).toBe("/en-US/desk/sign-in");
    expect(await auditRows(doc)).toHaveLength(0);
  });
});
