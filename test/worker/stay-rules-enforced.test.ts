/**
 * The stay rules enforced by the search, the price check and the order (issue 40, decision 154),
 * against the built-in back end and a real D1. Rules are set on the rows as staff set them at the
 * desk (room_nights for a room class, plan_nights for one plan of it). A race is played as the desk
 * tests play theirs: the competing change (staff closing a night, setting a rule) lands after the
 * order read the rules and before its batch runs, so only the guard inside the batch can refuse it.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { formatDate } from "~/i18n/format";
import { handleBackendRequest } from "~/backend/router.server";
import { HotelApi } from "~/contract/client";
import { checkPrice } from "~/features/checkout/price-check.server";
import { BOOKER, Browser, PLAIN_PLAN, apiJson, fixtureHotel, fixtureIds, loadHotel, text, type Envelope } from "./helpers";

const HOST = "stay-rules.localhost";
const today = todayIn("Asia/Taipei");
let ids: Record<string, number> = {};

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      // PLAIN is also a special plan, listed by /api/ota/room/rateplan/empty-by-date.
      (file.rate_plans as unknown[]).push({ ...PLAIN_PLAN, is_special: true });
      file.inventory.sold_out = [];
      file.hotel.support_lang = ["zh-TW", "en-US", "ja-JP"];
    }),
  );
  ids = await fixtureIds(HOST);
});

/** Every rule of the hotel lifted again: each test sets its own. */
afterEach(async () => {
  const reset = "closed = 0, min_stay = NULL, max_stay = NULL, no_arrival = 0, no_departure = 0";
  await env.DB.batch([
    env.DB.prepare(`UPDATE room_nights SET ${reset} WHERE room_class_id = ?`).bind(ids.room),
    env.DB.prepare(`UPDATE plan_nights SET ${reset} WHERE room_class_id = ?`).bind(ids.room),
  ]);
});

type Rule = { closed?: 1; no_arrival?: 1; no_departure?: 1; min_stay?: number; max_stay?: number };

/** Sets a rule on one night: the room class's row, or one plan's row (by code). */
function ruleStatement(night: string, rule: Rule, plan?: "BAR" | "PLAIN"): D1PreparedStatement {
  const columns = Object.keys(rule);
  const set = columns.map((column) => `${column} = ?`).join(", ");
  const values = Object.values(rule);
  return plan
    ? env.DB.prepare(`UPDATE plan_nights SET ${set} WHERE rate_plan_id = ? AND room_class_id = ? AND night = ?`).bind(
        ...values,
        ids[plan],
        ids.room,
        night,
      )
    : env.DB.prepare(`UPDATE room_nights SET ${set} WHERE room_class_id = ? AND night = ?`).bind(...values, ids.room, night);
}

const setRule = (night: string, rule: Rule, plan?: "BAR" | "PLAIN") => ruleStatement(night, rule, plan).run();

interface StayRule {
  rule: string;
  date: string;
  nights: number | null;
}
interface Search {
  rooms: { room_class_id: number; price_set: { proposal_id: number }[]; stay_rule: StayRule | null }[];
  stay_rule: StayRule | null;
}

async function search(start: string, end: string) {
  const { status, body } = await apiJson<Search>(
    HOST,
    `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${start}&end_date=${end}&lang=en-US`,
  );
  expect(status).toBe(200);
  return body.data;
}

/** The plans a search sells for the stay, by code. */
const plansSold = (data: Search) =>
  data.rooms.flatMap((room) => room.price_set.map((plan) => (plan.proposal_id === ids.BAR ? "BAR" : "PLAIN"))).sort();

const orderLines = (plan: "BAR" | "PLAIN" = "BAR") => [{ room_class_id: ids.room!, proposal_id: ids[plan]!, num: 1 }];

function priceCheck(start: string, end: string, lang = "en-US", plan: "BAR" | "PLAIN" = "BAR") {
  return apiJson(HOST, `/api/ota/order/calculate?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ domain: HOST, check_in_day: start, check_out_day: end, orders: orderLines(plan) }),
  });
}

const orderBody = (start: string, end: string, plan: "BAR" | "PLAIN" = "BAR") =>
  JSON.stringify({
    domain: HOST,
    ...BOOKER,
    check_in_day: start,
    check_out_day: end,
    pay_way: "remittance",
    payment_vendor: 8,
    orders: orderLines(plan),
    adults_count: 2,
  });

function order(start: string, end: string, lang = "en-US", plan: "BAR" | "PLAIN" = "BAR") {
  return apiJson<{ order_doc: string }>(HOST, `/api/ota/order/personal-new?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(JSON.parse(orderBody(start, end, plan))),
  });
}

