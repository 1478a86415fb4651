import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOfWeek, todayIn } from "~/domain/dates";
import { issueMemberToken } from "~/backend/account/members.server";
import { apiJson, fixtureHotel, loadHotel } from "./helpers";

const HOST = "avail.localhost";
const PLAIN = "plain.localhost";
const today = todayIn("Asia/Taipei");
let token = "";
let room = 0;
let plan = 0;

/** The next check-in date on or after `from` that falls on `weekday` (0 Sunday). */
function next(weekday: number, from = addDays(today, 14)): string {
  let date = from;
  while (dayOfWeek(date) !== weekday) date = addDays(date, 1);
  return date;
}

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      file.inventory = { months: 2, sold_out: [{ room_code: "double", nights: ["today+5"] }] } as typeof file.inventory;
      Object.assign(file.inventory, { limited: [{ room_code: "double", nights: ["today+6"], rooms: 1 }] });
    }),
  );
  await loadHotel(fixtureHotel(PLAIN, (file) => Object.assign(file.hotel, { origin_pms: "" })));
  const hotel = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(HOST).first<{ id: number }>();
  const member = await env.DB.prepare("INSERT INTO members (hotel_id, email, points) VALUES (?, 'a@example.com', 300) RETURNING id")
    .bind(hotel?.id)
    .first<{ id: number }>();
  token = await issueMemberToken(env.DB, member?.id ?? 0);
  room = (await env.DB.prepare("SELECT id FROM room_classes WHERE hotel_id = ?").bind(hotel?.id).first<{ id: number }>())?.id ?? 0;
  plan = (await env.DB.prepare("SELECT id FROM rate_plans WHERE hotel_id = ?").bind(hotel?.id).first<{ id: number }>())?.id ?? 0;
});

interface Search {
  rooms: {
    room_class_id: number;
    inventory: number;
    price_set: {
      proposal_id: number;
      price: number;
      member_price: number | null;
      inventory: number;
      free_cancel_before_date: string | null;
    }[];
  }[];
}

const search = (start: string, end: string) =>
  apiJson<Search>(HOST, `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${start}&end_date=${end}&lang=en-US`);

describe("availability", () => {
  it("prices a stay night by night: weekday 3000, Friday and Saturday nights 3600", async () => {
    const thursday = next(4);
    const { body } = await search(thursday, addDays(thursday, 3)); // Thu, Fri, Sat nights
    const item = body.data.rooms[0]?.price_set[0];
    expect(item?.price).toBe(3000 + 3600 + 3600);
    expect(item?.member_price).toBe(2700 + 3240 + 3240);
    expect(item?.inventory).toBe(3);
    expect(item?.free_cancel_before_date).toBe(addDays(thursday, -7));
  });

  it("takes the minimum over the nights: one room left on one night limits the stay, a sold-out night sells out the stay", async () => {
    const limited = await search(addDays(today, 6), addDays(today, 8));
    expect(limited.body.data.rooms[0]?.inventory).toBe(1);
    expect(limited.body.data.rooms[0]?.price_set[0]?.inventory).toBe(1);
    const soldOut = await search(addDays(today, 4), addDays(today, 7));
    expect(soldOut.body.data.rooms[0]?.inventory).toBe(0);
  });

  it("cannot sell nights that have no inventory", async () => {
    const { body } = await search(addDays(today, 70), addDays(today, 72)); // beyond the two months loaded
    expect(body.data.rooms[0]?.inventory).toBe(0);
    expect(body.data.rooms[0]?.price_set).toEqual([]);
  });

  it("lists the lowest nightly price for the asked room classes, with sold-out nights unavailable", async () => {
    const { body } = await apiJson<{ date: string; price: number | null; available: boolean }[]>(
      HOST,
      `/api/wota/room_calendar?domain=${HOST}&start_date=${today}&end_date=${addDays(today, 10)}&room_class_ids=${room}&room_class_ids=${room}&lang=en-US`,
    );
    expect(body.data).toHaveLength(10);
    expect(body.data[5]).toEqual({ date: addDays(today, 5), price: null, member_price: null, available: false });
    expect(body.data[6]?.available).toBe(true);
    expect([3000, 3600]).toContain(body.data[6]?.price);
  });
});

describe("the calendar's price of a night", () => {
  const RESTRICTED = "restricted.localhost";
  beforeAll(async () => {
    await loadHotel(
      fixtureHotel(RESTRICTED, (file) => {
        const cheap = (code: string, price: number) =>
          ({
            rate_plan_code: code,
            name: { "en-US": code },
            rooms: [{ room_code: "double", weekday: price, weekend: price, holiday: price }],
          }) as unknown as (typeof file.rate_plans)[number];
        file.rate_plans.push(
          Object.assign(cheap("TWO-NIGHTS", 1000), { days: 2 }),
          Object.assign(cheap("LATER", 1500), { open_check_in_date: "today+4" }),
          Object.assign(cheap("EARLIER", 2000), { close_check_in_date: "today+1" }),
        );
      }),
    );
  });

  it("is a price a one-night stay from that night can book: plans' minimum stay and check-in dates apply", async () => {
    const { body } = await apiJson<{ date: string; price: number | null }[]>(
      RESTRICTED,
      `/api/wota/room_calendar?domain=${RESTRICTED}&start_date=${today}&end_date=${addDays(today, 5)}&lang=en-US`,
    );
    // TWO-NIGHTS (1000) never sets a night's price; EARLIER (2000) until today+1; LATER (1500) from today+4.
    expect(body.data.map((day) => day.price)).toEqual([
      2000,
      2000,
      ...[2, 3].map((offset) => (dayOfWeek(addDays(today, offset)) >= 5 ? 3600 : 3000)),
      1500,
    ]);
    // The one-night search of such a night agrees.
    const night = await apiJson<Search>(
      RESTRICTED,
      `/api/ota/room/empty-by-date?domain=${RESTRICTED}&start_date=${addDays(today, 4)}&end_date=${addDays(today, 5)}&lang=en-US`,
    );
    expect(Math.min(...(night.body.data.rooms[0]?.price_set.map((item) => item.price) ?? []))).toBe(1500);
  });
});

