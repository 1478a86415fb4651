/**
 * The hotel hears of everything (issue 39, decision 150): a new booking, a payment received, a
 * cancellation by the guest or by the expiry sweep, a refund left to pay by hand, and the morning
 * email of the Cron, each to every reservation address of the hotel in its main language, with
 * the booking's desk link and the amounts the guest's own email states.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, checkInStart, todayIn } from "~/domain/dates";
import { composePending } from "~/backend/mail/compose.server";
import { queueMornings } from "~/backend/mail/morning.server";
import type { OutboxRow } from "~/backend/mail/outbox.server";
import { labelled } from "~/backend/mail/render.server";
import { markOrderPaid } from "~/backend/payments/settle.server";
import { deskBookingPath } from "~/contract/desk";
import { docText } from "~/documents/labels";
import { formatPrice } from "~/i18n/format";
import { localizePath, type Language } from "~/i18n/languages";
import { createLogger } from "~/platform/log.server";
import type { BackendContext } from "~/backend/route";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { writeCancellation } from "~/backend/orders/cancel.server";
import { refundQuote } from "~/backend/orders/present.server";
import { findOrder, loadOrderLines } from "~/backend/orders/store.server";
import { handleScheduled } from "~/worker/scheduled.server";
import { BOOKER, apiJson, countingDb, fixtureHotel, hotelRefs, loadHotel, payInFull, type HotelRefs } from "./helpers";

const HOST = "hotel-mail.localhost";
const TAIPEI = "hotel-mail-taipei.localhost";
const TOKYO = "hotel-mail-tokyo.localhost";
const DESKS = ["desk@hotel-mail.example", "frontdesk@hotel-mail.example"];
const today = todayIn("Asia/Taipei");
const hotels: Record<string, HotelRefs> = {};

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      Object.assign(file.hotel, { reservation_emails: DESKS });
    }),
  );
  await loadHotel(
    fixtureHotel(TAIPEI, (file) => {
      Object.assign(file.hotel, { reservation_emails: ["morning@taipei.example", "owner@taipei.example"] });
    }),
  );
  // No reservation_emails: the hotel's email is its one address.
  await loadHotel(
    fixtureHotel(TOKYO, (file) => {
      Object.assign(file.hotel, { time_zone: "Asia/Tokyo", main_lang: "en-US", email: "inn@tokyo.example" });
    }),
  );
  for (const domain of [HOST, TAIPEI, TOKYO]) hotels[domain] = await hotelRefs(domain);
});

interface Created {
  order_doc: string;
  order: { cancel_hash: string; final_amount: number; pay_amount: number };
}

/** Books `nights` nights from `checkIn` by bank transfer as BOOKER, in English (the hotel's language is zh-TW). */
async function book(domain: string, checkIn: string, nights = 1): Promise<Created> {
  const hotel = hotels[domain]!;
  const created = await apiJson<Created>(domain, "/api/ota/order/personal-new?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      domain,
      ...BOOKER,
      check_in_day: checkIn,
      check_out_day: addDays(checkIn, nights),
      pay_way: "remittance",
      payment_vendor: 8,
      orders: [{ room_class_id: hotel.room, proposal_id: hotel.plan, num: 1 }],
      adults_count: 2,
    }),
  });
  expect(created.status, JSON.stringify(created.body.msg)).toBe(201);
  return created.body.data;
}

const deps = () => ({ db: env.DB, signingSecret: env.SESSION_SECRET, now: new Date(), log: createLogger("test"), assets: undefined });

/** The order's messages of `kind`, rendered, by recipient. */
async function mails(orderDoc: string, kind: string): Promise<(OutboxRow & { text_body: string; html_body: string })[]> {
  await composePending(deps(), 50);
  const { results } = await env.DB.prepare(
    "SELECT m.* FROM mail_outbox m JOIN orders o ON o.id = m.order_id WHERE o.order_doc = ? AND m.kind = ? ORDER BY m.to_address",
  )
    .bind(orderDoc, kind)
    .all<OutboxRow & { text_body: string; html_body: string }>();
  return results;
}

