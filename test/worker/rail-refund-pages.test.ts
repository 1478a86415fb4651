/**
 * Issue 37 item 8: after one rail ticket is refunded (the back end's rail refund call), and again
 * after the order is cancelled, the order page and the cancel page say what was charged, what comes
 * back, and who keeps the rest — the hotel, or the rail operator (its refund fee) — in figures that
 * add up and agree with each other, the cancellation email and the back end's records. A room with
 * tickets both ways is booked, paid in full on the built-in test gateway, then the return refunded.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { parseGeneralTimetable, parseOdFares, parseStations, railDataToSql } from "~/backend/rail/tdx";
import { outboxPage } from "~/backend/mail/outbox-page.server";
import { parseEnv } from "~/platform/env.server";
import { createLogger } from "~/platform/log.server";
import stationsJson from "../../demo/thsr-sample/Station.json";
import timetableJson from "../../demo/thsr-sample/GeneralTimetable.json";
import faresJson from "../../demo/thsr-sample/ODFare.json";
import { BOOKER, Browser, apiJson, fetchAs, fixtureHotel, hidden, hotelRefs, loadHotel, text, type HotelRefs } from "./helpers";

const HOST = "rail-refund-pages.localhost";
const today = todayIn("Asia/Taipei");
// Two days ahead, on a plan without a free window: the stay's money comes back by half (the standard contract).
const stay = { check_in_day: addDays(today, 2), check_out_day: addDays(today, 3) };
/** Zuoying ↔ Taipei in the sample, 2 adults and a child each way: 2 × 1,490 + 745; THSR's fee NT$20 a ticket. */
const FARE = 2 * 1_490 + 745;
const TICKET_FEE = 3 * 20;

let hotel: HotelRefs;

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
      const info = file.hotel as Record<string, unknown>;
      Object.assign(info, {
        thsr_support_on: 1,
        thsr_station_id: "1000",
        thsr_seats_per_train: 9,
        payment_list: [{ vendor_id: 1, method: "credit" }],
        payment_gateways: [{ vendor_id: 1, provider: "sandbox", merchant_id: "3002607" }],
      });
      for (const plan of file.rate_plans as { refund_template_id?: number }[]) plan.refund_template_id = 0;
    }),
  );
  hotel = await hotelRefs(HOST);
});

interface Created {
  order_doc: string;
  order: { valid_hash: string; cancel_hash: string; final_amount: number; sum: number; rail_item_list: { rail_id: number }[] };
}

const NT = (amount: number) => `NT$${amount.toLocaleString("en-US")}`;

/** The price summary as a guest reads it: each line's words and amount, "−" amounts negative. */
function summary(html: string): [string, number][] {
  const list = /<dl class="price-summary">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? "";
  return [...list.matchAll(/<dt>([\s\S]*?)<\/dt><dd>([\s\S]*?)<\/dd>/g)].map((match) => {
    const shown = text(match[2] ?? "").trim();
    const amount = Number(shown.replace(/[^\d]/g, ""));
    return [
      text(match[1] ?? "")
        .trim()
        .replaceAll("&#x27;", "'"),
      shown.startsWith("−") ? -amount : amount,
    ];
  });
}

/** The lines before "Total", added up as a guest adds them, and the total. */
function addedUp(lines: [string, number][]): { items: number; total: number } {
  const at = lines.findIndex(([name]) => name === "Total");
  return { items: lines.slice(0, at).reduce((sum, [, amount]) => sum + amount, 0), total: lines[at]?.[1] ?? NaN };
}

const amount = (lines: [string, number][], name: string) => lines.find(([label]) => label === name)?.[1];

