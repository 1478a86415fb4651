import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { Browser, fixtureHotel, hidden, loadHotel, text } from "./helpers";

/**
 * The cart and the checkout as a browser without JavaScript uses them, through the real Worker and
 * D1: what the guest is told when a change cannot be made, and that nothing is booked then.
 */
const HOST = "cart.localhost";
const today = todayIn("Asia/Taipei");
const stay = `start=${addDays(today, 20)}&end=${addDays(today, 22)}&adults=2`;
const booking = `/en-US/hxa/booking?${stay}`;
const checkoutPath = `/en-US/hxa/checkout?${stay}`;

const ordersMade = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ?")
    .bind(HOST)
    .first<number>("n")) ?? 0;
const alert = (html: string) => [...html.matchAll(/role="alert">([^<]*)</g)].map((match) => match[1]);

/** Adds `num` rooms of the search's `planIndex`-th plan to the cart. */
async function add(browser: Browser, planIndex: number, num: number) {
  const page = await browser.request(booking);
  const plans = [...page.html.matchAll(/name="proposal_id" value="(\d+)"/g)].map((match) => match[1] ?? "");
  return browser.request(booking, {
    csrf: hidden(page.html, "csrf"),
    intent: "add",
    room_class_id: hidden(page.html, "room_class_id"),
    proposal_id: plans[planIndex] ?? "",
    num: String(num),
  });
}

const booker = {
  booker_last_name: "Chen",
  booker_first_name: "Yi",
  booker_phone: "0912345678",
  booker_email: "yi@example.com",
  pay_option: "all",
  payment: "8:remittance",
};

async function checkoutForm(browser: Browser) {
  const page = await browser.request(checkoutPath);
  expect(page.status).toBe(200);
  // As a browser sends it: with the amount the page shows as due now (decision 065).
  return {
    csrf: hidden(page.html, "csrf"),
    checkout_key: hidden(page.html, "checkout_key"),
    due_now: hidden(page.html, "due_now"),
    intent: "order",
    ...booker,
  };
}

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      // A second plan on the same three rooms: two lines of one room type share them.
      const second = structuredClone(file.rate_plans[0]!);
      Object.assign(second, { rate_plan_code: "BB", name: { "zh-TW": "含早餐", "en-US": "With breakfast" } });
      file.rate_plans.push(second);
    }),
  );
});

describe("the cart", () => {
  it("refuses a line that would take more of a room type than is left, in the spec's words, and keeps the cart", async () => {
    const browser = new Browser(HOST);
    expect((await add(browser, 0, 2)).status).toBe(303);
    const refused = await add(browser, 1, 2);
    expect(refused.status).toBe(409);
    expect(alert(refused.html)).toContain("Not enough rooms");
    const page = text((await browser.request(booking)).html);
    expect(page).toContain("2 rooms in total");
    // One more room of the other plan still fits.
    expect((await add(browser, 1, 1)).status).toBe(303);
    expect(text((await browser.request(booking)).html)).toContain("3 rooms in total");
  });

  it("refuses a negative count and changes nothing", async () => {
    const browser = new Browser(HOST);
    const page = await browser.request(booking);
    const refused = await browser.request(booking, {
      csrf: hidden(page.html, "csrf"),
      intent: "add",
      room_class_id: hidden(page.html, "room_class_id"),
      proposal_id: hidden(page.html, "proposal_id"),
      num: "-2",
    });
    expect(refused.status).toBe(400);
    expect(alert(refused.html)).toContain("That form was not valid, please try again.");
    expect(text((await browser.request(booking)).html)).toContain("No rooms chosen yet.");
  });
});

