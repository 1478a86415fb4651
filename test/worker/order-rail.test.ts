/**
 * A booking's rail tickets changed on its order page (issue 37 item 14, decision 140), as a browser
 * without JavaScript uses it, through the built Worker and D1: a ticket refunded (the fee and the
 * amount back stated first, from the back end's own rule), moved to another train (the fare
 * difference and the fee stated first), its passengers changed while unpaid; the page then shows the
 * new state with amounts that add up. A view link, a forged link, another order's ticket, a forged
 * token, a replayed form and two sends at once change nothing (more).
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { parseGeneralTimetable, parseOdFares, parseStations, railDataToSql } from "~/backend/rail/tdx";
import stationsJson from "../../demo/thsr-sample/Station.json";
import timetableJson from "../../demo/thsr-sample/GeneralTimetable.json";
import faresJson from "../../demo/thsr-sample/ODFare.json";
import { issueMemberToken } from "~/backend/account/members.server";
import { memberSessionCookie } from "~/platform/cookies.server";
import type { AppEnv } from "~/platform/env.server";
import { BOOKER, Browser, apiJson, fixtureHotel, fixtureIds, loadHotel, payInFull, text } from "./helpers";

const HOST = "order-rail.localhost";
const today = todayIn("Asia/Taipei");
const stay = { check_in_day: addDays(today, 10), check_out_day: addDays(today, 12) };
/** Zuoying ↔ Taipei in the sample: adult 1490, child 745; two adults and a child. */
const FARE = 2 * 1490 + 745;
/** The hotel's fee per ticket (the hotel file's thsr_refund_fee, NT$20 unless set), as the back end keeps it. */
const FEE_PER_TICKET = 20;
const ids: Record<string, number> = {};

interface Line {
  rail_id: number;
  direction: string;
  train_no: string;
  date: string;
  status: string;
  pnr: string | null;
}
interface Created {
  order_doc: string;
  order: { valid_hash: string; cancel_hash: string; final_amount: number; pay_amount: number; rail_item_list: Line[] };
}

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
      Object.assign(file.hotel, {
        thsr_support_on: 1,
        thsr_station_id: "1000",
        thsr_seats_per_train: 30,
        payment_list: [{ vendor_id: 8, method: "remittance" }],
      });
      (file as Record<string, unknown>).members = [
        { email: "mei@example.com", first_name: "Mei", last_name: "Lin", phone: "0912 345 678", points: 0 },
        { email: "yi@example.com", first_name: "Yi", last_name: "Chen", phone: "0912 345 679", points: 0 },
      ];
    }),
  );
  Object.assign(ids, await fixtureIds(HOST));
});

let seq = 0;
/** An order with a ticket each way (Zuoying 08:00 → Taipei on arrival, Taipei 12:10 → Zuoying on departure); paid when asked. */
async function place(paid: boolean): Promise<Created> {
  const created = await apiJson<Created>(HOST, "/api/ota/order/personal-new?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json", "Idempotency-Key": `order-rail-${++seq}-${Date.now()}` },
    body: JSON.stringify({
      domain: HOST,
      ...BOOKER,
      ...stay,
      pay_way: "remittance",
      payment_vendor: 8,
      orders: [{ room_class_id: ids.room, proposal_id: ids.BAR, num: 1 }],
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
  expect(created.status).toBe(201);
  if (paid) await payInFull(created.body.data.order_doc, `OR${seq}`);
  return created.body.data;
}

const cancelPage = (created: Created) =>
  `/en-US/hxa/orders/${created.order_doc}?cancel_hash=${encodeURIComponent(created.order.cancel_hash)}`;
const viewPage = (created: Created) => `/en-US/hxa/orders/${created.order_doc}?valid_hash=${encodeURIComponent(created.order.valid_hash)}`;

/** The address a link of the page leads to, by its words. */
function linkTo(html: string, words: string): string {
  const found = [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]*)<\/a>/g)].find(([, , label]) => label?.trim() === words);
  expect(found, `a link "${words}"`).toBeDefined();
  return (found?.[1] ?? "").replaceAll("&amp;", "&");
}

/** The fields of the page's confirming POST form (the step's), as the browser sends them. */
function confirmForm(html: string): Record<string, string> {
  const form = /<form method="post"[^>]*class="rail-step__confirm"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1] ?? "";
  expect(form, "a confirming form").not.toBe("");
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, value!]),
  );
}

