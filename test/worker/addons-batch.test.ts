/**
 * Add-ons booked onto an existing order and the add-on list fetches (issue 27, decisions 116 and
 * 124), on real D1: POST /api/xtra/adds/batch/booking (cancel link or member, unpaid only, the same
 * CHECK as order creation, amounts in the same batch, deposit orders), its races, every refusal
 * holding nothing, cancel giving the batch-booked units back; GET /api/xtra/adds/list and
 * GET /api/xtra/adds/{serial}.
 */
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { issueMemberToken } from "~/backend/account/members.server";
import { HotelApi, HotelApiError } from "~/contract/client";
import { BOOKER, PLAIN_PLAN, TEST_ADDONS, apiJson, fetchAs, fixtureHotel, fixtureIds, loadHotel, text, payInFull } from "./helpers";

const HOST = "addbatch.localhost";
/** A deposit hotel (30 %) with the same items. */
const DEPOSIT = "addbatch-deposit.localhost";
const today = todayIn("Asia/Taipei");
const stay = { check_in_day: addDays(today, 10), check_out_day: addDays(today, 12) };
/** The one day with a single parking space left. */
const LAST_DAY = addDays(today, 20);

const ids: Record<string, number> = {};
const other: Record<string, number> = {};

interface Item {
  adds_id: number;
  adds_code: string;
  name: string;
  quantity: number;
  child_quantity: number;
  amount: number;
  room_index: number | null;
}
interface Batch {
  order_doc: string;
  attachment_list: Item[];
  attachment_detail: { rooms: { room_index: number; items: Item[]; amount: number }[]; other: Item[] };
  attachment_amount: number;
  total_price: number;
  deposit_amount: number;
  pay_amount: number;
}
interface Created {
  order_doc: string;
  order: { valid_hash: string; cancel_hash: string; final_amount: number; pay_amount: number; sum: number };
}
interface Listed {
  adds_id: number;
  adds_code: string;
  name: string;
  proposal_ids: number[];
  room_indexes?: number[];
  booked?: number;
  left?: number | null;
}