describe("placing the order", () => {
  it("checks a coupon that was typed but never applied: a failing one is removed with the server's message, and nothing is booked", async () => {
    const browser = new Browser(HOST);
    await add(browser, 0, 1);
    const form = await checkoutForm(browser);
    const before = await ordersMade();
    const refused = await browser.request(checkoutPath, { ...form, coupon_code: "NOT-A-COUPON" });
    expect(refused.status).toBe(400);
    expect(alert(refused.html)).toEqual([
      "The coupon could not be used and was removed. Please check the new total, then place the order again.",
      "This coupon code is not valid or has expired",
    ]);
    expect(/<input[^>]*name="coupon_code"[^>]*>/.exec(refused.html)?.[0]).toContain('value=""');
    expect(/<input[^>]*name="booker_email"[^>]*>/.exec(refused.html)?.[0]).toContain('value="yi@example.com"');
    expect(await ordersMade()).toBe(before);

    // A valid coupon typed without "Apply" is honoured, at the amount the guest has seen: the page
    // first shows the discounted amount due now, and the booking is placed from there (decision 065).
    const discounted = await browser.request(checkoutPath, { ...form, coupon_code: "WELCOME10" });
    expect(discounted.status).toBe(409);
    expect(alert(discounted.html)).toEqual([
      "The amount due now has changed for what you chose. Please check it below, then place the booking again.",
    ]);
    expect(Number(hidden(discounted.html, "due_now"))).toBeLessThan(Number(form.due_now));
    expect(await ordersMade()).toBe(before);
    const placed = await browser.request(checkoutPath, { ...form, coupon_code: "WELCOME10", due_now: hidden(discounted.html, "due_now") });
    expect(placed.status).toBe(303);
    expect(await ordersMade()).toBe(before + 1);
    const order = await env.DB.prepare(
      "SELECT o.coupon_code FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ? ORDER BY o.id DESC",
    )
      .bind(HOST)
      .first<string>("coupon_code");
    expect(order).toBe("WELCOME10");
  });

  it("takes each line's guest name, phone and email, and names a bad one at its field", async () => {
    const browser = new Browser(HOST);
    await add(browser, 0, 1);
    const form = await checkoutForm(browser);
    const before = await ordersMade();
    const refused = await browser.request(checkoutPath, {
      ...form,
      occupant_name_0: "Lin Mei",
      occupant_email_0: "not-an-email",
      occupant_phone_0: "12",
    });
    expect(refused.status).toBe(400);
    expect(text(refused.html)).toContain("Enter a valid email address");
    expect(text(refused.html)).toContain("Enter a valid phone number");
    expect(/<input[^>]*name="occupant_name_0"[^>]*>/.exec(refused.html)?.[0]).toContain('value="Lin Mei"');
    expect(await ordersMade()).toBe(before);

    const placed = await browser.request(checkoutPath, {
      ...form,
      occupant_name_0: "Lin Mei",
      occupant_email_0: "mei@example.com",
      occupant_phone_0: "+886 912 345 678",
    });
    expect(placed.status).toBe(303);
    const line = await env.DB.prepare(
      "SELECT ol.occupant_name, ol.occupant_phone, ol.occupant_email FROM order_lines ol JOIN orders o ON o.id = ol.order_id JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ? ORDER BY o.id DESC",
    )
      .bind(HOST)
      .first();
    expect(line).toEqual({ occupant_name: "Lin Mei", occupant_phone: "+886 912 345 678", occupant_email: "mei@example.com" });
  });
});

describe("a hotel that closed online booking", () => {
  const CLOSED = "closed-booking.localhost";
  beforeAll(async () => {
    await loadHotel(
      fixtureHotel(CLOSED, (file) => {
        Object.assign(file.hotel, { booking_close: true, official_booking: "https://booking.owlting.com/portico-demo" });
      }),
    );
  });

  it("sends a guest at its booking page to its official engine, with the stay asked for in that engine's format", async () => {
    const start = addDays(today, 30);
    const end = addDays(today, 33);
    for (const path of [
      `/en-US/hxa/booking?start=${start}&end=${end}&adults=3&children=1&room=2`,
      `/en-US/hxa/checkout?start=${start}&end=${end}&adults=3&children=1&room=2`,
    ]) {
      const response = await new Browser(CLOSED).request(path);
      expect(response.status).toBe(303);
      const target = new URL(response.location ?? "");
      expect(target.host).toBe("booking.owlting.com");
      expect(Object.fromEntries(target.searchParams)).toEqual({ start, end, adult: "3", child: "1", infant: "0", lang: "zh_TW" });
    }
  });
});