/** What an order writes: orders, their lines, nights and emails, and the rooms booked. */
async function written() {
  const row = await env.DB.prepare(
    `SELECT (SELECT COUNT(*) FROM orders WHERE hotel_id = ?1) AS orders,
            (SELECT COUNT(*) FROM order_lines WHERE room_class_id = ?2) AS lines,
            (SELECT COUNT(*) FROM order_nights WHERE room_class_id = ?2) AS nights,
            (SELECT COALESCE(SUM(booked), 0) FROM room_nights WHERE room_class_id = ?2) AS booked,
            (SELECT COALESCE(SUM(sold), 0) FROM plan_nights WHERE room_class_id = ?2) AS sold,
            (SELECT COUNT(*) FROM mail_outbox WHERE hotel_id = ?1) AS mails`,
  )
    .bind(ids.hotel, ids.room)
    .first<Record<string, number>>();
  return row;
}

const en = (date: string) => formatDate(date, "en-US");
const ja = (date: string) => formatDate(date, "ja-JP");

describe("the search leaves out what the stay rules refuse, and says why when nothing is left", () => {
  it("a closed night inside the stay: on the room class's row every plan is left out, and the answer says which night", async () => {
    const start = addDays(today, 10);
    await setRule(addDays(start, 1), { closed: 1 });
    const data = await search(start, addDays(start, 3));
    expect(plansSold(data)).toEqual([]);
    expect(data.stay_rule).toEqual({ rule: "closed", date: addDays(start, 1), nights: null });
    expect(data.rooms[0]?.stay_rule).toEqual({ rule: "closed", date: addDays(start, 1), nights: null });
    // The night before it still sells, and so does a stay that leaves on the closed night's morning.
    expect(plansSold(await search(start, addDays(start, 1)))).toEqual(["BAR", "PLAIN"]);
  });

  it("a closed night on one plan's row leaves out that plan only, and a non-empty answer explains nothing", async () => {
    const start = addDays(today, 11);
    await setRule(start, { closed: 1 }, "BAR");
    const data = await search(start, addDays(start, 2));
    expect(plansSold(data)).toEqual(["PLAIN"]);
    expect(data.stay_rule).toBeNull();
    expect(data.rooms[0]?.stay_rule).toBeNull();
  });

  it("no arrival on the check-in night: refused from that day, sold from the next", async () => {
    const start = addDays(today, 12);
    await setRule(start, { no_arrival: 1 });
    const data = await search(start, addDays(start, 2));
    expect(plansSold(data)).toEqual([]);
    expect(data.stay_rule).toEqual({ rule: "no_arrival", date: start, nights: null });
    // Staying over the night is allowed: only arriving on it is not.
    expect(plansSold(await search(addDays(start, -1), addDays(start, 2)))).toEqual(["BAR", "PLAIN"]);
  });

  it("no departure on the check-out day (that date's own row): refused, one night more sells", async () => {
    const start = addDays(today, 13);
    await setRule(addDays(start, 2), { no_departure: 1 }, "PLAIN");
    await setRule(addDays(start, 2), { no_departure: 1 }, "BAR");
    const data = await search(start, addDays(start, 2));
    expect(plansSold(data)).toEqual([]);
    expect(data.stay_rule).toEqual({ rule: "no_departure", date: addDays(start, 2), nights: null });
    expect(plansSold(await search(start, addDays(start, 3)))).toEqual(["BAR", "PLAIN"]);
    // Arriving on that date is not leaving on it.
    expect(plansSold(await search(addDays(start, 2), addDays(start, 3)))).toEqual(["BAR", "PLAIN"]);
  });

  it("a minimum stay is read on the arrival night only", async () => {
    const start = addDays(today, 14);
    await setRule(start, { min_stay: 2 });
    await setRule(addDays(start, 1), { min_stay: 3 }, "BAR");
    const one = await search(start, addDays(start, 1));
    expect(plansSold(one)).toEqual([]);
    expect(one.stay_rule).toEqual({ rule: "min_stay", date: start, nights: 2 });
    // Two nights from the arrival night: the next night's minimum of three does not apply.
    expect(plansSold(await search(start, addDays(start, 2)))).toEqual(["BAR", "PLAIN"]);
    // Arriving on the next night, BAR's own minimum of three applies to BAR only.
    expect(plansSold(await search(addDays(start, 1), addDays(start, 3)))).toEqual(["PLAIN"]);
  });

  it("a maximum stay on the arrival night: longer stays are refused", async () => {
    const start = addDays(today, 16);
    await setRule(start, { max_stay: 2 });
    const three = await search(start, addDays(start, 3));
    expect(plansSold(three)).toEqual([]);
    expect(three.stay_rule).toEqual({ rule: "max_stay", date: start, nights: 2 });
    expect(plansSold(await search(start, addDays(start, 2)))).toEqual(["BAR", "PLAIN"]);
  });

  it("the special plans' availability obeys the rules too", async () => {
    const start = addDays(today, 17);
    const special = async () => {
      const { body } = await apiJson<{ rateplan_info: { room_classes: unknown[] }[] }>(
        HOST,
        `/api/ota/room/rateplan/empty-by-date?domain=${HOST}&start_date=${start}&end_date=${addDays(start, 1)}`,
      );
      return body.data.rateplan_info.flatMap((plan) => plan.room_classes);
    };
    expect(await special()).toHaveLength(1);
    await setRule(start, { closed: 1 });
    expect(await special()).toEqual([]);
  });
});