/** Everything a change could touch: the order's amounts, its tickets, the seats taken. */
async function snapshot(orderDoc: string) {
  const order = await env.DB.prepare("SELECT id, total_price, pay_amount, paid_amount, rail_amount, status FROM orders WHERE order_doc = ?")
    .bind(orderDoc)
    .first<{ id: number }>();
  const tickets = await env.DB.prepare(
    "SELECT id, status, train_no, day, adult, child, amount, pnr, refund_fee, refund_amount FROM rail_reservations WHERE order_id = ? ORDER BY id",
  )
    .bind(order?.id)
    .all();
  const seats = await env.DB.prepare(
    "SELECT train_no, day, taken FROM rail_allotments WHERE hotel_id = (SELECT hotel_id FROM orders WHERE id = ?) ORDER BY train_no, day",
  )
    .bind(order?.id)
    .all();
  return { order, tickets: tickets.results, seats: seats.results };
}

/** The seats taken on a train of the stay's days, from a snapshot. */
const taken = (seats: unknown[], trainNo: string) =>
  (seats as { train_no: string; taken: number }[]).find((row) => row.train_no === trainNo)?.taken ?? 0;

/** The money lines of the order page, label → amount (what is taken off, negative). */
function moneyLines(html: string): Record<string, number> {
  const summary = (/<dl class="price-summary">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? "").replaceAll("<!-- -->", "");
  return Object.fromEntries(
    [...summary.matchAll(/<dt>([^<]+)<\/dt><dd>([^<]+)<\/dd>/g)].map(([, label, amount]) => [
      // As the guest reads it: the apostrophe of "operator's" is escaped in the HTML.
      label!.replace(/&#x27;|&#39;/g, "'"),
      (amount!.startsWith("−") ? -1 : 1) * Number(amount!.replace(/[^\d]/g, "")),
    ]),
  );
}

describe("rail tickets on the order page, without JavaScript", () => {
  it("refunds one paid ticket: the fee and the amount back stated first, then the page shows it refunded with amounts that add up", async () => {
    const created = await place(true);
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    expect(page.status).toBe(200);
    // Paid: the passengers can no longer change; the train can, and each ticket can be refunded.
    expect(text(page.html)).toContain("Change train (From the hotel)");
    expect(text(page.html)).not.toContain("Change passengers");
    const step = await guest.request(linkTo(page.html, "Refund this ticket (From the hotel)"));
    expect(step.status).toBe(200);
    const fee = 3 * FEE_PER_TICKET;
    const shown = text(step.html);
    expect(shown).toContain(
      `Taiwan High Speed Rail keeps a handling fee of NT$${fee} for these 3 tickets, and the hotel refunds NT$${(FARE - fee).toLocaleString("en-US")} to you.`,
    );
    // Nothing is refunded by looking.
    const before = await snapshot(created.order_doc);
    expect(before.tickets.map((row) => (row as { status: string }).status)).toEqual(["booked", "booked"]);

    const form = confirmForm(step.html);
    const done = await guest.request(cancelPage(created), form);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${cancelPage(created)}&rail_done=refund`);
    const after = await guest.request(done.location!);
    const now = text(after.html);
    expect(now).toContain("The ticket was refunded; your booking and its amounts below are updated.");
    expect(now).toContain(`Refunded · PNR`);
    expect(now).toContain(`NT$${(FARE - fee).toLocaleString("en-US")} refunded, fee NT$${fee}`);
    // The money lines add up (decision 137): rooms + both fares − what came back of the refunded one
    // = total; charged − to be refunded = what the hotel and the rail operator keep.
    const money = moneyLines(after.html);
    const total = created.order.final_amount - (FARE - fee);
    const railRefund = "Rail tickets refunded (less the rail operator's fee)";
    expect(money).toMatchObject({
      "Rail tickets": 2 * FARE,
      [railRefund]: -(FARE - fee),
      Total: total,
      Charged: created.order.final_amount,
      "To be refunded": FARE - fee,
      "Kept by the hotel": total - fee,
      "Refund fee kept by the rail operator": fee,
    });
    expect(money.Rooms! + money["Rail tickets"]! + money[railRefund]!).toBe(total);
    expect(money.Charged! - money["To be refunded"]!).toBe(money["Kept by the hotel"]! + money["Refund fee kept by the rail operator"]!);
    // The refunded ticket has nothing left to do; the other keeps its links.
    expect(now).not.toContain("Refund this ticket (From the hotel)");
    expect(now).toContain("Refund this ticket (To the hotel)");

    const stored = await snapshot(created.order_doc);
    expect(stored.tickets[1]).toMatchObject({ status: "refunded", refund_fee: fee, refund_amount: FARE - fee });
    expect(stored.order).toMatchObject({ total_price: total, rail_amount: FARE });
    expect(taken(stored.seats, "0823")).toBe(taken(before.seats, "0823") - 3);

    // The same form again (back and resend, a replay): refused in words, nothing refunded twice.
    const again = await guest.request(cancelPage(created), form);
    expect(again.status).toBe(409);
    expect(text(again.html)).toContain("This ticket was already changed or refunded (perhaps the form was sent twice).");
    expect(await snapshot(created.order_doc)).toEqual(stored);
  });

  it("refunds once when the confirmation is sent twice at once", async () => {
    const created = await place(true);
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    const step = await guest.request(linkTo(page.html, "Refund this ticket (To the hotel)"));
    const form = confirmForm(step.html);
    const [first, second] = await Promise.all([guest.request(cancelPage(created), form), guest.request(cancelPage(created), form)]);
    expect([first.status, second.status].sort()).toEqual([303, 409]);
    const stored = await snapshot(created.order_doc);
    const fee = 3 * FEE_PER_TICKET;
    expect(stored.order).toMatchObject({ total_price: created.order.final_amount - (FARE - fee), rail_amount: FARE });
    expect(stored.tickets.map((row) => (row as { status: string }).status)).toEqual(["refunded", "booked"]);
  });

  it("gives back an unpaid ticket with no fee: the amount to pay drops by its fare", async () => {
    const created = await place(false);
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    const step = await guest.request(linkTo(page.html, "Refund this ticket (From the hotel)"));
    expect(text(step.html)).toContain(
      `Nothing has been paid for this ticket yet: no fee is kept, its seats are given back and NT$${FARE.toLocaleString("en-US")} comes off the amount to pay.`,
    );
    const done = await guest.request(cancelPage(created), confirmForm(step.html));
    expect(done.status).toBe(303);
    const after = await guest.request(done.location!);
    const money = moneyLines(after.html);
    expect(money).toMatchObject({
      "Rail tickets": FARE,
      Total: created.order.final_amount - FARE,
      "To pay": created.order.pay_amount - FARE,
    });
    expect(money["Rail refund fees kept"]).toBeUndefined();
    expect(text(after.html)).toContain("Released");
  });

  it("moves a paid ticket to another train: the trains listed with the fare difference, the new train and the fee stated, then moved", async () => {
    const created = await place(true);
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    const list = await guest.request(linkTo(page.html, "Change train (To the hotel)"));
    expect(list.status).toBe(200);
    const trains = text(list.html);
    expect(trains).toContain("Choose another train from Zuoying to Taipei for the same passengers.");
    expect(trains).toContain("Your current train");
    expect(trains).toContain("13:00 → 14:36 · Train 0826 No fare difference (NT$0) · 30 seats left");

    const confirm = await guest.request(linkTo(list.html, "Choose train 0826 at 13:00"));
    const stated = text(confirm.html);
    expect(stated).toContain("Confirm the change");
    expect(stated).toContain("Train 0826 · Zuoying 13:00 → Taipei 14:36");
    expect(stated).toMatch(/Fare difference\s*No fare difference \(NT\$0\)/);
    expect(stated).toMatch(/Fee\s*None \(NT\$0\)/);
    expect(stated).toContain("Your ticket gets a new PNR");
    const before = await snapshot(created.order_doc);

    const form = confirmForm(confirm.html);
    expect(form).toMatchObject({ intent: "rail_change", train_no: "0826", date: stay.check_in_day });
    const done = await guest.request(cancelPage(created), form);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${cancelPage(created)}&rail_done=change`);
    const after = text((await guest.request(done.location!)).html);
    expect(after).toContain("The ticket was moved to the new train; your booking below is updated.");
    expect(after).toContain("Train 0826");
    expect(after).not.toContain("Train 0806");

    const stored = await snapshot(created.order_doc);
    expect(stored.order).toEqual(before.order);
    expect(stored.tickets[0]).toMatchObject({ status: "booked", train_no: "0826" });
    // The three seats left the old train for the new one (other tests' orders hold seats too).
    expect(taken(stored.seats, "0806")).toBe(taken(before.seats, "0806") - 3);
    expect(taken(stored.seats, "0826")).toBe(taken(before.seats, "0826") + 3);

    // Replayed: the ticket is no longer on the train the form saw; nothing moves again (no new PNR either).
    const again = await guest.request(cancelPage(created), form);
    expect(again.status).toBe(409);
    expect(await snapshot(created.order_doc)).toEqual(stored);
  });

  it("changes an unpaid ticket's passengers: the new fare stated first, the amount to pay follows; not once paid", async () => {
    const created = await place(false);
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    const edit = await guest.request(linkTo(page.html, "Change passengers (To the hotel)"));
    expect(edit.status).toBe(200);
    const priced = await guest.request(
      `${linkTo(page.html, "Change passengers (To the hotel)").split("#")[0]}&adult=3&child=0&senior=0&disabled=0`,
    );
    expect(text(priced.html)).toMatch(/New fare\s*NT\$4,470/);
    expect(text(priced.html)).toContain("NT$745 more to pay");

    // A child alone is THSR's refusal, in words, with nothing to confirm.
    const alone = await guest.request(
      `${linkTo(page.html, "Change passengers (To the hotel)").split("#")[0]}&adult=0&child=1&senior=0&disabled=0`,
    );
    expect(text(alone.html)).toContain("A child must travel with an adult or a senior on the same train");
    expect(alone.html).not.toContain("rail-step__confirm");

    const form = confirmForm(priced.html);
    const done = await guest.request(cancelPage(created), form);
    expect(done.status).toBe(303);
    const after = await guest.request(done.location!);
    expect(text(after.html)).toContain("The passengers were changed; your booking and the amount to pay below are updated.");
    expect(text(after.html)).toContain("3 adults · NT$4,470");
    expect(moneyLines(after.html)).toMatchObject({ "Rail tickets": 4470 + FARE, "To pay": created.order.pay_amount + 745 });
    const stored = await snapshot(created.order_doc);
    expect(stored.order).toMatchObject({ pay_amount: created.order.pay_amount + 745, rail_amount: 4470 + FARE });

    // Sent again: refused; the amount to pay moves once.
    const again = await guest.request(cancelPage(created), form);
    expect(again.status).toBe(409);
    expect(await snapshot(created.order_doc)).toEqual(stored);

    // Paid: no longer offered, and a form from before is refused in words.
    await payInFull(created.order_doc, "ORPAX");
    const paid = await guest.request(cancelPage(created));
    expect(text(paid.html)).not.toContain("Change passengers");
    const late = await guest.request(cancelPage(created), { ...form, was: `booked:${stay.check_in_day}:0806:3:0:0:0` });
    expect(late.status).toBe(409);
    expect(text(late.html)).toContain("This can no longer be done for this ticket. Nothing was changed.");
  });

  it("changes the passengers once when the confirmation is sent twice at once", async () => {
    const created = await place(false);
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    const priced = await guest.request(
      `${linkTo(page.html, "Change passengers (From the hotel)").split("#")[0]}&adult=3&child=0&senior=0&disabled=0`,
    );
    const form = confirmForm(priced.html);
    const [first, second] = await Promise.all([guest.request(cancelPage(created), form), guest.request(cancelPage(created), form)]);
    expect([first.status, second.status].sort()).toEqual([303, 409]);
    expect((await snapshot(created.order_doc)).order).toMatchObject({
      pay_amount: created.order.pay_amount + 745,
      rail_amount: 4470 + FARE,
    });
  });

  it("the back end moves the amounts and the seats once when the same change of passengers or train is called five times at once", async () => {
    const created = await place(false);
    const line = created.order.rail_item_list[0]!;
    const call = (path: string, body: Record<string, unknown>) =>
      apiJson(HOST, `${path}?lang=en-US`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          domain: HOST,
          order_doc: created.order_doc,
          valid_hash: created.order.cancel_hash,
          rail_id: line.rail_id,
          ...body,
        }),
      });
    const five = <T>(make: () => Promise<T>) => Promise.all([make(), make(), make(), make(), make()]);
    const updated = await five(() => call("/api/xtra/rail/update_reservation", { passengers: { adult: 3 } }));
    // A call changes the line only from the amount it read: whichever calls went through, the amounts rose by the difference once.
    expect(updated.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const after = await snapshot(created.order_doc);
    expect(after.order).toMatchObject({ pay_amount: created.order.pay_amount + 745, rail_amount: 4470 + FARE });
    expect(after.tickets[0]).toMatchObject({ adult: 3, child: 0, amount: 4470 });

    // Moving to the train the line is on already is no change; whichever call moved it, the seats moved once.
    const before = await snapshot(created.order_doc);
    const moved = await five(() => call("/api/xtra/rail/change_reservation", { train_no: "0826" }));
    expect(moved.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const stored = await snapshot(created.order_doc);
    expect(stored.tickets[0]).toMatchObject({ train_no: "0826" });
    expect(taken(stored.seats, "0806")).toBe(taken(before.seats, "0806") - 3);
    expect(taken(stored.seats, "0826")).toBe(taken(before.seats, "0826") + 3);
    expect(stored.order).toEqual(before.order);
  });

  it("lets the signed-in member who booked refund a ticket from the order page; another member gets a 404", async () => {
    const created = await place(true);
    const members = await env.DB.prepare(
      "SELECT m.id, m.email FROM members m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ? ORDER BY m.email",
    )
      .bind(HOST)
      .all<{ id: number; email: string }>();
    const [mei, yi] = [
      members.results.find((row) => row.email === "mei@example.com")!,
      members.results.find((row) => row.email === "yi@example.com")!,
    ];
    await env.DB.prepare("UPDATE orders SET member_id = ? WHERE order_doc = ?").bind(mei.id, created.order_doc).run();
    const signedIn = async (memberId: number) =>
      new Browser(HOST, [
        await memberSessionCookie(env as unknown as AppEnv).serialize({ domain: HOST, token: await issueMemberToken(env.DB, memberId) }),
      ]);
    const path = `/en-US/hxa/orders/${created.order_doc}`;
    const member = await signedIn(mei.id);
    const page = await member.request(path);
    expect(page.status).toBe(200);
    const step = await member.request(linkTo(page.html, "Refund this ticket (To the hotel)"));
    const form = confirmForm(step.html);
    const before = await snapshot(created.order_doc);

    // Another member, with a token of their own: neither the page nor its form.
    const other = await signedIn(yi.id);
    expect((await other.request(path)).status).toBe(404);
    expect((await other.request(path, form)).status).toBe(404);
    expect(await snapshot(created.order_doc)).toEqual(before);

    const done = await member.request(path, form);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${path}?rail_done=refund`);
    expect((await snapshot(created.order_doc)).tickets[0]).toMatchObject({ status: "refunded", refund_fee: 3 * FEE_PER_TICKET });
  });

  it("refuses a view link, a forged link, another order's ticket and a forged token, changing nothing", async () => {
    const mine = await place(true);
    const theirs = await place(true);
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(mine));
    const step = await guest.request(linkTo(page.html, "Refund this ticket (From the hotel)"));
    const form = confirmForm(step.html);
    const before = [await snapshot(mine.order_doc), await snapshot(theirs.order_doc)];
    const unchanged = async () => expect([await snapshot(mine.order_doc), await snapshot(theirs.order_doc)]).toEqual(before);

    // A view link (a receipt) shows no form and its POST is a 404.
    const view = await guest.request(viewPage(mine));
    expect(text(view.html)).not.toContain("Refund this ticket");
    expect((await guest.request(viewPage(mine), form)).status).toBe(404);

    // A cancel link that is not the order's (forged, or another order's hash on this order's page).
    const forged = cancelPage(mine).replace(
      /cancel_hash=[^&]+/,
      `cancel_hash=${encodeURIComponent(`${mine.order.cancel_hash.slice(0, -4)}AAAA`)}`,
    );
    expect((await guest.request(forged, form)).status).toBe(404);
    const swapped = `/en-US/hxa/orders/${mine.order_doc}?cancel_hash=${encodeURIComponent(theirs.order.cancel_hash)}`;
    expect((await guest.request(swapped, form)).status).toBe(404);

    // Another order's ticket through this order's page.
    const other = theirs.order.rail_item_list[1]!;
    const foreign = await guest.request(cancelPage(mine), { ...form, rail_id: String(other.rail_id) });
    expect(foreign.status).toBe(404);
    expect(text(foreign.html)).toContain("This ticket could not be found on this booking. Nothing was changed.");

    // A token that is not this browser's.
    const stranger = await new Browser(HOST).request(cancelPage(mine), form);
    expect(stranger.status).toBe(403);
    expect(text(stranger.html)).toContain("This page has expired: reload it and try again.");

    // A ticket state the page never showed (a form made up or from long ago).
    const stale = await guest.request(cancelPage(mine), { ...form, was: "booked:2020-01-01:0806:2:1:0:0" });
    expect(stale.status).toBe(409);
    // Amounts the page never stated.
    const cheaper = await guest.request(cancelPage(mine), { ...form, refund_amount: String(FARE) });
    expect(cheaper.status).toBe(409);
    expect(text(cheaper.html)).toContain("The amounts have changed since the page was shown.");
    await unchanged();
  });
});
