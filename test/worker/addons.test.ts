/**
 * Add-on items booked with the room (issue 27, decisions 115-117), on real D1: a plan's adds_list in
 * search results, what is left by day, the price check's attachment_detail, an order that stores and
 * holds its add-ons, the last unit raced for, and cancelling giving it back.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { composePending, confirmationFor } from "~/backend/mail/compose.server";
import type { OutboxRow } from "~/backend/mail/outbox.server";
import { labelled } from "~/backend/mail/render.server";
import type { Language } from "~/i18n/languages";
import { createLogger } from "~/platform/log.server";
import { BOOKER, PLAIN_PLAN, TEST_ADDONS, apiJson, fixtureHotel, fixtureIds, loadHotel } from "./helpers";

const HOST = "addons.localhost";
const today = todayIn("Asia/Taipei");
const stay = { check_in_day: addDays(today, 10), check_out_day: addDays(today, 12) };
/** The one day with a single parking space left. */
const LAST_DAY = addDays(today, 20);

let room = 0;
let bar = 0;
let plain = 0;
const ids: Record<string, number> = {};

interface Item {
  adds_id: number;
  adds_code: string;
  name: string;
  unit: string;
  price: number;
  child_price: number | null;
  quantity: number;
  child_quantity: number;
  nights: number;
  amount: number;
}
interface Detail {
  room_price: number;
  attachment_amount: number;
  total_price: number;
  pay_amount: number;
  attachment_detail: { rooms: { room_index: number; items: Item[]; amount: number }[]; other: Item[] };
}
interface Created {
  order_doc: string;
  order: {
    valid_hash: string;
    cancel_hash: string;
    final_amount: number;
    attachment_list: Item[];
    attachment_detail: Detail["attachment_detail"];
    room_attachment_exist: boolean;
  };
}

