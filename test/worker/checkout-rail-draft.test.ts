import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { parseGeneralTimetable, parseOdFares, parseStations, railDataToSql } from "~/backend/rail/tdx";
import stationsJson from "../../demo/thsr-sample/Station.json";
import timetableJson from "../../demo/thsr-sample/GeneralTimetable.json";
import faresJson from "../../demo/thsr-sample/ODFare.json";
import { Browser, TEST_ADDONS, checkoutFields, fixtureHotel, hidden, loadHotel, text } from "./helpers";

/**
 * The checkout → rail page → checkout round trip (issue 37 item 12), as a browser without
 * JavaScript makes it, through the real Worker and D1: "Add rail tickets" is a button of the
 * checkout form that keeps what was typed and chosen, the checkout comes back with it (and its price
 * counts the extras chosen), and the rail page starts from the stay's adults and children.
 */
const HOST = "rail-draft.localhost";
const today = todayIn("Asia/Taipei");
const stay = `start=${addDays(today, 9)}&end=${addDays(today, 11)}&adults=2&children=1`;
const booking = `/en-US/hxa/booking?${stay}`;
const checkoutPath = `/en-US/hxa/checkout?${stay}`;

beforeAll(async () => {
  const rail = railDataToSql({
    stations: parseStations(stationsJson),
    trains: parseGeneralTimetable(timetableJson),
    fares: parseOdFares(faresJson),
  });
  await env.DB.batch(rail.map((statement) => env.DB.prepare(statement)));
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      Object.assign(file.room_classes[0]!, { children: 1, total_rooms: 10 });
      Object.assign(file.hotel, { thsr_support_on: 1, thsr_station_id: "1000", payment_list: [{ vendor_id: 8, method: "remittance" }] });
      (file as Record<string, unknown>).addons = [{ ...TEST_ADDONS.parking, plans: ["BAR"] }];
    }),
  );
});

async function checkout(browser = new Browser(HOST)) {
  const page = await browser.request(booking);
  const added = await browser.request(booking, {
    csrf: hidden(page.html, "csrf"),
    intent: "add",
    room_class_id: hidden(page.html, "room_class_id"),
    proposal_id: hidden(page.html, "proposal_id"),
    num: "1",
  });
  expect(added.status).toBe(303);
  const html = (await browser.request(checkoutPath)).html;
  return { browser, html, parking: /name="(addon_\d+)"/.exec(html)?.[1] ?? "" };
}

/** The value a field of the page holds: an input's value, or a textarea's text. */
const fieldValue = (html: string, name: string) =>
  new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1] ??
  new RegExp(`<textarea[^>]*name="${name}"[^>]*>([^<]*)</textarea>`).exec(html)?.[1] ??
  null;

describe("checkout → rail page → checkout, without JavaScript", () => {
  it("keeps the booker's details, the note and the extras chosen for this stay only, and prices the extras when the guest comes back", async () => {
    const { browser, html, parking } = await checkout();
    expect(html).toMatch(/<button[^>]*name="intent"[^>]*value="rail"[^>]*>Add rail tickets<\/button>/);
    const roomsOnly = Number(hidden(html, "due_now"));

    const left = await browser.request(checkoutPath, {
      ...checkoutFields(html, {
        booker_email: "draft@example.com",
        memo: "Arriving by the 08:00 train",
        occupant_name_0: "Chen Yi",
        payment: "8:remittance",
        [parking]: "1",
      }),
      intent: "rail",
    });
    expect(left.status).toBe(303);
    expect(left.location).toContain(`/en-US/hxa/rail?`);

    const railPage = new URL(left.location ?? "", `http://${HOST}`);
    const rail = await browser.request(railPage.pathname + railPage.search);
    expect(rail.status).toBe(200);
    // The rail page's back link leads to the checkout.
    expect(rail.html).toMatch(/<a href="\/en-US\/hxa\/checkout\?[^"]*">← (?:<!-- -->)?Back to your booking<\/a>/);
    // Passengers start from the stay's party: two adults and the child.
    expect(fieldValue(rail.html, "adult")).toBe("2");
    expect(fieldValue(rail.html, "child")).toBe("1");

    const back = await browser.request(checkoutPath);
    expect(back.status).toBe(200);
    expect(fieldValue(back.html, "booker_last_name")).toBe("Chen");
    expect(fieldValue(back.html, "booker_first_name")).toBe("Yi");
    expect(fieldValue(back.html, "booker_phone")).toBe("0912345678");
    expect(fieldValue(back.html, "booker_email")).toBe("draft@example.com");
    expect(fieldValue(back.html, "memo")).toBe("Arriving by the 08:00 train");
    expect(fieldValue(back.html, "occupant_name_0")).toBe("Chen Yi");
    expect(fieldValue(back.html, parking)).toBe("1");
    // The price shown counts the parking kept: what placing the booking charges.
    expect(text(back.html)).toContain("Parking × 1 NT$600");
    expect(Number(hidden(back.html, "due_now"))).toBe(roomsOnly + 600);

    // Another stay of the same browser does not get it.
    const otherStay = `start=${addDays(today, 12)}&end=${addDays(today, 13)}&adults=2`;
    const otherPage = await browser.request(`/en-US/hxa/booking?${otherStay}`);
    await browser.request(`/en-US/hxa/booking?${otherStay}`, {
      csrf: hidden(otherPage.html, "csrf"),
      intent: "add",
      room_class_id: hidden(otherPage.html, "room_class_id"),
      proposal_id: hidden(otherPage.html, "proposal_id"),
      num: "1",
    });
    const other = await browser.request(`/en-US/hxa/checkout?${otherStay}`);
    expect(other.status).toBe(200);
    expect(fieldValue(other.html, "booker_email")).toBe("");

    // Back to this stay (its room chosen again): the draft is there; placed, it is forgotten.
    const returned = (await checkout(browser)).html;
    expect(fieldValue(returned, "booker_email")).toBe("draft@example.com");
    const placed = await browser.request(checkoutPath, {
      ...checkoutFields(returned, {
        booker_email: "draft@example.com",
        payment: "8:remittance",
        [parking]: "1",
        due_now: hidden(returned, "due_now"),
      }),
      intent: "order",
    });
    expect(placed.status).toBe(303);
    const again = await checkout(browser);
    expect(fieldValue(again.html, "booker_email")).toBe("");
  });
});