describe("price check", () => {
  const stay = () => {
    const monday = next(1);
    return { check_in_day: monday, check_out_day: addDays(monday, 1) };
  };
  const calculate = (host: string, body: Record<string, unknown>, auth = false) =>
    apiJson<Record<string, number | string>>(host, "/api/ota/order/calculate?lang=en-US", {
      method: "POST",
      headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ domain: host, ...stay(), orders: [{ room_class_id: room, proposal_id: plan, num: 2 }], ...body }),
    });

  it("gives a guest normal prices and a member member prices", async () => {
    expect((await calculate(HOST, {})).body.data).toMatchObject({
      room_price: 6000,
      original_amount: 6000,
      total_price: 6000,
      pay_amount: 6000,
    });
    expect((await calculate(HOST, {}, true)).body.data).toMatchObject({ room_price: 5400, original_amount: 6000 });
  });

  it("applies a coupon at a MASTRI hotel only", async () => {
    expect((await calculate(HOST, { coupon_code: "WELCOME10" })).body.data).toMatchObject({ promotion_discount: 600, total_price: 5400 });
    const plainHotel = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(PLAIN).first<{ id: number }>();
    const plainRoom = await env.DB.prepare("SELECT id FROM room_classes WHERE hotel_id = ?").bind(plainHotel?.id).first<{ id: number }>();
    const plainPlan = await env.DB.prepare("SELECT id FROM rate_plans WHERE hotel_id = ?").bind(plainHotel?.id).first<{ id: number }>();
    const refused = await calculate(PLAIN, {
      coupon_code: "WELCOME10",
      orders: [{ room_class_id: plainRoom?.id, proposal_id: plainPlan?.id, num: 1 }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg.code).toBe("coupon_not_supported");
    // Another hotel's room cannot be priced through this hotel's domain.
    const foreign = await calculate(HOST, { orders: [{ room_class_id: plainRoom?.id, proposal_id: plainPlan?.id, num: 1 }] });
    expect(foreign.status).toBe(404);
  });

  it("gives members Memberpromotion at 100 minus the hotel's discount (80 → 20%)", async () => {
    expect((await calculate(HOST, { coupon_code: "Memberpromotion" }, true)).body.data).toMatchObject({
      room_price: 5400,
      promotion_discount: 1080,
    });
  });

  it("takes points up to the member's balance", async () => {
    expect((await calculate(HOST, { point_used: 300 }, true)).body.data).toMatchObject({ total_price: 5100 });
    const tooMany = await calculate(HOST, { point_used: 301 }, true);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg.message).toBe("You have only 300 points");
  });

  it("answers the legacy discount/calculate from codes, with the server's prices; a member in the body is not a token", async () => {
    const { check_in_day, check_out_day } = stay();
    const legacy = (member?: unknown) =>
      apiJson<Record<string, number>>(HOST, "/api/discount/calculate?lang=en-US", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          domain: HOST,
          check_in: check_in_day,
          check_out: check_out_day,
          coupon_code: "WELCOME10",
          plans: [{ rate_plan_code: "BAR", inv_type_code: "double", date_and_amount: [{ date: check_in_day, amount: 1 }] }],
          member,
        }),
      });
    expect((await legacy()).body.data).toMatchObject({
      success: true,
      room_price: 3000,
      original_amount: 3000,
      promotion_discount: 300,
      member: null,
    });
    const claimed = await legacy({ user_email: "x@example.com", user_point: 99999 });
    expect(claimed.status).toBe(401);
    expect(claimed.body.msg.extrainfo).toEqual({ message: "Please sign in as a member first", field: "member.user_email" });
  });
});

describe("hotel content", () => {
  it("answers in the request's language and falls back to the main language", async () => {
    const english = await apiJson<{ hotel_name: string; lang: string }>(HOST, `/api/hotel/info?domain=${HOST}&lang=en-US`);
    expect(english.body.data.hotel_name).toBe("Fixture Hotel");
    const japanese = await apiJson<{ hotel_name: string; lang: string }>(HOST, `/api/hotel/info?domain=${HOST}&lang=ja-JP`);
    expect(japanese.body.data.hotel_name).toBe("測試旅館");
    expect(japanese.body.data.lang).toBe("zh-TW");
  });
});
