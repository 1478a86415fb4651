import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { issueMemberToken } from "~/backend/account/members.server";
import { BOOKER, apiJson, fixtureHotel, fixtureNightPrice, loadHotel } from "./helpers";

const HOST = "orders.localhost";
const today = todayIn("Asia/Taipei");
const stay = { check_in_day: addDays(today, 10), check_out_day: addDays(today, 12) };

let roomClassId = 0;
let planId = 0;

function payload(overrides: Record<string, unknown> = {}) {
  return {
    domain: HOST,
    ...BOOKER,
    booking_from: "HXA",
    ...stay,
    pay_way: "remittance",
    payment_vendor: 8,
    pay_option: "all",
    orders: [{ room_class_id: roomClassId, proposal_id: planId, num: 1, occupant_name: "Mei Lin" }],
    adults_count: 2,
    children_count: 0,
    ...overrides,
  };
}

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return apiJson<Record<string, unknown>>(HOST, `${path}${path.includes("?") ? "&" : "?"}lang=en-US`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function booked(night: string): Promise<number> {
  const row = await env.DB.prepare("SELECT booked FROM room_nights WHERE room_class_id = ? AND night = ?")
    .bind(roomClassId, night)
    .first<{ booked: number }>();
  return row?.booked ?? -1;
}

beforeAll(async () => {
  await loadHotel(fixtureHotel(HOST));
  const room = await env.DB.prepare("SELECT rc.id FROM room_classes rc JOIN hotels h ON h.id = rc.hotel_id WHERE h.domain = ?")
    .bind(HOST)
    .first<{ id: number }>();
  const plan = await env.DB.prepare("SELECT rp.id FROM rate_plans rp JOIN hotels h ON h.id = rp.hotel_id WHERE h.domain = ?")
    .bind(HOST)
    .first<{ id: number }>();
  roomClassId = room?.id ?? 0;
  planId = plan?.id ?? 0;
});

describe("creating orders", () => {
  it("never oversells: of 50 concurrent orders for a room class with 3 rooms left, exactly 3 succeed", async () => {
    const attempts = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        post("/api/ota/order/personal-new", payload(), { "Idempotency-Key": `race-${index}-abcdef` }),
      ),
    );
    const created = attempts.filter((attempt) => attempt.status === 201);
    const refused = attempts.filter((attempt) => attempt.status === 409);
    expect(created).toHaveLength(3);
    expect(refused).toHaveLength(47);
    for (const attempt of refused) expect(["Not enough rooms", "This room type is sold out"]).toContain(attempt.body.msg.message);
    expect(await booked(stay.check_in_day)).toBe(3);
    expect(await booked(addDays(stay.check_in_day, 1))).toBe(3);
    const orders = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM orders WHERE check_in_day = ? AND hotel_id = (SELECT id FROM hotels WHERE domain = ?)",
    )
      .bind(stay.check_in_day, HOST)
      .first<{ n: number }>();
    expect(orders?.n).toBe(3);
    const negative = await env.DB.prepare("SELECT COUNT(*) AS n FROM room_nights WHERE booked < 0 OR booked > capacity").first<{
      n: number;
    }>();
    expect(negative?.n).toBe(0);
  }, 30_000); // 50 orders at once: 3 to 6 s on a shared two-core machine, past the default 5 s limit.

  it("answers a repeated idempotency key with the first order, and refuses the key for a different order", async () => {
    const body = payload({ check_in_day: addDays(today, 20), check_out_day: addDays(today, 21) });
    const first = await post("/api/ota/order/personal-new", body, { "Idempotency-Key": '"retry-key-0001"' });
    expect(first.status).toBe(201);
    const again = await post("/api/ota/order/personal-new", body, { "Idempotency-Key": '"retry-key-0001"' });
    expect(again.status).toBe(200);
    expect(again.body.data.order_doc).toBe(first.body.data.order_doc);
    expect(await booked(addDays(today, 20))).toBe(1);
    const other = await post(
      "/api/ota/order/personal-new",
      { ...body, booker_first_name: "Someone" },
      { "Idempotency-Key": "retry-key-0001" },
    );
    expect(other.status).toBe(422);
    expect(other.body.success).toBe(false);
    // The same key and body from someone else (a signed-in member) does not get the guest's order.
    const hotel = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(HOST).first<{ id: number }>();
    const member = await env.DB.prepare("INSERT INTO members (hotel_id, email) VALUES (?, 'replay@example.com') RETURNING id")
      .bind(hotel?.id)
      .first<{ id: number }>();
    const token = await issueMemberToken(env.DB, member?.id ?? 0);
    const replay = await post("/api/ota/order/personal-new", body, {
      "Idempotency-Key": "retry-key-0001",
      authorization: `Bearer ${token}`,
    });
    expect(replay.status).toBe(422);
    expect(replay.body.data).toBeNull();
  });

  it("prices from the database, never from the request, and returns the order of spec §3", async () => {
    const body = payload({ check_in_day: addDays(today, 30), check_out_day: addDays(today, 31), room_price: 1, total_price: 1 });
    const created = await post("/api/ota/order/personal-new", body);
    expect(created.status).toBe(201);
    const data = created.body.data as { order_doc: string; redirect_path: string; order: Record<string, unknown> };
    expect(data.order_doc).toMatch(/^PT\d{6}-[A-Z0-9]{6}$/);
    expect(data.redirect_path).toMatch(new RegExp(`^/redirect/receipt/${data.order_doc}\\?valid_hash=`));
    // The fixture's price of that night (3,000 or 3,600 on a Friday or Saturday), not the request's 1.
    expect(data.order).toMatchObject({ sum: fixtureNightPrice(addDays(today, 30)), final_amount: fixtureNightPrice(addDays(today, 30)) });
    expect(data.order.display_status).toBe("Awaiting payment");
    expect(data.order.booker_name).toBe("Lin Mei");
    expect(data.order.remittance_info).toBeNull();
  });

  it("gives the rooms back when an order is cancelled through its signed link, and refuses a tampered link", async () => {
    const night = addDays(today, 40);
    const created = await post("/api/ota/order/personal-new", payload({ check_in_day: night, check_out_day: addDays(night, 1) }));
    const order = (created.body.data as { order: { order_doc: string; cancel_hash: string; valid_hash: string } }).order;
    expect(await booked(night)).toBe(1);

    const tampered = order.cancel_hash.slice(0, -2) + (order.cancel_hash.endsWith("AA") ? "BB" : "AA");
    const refused = await post(`/api/wota/order/cancel-via-hash/${order.order_doc}`, { domain: HOST, valid_hash: tampered });
    expect(refused.status).toBe(403);
    expect(refused.body.msg.message).toBe("This link is not valid or has been altered");
    expect(refused.body.data).toBeNull();
    // The view link is not a cancel link.
    expect((await post(`/api/wota/order/cancel-via-hash/${order.order_doc}`, { domain: HOST, valid_hash: order.valid_hash })).status).toBe(
      403,
    );
    expect(await booked(night)).toBe(1);

    const cancelled = await post(`/api/wota/order/cancel-via-hash/${order.order_doc}`, { domain: HOST, valid_hash: order.cancel_hash });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.display_status).toBe("Cancelled");
    expect(await booked(night)).toBe(0);
    const twice = await post(`/api/wota/order/cancel-via-hash/${order.order_doc}`, { domain: HOST, valid_hash: order.cancel_hash });
    expect(twice.status).toBe(409);
    expect(await booked(night)).toBe(0);
  });

  it("lets a signed-in member cancel their own order: cancelled at once, rooms and points given back", async () => {
    const night = addDays(today, 50);
    const hotel = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(HOST).first<{ id: number }>();
    const insertMember = (email: string, points: number) =>
      env.DB.prepare("INSERT INTO members (hotel_id, email, points) VALUES (?, ?, ?) RETURNING id")
        .bind(hotel?.id, email, points)
        .first<{ id: number }>();
    const points = async (id: number) =>
      (await env.DB.prepare("SELECT points FROM members WHERE id = ?").bind(id).first<{ points: number }>())?.points;
    const member = await insertMember("cancel@example.com", 800);
    const token = await issueMemberToken(env.DB, member?.id ?? 0);
    const created = await post(
      "/api/ota/order/personal-new",
      payload({ check_in_day: night, check_out_day: addDays(night, 1), point_used: 300 }),
      {
        authorization: `Bearer ${token}`,
      },
    );
    expect(created.status).toBe(201);
    const order = (created.body.data as { order: { order_doc: string; usedPoint: number; display_status: string } }).order;
    expect(order).toMatchObject({ usedPoint: 300, display_status: "Awaiting payment" });
    expect(await booked(night)).toBe(1);
    expect(await points(member?.id ?? 0)).toBe(500);

    // Another member of the hotel cannot cancel it, nor can anyone without signing in.
    const stranger = await insertMember("stranger@example.com", 0);
    const strangerToken = await issueMemberToken(env.DB, stranger?.id ?? 0);
    const notTheirs = await post(
      `/api/wota/order/cancel_apply/${order.order_doc}`,
      { domain: HOST },
      { authorization: `Bearer ${strangerToken}` },
    );
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.msg.message).toBe("This order could not be found");
    expect((await post(`/api/wota/order/cancel_apply/${order.order_doc}`, { domain: HOST })).status).toBe(401);
    expect(await booked(night)).toBe(1);

    const cancelled = await post(
      `/api/wota/order/cancel_apply/${order.order_doc}`,
      { domain: HOST, reason: "Trip postponed" },
      { authorization: `Bearer ${token}` },
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ order_doc: order.order_doc, status: "cancelled", display_status: "Cancelled" });
    expect(await booked(night)).toBe(0);
    expect(await points(member?.id ?? 0)).toBe(800);
    // Recorded as the member's, free of charge: check-in is more than seven days away (refund template 2).
    const record = await env.DB.prepare(
      "SELECT c.via, c.reason, c.fee, c.refund FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE o.order_doc = ?",
    )
      .bind(order.order_doc)
      .first();
    expect(record).toEqual({ via: "member", reason: "Trip postponed", fee: 0, refund: 0 });

    const twice = await post(`/api/wota/order/cancel_apply/${order.order_doc}`, { domain: HOST }, { authorization: `Bearer ${token}` });
    expect(twice.status).toBe(409);
    expect(twice.body.msg.message).toBe("This order is already cancelled");
    expect(await booked(night)).toBe(0);
    expect(await points(member?.id ?? 0)).toBe(800);
  });

  it("shows an order only to the holder of its link or its member, and never through another hotel", async () => {
    await loadHotel(fixtureHotel("other.localhost"));
    const night = addDays(today, 45);
    const hotel = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(HOST).first<{ id: number }>();
    const member = await env.DB.prepare("INSERT INTO members (hotel_id, email, points) VALUES (?, 'm@example.com', 500) RETURNING id")
      .bind(hotel?.id)
      .first<{ id: number }>();
    const token = await issueMemberToken(env.DB, member?.id ?? 0);
    const created = await post("/api/ota/order/personal-new", payload({ check_in_day: night, check_out_day: addDays(night, 1) }), {
      authorization: `Bearer ${token}`,
    });
    expect(created.status).toBe(201);
    const order = (created.body.data as { order: { order_doc: string; valid_hash: string; usedPoint: number } }).order;

    const viaHash = await apiJson(
      HOST,
      `/api/ota/order/via-hash?domain=${HOST}&valid_hash=${encodeURIComponent(order.valid_hash)}&lang=en-US`,
    );
    expect(viaHash.status).toBe(200);
    const elsewhere = await apiJson(
      "other.localhost",
      `/api/ota/order/via-hash?domain=other.localhost&valid_hash=${encodeURIComponent(order.valid_hash)}&lang=en-US`,
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.data).toBeNull();

    const mine = await apiJson<{ order_doc: string }[]>(HOST, `/api/ota/order/personal-order-list?domain=${HOST}&lang=en-US`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(mine.body.data.map((item) => item.order_doc)).toEqual([order.order_doc]);
    const anonymous = await apiJson(HOST, `/api/ota/order/personal-order-list?domain=${HOST}&lang=en-US`);
    expect(anonymous.status).toBe(401);
    const otherHotelWithToken = await apiJson("other.localhost", `/api/ota/order/personal-order-list?domain=other.localhost&lang=en-US`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(otherHotelWithToken.status).toBe(401);
  });
});
