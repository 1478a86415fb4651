/**
 * "My orders" reads a constant number of times whatever the number of orders (issue 24: it ran up
 * to three D1 queries per order). The count is taken on the real D1 binding, wrapped to count every
 * statement run and every batch sent.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { issueMemberToken } from "~/backend/account/members.server";
import { handleBackendRequest } from "~/backend/router.server";
import { countingDb, fixtureHotel, hotelRefs, loadHotel, orderOneNight, type HotelRefs } from "./helpers";

const HOST = "my-orders.localhost";
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

async function memberWithOrders(email: string, count: number, from: number) {
  const member = await env.DB.prepare(
    "INSERT INTO members (hotel_id, email, first_name, last_name, points) VALUES (?, ?, 'Mei', 'Lin', 0) RETURNING id",
  )
    .bind(hotel.id, email)
    .first<{ id: number }>();
  const token = await issueMemberToken(env.DB, member!.id);
  for (let n = 0; n < count; n++) {
    const placed = await orderOneNight(HOST, hotel, addDays(today, from + n), {
      booker_email: email,
      pay_way: "remittance",
      payment_vendor: 8,
    });
    expect(placed.status).toBe(201);
  }
  // Orders name their member by the token they were placed with: link them as a signed-in booking would.
  await env.DB.prepare("UPDATE orders SET member_id = ? WHERE hotel_id = ? AND booker_email = ?").bind(member!.id, hotel.id, email).run();
  // One of them cancelled, so cancellations are read too.
  await env.DB.prepare(
    "INSERT INTO cancellations (order_id, via, reason, fee, refund) SELECT id, 'member', '', 0, 0 FROM orders WHERE hotel_id = ? AND booker_email = ? ORDER BY id LIMIT 1",
  )
    .bind(hotel.id, email)
    .run();
  await env.DB.prepare(
    "UPDATE orders SET status = 'cancelled' WHERE id = (SELECT order_id FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE o.booker_email = ?)",
  )
    .bind(email)
    .run();
  return token;
}

async function myOrders(token: string) {
  const { db, count } = countingDb(env.DB);
  const response = await handleBackendRequest(
    new Request(`http://${HOST}/api/ota/order/personal-order-list?domain=${HOST}&lang=en-US`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    { db, signingSecret: env.SESSION_SECRET },
  );
  const body = (await response.json()) as { data: { order_doc: string; status: string; orders: unknown[]; cancellation: unknown }[] };
  return { orders: body.data, queries: count() };
}

describe("My orders", () => {
  it("reads the database the same number of times for 2 orders as for 12", async () => {
    const fewToken = await memberWithOrders("few@example.com", 2, 30);
    // Warm: the hotel row is kept in memory after its first read (decision 046), for both calls alike.
    await myOrders(fewToken);
    const few = await myOrders(fewToken);
    const many = await myOrders(await memberWithOrders("many@example.com", 12, 40));
    expect(few.orders).toHaveLength(2);
    expect(many.orders).toHaveLength(12);
    // Every order comes with its lines and its cancellation, as before.
    expect(many.orders.every((order) => order.orders.length === 1)).toBe(true);
    expect(many.orders.filter((order) => order.status === "cancelled" && order.cancellation !== null)).toHaveLength(1);
    expect(many.queries).toBe(few.queries);
    expect(many.queries).toBeLessThanOrEqual(4);
  });
});