describe("the price check and the order refuse a stay the rules refuse, in the guest's language", () => {
  const cases: {
    name: string;
    start: number;
    nights: number;
    set: (start: string) => Promise<unknown>;
    code: string;
    en: (start: string) => string;
    ja: (start: string) => string;
  }[] = [
    {
      name: "a closed night",
      start: 20,
      nights: 2,
      set: (start) => setRule(addDays(start, 1), { closed: 1 }, "BAR"),
      code: "stay_closed",
      en: (start) => `Rooms are not sold for the night of ${en(addDays(start, 1))}; please choose other dates`,
      ja: (start) => `${ja(addDays(start, 1))}の宿泊は販売していません。別の日程をお選びください`,
    },
    {
      name: "no arrival",
      start: 21,
      nights: 1,
      set: (start) => setRule(start, { no_arrival: 1 }),
      code: "stay_no_arrival",
      en: (start) => `No arrivals on ${en(start)}; please choose another check-in date`,
      ja: (start) => `${ja(start)}はチェックインできません。別のチェックイン日をお選びください`,
    },
    {
      name: "no departure",
      start: 22,
      nights: 1,
      set: (start) => setRule(addDays(start, 1), { no_departure: 1 }),
      code: "stay_no_departure",
      en: (start) => `No departures on ${en(addDays(start, 1))}; please choose another check-out date`,
      ja: (start) => `${ja(addDays(start, 1))}はチェックアウトできません。別のチェックアウト日をお選びください`,
    },
    {
      name: "a minimum stay",
      start: 23,
      nights: 1,
      set: (start) => setRule(start, { min_stay: 2 }, "BAR"),
      code: "stay_min_stay",
      en: (start) => `A stay from ${en(start)} is at least 2 nights`,
      ja: (start) => `${ja(start)}からのご宿泊は2泊以上です`,
    },
    {
      name: "a maximum stay",
      start: 24,
      nights: 3,
      set: (start) => setRule(start, { max_stay: 2 }),
      code: "stay_max_stay",
      en: (start) => `A stay from ${en(start)} is at most 2 nights`,
      ja: (start) => `${ja(start)}からのご宿泊は2泊までです`,
    },
  ];

  for (const rule of cases) {
    it(`${rule.name}: price check and order refused with ${rule.code}, nothing written`, async () => {
      const start = addDays(today, rule.start);
      const end = addDays(start, rule.nights);
      await rule.set(start);
      for (const [lang, message] of [
        ["en-US", rule.en(start)],
        ["ja-JP", rule.ja(start)],
      ] as const) {
        const checked = await priceCheck(start, end, lang);
        expect(checked.status).toBe(409);
        expect(checked.body.msg.code).toBe(rule.code);
        expect(checked.body.msg.message).toBe(message);
        const before = await written();
        const ordered = await order(start, end, lang);
        expect(ordered.status).toBe(409);
        expect(ordered.body.msg.code).toBe(rule.code);
        expect(ordered.body.msg.message).toBe(message);
        expect(await written()).toEqual(before);
      }
    });
  }

  it("a maximum of one night says one night, in Chinese too", async () => {
    const start = addDays(today, 25);
    await setRule(start, { max_stay: 1 });
    const checked = await priceCheck(start, addDays(start, 2), "zh-TW");
    expect(checked.body.msg.code).toBe("stay_max_stay_one");
    expect(checked.body.msg.message).toBe(`自 ${formatDate(start, "zh-TW")} 入住最多可住 1 晚`);
  });

  it("the checkout's price check says the rule in the guest's words; the legacy one asks to choose again", async () => {
    const start = addDays(today, 27);
    await setRule(start, { min_stay: 2 });
    const client = new HotelApi({
      transport: (request) => handleBackendRequest(request, { db: env.DB, signingSecret: env.SESSION_SECRET as string }),
      origin: "https://backend.internal",
      domain: HOST,
      lang: "ja-JP",
    });
    const cart = { domain: HOST, start, end: addDays(start, 1), lines: orderLines(), checkoutKey: "stay-rules-key-1" };
    const hotel = { deposit_type: "all" as const, deposit_percent: 0 };
    const v2 = await checkPrice(client, hotel, true, cart, {}, "choose again");
    expect(v2).toEqual({ price: null, error: `${ja(start)}からのご宿泊は2泊以上です` });
    // The legacy check finds its lines in a search first, which no longer lists the plan.
    expect(await checkPrice(client, hotel, false, cart, {}, "choose again")).toEqual({ price: null, error: "choose again" });
  });

  it("a valid stay next to each rule still prices and books", async () => {
    const start = addDays(today, 26);
    await env.DB.batch([
      ruleStatement(start, { no_arrival: 1 }),
      ruleStatement(addDays(start, 1), { min_stay: 2 }, "BAR"),
      ruleStatement(addDays(start, 3), { closed: 1 }),
      ruleStatement(addDays(start, 4), { no_departure: 1 }),
    ]);
    // Arrive the day after the no-arrival night, for the two nights BAR's minimum asks from there,
    // leaving on the morning the closed night begins.
    expect((await priceCheck(addDays(start, 1), addDays(start, 3))).status).toBe(200);
    const before = await written();
    const ordered = await order(addDays(start, 1), addDays(start, 3));
    expect(ordered.status).toBe(201);
    const after = await written();
    expect(after?.orders).toBe((before?.orders ?? 0) + 1);
    expect(after?.booked).toBe((before?.booked ?? 0) + 2);
    // The plan without the minimum books one night from there.
    expect((await order(addDays(start, 1), addDays(start, 2), "en-US", "PLAIN")).status).toBe(201);
  });
});