function post<T = Record<string, unknown>>(path: string, body: unknown, headers: Record<string, string> = {}, lang = "en-US") {
  return apiJson<T>(HOST, `${path}?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

function order(overrides: Record<string, unknown> = {}) {
  return {
    domain: HOST,
    ...BOOKER,
    ...stay,
    pay_way: "remittance",
    payment_vendor: 8,
    orders: [{ room_class_id: room, proposal_id: bar, num: 1 }],
    adults_count: 2,
    children_count: 1,
    ...overrides,
  };
}

const breakfastAndPickup = () => [
  { adds_id: ids.breakfast, quantity: 2, child_quantity: 1, room_index: 0 },
  { adds_id: ids.pickup, quantity: 1 },
];

async function taken(code: string, day: string): Promise<number> {
  const row = await env.DB.prepare("SELECT taken FROM addon_days WHERE addon_id = ? AND day = ?")
    .bind(ids[code], day)
    .first<{ taken: number }>();
  return row?.taken ?? -1;
}

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      file.room_classes[0]!.total_rooms = 30;
      (file.rate_plans as unknown[]).push(PLAIN_PLAN);
      (file as Record<string, unknown>).addons = [TEST_ADDONS.breakfast, TEST_ADDONS.pickup, TEST_ADDONS.parking];
    }),
  );
  Object.assign(ids, await fixtureIds(HOST));
  room = ids.room!;
  bar = ids.BAR!;
  plain = ids.PLAIN!;
});

describe("add-ons in search results and by day", () => {
  it("lists each plan's add-ons in its adds_list, in the request's language", async () => {
    const { status, body } = await apiJson<{
      rooms: {
        price_set: { proposal_id: number; adds_list: { adds_code: string; name: string; unit: string; child_price: number | null }[] }[];
      }[];
    }>(HOST, `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${stay.check_in_day}&end_date=${stay.check_out_day}&lang=zh-TW`);
    expect(status).toBe(200);
    const plans = body.data.rooms[0]!.price_set;
    const barList = plans.find((plan) => plan.proposal_id === bar)!.adds_list;
    expect(barList.map((item) => item.adds_code)).toEqual(["breakfast", "pickup", "parking"]);
    expect(barList[0]).toMatchObject({ name: "早餐", unit: "person_night", child_price: 200 });
    expect(barList[1]).toMatchObject({ name: "機場接送", child_price: null });
    expect(plans.find((plan) => plan.proposal_id === plain)!.adds_list.map((item) => item.adds_code)).toEqual(["parking"]);
  });

  it("answers what is left per date: a count for limited items, none for the others", async () => {
    const { status, body } = await apiJson<{ adds: { adds_code: string; dates: { date: string; inventory: number | null }[] }[] }>(
      HOST,
      `/api/xtra/adds/date/inventory?domain=${HOST}&start_date=${addDays(today, 19)}&end_date=${addDays(today, 21)}&lang=en-US`,
    );
    expect(status).toBe(200);
    const byCode = Object.fromEntries(body.data.adds.map((item) => [item.adds_code, item.dates]));
    expect(byCode.parking).toEqual([
      { date: addDays(today, 19), inventory: 5 },
      { date: LAST_DAY, inventory: 1 },
    ]);
    expect(byCode.breakfast).toEqual([
      { date: addDays(today, 19), inventory: null },
      { date: LAST_DAY, inventory: null },
    ]);
  });

  it("refuses an inventory question without a stay's dates", async () => {
    const { status, body } = await apiJson(HOST, `/api/xtra/adds/date/inventory?domain=${HOST}&start_date=tomorrow&lang=en-US`);
    expect(status).toBe(400);
    expect(body.success).toBe(false);
  });
});

describe("pricing add-ons", () => {
  it("prices each choice for the stay and party: rooms per room line, other for the order, and the total", async () => {
    const { status, body } = await post<Detail>("/api/ota/order/calculate", {
      ...order(),
      room_attachment_detail: breakfastAndPickup(),
    });
    expect(status).toBe(200);
    const detail = body.data;
    // Breakfast: (2 adults × 400 + 1 child × 200) × 2 nights; the pickup once.
    expect(detail.attachment_detail.rooms).toHaveLength(1);
    expect(detail.attachment_detail.rooms[0]).toMatchObject({ room_index: 0, amount: 2000 });
    expect(detail.attachment_detail.rooms[0]!.items[0]).toMatchObject({
      adds_code: "breakfast",
      name: "Breakfast",
      quantity: 2,
      child_quantity: 1,
      nights: 2,
      amount: 2000,
    });
    expect(detail.attachment_detail.other).toEqual([expect.objectContaining({ adds_code: "pickup", amount: 1200 })]);
    expect(detail.attachment_amount).toBe(3200);
    expect(detail.total_price).toBe(detail.room_price + 3200);
    expect(detail.pay_amount).toBe(detail.total_price);
  });

  it.each([
    [[{ adds_id: "breakfast", quantity: 4, child_quantity: 0, room_index: 0 }], 400, "This extra is for more people than your booking has"],
    [[{ adds_id: "parking", quantity: 3 }], 409, "At most 2 of this extra per booking"],
    [[{ adds_id: "pickup", quantity: 1, child_quantity: 1 }], 400, "Children are counted only for extras priced per person"],
    [[{ adds_id: "pickup", quantity: 0 }], 400, "Choose at least one of this extra"],
  ])("refuses %j with a clear message", async (choices, status, message) => {
    const selection = choices.map((choice) => ({ ...choice, adds_id: ids[choice.adds_id] }));
    const answer = await post("/api/ota/order/calculate", { ...order(), room_attachment_detail: selection });
    expect(answer.status).toBe(status);
    expect(answer.body.msg.message).toBe(message);
    expect(answer.body.msg.extrainfo?.field).toMatch(/^room_attachment_detail\.0/);
  });

  it("refuses an item the chosen plan does not offer, in the guest's language", async () => {
    const answer = await post(
      "/api/ota/order/calculate",
      {
        ...order({ orders: [{ room_class_id: room, proposal_id: plain, num: 1 }] }),
        room_attachment_detail: [{ adds_id: ids.breakfast, quantity: 1 }],
      },
      {},
      "zh-TW",
    );
    expect(answer.status).toBe(409);
    expect(answer.body.msg.message).toBe("您選擇的方案不提供此加購項目");
  });
});

describe("orders with add-ons", () => {
  it("stores the priced add-ons, holds limited ones, answers them in attachment_list and gives them back when cancelled", async () => {
    const before = await taken("pickup", stay.check_in_day);
    const created = await post<Created>("/api/ota/order/personal-new", order({ room_attachment_detail: breakfastAndPickup() }));
    expect(created.status).toBe(201);
    const { order: answer, order_doc } = created.body.data;
    expect(answer.room_attachment_exist).toBe(true);
    expect(answer.attachment_list.map((item) => [item.adds_code, item.amount])).toEqual([
      ["breakfast", 2000],
      ["pickup", 1200],
    ]);
    expect(answer.attachment_detail.other.map((item) => item.name)).toEqual(["Airport pickup"]);
    // The pickup counts once: held on the check-in day only.
    expect(await taken("pickup", stay.check_in_day)).toBe(before + 1);
    expect(await taken("pickup", addDays(stay.check_in_day, 1))).toBe(0);

    const listed = await post<{ attachment_list: Item[] }>(
      "/api/ota/order/attachment",
      { domain: HOST, order_doc, valid_hash: answer.valid_hash },
      {},
      "zh-TW",
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.attachment_list.map((item) => item.name)).toEqual(["早餐", "機場接送"]);
    const stranger = await post("/api/ota/order/attachment", { domain: HOST, order_doc });
    expect(stranger.status).toBe(404);

    const cancelled = await post(`/api/wota/order/cancel-via-hash/${order_doc}`, { domain: HOST, valid_hash: answer.cancel_hash });
    expect(cancelled.status).toBe(200);
    expect(await taken("pickup", stay.check_in_day)).toBe(before);
  });

  it("never oversells the last unit: of 8 concurrent orders for the last parking space, exactly one gets it", async () => {
    const night = { check_in_day: LAST_DAY, check_out_day: addDays(LAST_DAY, 1) };
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        post(
          "/api/ota/order/personal-new",
          order({ ...night, room_attachment_detail: [{ adds_id: ids.parking, quantity: 1, room_index: 0 }] }),
          { "Idempotency-Key": `addon-race-${index}-abcdef` },
        ),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 201)).toHaveLength(1);
    const refused = attempts.filter((attempt) => attempt.status === 409);
    expect(refused).toHaveLength(7);
    for (const attempt of refused) expect(attempt.body.msg.message).toBe("Not enough of this extra is left for your dates");
    expect(await taken("parking", LAST_DAY)).toBe(1);
    // The database itself refuses a second hold of the day, whoever sends it (migration 0010).
    const hold = env.DB.prepare(
      "INSERT INTO order_addon_days (order_id, addon_id, day, units) SELECT id, ?, ?, 1 FROM orders WHERE id NOT IN (SELECT order_id FROM order_addon_days) LIMIT 1",
    ).bind(ids.parking, LAST_DAY);
    await expect(hold.run()).rejects.toThrow(/addon_days_not_oversold/);
    // The refused orders took no room either.
    const rooms = await env.DB.prepare("SELECT booked FROM room_nights WHERE room_class_id = ? AND night = ?")
      .bind(room, LAST_DAY)
      .first<{ booked: number }>();
    expect(rooms?.booked).toBe(1);
    const left = await apiJson<{ adds: { adds_code: string; dates: { inventory: number | null }[] }[] }>(
      HOST,
      `/api/xtra/adds/date/inventory?domain=${HOST}&start_date=${LAST_DAY}&end_date=${addDays(LAST_DAY, 1)}&adds_id=${ids.parking}&lang=en-US`,
    );
    expect(left.body.data.adds).toEqual([expect.objectContaining({ adds_code: "parking", dates: [{ date: LAST_DAY, inventory: 0 }] })]);
  }, 30_000);
});

describe("the confirmation's add-ons (email and PDF)", () => {
  it.each([
    ["zh-TW", "早餐 3 份", "NT$2,000", "機場接送 1 份", "NT$1,200", "加購項目"],
    ["en-US", "Breakfast × 3", "NT$2,000", "Airport pickup × 1", "NT$1,200", "Add-ons"],
    // The items have no Japanese names: the hotel's main language's, in Japanese words.
    ["ja-JP", "早餐（3）", "NT$2,000", "機場接送（1）", "NT$1,200", "追加オプション"],
  ])(
    "%s: the email and the PDF's content list each item with its count and amount",
    async (lang, breakfast, breakfastAmount, pickup, pickupAmount, heading) => {
      const created = await post<Created>(
        "/api/ota/order/personal-new",
        order({ room_attachment_detail: breakfastAndPickup() }),
        { "Idempotency-Key": `addon-mail-${lang}-abcdef` },
        lang,
      );
      expect(created.status).toBe(201);
      const deps = { db: env.DB, signingSecret: env.SESSION_SECRET, now: new Date(), log: createLogger("test"), assets: undefined };
      await composePending(deps, 50);
      const row = await env.DB.prepare(
        "SELECT m.* FROM mail_outbox m JOIN orders o ON o.id = m.order_id WHERE o.order_doc = ? AND m.kind = 'order_confirmation'",
      )
        .bind(created.body.data.order_doc)
        .first<OutboxRow & { text_body: string; html_body: string }>();
      expect(row?.lang).toBe(lang);
      // The label's colon as the language writes it (full-width in Chinese and Japanese, issue 37 item 17).
      expect(row?.text_body).toContain(labelled(lang as Language, heading, `${breakfast} · ${breakfastAmount}`));
      expect(row?.text_body).toContain(labelled(lang as Language, heading, `${pickup} · ${pickupAmount}`));
      expect(row?.html_body).toContain(`${pickup} · ${pickupAmount}`);

      const pdf = await confirmationFor(deps, row!);
      const section = pdf?.content.sections.find((candidate) => candidate.heading === heading);
      expect(section?.rows).toEqual([
        [breakfast, breakfastAmount],
        [pickup, pickupAmount],
      ]);
    },
  );
});
