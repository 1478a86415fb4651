import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import apiMessages from "../../locales/en-US/api.json";
import { fetchAs, fixtureHotel, loadHotel, type Envelope } from "./helpers";

const HOST = "badinput.localhost";
const today = todayIn("Asia/Taipei");
const stay = { check_in_day: addDays(today, 3), check_out_day: addDays(today, 4) };
let room = 0;
let plan = 0;

beforeAll(async () => {
  // A hotel that sells rail tickets (thsr_support_on: 1, its station Taipei): a malformed ticket line is refused naming its field.
  await loadHotel(fixtureHotel(HOST, (file) => Object.assign(file.hotel, { thsr_support_on: 1, thsr_station_id: "1000" })));
  room =
    (
      await env.DB.prepare("SELECT rc.id FROM room_classes rc JOIN hotels h ON h.id = rc.hotel_id WHERE h.domain = ?")
        .bind(HOST)
        .first<{ id: number }>()
    )?.id ?? 0;
  plan =
    (
      await env.DB.prepare("SELECT rp.id FROM rate_plans rp JOIN hotels h ON h.id = rp.hotel_id WHERE h.domain = ?")
        .bind(HOST)
        .first<{ id: number }>()
    )?.id ?? 0;
});

const order = (change: Record<string, unknown> = {}) => ({
  domain: HOST,
  booker_first_name: "Mei",
  booker_last_name: "Lin",
  booker_phone: "0912345678",
  booker_email: "mei@example.com",
  ...stay,
  pay_way: "remittance",
  payment_vendor: 8,
  orders: [{ room_class_id: room, proposal_id: plan, num: 1 }],
  adults_count: 2,
  ...change,
});
const line = (change: Record<string, unknown>) => [{ room_class_id: room, proposal_id: plan, num: 1, ...change }];
const price = (change: Record<string, unknown> = {}) => ({ domain: HOST, ...stay, orders: line({}), ...change });

interface Case {
  name: string;
  method?: "GET" | "POST";
  path: string;
  body?: () => unknown;
  raw?: string;
  headers?: Record<string, string>;
  status: number;
  code: string;
}

