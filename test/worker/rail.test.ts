/**
 * High-speed rail tickets (issue 27, decisions 119-120) on real D1 with the demo's TDX sample
 * loaded: the three reading calls, an order's tickets reserved with its rooms, booked when paid
 * (PNR and booking number on the order), refunded less the fee, released when the order expires,
 * the six calls on an order's tickets, the race for the last seats, and every refusal holding nothing.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOfWeek, todayIn } from "~/domain/dates";
import { parseGeneralTimetable, parseOdFares, parseStations, railDataToSql } from "~/backend/rail/tdx";
import { expireOrder } from "~/backend/payments/expiry.server";
import stationsJson from "../../demo/thsr-sample/Station.json";
import timetableJson from "../../demo/thsr-sample/GeneralTimetable.json";
import faresJson from "../../demo/thsr-sample/ODFare.json";
import { BOOKER, apiJson, fixtureHotel, loadHotel, payInFull } from "./helpers";

const HOST = "rail.localhost";
const NO_RAIL = "norail.localhost";
const today = todayIn("Asia/Taipei");
const stay = { check_in_day: addDays(today, 10), check_out_day: addDays(today, 12) };
/** Zuoying → Taipei (the hotel's station), adult 1490, concessions 745 in the sample. */
const ADULT = 1490;
const HALF = 745;

let hotelId = 0;
let room = 0;
let bar = 0;

interface Line {
  rail_id: number | null;
  direction: string;
  date: string;
  train_no: string;
  origin: { station_id: string; code: string; name: string };
  destination: { station_id: string; code: string; name: string };
  departure_time: string;
  arrival_time: string;
  passengers: Record<string, number>;
  amount: number;
  status: string;
  pnr: string | null;
  booking_number: string | null;
  refund_fee: number;
  refund_amount: number;
}
interface Created {
  order_doc: string;
  order: {
    valid_hash: string;
    cancel_hash: string;
    final_amount: number;
    pay_amount: number;
    rail_amount: number;
    rail_item_list: Line[];
    pay_deadline: string | null;
  };
}
interface RailOrder {
  order_doc: string;
  rail_item_list: Line[];
  rail_amount: number;
  total_price: number;
  pay_amount: number;
}

