import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { BOOKER, apiJson, fetchAs, fixtureHotel, loadHotel, text } from "./helpers";

/**
 * An entire-site rental takes every unit of the site for its nights, and a unit sold takes the
 * entire rental off sale (decision 023): guarded by the database, like the last room (decision 005).
 */
const HOST = "entire.localhost";
const today = () => todayIn("Asia/Taipei");
const PITCHES = 5;

const ids = { pitch: 0, glamp: 0, entire: 0, pitchPlan: 0, entirePlan: 0 };

interface Search {
  rooms: { room_class_id: number; inventory: number; price_set: { proposal_id: number; inventory: number }[] }[];
}

function order(line: { room: number; plan: number; num: number }, start: string, nights = 1) {
  return apiJson<{ order: { order_doc: string; cancel_hash: string } }>(HOST, "/api/ota/order/personal-new?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      domain: HOST,
      ...BOOKER,
      check_in_day: start,
      check_out_day: addDays(start, nights),
      pay_way: "remittance",
      payment_vendor: 8,
      orders: [{ room_class_id: line.room, proposal_id: line.plan, num: line.num }],
      adults_count: 2,
    }),
  });
}

const entireRental = (start: string, nights = 1) => order({ room: ids.entire, plan: ids.entirePlan, num: 1 }, start, nights);
const pitches = (start: string, num = 1, nights = 1) => order({ room: ids.pitch, plan: ids.pitchPlan, num }, start, nights);

/** What the search offers for a stay: each room's rooms left and each plan's, by room class. */
async function offered(start: string, nights = 1) {
  const { body } = await apiJson<Search>(
    HOST,
    `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${start}&end_date=${addDays(start, nights)}&lang=en-US`,
  );
  const byRoom = (id: number) => body.data.rooms.find((room) => room.room_class_id === id);
  return {
    pitch: byRoom(ids.pitch)?.inventory,
    pitchPlan: byRoom(ids.pitch)?.price_set.map((plan) => plan.inventory),
    glamp: byRoom(ids.glamp)?.inventory,
    entire: byRoom(ids.entire)?.inventory,
    entirePlan: byRoom(ids.entire)?.price_set.map((plan) => plan.inventory),
  };
}

async function calendar(roomClassId: number, night: string) {
  const { body } = await apiJson<{ date: string; available: boolean }[]>(
    HOST,
    `/api/wota/room_calendar?domain=${HOST}&start_date=${night}&end_date=${addDays(night, 1)}&room_class_ids=${roomClassId}&lang=en-US`,
  );
  return body.data[0]?.available;
}

/** What a guest reads of one plan on the booking page for a one-night stay. */
async function planOnPage(roomClassId: number, planId: number, night: string) {
  const html = await (await fetchAs(HOST, `/en-US/hxa/booking?start=${night}&end=${addDays(night, 1)}&adults=2`)).text();
  const item = new RegExp(`<li class="plan" id="plan-${roomClassId}-${planId}">[\\s\\S]*?</li>`).exec(html)?.[0] ?? "";
  return { text: text(item), addDisabled: /<button type="submit" class="button" disabled/.test(item) };
}

async function site(night: string) {
  return env.DB.prepare(
    `SELECT sn.entire_rooms, sn.unit_rooms FROM site_nights sn JOIN hotels h ON h.id = sn.hotel_id WHERE h.domain = ? AND sn.night = ?`,
  )
    .bind(HOST, night)
    .first<{ entire_rooms: number; unit_rooms: number }>();
}

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      Object.assign(file.hotel, { kind: 2 });
      file.room_classes = [
        { room_code: "pitch", name: { "zh-TW": "營位", "en-US": "Pitch" }, people: 4, total_rooms: PITCHES },
        { room_code: "glamp", name: { "zh-TW": "豪華帳", "en-US": "Glamping tent" }, people: 4, total_rooms: 2 },
        { room_code: "entire", name: { "zh-TW": "包場", "en-US": "Entire site" }, people: 40, total_rooms: 1 },
      ];
      file.rate_plans = [
        {
          rate_plan_code: "STD",
          name: { "zh-TW": "一般", "en-US": "Standard" },
          rooms: [
            { room_code: "pitch", weekday: 1200, weekend: 1600, holiday: 2000, member_percent: 100 },
            { room_code: "glamp", weekday: 4200, weekend: 5200, holiday: 6200, member_percent: 100 },
          ],
        },
        Object.assign(
          {
            rate_plan_code: "ENTIRE",
            name: { "zh-TW": "包場方案", "en-US": "Entire site" },
            rooms: [{ room_code: "entire", weekday: 28000, weekend: 36000, holiday: 42000, member_percent: 100 }],
          },
          { support_entire_rent: true },
        ),
      ];
      file.inventory = { months: 2, sold_out: [] } as unknown as typeof file.inventory;
    }),
  );
  const hotel = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(HOST).first<number>("id");
  const room = (code: string) =>
    env.DB.prepare("SELECT id FROM room_classes WHERE hotel_id = ? AND room_code = ?").bind(hotel, code).first<number>("id");
  const plan = (code: string) =>
    env.DB.prepare("SELECT id FROM rate_plans WHERE hotel_id = ? AND rate_plan_code = ?").bind(hotel, code).first<number>("id");
  Object.assign(ids, {
    pitch: await room("pitch"),
    glamp: await room("glamp"),
    entire: await room("entire"),
    pitchPlan: await plan("STD"),
    entirePlan: await plan("ENTIRE"),
  });
});

