import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { Browser, TEST_ADDONS, checkoutFields, fixtureHotel, hidden, loadHotel, text } from "./helpers";

/**
 * The checkout's extras as a browser without JavaScript uses them (issue 27), through the real
 * Worker and D1: the plan's add-ons offered with how they are charged, priced for the stay and
 * party by "Check the price", booked with the order, and listed on the order page.
 */
const HOST = "addon-checkout.localhost";
const today = todayIn("Asia/Taipei");
const stay = `start=${addDays(today, 30)}&end=${addDays(today, 32)}&adults=2&children=1`;
const booking = `/en-US/hxa/booking?${stay}`;
const checkoutPath = `/en-US/hxa/checkout?${stay}`;

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      Object.assign(file.room_classes[0]!, { children: 1 });
      (file as Record<string, unknown>).addons = [
        { ...TEST_ADDONS.breakfast, description: { "en-US": "Served 7 to 10." } },
        { ...TEST_ADDONS.parking, plans: ["BAR"], inventory: { per_day: 5 } },
      ];
    }),
  );
});

describe("extras at the checkout, without JavaScript", () => {
  it("offers the plan's extras, prices them for the stay and party, books them and lists them on the order page", async () => {
    const browser = new Browser(HOST);
    const page = await browser.request(booking);
    const added = await browser.request(booking, {
      csrf: hidden(page.html, "csrf"),
      intent: "add",
      room_class_id: hidden(page.html, "room_class_id"),
      proposal_id: hidden(page.html, "proposal_id"),
      num: "1",
    });
    expect(added.status).toBe(303);

    const checkout = await browser.request(checkoutPath);
    expect(checkout.status).toBe(200);
    const shown = text(checkout.html);
    expect(shown).toContain("Extras");
    expect(shown).toContain("NT$400 per adult per night, NT$200 per child per night");
    expect(shown).toContain("NT$300 each per night");
    expect(shown).toContain("Served 7 to 10.");
    const breakfast = /name="(addon_\d+)_children"/.exec(checkout.html)?.[1] ?? "";
    const parking = [...checkout.html.matchAll(/name="(addon_\d+)"/g)].map((match) => match[1]).find((name) => name !== breakfast) ?? "";
    expect(breakfast).not.toBe("");
    expect(parking).not.toBe("");

    const form = checkoutFields(checkout.html, {
      booker_email: "yi@example.com",
      payment: "8:remittance",
      pay_option: "all",
      [breakfast]: "2",
      [`${breakfast}_children`]: "1",
      [parking]: "1",
    });
    const priced = await browser.request(checkoutPath, { ...form, intent: "price" });
    expect(priced.status).toBe(200);
    const summary = text(priced.html);
    // Breakfast: (2 × 400 + 1 × 200) × 2 nights; parking: 300 × 2 nights.
    expect(summary).toContain("Breakfast × 3 NT$2,000");
    expect(summary).toContain("Parking × 1 NT$600");
    const due = hidden(priced.html, "due_now");
    const rooms = (await browser.request(checkoutPath)).html;
    expect(Number(due)).toBe(Number(hidden(rooms, "due_now")) + 2600);

    const placed = await browser.request(checkoutPath, { ...form, intent: "order", due_now: due });
    expect(placed.status).toBe(303);
    const location = new URL(placed.location ?? "", `http://${HOST}`);
    const doc = location.pathname.split("/").pop() ?? "";
    const orderPage = await browser.request(
      `/en-US/hxa/orders/${doc}?valid_hash=${encodeURIComponent(location.searchParams.get("valid_hash") ?? "")}`,
    );
    expect(orderPage.status).toBe(200);
    expect(text(orderPage.html)).toContain("Breakfast × 3: NT$2,000");
    expect(text(orderPage.html)).toContain("Parking × 1: NT$600");
  });

  it("keeps the form and says so when a count is not a number", async () => {
    const browser = new Browser(HOST);
    const page = await browser.request(booking);
    await browser.request(booking, {
      csrf: hidden(page.html, "csrf"),
      intent: "add",
      room_class_id: hidden(page.html, "room_class_id"),
      proposal_id: hidden(page.html, "proposal_id"),
      num: "1",
    });
    const checkout = await browser.request(checkoutPath);
    const parking = [...checkout.html.matchAll(/name="(addon_\d+)"/g)].map((match) => match[1]).pop() ?? "";
    const refused = await browser.request(
      checkoutPath,
      checkoutFields(checkout.html, {
        due_now: hidden(checkout.html, "due_now"),
        intent: "order",
        booker_email: "yi@example.com",
        payment: "8:remittance",
        [parking]: "two",
      }),
    );
    expect(refused.status).toBe(400);
    expect(text(refused.html)).toContain("Enter a whole number from 0 to 100");
    expect(refused.html).toContain('value="two"');
  });
});