/**
 * The D1 binding with a competitor: `before` runs once, just before the first batch that writes an
 * order — after the order read the stay's rules and priced it, before its batch.
 */
function racing(db: D1Database, before: () => Promise<unknown>): D1Database {
  let raced = false;
  const sqlOf = new WeakMap<object, string>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property) as unknown;
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    sqlOf.set(proxy, sql);
    return proxy;
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (!raced && statements.some((statement) => /INSERT INTO orders\b/.test(sqlOf.get(statement) ?? ""))) {
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

async function racedOrder(start: string, end: string, competitor: () => Promise<unknown>) {
  let ran = false;
  const request = new Request(`http://${HOST}/api/ota/order/personal-new?lang=en-US`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: orderBody(start, end),
  });
  const db = racing(env.DB, async () => {
    ran = true;
    await competitor();
  });
  const response = await handleBackendRequest(request, { db, signingSecret: env.SESSION_SECRET as string, now: new Date() });
  expect(ran).toBe(true);
  return { status: response.status, body: (await response.json()) as Envelope };
}

describe("the guard inside the order's batch: a rule set between the order's read and its batch", () => {
  const races: { name: string; start: number; nights: number; rule: (start: string) => D1PreparedStatement; code: string }[] = [
    {
      name: "staff close a night",
      start: 40,
      nights: 2,
      rule: (start) => ruleStatement(addDays(start, 1), { closed: 1 }),
      code: "stay_closed",
    },
    {
      name: "staff close the plan's arrival night",
      start: 42,
      nights: 1,
      rule: (start) => ruleStatement(start, { closed: 1 }, "BAR"),
      code: "stay_closed",
    },
    {
      name: "staff stop arrivals",
      start: 43,
      nights: 1,
      rule: (start) => ruleStatement(start, { no_arrival: 1 }, "BAR"),
      code: "stay_no_arrival",
    },
    {
      name: "staff stop departures",
      start: 44,
      nights: 1,
      rule: (start) => ruleStatement(addDays(start, 1), { no_departure: 1 }),
      code: "stay_no_departure",
    },
    {
      name: "staff set a two-night minimum",
      start: 45,
      nights: 1,
      rule: (start) => ruleStatement(start, { min_stay: 2 }),
      code: "stay_min_stay",
    },
    {
      name: "staff set a one-night maximum",
      start: 46,
      nights: 2,
      rule: (start) => ruleStatement(start, { max_stay: 1 }, "BAR"),
      code: "stay_max_stay_one",
    },
  ];

  for (const race of races) {
    it(`${race.name}: the order is refused with the rule, and nothing of it is written`, async () => {
      const start = addDays(today, race.start);
      const end = addDays(start, race.nights);
      // Before the race, the stay is for sale.
      expect((await priceCheck(start, end)).status).toBe(200);
      const before = await written();
      const { status, body } = await racedOrder(start, end, () => race.rule(start).run());
      expect(body.msg.code).toBe(race.code);
      expect(status).toBe(409);
      expect(await written()).toEqual(before);
    });
  }

  it("a rule set on another night, or lifted, lets the order through", async () => {
    const start = addDays(today, 48);
    const before = await written();
    const { status } = await racedOrder(start, addDays(start, 1), () =>
      env.DB.batch([ruleStatement(addDays(start, 1), { closed: 1, no_arrival: 1 }), ruleStatement(addDays(start, -1), { min_stay: 5 })]),
    );
    expect(status).toBe(201);
    expect((await written())?.orders).toBe((before?.orders ?? 0) + 1);
  });
});

