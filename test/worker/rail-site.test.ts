import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { parseGeneralTimetable, parseOdFares, parseStations, railDataToSql } from "~/backend/rail/tdx";
import stationsJson from "../../demo/thsr-sample/Station.json";
import timetableJson from "../../demo/thsr-sample/GeneralTimetable.json";
import faresJson from "../../demo/thsr-sample/ODFare.json";
import { Browser, checkoutFields, fixtureHotel, hidden, loadHotel, text } from "./helpers";

/**
 * The site's rail page as a browser without JavaScript uses it (issue 27), through the real Worker
 * and D1: only at a hotel that sells tickets and only with rooms in the cart; a train chosen is
 * checked again against the back end (never what the form says), kept in the cart and sent with
 * the order; a forged, sold-out or closed train is refused with a message and nothing is kept.
 */
const HOST = "rail-site.localhost";
const NO_RAIL = "rail-site-none.localhost";
const today = todayIn("Asia/Taipei");
const stay = `start=${addDays(today, 9)}&end=${addDays(today, 11)}&adults=2`;
const booking = `/en-US/hxa/booking?${stay}`;
const railPath = `/en-US/hxa/rail?${stay}`;
const trainsPath = `${railPath}&direction=outbound&station=1070&date=${addDays(today, 9)}&adult=2&child=0&senior=0&disabled=0`;

beforeAll(async () => {
  const rail = railDataToSql({
    stations: parseStations(stationsJson),
    trains: parseGeneralTimetable(timetableJson),
    fares: parseOdFares(faresJson),
  });
  await env.DB.batch(rail.map((statement) => env.DB.prepare(statement)));
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      file.room_classes[0]!.total_rooms = 10;
      Object.assign(file.hotel, {
        thsr_support_on: 1,
        thsr_station_id: "1000",
        thsr_seats_per_train: 2,
        payment_list: [
          { vendor_id: 8, method: "remittance" },
          { vendor_id: 14, method: "pay_arrival" },
        ],
      });
    }),
  );
  await loadHotel(fixtureHotel(NO_RAIL));
});

async function withRoom(host: string) {
  const browser = new Browser(host);
  const page = await browser.request(booking);
  const added = await browser.request(booking, {
    csrf: hidden(page.html, "csrf"),
    intent: "add",
    room_class_id: hidden(page.html, "room_class_id"),
    proposal_id: hidden(page.html, "proposal_id"),
    num: "1",
  });
  expect(added.status).toBe(303);
  return browser;
}

/** The way of paying the checkout page has chosen (its checked radio), or null. */
const checkedPayment = (html: string) =>
  [...html.matchAll(/<input[^>]*name="payment"[^>]*>/g)]
    .map(([tag]) => tag)
    .find((tag) => / checked(=""|\s|\/|>)/.test(tag))
    ?.match(/value="([^"]+)"/)?.[1] ?? null;

function chooseForm(html: string, trainNo: string, over: Record<string, string> = {}) {
  return {
    csrf: hidden(html, "csrf"),
    intent: "choose",
    direction: "outbound",
    station: "1070",
    date: addDays(today, 9),
    train_no: trainNo,
    adult: "2",
    child: "0",
    senior: "0",
    disabled: "0",
    ...over,
  };
}