describe("an order with rail tickets, one refunded, then cancelled (issue 37 item 8)", () => {
  it("says on the order page and the cancel page what was charged, what comes back and who keeps what, in figures that add up", async () => {
    const created = await apiJson<Created>(HOST, "/api/ota/order/personal-new?lang=en-US", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        domain: HOST,
        ...BOOKER,
        ...stay,
        pay_way: "credit",
        payment_vendor: 1,
        orders: [{ room_class_id: hotel.room, proposal_id: hotel.plan, num: 1 }],
        adults_count: 2,
        children_count: 1,
        rail_item_list: [
          {
            direction: "outbound",
            date: stay.check_in_day,
            train_no: "0806",
            origin: "1070",
            destination: "1000",
            passengers: { adult: 2, child: 1 },
          },
          {
            direction: "return",
            date: stay.check_out_day,
            train_no: "0823",
            origin: "1000",
            destination: "1070",
            passengers: { adult: 2, child: 1 },
          },
        ],
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { order_doc: doc, order } = created.body.data;
    const rooms = order.sum;
    const charged = order.final_amount;
    expect(charged).toBe(rooms + 2 * FARE);

    // Paid in full on the test gateway's page.
    const started = await apiJson<{ start: { fields: Record<string, string> } }>(HOST, "/api/payment/start?lang=en-US", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        domain: HOST,
        order_doc: doc,
        valid_hash: order.valid_hash,
        return_path: `/pay/${hotel.id}/${doc}?valid_hash=${encodeURIComponent(order.valid_hash)}`,
      }),
    });
    expect(started.status).toBe(200);
    const paid = await fetchAs(HOST, "/sandbox-gateway/ecpay/decide", {
      method: "POST",
      body: new URLSearchParams({ ...started.body.data.start.fields, sandbox_decision: "pay" }),
      redirect: "manual",
    });
    expect(paid.status).toBe(303);

    // The return tickets refunded through the back end's rail refund call: their fare less NT$20 a ticket.
    const refunded = await apiJson<{ rail_item_list: { rail_id: number; status: string; refund_amount: number; refund_fee: number }[] }>(
      HOST,
      "/api/rail/refund?lang=en-US",
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ domain: HOST, order_doc: doc, valid_hash: order.cancel_hash, rail_id: order.rail_item_list[1]?.rail_id }),
      },
    );
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const back = FARE - TICKET_FEE;
    expect(refunded.body.data.rail_item_list[1]).toMatchObject({ status: "refunded", refund_fee: TICKET_FEE, refund_amount: back });

    const browser = new Browser(HOST);
    const orderPath = `/en-US/hxa/orders/${doc}?valid_hash=${encodeURIComponent(order.valid_hash)}`;
    const cancelPath = `/en-US/hxa/orders/${doc}/cancel?cancel_hash=${encodeURIComponent(order.cancel_hash)}`;
    const words = (html: string) => text(html).replaceAll("&#x27;", "'");

    // The order page and the cancel page list the same lines: every ticket's fare, what came back of
    // the return, the total they make; what was charged, what is owed back, and who keeps the rest.
    const orderPage = await browser.request(orderPath);
    const cancelPage = await browser.request(cancelPath);
    expect(orderPage.status).toBe(200);
    expect(cancelPage.status).toBe(200);
    const live = summary(orderPage.html);
    expect(summary(cancelPage.html)).toEqual(live);
    expect(live).toEqual([
      ["Rooms", rooms],
      ["Rail tickets", 2 * FARE],
      ["Rail tickets refunded (less the rail operator's fee)", -back],
      ["Total", charged - back],
      ["Charged", charged],
      ["To be refunded", back],
      ["Kept by the hotel", charged - back - TICKET_FEE],
      ["Refund fee kept by the rail operator", TICKET_FEE],
    ]);
    const { items, total } = addedUp(live);
    expect(items).toBe(total);
    expect(amount(live, "Charged")! - amount(live, "To be refunded")!).toBe(
      amount(live, "Kept by the hotel")! + amount(live, "Refund fee kept by the rail operator")!,
    );
    // The operator's fee is no add-on, and nothing the hotel keeps.
    for (const page of [orderPage, cancelPage]) expect(words(page.html)).not.toContain("Add-ons");

    // The cancel page: cancelling now gives back half the rooms (2 days ahead), the outbound tickets
    // less their fee, and the return's refund still owed; of the whole charge, the hotel keeps half the rooms.
    const roomsKept = Math.floor(rooms / 2);
    const comesBack = charged - roomsKept - 2 * TICKET_FEE;
    const quoted = words(cancelPage.html);
    expect(quoted).toContain(`Cancelling now refunds ${NT(comesBack)} of the ${NT(charged)} paid; the hotel keeps ${NT(roomsKept)}.`);
    expect(quoted).toContain(`The rail operator keeps ${NT(2 * TICKET_FEE)} as its refund fee on the rail tickets.`);
    expect(quoted).toContain(
      `Room price paid in advance ${NT(rooms)}: 50% back (${NT(rooms - roomsKept)}), the hotel keeps ${NT(roomsKept)}.`,
    );

    // Cancelled from the cancel page's form.
    const done = await browser.request(cancelPath, { csrf: hidden(cancelPage.html, "csrf"), reason: "" });
    expect(done.status).toBe(303);
    const record = await env.DB.prepare(
      "SELECT c.refund, c.fee, c.refund_status FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE o.order_doc = ?",
    )
      .bind(doc)
      .first<{ refund: number; fee: number; refund_status: string }>();
    // The cancellation's own refund: the rooms' half and the outbound tickets less their fee.
    expect(record?.refund).toBe(comesBack - back);

    const after = await browser.request(done.location ?? "");
    expect(after.status).toBe(200);
    const cancelled = summary(after.html);
    expect(cancelled.slice(0, 4)).toEqual(live.slice(0, 4));
    expect(addedUp(cancelled).items).toBe(addedUp(cancelled).total);
    // One figure for what was charged; what came back (by the gateway) and what is still owed (the return's refund, on its line).
    const given = amount(cancelled, "Refunded") ?? 0;
    const owed = amount(cancelled, "To be refunded") ?? 0;
    expect(amount(cancelled, "Charged")).toBe(charged);
    expect(given + owed).toBe(comesBack);
    expect(amount(cancelled, "Kept by the hotel")).toBe(roomsKept);
    expect(amount(cancelled, "Refund fee kept by the rail operator")).toBe(2 * TICKET_FEE);
    expect(charged - given - owed).toBe(roomsKept + 2 * TICKET_FEE);
    // No other "paid" figure: the page names one amount paid, the one charged.
    const page = words(after.html);
    const paidFigures = new Set([...page.matchAll(/of the (NT\$[\d,]+) paid/g)].map((match) => match[1]));
    expect([...paidFigures]).toEqual([NT(charged)]);
    const status =
      record?.refund_status === "refunded" ? `Refund of ${NT(given)}: refunded.` : `Refund of ${NT(comesBack)}: being refunded to you.`;
    expect(page).toContain(status);
    expect(page).toContain(`The hotel keeps ${NT(roomsKept)} of the ${NT(charged)} paid.`);
    expect(page).toContain(`The rail operator keeps ${NT(2 * TICKET_FEE)} as its refund fee on the rail tickets.`);
    expect(page).not.toContain("Add-ons");

    // The cancellation email says the same figures.
    await outboxPage(parseEnv(env as unknown as Record<string, unknown>), new URL(`http://${HOST}/dev/outbox`), createLogger("test"));
    const mail = await env.DB.prepare(
      "SELECT m.text_body FROM mail_outbox m JOIN orders o ON o.id = m.order_id WHERE o.order_doc = ? AND m.kind = 'order_cancellation'",
    )
      .bind(doc)
      .first<{ text_body: string }>();
    const said = mail?.text_body ?? "";
    expect(said).toContain(`Charged: ${NT(charged)}`);
    expect(said).toContain(`Kept by the hotel: ${NT(roomsKept)}`);
    expect(said).toContain(`Refund fee kept by the rail operator: ${NT(2 * TICKET_FEE)}`);
    expect(said).toContain(`The hotel keeps ${NT(roomsKept)} of the ${NT(charged)} paid.`);
    expect(said).not.toContain("Add-ons");
  });
});