describe("placing the order with JavaScript (a .data request): the answer hands over the pay page (decision 127)", () => {
  const CARD = "cart-card.localhost";
  const cardOrders = async () =>
    (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ?")
      .bind(CARD)
      .first<number>("n")) ?? 0;
  const dataPath = `/en-US/hxa/checkout.data?${stay}`;
  beforeAll(async () => {
    await loadHotel(
      fixtureHotel(CARD, (file) => {
        const hotel = file.hotel as Record<string, unknown>;
        hotel.payment_list = [
          { vendor_id: 1, method: "credit" },
          { vendor_id: 8, method: "remittance" },
        ];
        hotel.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: "2000132" }];
        // Every test here books the same stay.
        file.room_classes[0]!.total_rooms = 10;
      }),
    );
  });

  it("answers a card order with the pay page's data for that order, sets the same cookies, and books once", async () => {
    const browser = new Browser(CARD);
    await add(browser, 0, 1);
    const form = { ...(await checkoutForm(browser)), payment: "1:credit" };
    const before = await cardOrders();
    const answer = await browser.request(dataPath, form);
    expect(answer.status).toBe(200);
    expect(await cardOrders()).toBe(before + 1);
    const row = await env.DB.prepare(
      "SELECT o.order_doc FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ? ORDER BY o.id DESC",
    )
      .bind(CARD)
      .first<{ order_doc: string }>();
    const doc = row?.order_doc ?? "missing";
    // Single fetch's encoding: the hand-off names the pay page of this order, with its view and title.
    expect(answer.html).toContain("handoff");
    expect(answer.html).toMatch(new RegExp(`/en-US/pay/\\d+/${doc}\\?valid_hash=`));
    expect(answer.html).toContain("Payment due | ");
    // The cart was emptied, as after the 303: the checkout now has nothing to book.
    expect((await browser.request(checkoutPath)).status).toBe(303);
    // The same form again (a double send) finds the order it made: a redirect, not a second order.
    const again = await browser.request(dataPath, form);
    expect(again.html).not.toContain("handoff");
    expect(again.html).toContain(doc);
    expect(await cardOrders()).toBe(before + 1);
  });

  it("books once when the same form is sent twice at once", async () => {
    const browser = new Browser(CARD);
    await add(browser, 0, 1);
    const form = { ...(await checkoutForm(browser)), payment: "1:credit" };
    const before = await cardOrders();
    const answers = await Promise.all([browser.request(dataPath, form), browser.request(dataPath, form)]);
    expect(answers.map((answer) => answer.status)).not.toContain(500);
    expect(await cardOrders()).toBe(before + 1);
    const row = await env.DB.prepare(
      "SELECT o.order_doc FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ? ORDER BY o.id DESC",
    )
      .bind(CARD)
      .first<{ order_doc: string }>();
    // Both answers lead to that one order's pay page.
    for (const answer of answers) expect(answer.html).toContain(row?.order_doc ?? "missing");
  });

  it("on a public host the answer is the same, and its address stays on that host", async () => {
    const PUBLIC = "hotel-handoff.example.com";
    await loadHotel(
      fixtureHotel(PUBLIC, (file) => {
        const hotel = file.hotel as Record<string, unknown>;
        hotel.payment_list = [{ vendor_id: 1, method: "credit" }];
        hotel.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: "2000132" }];
      }),
      todayIn("Asia/Taipei"),
      { allowTestGateway: true },
    );
    const browser = new Browser(PUBLIC);
    await add(browser, 0, 1);
    const answer = await browser.request(dataPath, { ...(await checkoutForm(browser)), payment: "1:credit" });
    expect(answer.status).toBe(200);
    expect(answer.html).toContain("handoff");
    expect(answer.html).toMatch(/"\/en-US\/pay\/\d+\/[^"/?]+\?valid_hash=/);
    expect(answer.html).not.toMatch(/https?:\/\/[^"]*\/en-US\/pay\//);
  });

  it("answers an order with nothing to pay online as before, with the way to its confirmation", async () => {
    const browser = new Browser(CARD);
    await add(browser, 0, 1);
    const form = { ...(await checkoutForm(browser)), payment: "8:remittance" };
    const answer = await browser.request(dataPath, form);
    expect(answer.html).not.toContain("handoff");
    expect(answer.html).toContain("/en-US/redirect/receipt/");
  });

  it("answers the same form sent as a document (no JavaScript) with the 303 to the pay page", async () => {
    const browser = new Browser(CARD);
    await add(browser, 0, 1);
    const placed = await browser.request(checkoutPath, { ...(await checkoutForm(browser)), payment: "1:credit" });
    expect(placed.status).toBe(303);
    expect(placed.location).toMatch(/^\/en-US\/pay\/\d+\/[^/?]+\?valid_hash=/);
  });
});