const cases: Case[] = [
  // Hotel content
  { name: "hotel/info without domain", path: "/api/hotel/info", status: 400, code: "domain_required" },
  { name: "hotel/info unknown domain", path: "/api/hotel/info?domain=nobody.example", status: 404, code: "hotel_not_found" },
  {
    name: "promotion/info non-numeric id",
    path: `/api/promotion/info?domain=${HOST}&promotion_id=abc`,
    status: 400,
    code: "invalid_field",
  },
  {
    name: "promotion/info unknown id",
    path: `/api/promotion/info?domain=${HOST}&promotion_id=99999`,
    status: 404,
    code: "promotion_not_found",
  },
  { name: "promotion/actives limit 0", path: `/api/promotion/actives?domain=${HOST}&limit=0`, status: 400, code: "invalid_field" },
  { name: "unknown API path", path: "/api/no/such/call", status: 404, code: "route_not_found" },
  {
    name: "wrong method",
    method: "POST",
    path: `/api/hotel/info?domain=${HOST}`,
    body: () => ({}),
    status: 405,
    code: "method_not_allowed",
  },
  // Rooms and availability
  {
    name: "empty-by-date dates reversed",
    path: `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${addDays(today, 5)}&end_date=${addDays(today, 4)}`,
    status: 400,
    code: "dates_reversed",
  },
  {
    name: "empty-by-date in the past",
    path: `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${addDays(today, -1)}&end_date=${addDays(today, 1)}`,
    status: 400,
    code: "date_in_past",
  },
  {
    name: "empty-by-date malformed date",
    path: `/api/ota/room/empty-by-date?domain=${HOST}&start_date=2030-02-30&end_date=2030-03-01`,
    status: 400,
    code: "invalid_field",
  },
  {
    name: "empty-by-date too long",
    path: `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${today}&end_date=${addDays(today, 45)}`,
    status: 400,
    code: "stay_too_long",
  },
  {
    name: "empty-by-date beyond the window",
    path: `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${addDays(today, 600)}&end_date=${addDays(today, 601)}`,
    status: 400,
    code: "beyond_sellable_window",
  },
  {
    name: "rateplan/empty-by-date missing dates",
    path: `/api/ota/room/rateplan/empty-by-date?domain=${HOST}`,
    status: 400,
    code: "invalid_field",
  },
  {
    name: "room_calendar bad room id",
    path: `/api/wota/room_calendar?domain=${HOST}&start_date=${today}&end_date=${addDays(today, 30)}&room_class_ids=x`,
    status: 400,
    code: "invalid_field",
  },
  {
    name: "room_calendar unknown room",
    path: `/api/wota/room_calendar?domain=${HOST}&start_date=${today}&end_date=${addDays(today, 30)}&room_class_ids=999999`,
    status: 404,
    code: "unknown_room",
  },
  {
    name: "room_calendar range too long",
    path: `/api/wota/room_calendar?domain=${HOST}&start_date=${today}&end_date=${addDays(today, 500)}`,
    status: 400,
    code: "invalid_field",
  },
  // Pricing and coupons
  {
    name: "calculate body not JSON",
    method: "POST",
    path: "/api/ota/order/calculate",
    raw: "{not json",
    status: 400,
    code: "body_not_json",
  },
  { name: "calculate empty body", method: "POST", path: "/api/ota/order/calculate", raw: "", status: 400, code: "body_not_json" },
  {
    name: "calculate oversized body",
    method: "POST",
    path: "/api/ota/order/calculate",
    raw: JSON.stringify({ pad: "x".repeat(70_000) }),
    status: 413,
    code: "body_too_large",
  },
  {
    name: "calculate 0 rooms",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ orders: line({ num: 0 }) }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "calculate 10000 rooms",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ orders: line({ num: 10000 }) }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "calculate num as text",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ orders: line({ num: "two" }) }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "calculate negative points",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ point_used: -5 }),
    status: 400,
    code: "points_negative",
  },
  {
    name: "calculate points without a member",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ point_used: 10 }),
    status: 401,
    code: "member_only",
  },
  {
    name: "calculate unknown room",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ orders: line({ room_class_id: 999999 }) }),
    status: 404,
    code: "unknown_room",
  },
  {
    name: "calculate unknown plan",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ orders: line({ proposal_id: 999999 }) }),
    status: 404,
    code: "unknown_plan",
  },
  {
    name: "calculate expired coupon",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ coupon_code: "NOPE" }),
    status: 400,
    code: "coupon_invalid",
  },
  {
    name: "calculate Memberpromotion as a guest",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ coupon_code: "Memberpromotion" }),
    status: 401,
    code: "member_only",
  },
  {
    name: "calculate dates reversed",
    method: "POST",
    path: "/api/ota/order/calculate",
    body: () => price({ check_in_day: stay.check_out_day, check_out_day: stay.check_in_day }),
    status: 400,
    code: "dates_reversed",
  },
  {
    name: "discount/calculate unknown plan code",
    method: "POST",
    path: "/api/discount/calculate",
    body: () => ({
      domain: HOST,
      check_in: stay.check_in_day,
      check_out: stay.check_out_day,
      plans: [{ rate_plan_code: "NOPE", inv_type_code: "double", date_and_amount: [{ date: stay.check_in_day, amount: 1 }] }],
    }),
    status: 404,
    code: "unknown_plan",
  },
  {
    name: "discount/calculate missing plans",
    method: "POST",
    path: "/api/discount/calculate",
    body: () => ({ domain: HOST, check_in: stay.check_in_day, check_out: stay.check_out_day }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "coupon_confirm unknown code",
    method: "POST",
    path: "/api/discount/coupon_confirm",
    body: () => ({ domain: HOST, coupon_code: ["NOPE"], check_in_date: stay.check_in_day, check_out_date: stay.check_out_day }),
    status: 400,
    code: "coupon_invalid",
  },
  {
    name: "coupon_confirm code not a list",
    method: "POST",
    path: "/api/discount/coupon_confirm",
    body: () => ({ domain: HOST, coupon_code: "WELCOME10", check_in_date: stay.check_in_day, check_out_date: stay.check_out_day }),
    status: 400,
    code: "invalid_field",
  },
  // Orders
  {
    name: "personal-new body not JSON",
    method: "POST",
    path: "/api/ota/order/personal-new",
    raw: "[1,2",
    status: 400,
    code: "body_not_json",
  },
  {
    name: "personal-new missing email",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ booker_email: undefined }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new bad email",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ booker_email: "nope" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new past dates",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ check_in_day: addDays(today, -2), check_out_day: addDays(today, -1) }),
    status: 400,
    code: "date_in_past",
  },
  {
    name: "personal-new reversed dates",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ check_in_day: stay.check_out_day, check_out_day: stay.check_in_day }),
    status: 400,
    code: "dates_reversed",
  },
  {
    name: "personal-new 0 rooms",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ orders: line({ num: 0 }) }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new 10000 rooms",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ orders: line({ num: 10000 }) }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new no lines",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ orders: [] }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new negative points",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ point_used: -1 }),
    status: 400,
    code: "points_negative",
  },
  {
    name: "personal-new payment not offered",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ pay_way: "credit", payment_vendor: 1 }),
    status: 400,
    code: "payment_not_available",
  },
  {
    name: "personal-new deposit at an all-pay hotel",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ pay_option: "part" }),
    status: 400,
    code: "deposit_not_available",
  },
  {
    name: "personal-new wrong booking_from",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ booking_from: "OTA" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new unknown plan",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ orders: line({ proposal_id: 999999 }) }),
    status: 404,
    code: "unknown_plan",
  },
  {
    name: "personal-new sold-out night",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ check_in_day: addDays(today, 5), check_out_day: addDays(today, 6) }),
    status: 409,
    code: "room_sold_out",
  },
  {
    name: "personal-new NUL in a name",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ booker_first_name: "Mei\u0000" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new escape sequence in a name",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ booker_last_name: "Lin\u001b[2J" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new line break in a company name",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ company_name: "Example\r\nBcc: x" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new NUL in the memo",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ memo: "late\u0000" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new a right-to-left override in the last name",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ booker_last_name: "Lin\u202E" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new a direction isolate in booker_name",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ booker_name: "\u2067Mei Lin" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new a right-to-left mark in an occupant's name",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ orders: line({ occupant_name: "Mei\u200FLin" }) }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new NUL in an occupant's name",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ orders: line({ occupant_name: "Mei\u0000Lin" }) }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new a date as the phone",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ booker_phone: "2026-12-10" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new a date as an occupant's phone",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ orders: line({ occupant_phone: "2026-12-10" }) }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new an add-on that names no item of the hotel (a name and a count: nothing to price it by)",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ room_attachment_detail: [{ name: "Birthday cake", num: 100 }], room_attachment_exist: true }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new an add-on id the hotel does not sell",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ room_attachment_detail: [{ adds_id: 999999, quantity: 1 }], room_attachment_exist: true }),
    status: 409,
    code: "addon_unknown",
  },
  {
    name: "personal-new a rail ticket line missing its stations, date and passengers",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ rail_item_list: [{ train_no: "0803", ticket_count: 2 }] }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "cancel_apply NUL in the reason",
    method: "POST",
    path: "/api/wota/order/cancel_apply/PT000000-AAAAAA",
    body: () => ({ domain: HOST, reason: "x\u0000" }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new bad occupant email",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ orders: line({ occupant_email: "x" }) }),
    status: 400,
    code: "invalid_field",
  },
  {
    name: "personal-new bad idempotency key",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order(),
    headers: { "Idempotency-Key": "short" },
    status: 400,
    code: "idempotency_key_invalid",
  },
  {
    name: "personal-new another hotel's domain",
    method: "POST",
    path: "/api/ota/order/personal-new",
    body: () => order({ domain: "nobody.example" }),
    status: 404,
    code: "hotel_not_found",
  },
  { name: "order list without a member", path: `/api/ota/order/personal-order-list?domain=${HOST}`, status: 401, code: "unauthorized" },
  { name: "via-hash without hash", path: `/api/ota/order/via-hash?domain=${HOST}`, status: 403, code: "hash_invalid" },
  {
    name: "via-hash forged hash",
    path: `/api/ota/order/via-hash?domain=${HOST}&valid_hash=PT000000-AAAAAA.${"A".repeat(43)}`,
    status: 403,
    code: "hash_invalid",
  },
  {
    name: "personal-history garbage",
    path: `/api/ota/order/personal-history?domain=${HOST}&hash_code=%00%01`,
    status: 403,
    code: "hash_invalid",
  },
  {
    name: "cancel_apply without a member",
    method: "POST",
    path: "/api/wota/order/cancel_apply/PT000000-AAAAAA",
    body: () => ({ domain: HOST }),
    status: 401,
    code: "unauthorized",
  },
  {
    name: "cancel-via-hash forged",
    method: "POST",
    path: "/api/wota/order/cancel-via-hash/PT000000-AAAAAA",
    body: () => ({ domain: HOST, valid_hash: "PT000000-AAAAAA.xyz" }),
    status: 403,
    code: "hash_invalid",
  },
  {
    name: "malformed escape in a path",
    method: "POST",
    path: "/api/wota/order/cancel_apply/%E0%A4",
    body: () => ({ domain: HOST }),
    status: 404,
    code: "route_not_found",
  },
  {
    name: "attachment unknown order",
    method: "POST",
    path: "/api/ota/order/attachment",
    body: () => ({ domain: HOST, order_doc: "PT000000-AAAAAA" }),
    status: 404,
    code: "order_not_found",
  },
];