describe("an entire-site rental and the site's units", () => {
  it("after an entire rental, every pitch and tent of its nights is sold out and refused; cancelling gives them back", async () => {
    const night = addDays(today(), 10);
    expect(await offered(night)).toEqual({ pitch: PITCHES, pitchPlan: [PITCHES], glamp: 2, entire: 1, entirePlan: [1] });

    const rental = await entireRental(night, 2);
    expect(rental.status).toBe(201);
    // Both nights of the rental, and any stay touching one of them.
    expect(await offered(night)).toEqual({ pitch: 0, pitchPlan: [0], glamp: 0, entire: 0, entirePlan: [0] });
    expect(await offered(addDays(night, 1))).toEqual({ pitch: 0, pitchPlan: [0], glamp: 0, entire: 0, entirePlan: [0] });
    expect((await offered(addDays(night, -1), 2)).pitch).toBe(0);
    expect(await calendar(ids.pitch, night)).toBe(false);
    expect(await calendar(ids.pitch, addDays(night, 2))).toBe(true);
    const pitchOnPage = await planOnPage(ids.pitch, ids.pitchPlan, night);
    expect(pitchOnPage.text).toContain("Sold out");
    expect(pitchOnPage.addDisabled).toBe(true);

    const refused = await pitches(addDays(night, 1));
    expect(refused.status).toBe(409);
    expect(refused.body.msg.message).toBe("This room type is sold out");
    expect(refused.body.data).toBeNull();
    const glamp = await order({ room: ids.glamp, plan: ids.pitchPlan, num: 1 }, night);
    expect(glamp.status).toBe(409);
    expect(await site(addDays(night, 1))).toEqual({ entire_rooms: 1, unit_rooms: 0 });

    const cancelled = await apiJson(HOST, `/api/wota/order/cancel-via-hash/${rental.body.data.order.order_doc}?lang=en-US`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: HOST, valid_hash: rental.body.data.order.cancel_hash }),
    });
    expect(cancelled.status).toBe(200);
    expect(await offered(night)).toEqual({ pitch: PITCHES, pitchPlan: [PITCHES], glamp: 2, entire: 1, entirePlan: [1] });
    expect((await pitches(night)).status).toBe(201);
  });

  it("after one pitch is sold, the entire rental of that night is sold out and refused", async () => {
    const night = addDays(today(), 14);
    expect((await pitches(night, 1)).status).toBe(201);
    expect(await offered(night)).toEqual({ pitch: PITCHES - 1, pitchPlan: [PITCHES - 1], glamp: 2, entire: 0, entirePlan: [0] });
    expect(await calendar(ids.entire, night)).toBe(false);
    const entireOnPage = await planOnPage(ids.entire, ids.entirePlan, night);
    expect(entireOnPage.text).toContain("Sold out");
    expect(entireOnPage.addDisabled).toBe(true);
    const pitchStillOpen = await planOnPage(ids.pitch, ids.pitchPlan, night);
    expect(pitchStillOpen.text).toContain("4 sites left");
    expect(pitchStillOpen.text).toContain("Add to booking");
    expect(pitchStillOpen.addDisabled).toBe(false);
    // A longer rental that only touches the sold night is refused too.
    const refused = await entireRental(addDays(night, -1), 3);
    expect(refused.status).toBe(409);
    expect(refused.body.msg.message).toBe("This room type is sold out");
    // The nights around it are still the site's to rent.
    expect((await offered(addDays(night, 1))).entire).toBe(1);
    expect(await site(night)).toEqual({ entire_rooms: 0, unit_rooms: 1 });
    const entireBooked = await env.DB.prepare("SELECT booked FROM room_nights WHERE room_class_id = ? AND night = ?")
      .bind(ids.entire, night)
      .first<number>("booked");
    expect(entireBooked).toBe(0);
  });

  it("of concurrent entire rentals and pitch orders for one night, exactly the ones that fit succeed", async () => {
    const night = addDays(today(), 20);
    // Interleaved: 10 entire rentals and 10 single pitches (5 pitches exist).
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? entireRental(night) : pitches(night)).then((result) => ({ entire: index % 2 === 0, ...result })),
      ),
    );
    const won = attempts.filter((attempt) => attempt.status === 201);
    const refused = attempts.filter((attempt) => attempt.status === 409);
    expect(won.length + refused.length).toBe(20);
    const entireWon = won.filter((attempt) => attempt.entire).length;
    const pitchesWon = won.filter((attempt) => !attempt.entire).length;
    // Either the whole site went to one rental, or the pitches went (all of them) and no rental.
    expect([entireWon, pitchesWon]).toEqual(entireWon === 1 ? [1, 0] : [0, PITCHES]);
    for (const attempt of refused) expect(["Not enough rooms", "This room type is sold out"]).toContain(attempt.body.msg.message);
    const state = await site(night);
    expect(state).toEqual(entireWon === 1 ? { entire_rooms: 1, unit_rooms: 0 } : { entire_rooms: 0, unit_rooms: PITCHES });
    const orders = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ? AND o.check_in_day = ?",
    )
      .bind(HOST, night)
      .first<number>("n");
    expect(orders).toBe(won.length);
  });

  it("holds under concurrency whichever kind comes first: pitches already sold, then a rush of both", async () => {
    const night = addDays(today(), 24);
    expect((await pitches(night, 2)).status).toBe(201);
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        (index % 3 === 0 ? entireRental(night) : pitches(night)).then((result) => ({ entire: index % 3 === 0, ...result })),
      ),
    );
    const won = attempts.filter((attempt) => attempt.status === 201);
    expect(won.filter((attempt) => attempt.entire)).toHaveLength(0);
    expect(won).toHaveLength(PITCHES - 2);
    expect(await site(night)).toEqual({ entire_rooms: 0, unit_rooms: PITCHES });
  });
});