describe("the rail page, without JavaScript", () => {
  it("is not there at a hotel that sells no tickets, and sends a guest with no rooms chosen to the booking page", async () => {
    const none = await withRoom(NO_RAIL);
    expect((await none.request(railPath)).status).toBe(404);
    const empty = await new Browser(HOST).request(railPath);
    expect(empty.status).toBe(303);
    expect(empty.location).toContain("/en-US/hxa/booking?");
  });

  it("lists a day's trains, keeps the one chosen, prices it at the checkout and books it with the order", async () => {
    const browser = await withRoom(HOST);
    const trains = await browser.request(trainsPath);
    expect(trains.status).toBe(200);
    const shown = text(trains.html);
    expect(shown).toContain("Zuoying → Taipei");
    expect(shown).toContain("Choose train 0806 at 08:00");
    expect(shown).toContain("NT$2,980 · 2 seats left");

    const chosen = await browser.request(trainsPath, chooseForm(trains.html, "0806"));
    expect(chosen.status).toBe(303);
    expect(chosen.location).toContain("direction=return");
    const checkoutPath = `/en-US/hxa/checkout?${stay}`;
    const checkout = await browser.request(checkoutPath);
    const summary = text(checkout.html);
    // Tickets are paid when booking: paying at the hotel is not offered, and the page says why.
    expect(checkout.html).toContain('value="8:remittance"');
    expect(checkout.html).not.toContain('value="14:pay_arrival"');
    expect(summary).toContain("Rail tickets are paid when booking, so paying at the hotel is not offered.");
    expect(summary).toContain("To the hotel");
    expect(summary).toContain("Zuoying 08:00 → Taipei");
    expect(summary).toMatch(/Rail tickets\s*NT\$2,980/);

    const order = (payment: string) =>
      checkoutFields(checkout.html, {
        booker_email: "rail-site@example.com",
        occupant_name_0: "Chen Yi",
        payment,
        pay_option: "all",
        due_now: hidden(checkout.html, "due_now"),
        intent: "order",
      });
    // A form that still names paying at the hotel (an old page, or forged) is refused in words, nothing held.
    const atHotel = await browser.request(checkoutPath, order("14:pay_arrival"));
    expect(atHotel.status).toBe(400);
    expect(text(atHotel.html)).toContain("Rail tickets must be paid when booking; choose another way to pay");
    const untouched = await env.DB.prepare(
      "SELECT COALESCE(SUM(taken), 0) AS taken FROM rail_allotments WHERE train_no = '0806' AND day = ?",
    )
      .bind(addDays(today, 9))
      .first<{ taken: number }>();
    expect(untouched?.taken).toBe(0);
    const placed = await browser.request(checkoutPath, order("8:remittance"));
    expect(placed.status, text(placed.html).slice(0, 300)).toBe(303);
    const held = await env.DB.prepare("SELECT taken FROM rail_allotments WHERE train_no = '0806' AND day = ?")
      .bind(addDays(today, 9))
      .all<{ taken: number }>();
    expect(held.results.map((row) => row.taken)).toContain(2);
  });

  it("refuses a forged, sold-out or unknown train with a message, and keeps nothing", async () => {
    const browser = await withRoom(HOST);
    const trains = await browser.request(trainsPath);
    // Train 0806 is sold out: the order above took the hotel's 2 seats.
    expect(text(trains.html)).toContain("Sold out");
    for (const [over, message] of [
      [{ train_no: "0806" }, "Sold out"],
      [{ train_no: "9999" }, "This train can no longer be booked"],
      [{ train_no: "0806'; DROP TABLE orders;--" }, "This train can no longer be booked"],
      [{ train_no: "0826", adult: "11" }, "Enter a whole number from 0 to 10"],
      [{ train_no: "0826", station: "1000" }, ""],
      [{ train_no: "0826", date: addDays(today, 60) }, "Not on sale yet"],
      [{ train_no: "0826", direction: "sideways" }, "Choose which way"],
      [{ train_no: "0826", adult: "0", child: "1" }, "A child must travel with an adult or a senior on the same train"],
      [{ train_no: "0826", adult: "0" }, "Choose at least one passenger for each train"],
    ] as const) {
      const refused = await browser.request(trainsPath, chooseForm(trains.html, over.train_no, over as Record<string, string>));
      expect(refused.status, JSON.stringify(over)).toBeGreaterThanOrEqual(400);
      expect(refused.status, JSON.stringify(over)).toBeLessThan(500);
      if (message) expect(text(refused.html), JSON.stringify(over)).toContain(message);
    }
    // A form from another site, or without its token: refused.
    expect((await browser.request(trainsPath, { ...chooseForm(trains.html, "0826"), csrf: "forged" })).status).toBe(403);
    // Nothing was kept: the checkout has no tickets.
    const checkout = await browser.request(`/en-US/hxa/checkout?${stay}`);
    expect(text(checkout.html)).toContain("Add rail tickets");
    expect(text(checkout.html)).not.toContain("Rail tickets NT$");
  });

  // Issue 37 item 13: "Check the price" accepted tickets with paying at the hotel, which the order then
  // refused; and the page that said so had no way of paying chosen (the one named was not offered).
  it("refuses paying at the hotel with tickets at the price check as the order does, and then has a way of paying chosen", async () => {
    const browser = await withRoom(HOST);
    const trains = await browser.request(trainsPath);
    expect((await browser.request(trainsPath, chooseForm(trains.html, "0826"))).status).toBe(303);
    const checkoutPath = `/en-US/hxa/checkout?${stay}`;
    const checkout = await browser.request(checkoutPath);
    expect(checkedPayment(checkout.html)).toBe("8:remittance");
    const form = (intent: string, payment: string) =>
      checkoutFields(checkout.html, {
        booker_email: "rail-site-price@example.com",
        occupant_name_0: "Chen Yi",
        payment,
        pay_option: "all",
        due_now: hidden(checkout.html, "due_now"),
        intent,
      });
    for (const intent of ["price", "order"]) {
      // A form that still names paying at the hotel (a page from before the tickets, or forged).
      const refused = await browser.request(checkoutPath, form(intent, "14:pay_arrival"));
      expect(refused.status, intent).toBe(400);
      expect(text(refused.html), intent).toContain("Rail tickets must be paid when booking; choose another way to pay");
      // The price is still shown, tickets included; the first way of paying allowed is chosen.
      expect(text(refused.html), intent).toMatch(/Rail tickets\s*NT\$/);
      expect(checkedPayment(refused.html), intent).toBe("8:remittance");
    }
    const priced = await browser.request(checkoutPath, form("price", "8:remittance"));
    expect(priced.status).toBe(200);
    expect(text(priced.html)).not.toContain("Rail tickets must be paid when booking");
    expect(checkedPayment(priced.html)).toBe("8:remittance");
  });
});
