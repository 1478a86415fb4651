/**
 * No work done twice (issue 24): an order's history reads each of its tables once, an order placed
 * by a member looks the member up once, and the orders table keeps one discount (promotion_discount;
 * the contract's couponDiscount is computed from it). Reads are counted on the real D1 binding.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { issueMemberToken } from "~/backend/account/members.server";
import { handleBackendRequest } from "~/backend/router.server";
import { composePending } from "~/backend/mail/compose.server";
import { createLogger } from "~/platform/log.server";
import { BOOKER, countingDb, fixtureHotel, hotelRefs, loadHotel, orderOneNight, type HotelRefs } from "./helpers";

const HOST = "no-work-twice.localhost";
const today = todayIn("Asia/Taipei");
let hotel: HotelRefs;

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      (file.hotel as Record<string, unknown>).payment_deadlines = { max_unpaid_per_guest: 100 };
    }),
  );
  hotel = await hotelRefs(HOST);
});

interface Created {
  order_doc: string;
  order: { valid_hash: string; cancel_hash: string; couponDiscount: number; sum: number; final_amount: number };
}

/** One call of the built-in back end on a counting D1 binding. */
async function counted(path: string, init: RequestInit = {}) {
  const counting = countingDb(env.DB);
  const response = await handleBackendRequest(new Request(`http://${HOST}${path}`, init), {
    db: counting.db,
    signingSecret: env.SESSION_SECRET,
  });
  return { response, ...counting };
}

describe("an order's history", () => {
  it("reads the order's payments and its cancellation once each, and still lists them", async () => {
    const placed = await orderOneNight<Created>(HOST, hotel, addDays(today, 20), { pay_way: "remittance", payment_vendor: 8 });
    expect(placed.status).toBe(201);
    const { order_doc, order } = placed.body.data;
    // A payment attempt and a cancellation on record, so both lists have something to show.
    await env.DB.prepare(
      "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) SELECT id, 1, 'sandbox', ?, 100, 'full' FROM orders WHERE order_doc = ?",
    )
      .bind(`T${order_doc.replace(/\W/g, "")}`, order_doc)
      .run();
    const cancelled = await handleBackendRequest(
      new Request(`http://${HOST}/api/wota/order/cancel-via-hash/${order_doc}?lang=en-US`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ domain: HOST, valid_hash: order.cancel_hash, reason: "" }),
      }),
      { db: env.DB, signingSecret: env.SESSION_SECRET },
    );
    expect(cancelled.status).toBe(200);

    const history = await counted(
      `/api/ota/order/personal-history?domain=${HOST}&lang=en-US&hash_code=${encodeURIComponent(order.valid_hash)}`,
    );
    const body = (await history.response.json()) as {
      data: {
        status: string;
        cancellation: { via: string } | null;
        payments: { vendor_id: number; amount: number; status: string }[];
        payment_attempts: unknown[];
      };
    };
    expect(history.response.status).toBe(200);
    expect(body.data.status).toBe("cancelled");
    expect(body.data.cancellation).toMatchObject({ via: "hash" });
    expect(body.data.payments).toEqual([{ vendor_id: 1, amount: 100, status: "pending", created_at: expect.any(String) }]);
    expect(body.data.payment_attempts).toHaveLength(1);
    expect({ payments: history.reads("payments"), cancellations: history.reads("cancellations"), orders: history.reads("orders") }).toEqual(
      { payments: 1, cancellations: 1, orders: 1 },
    );
  });
});

describe("an order placed by a member", () => {
  it("looks the member up once", async () => {
    const member = await env.DB.prepare(
      "INSERT INTO members (hotel_id, email, first_name, last_name, points) VALUES (?, 'once@example.com', 'Mei', 'Lin', 0) RETURNING id",
    )
      .bind(hotel.id)
      .first<{ id: number }>();
    const token = await issueMemberToken(env.DB, member!.id);
    const checkIn = addDays(today, 25);
    const placed = await counted("/api/ota/order/personal-new?lang=en-US", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        domain: HOST,
        ...BOOKER,
        check_in_day: checkIn,
        check_out_day: addDays(checkIn, 1),
        pay_way: "remittance",
        payment_vendor: 8,
        orders: [{ room_class_id: hotel.room, proposal_id: hotel.plan, num: 1 }],
        adults_count: 2,
      }),
    });
    expect(placed.response.status).toBe(201);
    const row = await env.DB.prepare("SELECT member_id FROM orders WHERE order_doc = ?")
      .bind(((await placed.response.json()) as { data: { order_doc: string } }).data.order_doc)
      .first<{ member_id: number }>();
    expect(row?.member_id).toBe(member!.id);
    expect(placed.reads("members")).toBe(1);
  });
});

