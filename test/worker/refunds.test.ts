/**
 * Refunds by the standard contract (decision 040), end to end: a stay paid in full through the
 * sandbox gateway, cancelled from the emailed cancel link on the site, refunded through the
 * gateway, and told the same way on the cancel page, the order page, the API and the email.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { outboxPage } from "~/backend/mail/outbox-page.server";
import { parseEnv } from "~/platform/env.server";
import { createLogger } from "~/platform/log.server";
import { Browser, apiJson, fetchAs, fixtureHotel, hidden, hotelRefs, loadHotel, orderOneNight, text, type HotelRefs } from "./helpers";

const HOST = "refunds.localhost";
const DEPOSIT_HOST = "refunds-deposit.localhost";
const today = todayIn("Asia/Taipei");
/** An odd nightly price, every night of the week: halves and percentages do not divide evenly. */
const NIGHT = 3_333;

const hotels: Record<string, HotelRefs> = {};

function hotelFile(domain: string, deposit: boolean) {
  return fixtureHotel(domain, (file) => {
    const hotel = file.hotel as Record<string, unknown>;
    hotel.payment_list = [{ vendor_id: 1, method: "credit" }];
    hotel.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: "3002607" }];
    if (deposit) Object.assign(hotel, { deposit_type: "deposit", deposit_percent: 30 });
    for (const plan of file.rate_plans as { refund_template_id?: number; rooms: Record<string, unknown>[] }[]) {
      // Template 0: no free window, so the standard contract decides from the day of booking.
      plan.refund_template_id = 0;
      for (const room of plan.rooms) Object.assign(room, { weekday: NIGHT, weekend: NIGHT, holiday: NIGHT });
    }
  });
}

beforeAll(async () => {
  for (const [domain, deposit] of [
    [HOST, false],
    [DEPOSIT_HOST, true],
  ] as const) {
    await loadHotel(hotelFile(domain, deposit));
    hotels[domain] = await hotelRefs(domain);
  }
});

interface Created {
  order_doc: string;
  order: { valid_hash: string; cancel_hash: string; final_amount: number; deposit_amount: number; pay_amount: number };
}

interface Quote {
  rule: string;
  percent: number;
  refund: number;
  fee: number;
  paid: number;
  parts: { kind: string; amount: number; schedule: string; percent: number; refund: number; fee: number }[];
}