const zh = (key: Parameters<typeof docText>[1]) => docText("zh-TW", key);

/** Records a bank transfer of `amount` through markOrderPaid, as the desk and the gateways' callbacks do, with the site's address. */
async function receive(orderDoc: string, amount: number, tradeNo: string) {
  const order = await env.DB.prepare("SELECT id FROM orders WHERE order_doc = ?").bind(orderDoc).first<{ id: number }>();
  await env.DB.prepare(
    "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) VALUES (?, 8, 'sandbox', ?, ?, 'full')",
  )
    .bind(order?.id, tradeNo, amount)
    .run();
  const payment = await env.DB.prepare("SELECT id, order_id, amount FROM payments WHERE trade_no = ?")
    .bind(tradeNo)
    .first<{ id: number; order_id: number; amount: number }>();
  return markOrderPaid(env.DB, createLogger("test"), payment!, `G${tradeNo}`, { origin: `http://${HOST}`, product: "hxa" });
}

describe("the hotel's emails about an order", () => {
  it("a new booking: one message to each reservation address, in the hotel's language, with the guest's amounts and the desk link", async () => {
    const created = await book(HOST, addDays(today, 10), 2);
    const rows = await mails(created.order_doc, "hotel_new_booking");
    expect(rows.map((row) => [row.to_address, row.lang])).toEqual(DESKS.map((to) => [to, "zh-TW"]));
    const [guest] = await mails(created.order_doc, "order_confirmation");
    expect(guest?.lang).toBe("en-US");
    for (const row of rows) {
      expect(row.subject).toContain(created.order_doc);
      // The same total as the guest's confirmation says, each in its own language.
      expect(row.text_body).toContain(labelled("zh-TW", zh("mail.total"), formatPrice(created.order.final_amount, "zh-TW")));
      expect(guest?.text_body).toContain(formatPrice(created.order.final_amount, "en-US"));
      // What is due and by when: the guest owes it all by bank transfer.
      expect(row.text_body).toContain(formatPrice(created.order.pay_amount, "zh-TW"));
      expect(row.text_body).toContain(zh("mail.hotel.deadline"));
      expect(row.text_body).toContain("Mei");
      expect(row.text_body).toContain(`${row.site_origin}${deskBookingPath(created.order_doc)}`);
      expect(new URL(row.site_origin).host).toBe(HOST);
      expect(row.html_body).toContain(`href="${row.site_origin}${deskBookingPath(created.order_doc)}"`);
    }
  });

  it("a payment received: beside the guest's receipt, once, however often the payment is reported", async () => {
    const created = await book(HOST, addDays(today, 11));
    expect((await receive(created.order_doc, created.order.pay_amount, "HM1")).changed).toBe(true);
    expect((await mails(created.order_doc, "paid_receipt")).length).toBe(1);
    const rows = await mails(created.order_doc, "hotel_payment_received");
    expect(rows.map((row) => row.to_address)).toEqual(DESKS);
    expect(rows[0]?.text_body).toContain(formatPrice(created.order.pay_amount, "zh-TW"));
    // A replay of the same payment changes nothing and tells nobody again.
    const payment = await env.DB.prepare("SELECT id, order_id, amount FROM payments WHERE trade_no = 'HM1'").first<{
      id: number;
      order_id: number;
      amount: number;
    }>();
    await markOrderPaid(env.DB, createLogger("test"), payment!, "GHM1", { origin: `http://${HOST}`, product: "hxa" });
    expect((await mails(created.order_doc, "hotel_payment_received")).length).toBe(2);
  });

  it("a cancellation by the guest of a paid booking: who cancelled, fee and refund, and the refund due by hand", async () => {
    const created = await book(HOST, addDays(today, 12));
    await receive(created.order_doc, created.order.pay_amount, "HM2");
    const cancelled = await apiJson(HOST, `/api/wota/order/cancel-via-hash/${created.order_doc}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: HOST, valid_hash: created.order.cancel_hash, reason: "" }),
    });
    expect(cancelled.status).toBe(200);
    const record = await env.DB.prepare(
      "SELECT c.fee, c.refund, c.refund_status FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE o.order_doc = ?",
    )
      .bind(created.order_doc)
      .first<{ fee: number; refund: number; refund_status: string }>();
    // A bank transfer has no gateway to give it back: the hotel pays it back by hand.
    expect(record).toMatchObject({ refund_status: "due", fee: created.order.pay_amount - (record?.refund ?? 0) });
    const rows = await mails(created.order_doc, "hotel_cancellation");
    expect(rows.map((row) => [row.to_address, row.about])).toEqual(DESKS.map((to) => [to, "guest"]));
    const body = rows[0]?.text_body ?? "";
    expect(body).toContain(labelled("zh-TW", zh("mail.hotel.cancelled_by"), zh("mail.hotel.by.guest")));
    expect(body).toContain(labelled("zh-TW", zh("mail.hotel.fee"), formatPrice(record!.fee, "zh-TW")));
    expect(body).toContain(labelled("zh-TW", zh("mail.hotel.refund"), formatPrice(record!.refund, "zh-TW")));
    expect(body).toContain(labelled("zh-TW", zh("mail.hotel.refund_status"), zh("mail.hotel.refund.due")));
    const due = await mails(created.order_doc, "hotel_refund_due");
    expect(due.map((row) => row.to_address)).toEqual(DESKS);
    expect(due[0]?.text_body).toContain(formatPrice(record!.refund, "zh-TW"));
  });

  it("an unpaid booking cancelled by the guest: nothing to refund, no refund-due email", async () => {
    const created = await book(HOST, addDays(today, 13));
    await apiJson(HOST, `/api/wota/order/cancel-via-hash/${created.order_doc}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: HOST, valid_hash: created.order.cancel_hash, reason: "" }),
    });
    const rows = await mails(created.order_doc, "hotel_cancellation");
    expect(rows).toHaveLength(2);
    expect(rows[0]?.text_body).toContain(labelled("zh-TW", zh("mail.hotel.refund_status"), zh("mail.hotel.refund.none")));
    expect(await mails(created.order_doc, "hotel_refund_due")).toHaveLength(0);
  });

  it("a cancellation by staff through the shared cancellation batch says so (what the desk's cancel on behalf gets)", async () => {
    const created = await book(HOST, addDays(today, 15));
    const hotel = await env.DB.prepare("SELECT * FROM hotels WHERE domain = ?").bind(HOST).first<HotelRow>();
    const order = await findOrder(env.DB, hotel!.id, created.order_doc);
    const url = new URL(`http://${HOST}/desk`);
    const ctx: BackendContext = {
      request: new Request(url),
      url,
      db: env.DB,
      lang: "zh-TW",
      signingSecret: env.SESSION_SECRET,
      now: new Date(),
      site: { origin: url.origin, product: "hxa" },
      secret: () => undefined,
      clientIp: "",
      fetcher: () => Promise.reject(new Error("no gateway here")),
      waitUntil: () => undefined,
      featureRepay: false,
      testGateway: false,
      log: createLogger("test"),
    };
    const quote = refundQuote(hotel!, order!, await loadOrderLines(env.DB, order!.id), ctx.now, []);
    expect(await writeCancellation(ctx, hotel!, order!, "hotel", "the guest phoned", quote, "staff")).toBe(true);
    // The same order cancelled again by the same batch changes nothing and tells nobody twice.
    expect(await writeCancellation(ctx, hotel!, order!, "hotel", "the guest phoned", quote, "staff")).toBe(false);
    const rows = await mails(created.order_doc, "hotel_cancellation");
    expect(rows.map((row) => [row.to_address, row.about])).toEqual(DESKS.map((to) => [to, "staff"]));
    expect(rows[0]?.text_body).toContain(labelled("zh-TW", zh("mail.hotel.cancelled_by"), zh("mail.hotel.by.staff")));
  });

  it("a booking the expiry sweep cancels: the Cron tells the hotel, linking to its own domain", async () => {
    const created = await book(HOST, addDays(today, 14));
    const deadline = new Date(Date.now() + 3_600_000);
    await env.DB.prepare("UPDATE orders SET pay_deadline = ? WHERE order_doc = ?").bind(deadline.toISOString(), created.order_doc).run();
    await handleScheduled({ scheduledTime: deadline.getTime() + 60_000, cron: "*/5 * * * *" }, env as unknown as Record<string, unknown>);
    const rows = await mails(created.order_doc, "hotel_cancellation");
    expect(rows.map((row) => [row.to_address, row.about, row.lang])).toEqual(DESKS.map((to) => [to, "sweep", "zh-TW"]));
    expect(rows[0]?.text_body).toContain(labelled("zh-TW", zh("mail.hotel.cancelled_by"), zh("mail.hotel.by.sweep")));
    expect(rows[0]?.text_body).toContain(`https://${HOST}${deskBookingPath(created.order_doc)}`);
  });
});

