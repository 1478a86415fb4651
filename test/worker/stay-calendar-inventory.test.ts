import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { addDays, todayIn } from "~/domain/dates";
import { handleBackendRequest } from "~/backend/router.server";
import camp from "../../demo/hotels/camp.json";
import { loadHotel, type Envelope } from "./helpers";

/**
 * The guest's calendar against the search where the demo hotels' files set nothing (decisions 157,
 * 165): a campsite rented as a whole on a night (its pitches cannot be sold), or with pitches sold
 * (the whole site cannot be), and a plan whose allotment is used up for the rooms asked. The
 * calendar reads these in SQL and by night; each day's price and each check-out's total must still
 * be what the search then charges.
 */
const DOMAIN = "calendar-camp.localhost";
const today = todayIn("Asia/Taipei");
const WHOLE_SITE = addDays(today, 5);
const PITCHES_SOLD = addDays(today, 6);
const ALLOTMENT_LEFT_ONE = addDays(today, 7);
const PARTIES = [
  { adults: 2, children: 0, rooms: 1 },
  { adults: 2, children: 0, rooms: 2 },
];

interface Day {
  date: string;
  price?: number;
  nights?: number;
  reason?: string;
}
interface Calendar {
  days: Day[];
  check_outs: { date: string; nights: number; total?: number; reason?: string }[];
}
interface Search {
  rooms: { people: number; children: number; price_set: { price: number; inventory: number }[] }[];
}

async function apiJson<T>(path: string): Promise<T> {
  const response = await handleBackendRequest(new Request(`http://backend.internal${path}&lang=en-US`), {
    db: env.DB,
    signingSecret: env.SESSION_SECRET as string,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as Envelope<T>).data;
}

/** What the search charges the party for a stay: the cheapest plan it can book, or null. */
async function searchTotal(start: string, end: string, party: (typeof PARTIES)[number]): Promise<number | null> {
  const search = await apiJson<Search>(`/api/ota/room/empty-by-date?domain=${DOMAIN}&start_date=${start}&end_date=${end}`);
  const prices = search.rooms
    .filter((room) => room.people >= party.adults / party.rooms && room.children >= party.children)
    .flatMap((room) => room.price_set.filter((plan) => plan.inventory >= party.rooms).map((plan) => plan.price * party.rooms));
  return prices.length > 0 ? Math.min(...prices) : null;
}

function calendar(party: (typeof PARTIES)[number], checkIn?: string): Promise<Calendar> {
  const month = (checkIn ?? WHOLE_SITE).slice(0, 7);
  return apiJson<Calendar>(
    `/api/portico/stay_calendar?domain=${DOMAIN}&month=${month}&months=2&adults=${party.adults}&children=${party.children}&rooms=${party.rooms}` +
      (checkIn ? `&check_in=${checkIn}` : ""),
  );
}

beforeAll(async () => {
  const file = structuredClone(camp) as Record<string, unknown> & { hotel: { domain: string } };
  file.hotel.domain = DOMAIN;
  delete file.members;
  delete file.desk;
  await loadHotel(file);
  const hotel = "(SELECT id FROM hotels WHERE domain = ?1)";
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO site_nights (hotel_id, night, entire_rooms, unit_rooms) VALUES (${hotel}, ?2, 1, 0)`).bind(
      DOMAIN,
      WHOLE_SITE,
    ),
    env.DB.prepare(`INSERT INTO site_nights (hotel_id, night, entire_rooms, unit_rooms) VALUES (${hotel}, ?2, 0, 3)`).bind(
      DOMAIN,
      PITCHES_SOLD,
    ),
    // The pitch plan has one pitch left that night: enough for one, not for two.
    env.DB.prepare(
      `UPDATE plan_nights SET allotment = 2, sold = 1 WHERE night = ?2
         AND rate_plan_id = (SELECT id FROM rate_plans WHERE rate_plan_code = 'PITCH-STD' AND hotel_id = ${hotel})
         AND room_class_id = (SELECT id FROM room_classes WHERE room_code = 'PITCH' AND hotel_id = ${hotel})`,
    ).bind(DOMAIN, ALLOTMENT_LEFT_ONE),
  ]);
});

describe("the guest's calendar on a campsite's whole-site nights and a used-up allotment", () => {
  it("prices each day as the search charges its stay, and each check-out across those nights", async () => {
    const mismatches: string[] = [];
    const prices = new Map<string, number | undefined>();
    for (const party of PARTIES) {
      const days = (await calendar(party)).days.filter((day) => day.date >= addDays(today, 3) && day.date <= addDays(today, 9));
      expect(days).toHaveLength(7);
      for (const day of days) {
        prices.set(`${day.date} ${party.rooms}`, day.price);
        const charged = await searchTotal(day.date, addDays(day.date, day.nights ?? 1), party);
        if ((day.price ?? null) !== charged)
          mismatches.push(`${day.date} ${party.rooms} rooms: calendar ${day.price ?? day.reason}, search ${charged}`);
      }
      const checkIn = addDays(today, 4);
      const { check_outs } = await calendar(party, checkIn);
      for (const out of check_outs.slice(0, 6)) {
        const charged = await searchTotal(checkIn, out.date, party);
        if ((out.total ?? null) !== charged)
          mismatches.push(`${checkIn}–${out.date} ${party.rooms} rooms: calendar ${out.total ?? out.reason}, search ${charged}`);
      }
    }
    expect(mismatches).toEqual([]);
    // The nights set above change the answer: the rented site sells only as a whole, the site with
    // pitches sold no longer does, and the last pitch of the cheapest plan sells to one room only.
    const one = (date: string) => prices.get(`${date} 1`) ?? 0;
    expect(one(WHOLE_SITE)).toBeGreaterThan(one(addDays(today, 3)) * 10);
    expect(one(PITCHES_SOLD)).toBeLessThan(one(WHOLE_SITE) / 10);
    expect(prices.get(`${ALLOTMENT_LEFT_ONE} 2`)).toBeGreaterThan(one(ALLOTMENT_LEFT_ONE) * 2);
  });
});