async function writes(): Promise<string> {
  const row = await env.DB.prepare(
    "SELECT (SELECT COUNT(*) FROM orders) || '/' || (SELECT COUNT(*) FROM order_lines) || '/' || (SELECT COALESCE(SUM(booked), 0) FROM room_nights) || '/' || (SELECT COUNT(*) FROM cancellations) AS state",
  ).first<{ state: string }>();
  return row?.state ?? "";
}

describe("bad input gets a 4xx with success false and a message, and changes nothing", () => {
  it.each(cases)("$name → $status $code", async (testCase) => {
    const before = await writes();
    const init: RequestInit = { method: testCase.method ?? "GET", headers: { ...testCase.headers } };
    if (testCase.method === "POST") {
      (init.headers as Record<string, string>)["content-type"] = "application/json";
      init.body = testCase.raw ?? JSON.stringify(testCase.body?.());
    }
    const response = await fetchAs(HOST, `${testCase.path}${testCase.path.includes("?") ? "&" : "?"}lang=en-US`, init);
    const body = (await response.json()) as Envelope;
    expect(response.status).toBe(testCase.status);
    expect(body.success).toBe(false);
    expect(body.msg.code).toBe(testCase.code);
    // The English message of that code (locales/en-US/api.json), its placeholders filled in.
    const template = (apiMessages as Record<string, string>)[testCase.code];
    expect(template, `an English message for ${testCase.code}`).toBeTypeOf("string");
    const pattern = template!.replace(/[.*+?^$()[\]\\|]/g, "\\$&").replace(/\{\{\w+\}\}/g, "[^{}]+");
    expect(body.msg.message).toMatch(new RegExp(`^${pattern}$`));
    expect(await writes()).toBe(before);
  });

  it("answers in the request's language", async () => {
    const response = await fetchAs(
      HOST,
      `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${addDays(today, 5)}&end_date=${addDays(today, 4)}&lang=ja-JP`,
    );
    const body = (await response.json()) as Envelope;
    expect(body.msg.message).toBe("チェックアウト日はチェックイン日より後にしてください");
  });
});