/** Books one night `daysAhead` days from today and pays what is due now on the sandbox gateway's hosted page. */
async function bookAndPay(domain: string, daysAhead: number, payOption: "all" | "part" = "all"): Promise<Created> {
  const hotel = hotels[domain]!;
  const created = await orderOneNight<Created>(domain, hotel, addDays(today, daysAhead), { pay_option: payOption });
  if (created.status !== 201) throw new Error(`order refused: ${JSON.stringify(created.body)}`);
  const order = created.body.data;
  const started = await apiJson<{ start: { fields: Record<string, string> } }>(domain, "/api/payment/start?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      domain,
      order_doc: order.order_doc,
      valid_hash: order.order.valid_hash,
      return_path: `/pay/${hotel.id}/${order.order_doc}?valid_hash=${encodeURIComponent(order.order.valid_hash)}`,
    }),
  });
  expect(started.status).toBe(200);
  const paid = await fetchAs(domain, "/sandbox-gateway/ecpay/decide", {
    method: "POST",
    body: new URLSearchParams({ ...started.body.data.start.fields, sandbox_decision: "pay" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  return order;
}

async function quoteOf(domain: string, created: Created): Promise<Quote> {
  const answer = await apiJson<{ refund_quote: Quote }>(
    domain,
    `/api/ota/order/via-hash?domain=${domain}&lang=en-US&valid_hash=${encodeURIComponent(created.order.valid_hash)}`,
  );
  expect(answer.status).toBe(200);
  return answer.body.data.refund_quote;
}

/** Cancels on the site from the emailed cancel link, as a guest would; answers the cancel page's text and the order page's after it. */
async function cancelOnSite(domain: string, created: Created) {
  const browser = new Browser(domain);
  const path = `/en-US/hxa/orders/${created.order_doc}/cancel?cancel_hash=${encodeURIComponent(created.order.cancel_hash)}`;
  const shown = await browser.request(path);
  expect(shown.status).toBe(200);
  const done = await browser.request(path, { csrf: hidden(shown.html, "csrf"), reason: "" });
  expect(done.status).toBe(303);
  const after = await browser.request(done.location ?? "");
  const words = (html: string) => text(html).replaceAll("&#x27;", "'");
  return { before: words(shown.html), after: words(after.html) };
}

async function recordOf(doc: string) {
  return env.DB.prepare(
    "SELECT c.refund, c.fee, c.refund_status, c.refund_rule, c.refund_percent FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE o.order_doc = ?",
  )
    .bind(doc)
    .first<{ refund: number; fee: number; refund_status: string; refund_rule: string; refund_percent: number }>();
}

async function cancellationMail(doc: string): Promise<string> {
  await outboxPage(parseEnv(env as unknown as Record<string, unknown>), new URL(`http://${HOST}/dev/outbox`), createLogger("test"));
  const mail = await env.DB.prepare(
    "SELECT m.text_body FROM mail_outbox m JOIN orders o ON o.id = m.order_id WHERE o.order_doc = ? AND m.kind = 'order_cancellation'",
  )
    .bind(doc)
    .first<{ text_body: string }>();
  return mail?.text_body ?? "";
}

const ADVANCE_RULE =
  "the tourism authority's standard contract for room price paid in advance (3+ days before check-in 100%; 1–2 days 50%; on the day 0%)";

describe("a stay paid in full is refunded by the standard contract's rule for room price paid in advance", () => {
  it("cancelled 4 days ahead: everything comes back, through the gateway, and every page and the email say so", async () => {
    const created = await bookAndPay(HOST, 4);
    expect(created.order.final_amount).toBe(NIGHT);
    expect(await quoteOf(HOST, created)).toMatchObject({
      rule: "advance",
      percent: 100,
      refund: NIGHT,
      fee: 0,
      paid: NIGHT,
      parts: [{ kind: "advance", amount: NIGHT, schedule: "advance", percent: 100, refund: NIGHT, fee: 0 }],
    });
    const { before, after } = await cancelOnSite(HOST, created);
    expect(before).toContain("Cancelling now refunds NT$3,333 of the NT$3,333 paid; the hotel keeps NT$0.");
    expect(before).toContain(`Room price paid in advance NT$3,333: 100% back (NT$3,333), the hotel keeps NT$0. Rule: ${ADVANCE_RULE}.`);
    expect(await recordOf(created.order_doc)).toEqual({
      refund: NIGHT,
      fee: 0,
      refund_status: "refunded",
      refund_rule: "advance",
      refund_percent: 100,
    });
    // One status, one wording: the order page and the email say "refunded", the fee kept and its rule.
    for (const said of [after, await cancellationMail(created.order_doc)]) {
      expect(said).toContain("Refund of NT$3,333: refunded.");
      expect(said).toContain("The hotel keeps NT$0 of the NT$3,333 paid.");
      expect(said).toContain(`Rule: ${ADVANCE_RULE}.`);
      expect(said).not.toContain("being refunded");
    }
  });

  it("cancelled 2 days ahead: half comes back (the odd dollar to the guest), and the fee is explained", async () => {
    const created = await bookAndPay(HOST, 2);
    const { before, after } = await cancelOnSite(HOST, created);
    // 50 % of 3,333 is 1,666.5: the hotel keeps 1,666, the guest gets 1,667.
    expect(before).toContain("Cancelling now refunds NT$1,667 of the NT$3,333 paid; the hotel keeps NT$1,666.");
    expect(await recordOf(created.order_doc)).toEqual({
      refund: 1_667,
      fee: 1_666,
      refund_status: "refunded",
      refund_rule: "advance",
      refund_percent: 50,
    });
    for (const said of [after, await cancellationMail(created.order_doc)]) {
      expect(said).toContain("Refund of NT$1,667: refunded.");
      expect(said).toContain("The hotel keeps NT$1,666 of the NT$3,333 paid.");
      expect(said).toContain(`Room price paid in advance NT$3,333: 50% back (NT$1,667), the hotel keeps NT$1,666. Rule: ${ADVANCE_RULE}.`);
    }
  });
});

describe("a deposit is refunded by the standard contract's deposit schedule", () => {
  it("a 30 % deposit paid, cancelled 4 days ahead: 40 % of it back, and the page names the deposit rule", async () => {
    const created = await bookAndPay(DEPOSIT_HOST, 4, "part");
    // 30 % of 3,333 is 999.9: the deposit may not pass it, so 999.
    expect(created.order.deposit_amount).toBe(999);
    const { before, after } = await cancelOnSite(DEPOSIT_HOST, created);
    // 40 % of 999 is 399.6: the hotel keeps 599, the guest gets 400.
    expect(before).toContain("Cancelling now refunds NT$400 of the NT$999 paid; the hotel keeps NT$599.");
    expect(after).toContain(
      "Deposit NT$999: 40% back (NT$400), the hotel keeps NT$599. Rule: the tourism authority's standard contract for a deposit (14+ days before check-in 100%; 10–13 days 70%; 7–9 days 50%; 4–6 days 40%; 2–3 days 30%; 1 day 20%; on the day 0%).",
    );
    expect(await recordOf(created.order_doc)).toEqual({
      refund: 400,
      fee: 599,
      refund_status: "refunded",
      refund_rule: "deposit",
      refund_percent: 40,
    });
  });
});