describe("the morning email", () => {
  // A day three days ahead, the same date in Taipei and Tokyo at the moments used.
  const day = addDays(today, 3);
  /** 06:59 in Taipei on `day` is 07:59 in Tokyo. */
  const beforeTaipei = checkInStart(day, "Asia/Taipei").getTime() + (6 * 60 + 59) * 60_000;
  const atTaipei = beforeTaipei + 60_000;
  const cron = (scheduledTime: number) =>
    handleScheduled({ scheduledTime, cron: "*/5 * * * *" }, env as unknown as Record<string, unknown>);
  const mornings = async (domain: string) =>
    (
      await env.DB.prepare(
        "SELECT m.* FROM mail_outbox m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ? AND m.kind = 'hotel_morning' ORDER BY m.to_address",
      )
        .bind(domain)
        .all<OutboxRow & { text_body: string }>()
    ).results;

  it("is queued once per hotel as its local time reaches 07:00, with the day's arrivals, departures and deadlines", async () => {
    const arrival = await book(TAIPEI, day);
    const departure = await book(TAIPEI, addDays(day, -1));
    const unpaid = await book(TAIPEI, addDays(day, 1));
    const later = await book(TAIPEI, addDays(day, 3));
    const tokyo = await book(TOKYO, day);
    for (const paid of [arrival, departure, tokyo]) await payInFull(paid.order_doc, "HMM");
    // Unpaid: one due at noon in Taipei on the day, one the day after.
    const noon = checkInStart(day, "Asia/Taipei").getTime() + 12 * 3_600_000;
    for (const [doc, at] of [
      [unpaid.order_doc, noon],
      [later.order_doc, noon + 86_400_000],
    ] as const) {
      await env.DB.prepare("UPDATE orders SET pay_deadline = ? WHERE order_doc = ?").bind(new Date(at).toISOString(), doc).run();
    }

    await cron(beforeTaipei);
    expect(await mornings(TAIPEI)).toHaveLength(0);
    const tokyoMail = await mornings(TOKYO);
    expect(tokyoMail.map((row) => [row.to_address, row.lang])).toEqual([["inn@tokyo.example", "en-US"]]);
    expect(tokyoMail[0]?.text_body).toContain(`https://${TOKYO}${localizePath(deskBookingPath(tokyo.order_doc), "en-US")}`);

    await cron(atTaipei);
    const taipeiMail = await mornings(TAIPEI);
    expect(taipeiMail.map((row) => [row.to_address, row.lang])).toEqual([
      ["morning@taipei.example", "zh-TW"],
      ["owner@taipei.example", "zh-TW"],
    ]);
    const text = taipeiMail[0]?.text_body ?? "";
    const lang: Language = "zh-TW";
    const section = (key: "arrivals" | "departures" | "deadlines") => docText(lang, `mail.morning.${key}`, { count: 1 });
    const link = (doc: string) => `https://${TAIPEI}${deskBookingPath(doc)}`;
    // Each list names its one booking, in order, with its desk link; the later deadline is not today's.
    const arrivals = text.indexOf(section("arrivals"));
    const departures = text.indexOf(section("departures"));
    const deadlines = text.indexOf(section("deadlines"));
    expect(arrivals).toBeGreaterThanOrEqual(0);
    expect(text.indexOf(link(arrival.order_doc))).toBeGreaterThan(arrivals);
    expect(text.indexOf(link(departure.order_doc))).toBeGreaterThan(departures);
    expect(text.indexOf(link(unpaid.order_doc))).toBeGreaterThan(deadlines);
    expect(text).toContain(formatPrice(unpaid.order.final_amount, lang));
    expect(text).not.toContain(later.order_doc);

    // Later runs, and two at once, queue nothing more.
    await cron(atTaipei + 300_000);
    await Promise.all([cron(atTaipei + 600_000), cron(atTaipei + 600_000)]);
    expect(await mornings(TAIPEI)).toHaveLength(2);
    expect(await mornings(TOKYO)).toHaveLength(1);
  });

  it("a thousand hotels fit one run: a bounded number of round trips and rows read", async () => {
    const arrival = await book(TAIPEI, day);
    await payInFull(arrival.order_doc, "HMK");
    const columns = (table: string, skip: string[]) =>
      env.DB.prepare(`SELECT name FROM pragma_table_info('${table}')`)
        .all<{ name: string }>()
        .then(({ results }) => results.map((row) => row.name).filter((name) => !skip.includes(name)));
    const hotelColumns = await columns("hotels", ["id", "domain"]);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
       INSERT INTO hotels (domain, ${hotelColumns.join(", ")}) SELECT 'gen-' || i || '.localhost', ${hotelColumns.join(", ")} FROM hotels, n WHERE domain = ?`,
    )
      .bind(TAIPEI)
      .run();
    const orderColumns = await columns("orders", ["id", "hotel_id", "order_doc", "idempotency_key"]);
    await env.DB.prepare(
      `INSERT INTO orders (hotel_id, order_doc, idempotency_key, ${orderColumns.join(", ")})
       SELECT h.id, 'GEN' || h.id, 'GEN' || h.id, ${orderColumns.map((name) => `o.${name}`).join(", ")} FROM orders o, hotels h WHERE o.order_doc = ? AND h.domain LIKE 'gen-%'`,
    )
      .bind(arrival.order_doc)
      .run();
    const counted = countingDb(env.DB);
    const run = await queueMornings(counted.db, new Date(atTaipei), { product: "hxa" }, "bound-test");
    // The thousand are due, each with two addresses and an arrival today: each gets its two messages.
    expect(run.due).toBeGreaterThanOrEqual(1000);
    const generated = await env.DB.prepare(
      "SELECT count(*) AS n FROM mail_outbox m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain LIKE 'gen-%' AND m.kind = 'hotel_morning'",
    ).first<{ n: number }>();
    expect(generated?.n).toBe(2000);
    // One read of the hotels, then per hundred hotels one read batch and one write batch.
    expect(counted.count()).toBe(1 + 2 * Math.ceil(run.due / 100));
    expect(run.trips).toBe(counted.count());
    console.log(`morning run: ${run.due} hotels, ${run.queued} messages, ${run.trips} round trips, ${run.rowsRead} rows read`);
    expect(run.rowsRead).toBeLessThan(20 * run.due);
  });
});