function post<T = Record<string, unknown>>(path: string, body: unknown, headers: Record<string, string> = {}, lang = "en-US", host = HOST) {
  return apiJson<T>(host, `${path}?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

const get = <T>(path: string, headers: Record<string, string> = {}) => apiJson<T>(HOST, path, { headers });

const hotelFile = (domain: string, deposit: boolean) =>
  fixtureHotel(domain, (file) => {
    file.room_classes[0]!.total_rooms = 30;
    (file.hotel as Record<string, unknown>).payment_list = [
      { vendor_id: 8, method: "remittance" },
      { vendor_id: 14, method: "pay_arrival" },
    ];
    if (deposit) Object.assign(file.hotel, { deposit_type: "deposit", deposit_percent: 30 });
    (file.rate_plans as unknown[]).push(PLAIN_PLAN);
    (file as Record<string, unknown>).addons = [
      TEST_ADDONS.breakfast,
      TEST_ADDONS.pickup,
      TEST_ADDONS.parking,
      {
        code: "towels",
        name: { "zh-TW": "加購毛巾", "en-US": "Extra towels" },
        unit: "stay",
        price: 100,
        max_per_booking: 20,
        plans: ["BAR"],
      },
    ];
  });

async function refsOf(domain: string, into: Record<string, number>) {
  Object.assign(into, await fixtureIds(domain));
}

beforeAll(async () => {
  await loadHotel(hotelFile(HOST, false));
  await loadHotel(hotelFile(DEPOSIT, true));
  await refsOf(HOST, ids);
  await refsOf(DEPOSIT, other);
});

function order(overrides: Record<string, unknown> = {}, refs = ids) {
  return {
    domain: refs === ids ? HOST : DEPOSIT,
    ...BOOKER,
    ...stay,
    pay_way: "remittance",
    payment_vendor: 8,
    orders: [{ room_class_id: refs.room, proposal_id: refs.BAR, num: 1 }],
    adults_count: 2,
    children_count: 1,
    ...overrides,
  };
}

let orderSeq = 0;
async function place(overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}, host = HOST): Promise<Created> {
  const created = await post<Created>(
    "/api/ota/order/personal-new",
    order(overrides, host === HOST ? ids : other),
    { "Idempotency-Key": `adds-batch-${++orderSeq}-${Date.now()}`, ...headers },
    "en-US",
    host,
  );
  expect(created.status).toBe(201);
  return created.body.data;
}

const book = (created: Created, choices: unknown[], lang = "en-US", extra: Record<string, unknown> = {}) =>
  post<Batch>(
    "/api/xtra/adds/batch/booking",
    { domain: HOST, order_doc: created.order_doc, valid_hash: created.order.cancel_hash, room_attachment_detail: choices, ...extra },
    {},
    lang,
  );

async function taken(code: string, day: string): Promise<number> {
  const row = await env.DB.prepare("SELECT taken FROM addon_days WHERE addon_id = ? AND day = ?")
    .bind(ids[code], day)
    .first<{ taken: number }>();
  return row?.taken ?? -1;
}

/** Everything a batch booking could change: the order's add-ons and amounts, and every hold and count of the hotel's items. */
async function snapshot(orderDoc: string) {
  const row = await env.DB.prepare(
    `SELECT room_attachment_detail, attachment_amount, total_price, pay_amount, deposit_amount, status, updated_at FROM orders WHERE order_doc = ?`,
  )
    .bind(orderDoc)
    .first();
  const holds = await env.DB.prepare(
    "SELECT addon_id, day, units FROM order_addon_days WHERE addon_id IN (?, ?, ?) ORDER BY order_id, addon_id, day",
  )
    .bind(ids.breakfast, ids.pickup, ids.parking)
    .all();
  const days = await env.DB.prepare("SELECT addon_id, day, taken FROM addon_days WHERE addon_id IN (?, ?) ORDER BY addon_id, day")
    .bind(ids.pickup, ids.parking)
    .all();
  return { row, holds: holds.results, days: days.results };
}

const pay = (orderDoc: string) => payInFull(orderDoc, "ADDS");

describe("the add-on list fetches", () => {
  it("lists the hotel's items with the plans that offer them, filtered by plan", async () => {
    const all = await get<{ adds: Listed[] }>(`/api/xtra/adds/list?domain=${HOST}&lang=en-US`);
    expect(all.status).toBe(200);
    expect(all.body.data.adds.map((item) => [item.adds_code, item.proposal_ids])).toEqual([
      ["breakfast", [ids.BAR]],
      ["pickup", [ids.BAR]],
      ["parking", expect.arrayContaining([ids.BAR, ids.PLAIN])],
      ["towels", [ids.BAR]],
    ]);
    const plain = await get<{ adds: Listed[] }>(`/api/xtra/adds/list?domain=${HOST}&proposal_id=${ids.PLAIN}&lang=zh-TW`);
    expect(plain.body.data.adds.map((item) => item.name)).toEqual(["停車位"]);
    const bad = await get(`/api/xtra/adds/list?domain=${HOST}&proposal_id=abc&lang=en-US`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg.code).toBe("invalid_field");
  });

  it("answers one item by its serial (its code, or its adds_id), and a clear 404 for none", async () => {
    const byCode = await get<Listed>(`/api/xtra/adds/parking?domain=${HOST}&lang=zh-TW`);
    expect(byCode.status).toBe(200);
    expect(byCode.body.data).toMatchObject({ adds_id: ids.parking, name: "停車位", unit: "night", price: 300, limited: true });
    const byId = await get<Listed>(`/api/xtra/adds/${ids.pickup}?domain=${HOST}&lang=en-US`);
    expect(byId.body.data).toMatchObject({ adds_code: "pickup", name: "Airport pickup" });
    // Another hotel's item is none of this hotel's.
    const foreign = await get(`/api/xtra/adds/${other.parking}?domain=${HOST}&lang=ja-JP`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.msg.message).toBe("このオプションが見つかりません");
  });

  it("lists for one order what its plans offer, on which room lines, what it has and what is left", async () => {
    const created = await place({
      orders: [
        { room_class_id: ids.room, proposal_id: ids.PLAIN, num: 1 },
        { room_class_id: ids.room, proposal_id: ids.BAR, num: 1 },
      ],
      room_attachment_detail: [{ adds_id: ids.parking, quantity: 1, room_index: 0 }],
    });
    const listed = await get<{ addable: boolean; adds: Listed[] }>(
      `/api/xtra/adds/list?domain=${HOST}&order_doc=${created.order_doc}&valid_hash=${encodeURIComponent(created.order.valid_hash)}&lang=en-US`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.addable).toBe(true);
    const byCode = Object.fromEntries(listed.body.data.adds.map((item) => [item.adds_code, item]));
    const left = Math.min(5 - (await taken("parking", stay.check_in_day)), 5 - (await taken("parking", addDays(stay.check_in_day, 1))));
    expect(byCode.parking).toMatchObject({ room_indexes: [0, 1], booked: 1, left });
    expect(byCode.breakfast).toMatchObject({ room_indexes: [1], booked: 0, left: null });
    const stranger = await get(`/api/xtra/adds/list?domain=${HOST}&order_doc=${created.order_doc}&lang=en-US`);
    expect(stranger.status).toBe(404);
    expect(stranger.body.msg.code).toBe("order_not_found");
  });
});

describe("booking add-ons onto an existing order", () => {
  it("adds priced items to an unpaid order, holds them, updates its amounts, shows them, and cancelling gives them all back", async () => {
    const pickupBefore = await taken("pickup", stay.check_in_day);
    const parkingBefore = [await taken("parking", stay.check_in_day), await taken("parking", addDays(stay.check_in_day, 1))];
    const created = await place({ room_attachment_detail: [{ adds_id: ids.breakfast, quantity: 2, child_quantity: 1, room_index: 0 }] });
    const room = created.order.sum;
    expect(created.order.final_amount).toBe(room + 2000);

    const added = await book(created, [
      { adds_id: ids.parking, quantity: 1, room_index: 0 },
      { adds_id: ids.pickup, quantity: 1 },
      // Sent prices and names are not read: the database's are.
      { adds_id: ids.pickup, quantity: 1, price: 1, amount: 1, name: "free" },
    ]);
    expect(added.status).toBe(200);
    const data = added.body.data;
    expect(data.attachment_list.map((item) => [item.adds_code, item.quantity, item.amount])).toEqual([
      ["breakfast", 2, 2000],
      ["parking", 1, 600],
      ["pickup", 1, 1200],
      ["pickup", 1, 1200],
    ]);
    expect(data.attachment_detail.rooms[0]).toMatchObject({ room_index: 0, amount: 2600 });
    expect(data.attachment_detail.other.map((item) => item.name)).toEqual(["Airport pickup", "Airport pickup"]);
    expect(data).toMatchObject({ attachment_amount: 5000, total_price: room + 5000, pay_amount: room + 5000, deposit_amount: 0 });
    expect(await taken("pickup", stay.check_in_day)).toBe(pickupBefore + 2);
    expect(await taken("parking", stay.check_in_day)).toBe(parkingBefore[0]! + 1);
    expect(await taken("parking", addDays(stay.check_in_day, 1))).toBe(parkingBefore[1]! + 1);

    // The same item again adds to its count: one hold of 2 a night, the maximum counted over both.
    const more = await book(created, [{ adds_id: ids.parking, quantity: 1 }], "zh-TW");
    expect(more.status).toBe(200);
    expect(more.body.data.attachment_amount).toBe(5600);
    expect(more.body.data.attachment_detail.other.map((item) => item.name)).toEqual(["機場接送", "機場接送", "停車位"]);
    const holds = await env.DB.prepare(
      "SELECT day, units FROM order_addon_days WHERE order_id = (SELECT id FROM orders WHERE order_doc = ?) AND addon_id = ? ORDER BY day",
    )
      .bind(created.order_doc, ids.parking)
      .all<{ day: string; units: number }>();
    expect(holds.results).toEqual([
      { day: stay.check_in_day, units: 2 },
      { day: addDays(stay.check_in_day, 1), units: 2 },
    ]);
    expect(await taken("parking", stay.check_in_day)).toBe(parkingBefore[0]! + 2);

    // The order as its guest sees it: the API's history and the order page.
    const history = await get<{ attachment_list: Item[]; final_amount: number; pay_amount: number; remain_total_amount: number }>(
      `/api/ota/order/personal-history?domain=${HOST}&hash_code=${encodeURIComponent(created.order.valid_hash)}&lang=en-US`,
    );
    expect(history.body.data.attachment_list).toHaveLength(5);
    expect(history.body.data).toMatchObject({ final_amount: room + 5600, pay_amount: room + 5600, remain_total_amount: room + 5600 });
    const page = text(
      await (
        await fetchAs(HOST, `/en-US/hxa/orders/${created.order_doc}?valid_hash=${encodeURIComponent(created.order.valid_hash)}`)
      ).text(),
    );
    expect(page).toContain("Airport pickup");
    expect(page).toContain("Parking");
    expect(page).toContain(`NT$${(room + 5600).toLocaleString("en-US")}`);

    const cancelled = await post(`/api/wota/order/cancel-via-hash/${created.order_doc}`, {
      domain: HOST,
      valid_hash: created.order.cancel_hash,
    });
    expect(cancelled.status).toBe(200);
    expect(await taken("pickup", stay.check_in_day)).toBe(pickupBefore);
    expect(await taken("parking", stay.check_in_day)).toBe(parkingBefore[0]);
    expect(await taken("parking", addDays(stay.check_in_day, 1))).toBe(parkingBefore[1]);
  });

  it("takes the member's token instead of the cancel link, and no other member's", async () => {
    const member = async (email: string) => {
      const row = await env.DB.prepare("INSERT INTO members (hotel_id, email, points) VALUES (?, ?, 0) RETURNING id")
        .bind(ids.hotel, email)
        .first<{ id: number }>();
      return issueMemberToken(env.DB, row?.id ?? 0);
    };
    const owner = await member("owner-adds@example.com");
    const stranger = await member("stranger-adds@example.com");
    const created = await place({}, { authorization: `Bearer ${owner}` });
    const body = { domain: HOST, order_doc: created.order_doc, room_attachment_detail: [{ adds_id: ids.pickup, quantity: 1 }] };
    const refused = await post("/api/xtra/adds/batch/booking", body, { authorization: `Bearer ${stranger}` });
    expect(refused.status).toBe(404);
    const anonymous = await post("/api/xtra/adds/batch/booking", body);
    expect(anonymous.status).toBe(404);
    const added = await post<Batch>("/api/xtra/adds/batch/booking", body, { authorization: `Bearer ${owner}` });
    expect(added.status).toBe(200);
    expect(added.body.data.attachment_amount).toBe(1200);
  });

  it("recomputes a deposit order's deposit on its new total (the hotel's rule, as if booked with the order)", async () => {
    const created = await place({ pay_option: "part", room_attachment_detail: [] }, {}, DEPOSIT);
    const before = await env.DB.prepare("SELECT total_price, pay_amount, deposit_amount FROM orders WHERE order_doc = ?")
      .bind(created.order_doc)
      .first<{ total_price: number; pay_amount: number; deposit_amount: number }>();
    expect(before?.pay_amount).toBe(before?.deposit_amount);
    const added = await post<Batch>(
      "/api/xtra/adds/batch/booking",
      {
        domain: DEPOSIT,
        order_doc: created.order_doc,
        valid_hash: created.order.cancel_hash,
        room_attachment_detail: [{ adds_id: other.pickup, quantity: 1 }],
      },
      {},
      "en-US",
      DEPOSIT,
    );
    expect(added.status).toBe(200);
    const total = (before?.total_price ?? 0) + 1200;
    // 30 % of the new total, at most the contract's 30 % rounded down.
    const deposit = Math.floor((total * 30) / 100);
    expect(added.body.data).toMatchObject({ total_price: total, deposit_amount: deposit, pay_amount: deposit });
  });
});

let refusalSeq = 0;

describe("refusals hold nothing", () => {
  it.each([
    ["an unknown item", () => [{ adds_id: 999_999, quantity: 1 }], 409, "This extra is not offered with the plan you chose"],
    [
      "an item the line's plan does not offer",
      () => [{ adds_id: ids.breakfast, quantity: 1, room_index: 1 }],
      409,
      "This extra is not offered with the plan you chose",
    ],
    [
      "a room line the order lacks",
      () => [{ adds_id: ids.parking, quantity: 1, room_index: 5 }],
      400,
      "The value of room_attachment_detail.0.room_index is not valid",
    ],
    [
      "over the maximum, counting what the order has",
      () => [{ adds_id: ids.parking, quantity: 2 }],
      409,
      "At most 2 of this extra per booking",
    ],
    [
      "over the party, counting what the order has",
      () => [{ adds_id: ids.breakfast, quantity: 1, room_index: 0 }],
      400,
      "This extra is for more people than your booking has",
    ],
    [
      "children on an item not per person",
      () => [{ adds_id: ids.pickup, quantity: 1, child_quantity: 1 }],
      400,
      "Children are counted only for extras priced per person",
    ],
    ["nothing chosen", () => [], 400, "The value of room_attachment_detail is not valid"],
  ])("refuses %s with a clear message and changes nothing", async (_, choices, status, message) => {
    // Each case on its own dates, so the parking spaces of one do not run out for another.
    const checkIn = addDays(today, 30 + 3 * ++refusalSeq);
    const created = await place({
      check_in_day: checkIn,
      check_out_day: addDays(checkIn, 2),
      orders: [
        { room_class_id: ids.room, proposal_id: ids.BAR, num: 1 },
        { room_class_id: ids.room, proposal_id: ids.PLAIN, num: 1 },
      ],
      room_attachment_detail: [
        { adds_id: ids.parking, quantity: 1, room_index: 0 },
        { adds_id: ids.breakfast, quantity: 2, child_quantity: 1, room_index: 0 },
      ],
    });
    const before = await snapshot(created.order_doc);
    const answer = await book(created, choices());
    expect(answer.status).toBe(status);
    expect(answer.body.msg.message).toBe(message);
    expect(await snapshot(created.order_doc)).toEqual(before);
  });

  it("refuses a view link, another hotel's order and a stranger with 404, changing nothing", async () => {
    const created = await place();
    const foreign = await place({}, {}, DEPOSIT);
    const before = await snapshot(created.order_doc);
    const choice = [{ adds_id: ids.pickup, quantity: 1 }];
    const viewLink = await book(created, choice, "en-US", { valid_hash: created.order.valid_hash });
    expect(viewLink.status).toBe(404);
    expect(viewLink.body.msg.message).toBe("This order could not be found");
    const wrong = await book(created, choice, "en-US", { valid_hash: "x".repeat(60) });
    expect(wrong.status).toBe(404);
    // Another hotel's order with its own cancel link, asked of this hotel.
    const elsewhere = await book(foreign, choice);
    expect(elsewhere.status).toBe(404);
    // This hotel's link sent to the other hotel.
    const crossed = await post(
      "/api/xtra/adds/batch/booking",
      {
        domain: DEPOSIT,
        order_doc: created.order_doc,
        valid_hash: created.order.cancel_hash,
        room_attachment_detail: choice,
      },
      {},
      "en-US",
      DEPOSIT,
    );
    expect(crossed.status).toBe(404);
    expect(await snapshot(created.order_doc)).toEqual(before);
  });

  it("refuses a paid order, one being paid, a cancelled one and one paid at the hotel, each in the guest's language", async () => {
    const choice = [{ adds_id: ids.pickup, quantity: 1 }];
    const paid = await place();
    await pay(paid.order_doc);
    const paying = await place();
    await env.DB.prepare(
      "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) SELECT id, 8, 'sandbox', ?, pay_amount, 'full' FROM orders WHERE order_doc = ?",
    )
      .bind(`PAYING${paying.order_doc.replace(/-/g, "")}`, paying.order_doc)
      .run();
    const cancelled = await place();
    await post(`/api/wota/order/cancel-via-hash/${cancelled.order_doc}`, { domain: HOST, valid_hash: cancelled.order.cancel_hash });
    const atHotel = await place({ pay_way: "pay_arrival", payment_vendor: 14 });
    const cases: [Created, string, string][] = [
      [paid, "zh-TW", "僅尚未付款的訂單可於線上加購，請聯絡飯店"],
      [paying, "ko-KR", "이 예약은 결제가 진행 중입니다. 추가 옵션은 결제 전에만 추가할 수 있습니다"],
      [cancelled, "en-US", "This order is already cancelled"],
      [atHotel, "ja-JP", "オンラインでのオプション追加はお支払い前のご予約のみ可能です。ホテルへお問い合わせください"],
    ];
    for (const [created, lang, message] of cases) {
      const before = await snapshot(created.order_doc);
      const answer = await book(created, choice, lang);
      expect(answer.status).toBe(409);
      expect(answer.body.msg.message).toBe(message);
      expect(await snapshot(created.order_doc)).toEqual(before);
    }
  });
});

describe("races", () => {
  it("of 6 orders batch-booking the last parking space at once, exactly one gets it; the others change nothing", async () => {
    const night = { check_in_day: LAST_DAY, check_out_day: addDays(LAST_DAY, 1) };
    const orders = [];
    for (let index = 0; index < 6; index++) orders.push(await place(night));
    const attempts = await Promise.all(orders.map((created) => book(created, [{ adds_id: ids.parking, quantity: 1, room_index: 0 }])));
    expect(attempts.filter((attempt) => attempt.status === 200)).toHaveLength(1);
    const refused = attempts.filter((attempt) => attempt.status === 409);
    expect(refused).toHaveLength(5);
    for (const attempt of refused) expect(attempt.body.msg.message).toBe("Not enough of this extra is left for your dates");
    expect(await taken("parking", LAST_DAY)).toBe(1);
    const amounts = await env.DB.prepare(
      `SELECT attachment_amount, total_price - room_price AS extra FROM orders WHERE order_doc IN (SELECT value FROM json_each(?)) ORDER BY attachment_amount`,
    )
      .bind(JSON.stringify(orders.map((created) => created.order_doc)))
      .all<{ attachment_amount: number; extra: number }>();
    expect(amounts.results.map((row) => row.attachment_amount)).toEqual([0, 0, 0, 0, 0, 300]);
    // Cancelling the winner gives the space back.
    const winner = orders[attempts.findIndex((attempt) => attempt.status === 200)]!;
    await post(`/api/wota/order/cancel-via-hash/${winner.order_doc}`, { domain: HOST, valid_hash: winner.order.cancel_hash });
    expect(await taken("parking", LAST_DAY)).toBe(0);
  }, 30_000);

  it("of 8 batch bookings on the same order at once, none overwrites another: the order has what was answered 200", async () => {
    const created = await place();
    const attempts = await Promise.all(Array.from({ length: 8 }, () => book(created, [{ adds_id: ids.towels, quantity: 1 }])));
    const landed = attempts.filter((attempt) => attempt.status === 200).length;
    for (const attempt of attempts.filter((attempt) => attempt.status !== 200)) {
      expect(attempt.status).toBe(409);
      expect(attempt.body.msg.message).toBe("This booking was changed at the same moment; please try again");
    }
    expect(landed).toBeGreaterThanOrEqual(2);
    const row = await env.DB.prepare(
      "SELECT attachment_amount, total_price, room_price, pay_amount, room_attachment_detail FROM orders WHERE order_doc = ?",
    )
      .bind(created.order_doc)
      .first<{ attachment_amount: number; total_price: number; room_price: number; pay_amount: number; room_attachment_detail: string }>();
    expect(JSON.parse(row?.room_attachment_detail ?? "[]")).toHaveLength(landed);
    expect(row?.attachment_amount).toBe(100 * landed);
    expect(row?.total_price).toBe((row?.room_price ?? 0) + 100 * landed);
    expect(row?.pay_amount).toBe(row?.total_price);
  }, 30_000);

  it("two batch bookings on the same order at once both land, neither overwriting the other", async () => {
    const created = await place();
    const before = await taken("pickup", stay.check_in_day);
    const [first, second] = await Promise.all([
      book(created, [{ adds_id: ids.pickup, quantity: 1 }]),
      book(created, [{ adds_id: ids.pickup, quantity: 1 }]),
    ]);
    expect([first?.status, second?.status]).toEqual([200, 200]);
    const row = await env.DB.prepare(
      "SELECT attachment_amount, total_price, room_price, pay_amount, room_attachment_detail FROM orders WHERE order_doc = ?",
    )
      .bind(created.order_doc)
      .first<{ attachment_amount: number; total_price: number; room_price: number; pay_amount: number; room_attachment_detail: string }>();
    expect(row?.attachment_amount).toBe(2400);
    expect(row?.total_price).toBe((row?.room_price ?? 0) + 2400);
    expect(row?.pay_amount).toBe(row?.total_price);
    expect(JSON.parse(row?.room_attachment_detail ?? "[]")).toHaveLength(2);
    expect(await taken("pickup", stay.check_in_day)).toBe(before + 2);
    // A third is over the maximum of 2.
    const third = await book(created, [{ adds_id: ids.pickup, quantity: 1 }]);
    expect(third.body.msg.code).toBe("addon_over_maximum");
  }, 30_000);
});

describe("the typed client (app/contract/client.ts)", () => {
  const api = new HotelApi({ transport: (request) => SELF.fetch(request), origin: `http://${HOST}`, domain: HOST, lang: "en-US" });

  it("reads the lists and books a batch through the contract's schemas", async () => {
    expect((await api.addonList([ids.PLAIN!])).adds.map((item) => item.adds_code)).toEqual(["parking"]);
    expect(await api.addon("towels")).toMatchObject({ adds_id: ids.towels, unit: "stay", proposal_ids: [ids.BAR] });
    const created = await place();
    const offered = await api.orderAddonList(created.order_doc, created.order.valid_hash);
    expect(offered.addable).toBe(true);
    const towels = offered.adds.find((item) => item.adds_code === "towels");
    expect(towels).toMatchObject({ room_indexes: [0], booked: 0, left: null });
    const booked = await api.addonBatchBooking(created.order_doc, created.order.cancel_hash, [
      { adds_id: ids.towels!, quantity: 3, room_index: 0 },
    ]);
    expect(booked.attachment_detail.rooms[0]?.items[0]).toMatchObject({ adds_code: "towels", quantity: 3, amount: 300 });
    expect(booked.attachment_amount).toBe(300);
    const error = await api.addon("nothing-here").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HotelApiError);
    expect((error as HotelApiError).code).toBe("addon_not_found");
  });
});