describe("the order's discount", () => {
  it("is kept once, as promotion_discount, and answered as couponDiscount too", async () => {
    const { results: columns } = await env.DB.prepare("SELECT name FROM pragma_table_info('orders')").all<{ name: string }>();
    expect(columns.map((column) => column.name)).toContain("promotion_discount");
    expect(columns.map((column) => column.name)).not.toContain("coupon_discount");
    const placed = await orderOneNight<Created>(HOST, hotel, addDays(today, 30), {
      pay_way: "remittance",
      payment_vendor: 8,
      coupon_array: ["WELCOME10"],
    });
    expect(placed.status).toBe(201);
    const row = await env.DB.prepare("SELECT promotion_discount, room_price, total_price FROM orders WHERE order_doc = ?")
      .bind(placed.body.data.order_doc)
      .first<{ promotion_discount: number; room_price: number; total_price: number }>();
    expect(row!.promotion_discount).toBeGreaterThan(0);
    expect(placed.body.data.order).toMatchObject({
      couponDiscount: row!.promotion_discount,
      sum: row!.room_price,
      final_amount: row!.total_price,
    });
  });
});

describe("composing the queued emails", () => {
  it("renders a pass of messages in four round trips however many there are, and one it cannot render fails alone", async () => {
    const deps = (db: D1Database) => ({
      db,
      signingSecret: env.SESSION_SECRET,
      now: new Date(),
      log: createLogger("test"),
      assets: undefined,
    });
    const placed: string[] = [];
    for (const day of [40, 42, 44, 46, 48]) {
      const order = await orderOneNight<Created>(HOST, hotel, addDays(today, day), { pay_way: "remittance", payment_vendor: 8 });
      expect(order.status).toBe(201);
      placed.push(order.body.data.order_doc);
    }
    // Whatever is queued already (the orders' own confirmations) is rendered first: the pass below has only the rows queued next.
    await composePending(deps(env.DB), 500);
    const queue = (hotelId: string, orderDoc: string) =>
      env.DB.prepare(
        `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin)
         SELECT ${hotelId}, id, 'order_confirmation', 'en-US', 'again@example.com', 'http://${HOST}' FROM orders WHERE order_doc = ? RETURNING id`,
      )
        .bind(orderDoc)
        .first<{ id: number }>();
    const ids = [];
    for (const orderDoc of placed) ids.push((await queue("hotel_id", orderDoc))?.id);
    // A message naming another hotel than its order's: refused ("order not found"), the others still rendered.
    await loadHotel(fixtureHotel("no-work-twice-other.localhost"));
    const other = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?")
      .bind("no-work-twice-other.localhost")
      .first<{ id: number }>();
    const bogus = (await queue(String(other?.id ?? 0), placed[0]!))?.id;

    const counting = countingDb(env.DB);
    expect(await composePending(deps(counting.db), 500)).toBe(5);
    // The queued rows; their hotels and orders; the orders' details; the writes.
    expect(counting.count()).toBe(4);
    const { results } = await env.DB.prepare(
      "SELECT id, status, subject, last_error FROM mail_outbox WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
    )
      .bind(JSON.stringify([...ids, bogus]))
      .all<{ id: number; status: string; subject: string | null; last_error: string }>();
    expect(results.map((row) => [row.status, row.subject === null ? "" : "rendered", row.last_error])).toEqual([
      ...placed.map(() => ["queued", "rendered", ""]),
      ["failed", "", "order not found"],
    ]);
    expect(results[0]?.subject).toContain(placed[0]);
  });
});