describe("the guest's calendar and the search, price check and order agree", () => {
  it("every check-out the calendar refuses is refused for the same reason; every one it prices is sold at that total", async () => {
    const checkIn = addDays(today, 50);
    await env.DB.batch([
      ruleStatement(checkIn, { min_stay: 2, max_stay: 5 }),
      ruleStatement(addDays(checkIn, 3), { no_departure: 1 }),
      ruleStatement(addDays(checkIn, 7), { closed: 1 }),
    ]);
    const { body } = await apiJson<{ check_outs: { date: string; nights: number; total?: number; reason?: string }[] }>(
      HOST,
      `/api/portico/stay_calendar?domain=${HOST}&month=${checkIn.slice(0, 7)}&adults=2&children=0&rooms=1&check_in=${checkIn}&lang=en-US`,
    );
    const outs = body.data.check_outs.slice(0, 9);
    expect(outs.map((out) => out.reason ?? "open")).toEqual([
      "min_stay",
      "open",
      "no_departure",
      "open",
      "open",
      "max_stay",
      "max_stay",
      // The stays that take in the closed night (from check-out C+8) are refused for it first.
      "closed",
      "closed",
    ]);
    for (const out of outs) {
      const found = await search(checkIn, out.date);
      const checked = await priceCheck(checkIn, out.date, "en-US", "PLAIN");
      if (out.reason) {
        expect(plansSold(found)).toEqual([]);
        expect(found.stay_rule?.rule).toBe(out.reason);
        expect(checked.body.msg.code).toBe(`stay_${out.reason}`);
      } else {
        // PLAIN is the cheaper plan: the calendar's total is what the price check charges for it.
        expect(plansSold(found)).toEqual(["BAR", "PLAIN"]);
        expect((checked.body.data as { room_price?: number }).room_price).toBe(out.total);
      }
    }
  });
});

describe("the booking page explains an empty result, without JavaScript", () => {
  it("says the minimum stay in the guest's language instead of only 'sold out'", async () => {
    const start = addDays(today, 30);
    await setRule(start, { min_stay: 2 });
    const query = `start=${start}&end=${addDays(start, 1)}&adults=2`;
    const english = text((await new Browser(HOST).request(`/en-US/hxa/booking?${query}`)).html);
    expect(english).toContain(`Nothing can be booked for these dates: A stay from ${en(start)} is at least 2 nights.`);
    const japanese = text((await new Browser(HOST).request(`/ja-JP/hxa/booking?${query}`)).html);
    expect(japanese).toContain(`この日程ではご予約いただけません：${ja(start)}からのご宿泊は2泊以上です。`);
    // Two nights from there are offered.
    const two = text((await new Browser(HOST).request(`/en-US/hxa/booking?start=${start}&end=${addDays(start, 2)}&adults=2`)).html);
    expect(two).not.toContain("Nothing can be booked");
    expect(two).toContain("Room only");
  });
});