function post<T = Record<string, unknown>>(path: string, body: unknown, headers: Record<string, string> = {}, lang = "en-US") {
  return apiJson<T>(HOST, `${path}?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

const get = <T>(path: string, lang = "en-US") => apiJson<T>(HOST, `${path}${path.includes("?") ? "&" : "?"}lang=${lang}`);

const outbound = (over: Record<string, unknown> = {}) => ({
  direction: "outbound",
  date: stay.check_in_day,
  train_no: "0806",
  origin: "1070",
  destination: "1000",
  passengers: { adult: 2, child: 1 },
  ...over,
});
const homeward = (over: Record<string, unknown> = {}) => ({
  direction: "return",
  date: stay.check_out_day,
  train_no: "0823",
  origin: "1000",
  destination: "1070",
  passengers: { adult: 2, child: 1 },
  ...over,
});

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

async function taken(trainNo: string, day: string): Promise<number> {
  const row = await env.DB.prepare("SELECT taken FROM rail_allotments WHERE hotel_id = ? AND train_no = ? AND day = ?")
    .bind(hotelId, trainNo, day)
    .first<{ taken: number }>();
  return row?.taken ?? 0;
}

async function reservations(): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM rail_reservations WHERE hotel_id = ?").bind(hotelId).first<{ n: number }>();
  return row?.n ?? 0;
}

const pay = (orderDoc: string) => payInFull(orderDoc, "RAIL");

beforeAll(async () => {
  const rail = railDataToSql({
    stations: parseStations(stationsJson),
    trains: parseGeneralTimetable(timetableJson),
    fares: parseOdFares(faresJson),
  });
  await env.DB.batch(rail.map((statement) => env.DB.prepare(statement)));
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      file.room_classes[0]!.total_rooms = 30;
      Object.assign(file.hotel, { thsr_support_on: 1, thsr_station_id: "1000", thsr_seats_per_train: 4 });
    }),
  );
  await loadHotel(fixtureHotel(NO_RAIL));
  const ids = await env.DB.prepare(
    `SELECT h.id AS hotel, (SELECT id FROM room_classes WHERE hotel_id = h.id) AS room, (SELECT id FROM rate_plans WHERE hotel_id = h.id) AS plan
     FROM hotels h WHERE h.domain = ?`,
  )
    .bind(HOST)
    .first<{ hotel: number; room: number; plan: number }>();
  hotelId = ids?.hotel ?? 0;
  room = ids?.room ?? 0;
  bar = ids?.plan ?? 0;
});

describe("the rail calls that read", () => {
  it("query_trial_fare: what two adults and a child pay from Zuoying to Taipei", async () => {
    const { status, body } = await get<{ fares: Record<string, number>; amount: number; origin: { name: string } }>(
      `/api/xtra/rail/query_trial_fare?domain=${HOST}&origin=1070&destination=1000&adult=2&child=1`,
    );
    expect(status).toBe(200);
    expect(body.data.fares).toEqual({ adult: ADULT, child: HALF, senior: HALF, disabled: HALF });
    expect(body.data.amount).toBe(2 * ADULT + HALF);
    expect(body.data.origin.name).toBe("Zuoying");
  });

  it("train_availability: the day's trains with their times, seats left in the allotment and price", async () => {
    const { status, body } = await get<{ trains: (Line & { seats_left: number; bookable: boolean; duration_minutes: number })[] }>(
      `/api/xtra/rail/train_availability?domain=${HOST}&date=${stay.check_in_day}&origin=1070&destination=1000&adult=2&child=1`,
    );
    expect(status).toBe(200);
    const first = body.data.trains[0];
    expect(first).toMatchObject({ train_no: "0806", departure_time: "08:00", arrival_time: "09:36", seats_left: 4, bookable: true });
    expect(first?.duration_minutes).toBe(96);
    expect(body.data.trains.map((train) => train.train_no).slice(0, 3)).toEqual(["0806", "0826", "0846"]);
    // The Friday-to-Sunday train runs only on those days.
    const weekend = [5, 6, 0].includes(dayOfWeek(stay.check_in_day));
    expect(body.data.trains.some((train) => train.train_no === "0868")).toBe(weekend);
  });

  it("next_avail_booking_date: the window, the hotel's station and the 12 stations in the guest's language", async () => {
    const { status, body } = await get<{
      date: string;
      first_date: string;
      last_date: string;
      hotel_station: { code: string; name: string };
      stations: unknown[];
    }>(`/api/xtra/rail/next_avail_booking_date?domain=${HOST}`, "ja-JP");
    expect(status).toBe(200);
    expect(body.data.first_date).toBe(today);
    expect(body.data.last_date).toBe(addDays(today, 28));
    expect(body.data.hotel_station).toEqual({ station_id: "1000", code: "TPE", name: "台北" });
    expect(body.data.stations).toHaveLength(12);
    expect(body.data.date >= today).toBe(true);
  });

  it("refuses a hotel without rail, an unknown station and the same station twice, in the guest's language", async () => {
    const none = await apiJson(NO_RAIL, `/api/xtra/rail/query_trial_fare?domain=${NO_RAIL}&origin=1070&destination=1000&lang=en-US`);
    expect(none.status).toBe(400);
    expect(none.body.msg).toMatchObject({ code: "rail_not_available", extrainfo: { message: "This hotel does not offer rail tickets" } });
    const unknown = await get(`/api/xtra/rail/query_trial_fare?domain=${HOST}&origin=9999&destination=1000`, "zh-TW");
    expect(unknown.body.msg).toMatchObject({ code: "rail_station_unknown", extrainfo: { message: "查無此高鐵車站", field: "origin" } });
    const same = await get(`/api/xtra/rail/train_availability?domain=${HOST}&date=${stay.check_in_day}&origin=1000&destination=1000`);
    expect(same.body.msg.code).toBe("rail_same_station");
  });
});

describe("an order's tickets", () => {
  it("price check: the tickets in rail_item_list, their fares in the total and in full in what is paid now", async () => {
    const { status, body } = await post<{
      rail_item_list: Line[];
      rail_amount: number;
      room_price: number;
      total_price: number;
      pay_amount: number;
    }>("/api/ota/order/calculate", { ...order(), rail_item_list: [outbound(), homeward()] });
    expect(status).toBe(200);
    expect(body.data.rail_amount).toBe(2 * (2 * ADULT + HALF));
    expect(body.data.total_price).toBe(body.data.room_price + body.data.rail_amount);
    expect(body.data.pay_amount).toBe(body.data.total_price);
    expect(body.data.rail_item_list.map((line) => [line.status, line.rail_id, line.train_no])).toEqual([
      ["quoted", null, "0806"],
      ["quoted", null, "0823"],
    ]);
    expect(await reservations()).toBe(0);
  });

  it("lives reserve → pay → booked (PNR, booking number) → refund less NT$20 a ticket, seats given back", async () => {
    const created = await post<Created>("/api/ota/order/personal-new", order({ rail_item_list: [outbound(), homeward()] }));
    expect(created.status).toBe(201);
    const { order: answer, order_doc: doc } = created.body.data;
    expect(answer.rail_amount).toBe(2 * (2 * ADULT + HALF));
    expect(answer.rail_item_list.map((line) => line.status)).toEqual(["reserved", "reserved"]);
    expect(await taken("0806", stay.check_in_day)).toBe(3);
    expect(await taken("0823", stay.check_out_day)).toBe(3);

    await pay(doc);
    const history = await get<{ rail_item_list: Line[]; status: string }>(
      `/api/ota/order/personal-history?domain=${HOST}&hash_code=${encodeURIComponent(answer.valid_hash)}`,
    );
    expect(history.body.data.status).toBe("confirmed");
    for (const line of history.body.data.rail_item_list) {
      expect(line.status).toBe("booked");
      expect(line.pnr).toMatch(/^\d{8}$/);
      expect(line.booking_number).toMatch(/^TH[0-9A-F]{10}$/);
    }

    const back = history.body.data.rail_item_list[1];
    const refunded = await post<RailOrder>("/api/rail/refund", {
      domain: HOST,
      order_doc: doc,
      valid_hash: answer.cancel_hash,
      rail_id: back?.rail_id,
    });
    expect(refunded.status).toBe(200);
    const line = refunded.body.data.rail_item_list.find((entry) => entry.rail_id === back?.rail_id);
    expect(line).toMatchObject({ status: "refunded", refund_fee: 60, refund_amount: 2 * ADULT + HALF - 60 });
    expect(refunded.body.data.rail_amount).toBe(2 * ADULT + HALF);
    expect(await taken("0823", stay.check_out_day)).toBe(0);
    expect(await taken("0806", stay.check_in_day)).toBe(3);

    // A view link does not refund; a line refunded cannot be refunded again.
    const viewOnly = await post("/api/rail/refund", {
      domain: HOST,
      order_doc: doc,
      valid_hash: answer.valid_hash,
      rail_id: back?.rail_id,
    });
    expect(viewOnly.body.msg.code).toBe("order_not_found");
    const again = await post("/api/rail/refund", { domain: HOST, order_doc: doc, valid_hash: answer.cancel_hash, rail_id: back?.rail_id });
    expect(again.body.msg.code).toBe("rail_not_changeable");

    // What cancelling would give back: the stay by its rule, the outbound tickets less their fee; not the
    // return tickets again (their refund is on their line).
    const quote = await get<{ paid_amount: number; refund_quote: { refund: number; fee: number } }>(
      `/api/ota/order/personal-history?domain=${HOST}&hash_code=${encodeURIComponent(answer.valid_hash)}`,
    );
    const { refund_quote: refundQuote, paid_amount: paid } = quote.body.data;
    expect(refundQuote.refund + refundQuote.fee).toBe(paid - (2 * ADULT + HALF));
    expect(refundQuote.fee).toBeGreaterThanOrEqual(60);

    // Cancelling the paid order refunds the booked outbound line less its fee, and gives its seats back.
    const cancelled = await post<{ cancellation: { refund: number; fee: number } }>(`/api/wota/order/cancel-via-hash/${doc}`, {
      domain: HOST,
      valid_hash: answer.cancel_hash,
    });
    expect(cancelled.status).toBe(200);
    expect(await taken("0806", stay.check_in_day)).toBe(0);
    const rows = await env.DB.prepare(
      "SELECT status, refund_fee FROM rail_reservations WHERE order_id = (SELECT id FROM orders WHERE order_doc = ?) ORDER BY id",
    )
      .bind(doc)
      .all<{ status: string; refund_fee: number }>();
    expect(rows.results).toEqual([
      { status: "refunded", refund_fee: 60 },
      { status: "refunded", refund_fee: 60 },
    ]);
  });

  it("an unpaid order released at its deadline releases its seats", async () => {
    const created = await post<Created>("/api/ota/order/personal-new", order({ rail_item_list: [outbound({ train_no: "0826" })] }));
    expect(created.status).toBe(201);
    expect(await taken("0826", stay.check_in_day)).toBe(3);
    const row = await env.DB.prepare("SELECT * FROM orders WHERE order_doc = ?").bind(created.body.data.order_doc).first();
    const later = new Date(Date.parse(created.body.data.order.pay_deadline ?? "") + 60_000);
    expect(await expireOrder(env.DB, row as never, later)).toBe(true);
    expect(await taken("0826", stay.check_in_day)).toBe(0);
    const status = await env.DB.prepare("SELECT status FROM rail_reservations WHERE order_id = ?")
      .bind((row as { id: number }).id)
      .first<{ status: string }>();
    expect(status?.status).toBe("released");
  });

  it("reservation, update, change and refund_reserved act on an unpaid order's tickets and amounts", async () => {
    const created = await post<Created>("/api/ota/order/personal-new", order());
    const { order_doc: doc, order: answer } = created.body.data;
    const hash = answer.cancel_hash;
    const before = answer.pay_amount;

    const reserved = await post<RailOrder>("/api/xtra/rail/reservation", {
      domain: HOST,
      order_doc: doc,
      valid_hash: hash,
      rail_item_list: [outbound({ train_no: "0846", passengers: { adult: 1 } })],
    });
    expect(reserved.status).toBe(200);
    expect(reserved.body.data.pay_amount).toBe(before + ADULT);
    const railId = reserved.body.data.rail_item_list[0]?.rail_id;
    expect(await taken("0846", stay.check_in_day)).toBe(1);

    const twice = await post("/api/xtra/rail/reservation", {
      domain: HOST,
      order_doc: doc,
      valid_hash: hash,
      rail_item_list: [outbound()],
    });
    expect(twice.body.msg.code).toBe("rail_one_per_direction");

    const updated = await post<RailOrder>("/api/xtra/rail/update_reservation", {
      domain: HOST,
      order_doc: doc,
      valid_hash: hash,
      rail_id: railId,
      passengers: { adult: 1, senior: 1 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.pay_amount).toBe(before + ADULT + HALF);
    expect(await taken("0846", stay.check_in_day)).toBe(2);

    const changed = await post<RailOrder>("/api/xtra/rail/change_reservation", {
      domain: HOST,
      order_doc: doc,
      valid_hash: hash,
      rail_id: railId,
      train_no: "0826",
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.rail_item_list[0]).toMatchObject({ train_no: "0826", departure_time: "13:00", status: "reserved" });
    expect(await taken("0846", stay.check_in_day)).toBe(0);
    expect(await taken("0826", stay.check_in_day)).toBe(2);

    const notPaid = await post("/api/xtra/rail/booking", { domain: HOST, order_doc: doc, valid_hash: hash });
    expect(notPaid.body.msg.code).toBe("rail_not_changeable");

    const released = await post<RailOrder>("/api/rail/refund_reserved", { domain: HOST, order_doc: doc, valid_hash: hash });
    expect(released.status).toBe(200);
    expect(released.body.data).toMatchObject({ rail_amount: 0, pay_amount: before });
    expect(released.body.data.rail_item_list[0]?.status).toBe("released");
    expect(await taken("0826", stay.check_in_day)).toBe(0);
  });

  it("never oversells: of 5 concurrent orders for the last 3 seats, exactly 3 get one", async () => {
    const day = addDays(today, 20);
    await env.DB.prepare("INSERT INTO rail_allotments (hotel_id, train_no, day, seats) VALUES (?, '0806', ?, 3)").bind(hotelId, day).run();
    const night = { check_in_day: day, check_out_day: addDays(day, 1) };
    const attempts = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        post("/api/ota/order/personal-new", order({ ...night, rail_item_list: [outbound({ date: day, passengers: { adult: 1 } })] }), {
          "Idempotency-Key": `rail-race-${index}-abcdef`,
        }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 201)).toHaveLength(3);
    const refused = attempts.filter((attempt) => attempt.status === 409);
    expect(refused).toHaveLength(2);
    for (const attempt of refused) expect(attempt.body.msg.message).toBe("Not enough seats are left on this train");
    expect(await taken("0806", day)).toBe(3);
    // The refused orders took no room either.
    const rooms = await env.DB.prepare("SELECT booked FROM room_nights WHERE room_class_id = ? AND night = ?")
      .bind(room, day)
      .first<{ booked: number }>();
    expect(rooms?.booked).toBe(3);
    // The database itself refuses a fourth seat, whoever asks (migration 0011).
    await expect(
      env.DB.prepare("UPDATE rail_allotments SET taken = taken + 1 WHERE hotel_id = ? AND train_no = '0806' AND day = ?")
        .bind(hotelId, day)
        .run(),
    ).rejects.toThrow(/rail_allotments_not_oversold/);
  }, 30_000);
});

describe("refusals hold nothing", () => {
  const cases: [string, Record<string, unknown>, number, string, string][] = [
    [
      "a bad station",
      { rail_item_list: [outbound({ origin: "9999" })] },
      400,
      "rail_station_unknown",
      "There is no high-speed rail station with this code",
    ],
    [
      "a line not ending at the hotel's station",
      { rail_item_list: [outbound({ destination: "1040" })] },
      400,
      "rail_not_hotel_station",
      "Tickets must start or end at the hotel's station (Taipei)",
    ],
    [
      "a past train",
      { rail_item_list: [outbound({ date: addDays(today, -1) })] },
      409,
      "rail_booking_closed",
      "Booking for this train has closed (one hour before departure)",
    ],
    [
      "a day not on sale yet",
      { rail_item_list: [outbound({ date: addDays(today, 29) })] },
      409,
      "rail_not_open_yet",
      `Tickets for this day are not on sale yet (from ${addDays(today, 1)})`,
    ],
    [
      "a train leaving before the payment deadline",
      { rail_item_list: [outbound({ date: addDays(today, 1) })] },
      409,
      "rail_departs_before_payment",
      "This train leaves before your payment deadline; choose a later train",
    ],
    [
      "a child alone",
      { rail_item_list: [outbound({ passengers: { child: 1 } })] },
      400,
      "rail_child_alone",
      "A child must travel with an adult or a senior on the same train",
    ],
    [
      "no passenger",
      { rail_item_list: [outbound({ passengers: {} })] },
      400,
      "rail_no_passenger",
      "Choose at least one passenger for each train",
    ],
    [
      "over 10 tickets",
      { rail_item_list: [outbound({ passengers: { adult: 10, senior: 1 } })] },
      400,
      "rail_too_many_tickets",
      "At most 10 tickets per booking",
    ],
    [
      "over 5 a direction on a return trip",
      { rail_item_list: [outbound({ passengers: { adult: 6 } }), homeward({ passengers: { adult: 1 } })] },
      400,
      "rail_too_many_tickets",
      "At most 5 tickets per booking",
    ],
    ["two lines one way", { rail_item_list: [outbound(), outbound()] }, 400, "rail_one_per_direction", "Choose at most one train each way"],
    [
      "a train that does not run then",
      { rail_item_list: [outbound({ train_no: "0803" })] },
      404,
      "rail_train_unknown",
      "This train does not run between these stations on this day",
    ],
    [
      "a fare that changed",
      { rail_item_list: [outbound({ amount: 100 })] },
      409,
      "rail_fare_changed",
      "The fare has changed; please check the price again",
    ],
    [
      "a sold-out train",
      { rail_item_list: [outbound({ passengers: { adult: 5 } })] },
      409,
      "rail_sold_out",
      "Not enough seats are left on this train",
    ],
    [
      "paying at arrival",
      { pay_way: "pay_arrival", rail_item_list: [outbound()] },
      400,
      "rail_needs_payment",
      "Rail tickets must be paid when booking; choose another way to pay",
    ],
  ];

  it.each(cases)("%s", async (_name, overrides, status, code, message) => {
    const before = await reservations();
    const orders = await env.DB.prepare("SELECT count(*) AS n FROM orders WHERE hotel_id = ?").bind(hotelId).first<{ n: number }>();
    const refused = await post("/api/ota/order/personal-new", order(overrides));
    expect(refused.status).toBe(status);
    expect(refused.body.msg).toMatchObject({ code, extrainfo: { message } });
    expect(await reservations()).toBe(before);
    const after = await env.DB.prepare("SELECT count(*) AS n FROM orders WHERE hotel_id = ?").bind(hotelId).first<{ n: number }>();
    expect(after?.n).toBe(orders?.n);
  });

  // Issue 37 item 13: the price check priced tickets with paying at the hotel, which the order refuses.
  it("the price check refuses paying at the hotel with tickets as the order does, and prices them paid now", async () => {
    const before = await reservations();
    for (const pay_way of ["pay_arrival", "cash"]) {
      const refused = await post("/api/ota/order/calculate", { ...order({ pay_way }), rail_item_list: [outbound()] });
      expect(refused.status, pay_way).toBe(400);
      expect(refused.body.msg, pay_way).toMatchObject({
        code: "rail_needs_payment",
        extrainfo: { message: "Rail tickets must be paid when booking; choose another way to pay", field: "pay_way" },
      });
    }
    const zh = await post("/api/ota/order/calculate", { ...order({ pay_way: "pay_arrival" }), rail_item_list: [outbound()] }, {}, "zh-TW");
    expect(zh.body.msg.extrainfo?.message).toBe("高鐵車票須於訂房時付款，請選擇其他付款方式");
    expect((await post("/api/ota/order/calculate", { ...order({ pay_way: "remittance" }), rail_item_list: [outbound()] })).status).toBe(
      200,
    );
    // Rooms alone may still be paid at the hotel.
    expect((await post("/api/ota/order/calculate", order({ pay_way: "pay_arrival" }))).status).toBe(200);
    expect(await reservations()).toBe(before);
  });

  it("the same refusal in Traditional Chinese", async () => {
    const refused = await post(
      "/api/ota/order/personal-new",
      order({ rail_item_list: [outbound({ passengers: { child: 2 } })] }),
      {},
      "zh-TW",
    );
    expect(refused.body.msg.extrainfo?.message).toBe("孩童須由同班車的成人或敬老乘客陪同");
  });

  it("a hotel without rail refuses tickets on an order", async () => {
    const refused = await apiJson(NO_RAIL, "/api/ota/order/personal-new?lang=en-US", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...order(), domain: NO_RAIL, rail_item_list: [outbound()] }),
    });
    expect(refused.body.msg.code).toBe("rail_not_available");
  });
});
