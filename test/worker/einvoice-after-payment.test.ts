/**
 * E-invoices issued right after the payment (decision 163, amending 159): a hotel that issues at
 * payment has its invoice issued in the payment callback's background work, through the queue's
 * own run, with no Cron pass; a provider failure there leaves the payment paid and the order on the
 * queue for the Cron's retry; the Cron and the background run racing on one order issue it once.
 * Paid through the built-in test gateway (ECPay AIO's protocol, the real callback route) and the
 * e-invoice sandbox, on a real D1.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { runAfterPayment, runInvoiceQueue } from "~/backend/einvoice/runner.server";
import { failNextSandboxCalls } from "~/backend/einvoice/sandbox.server";
import type { EinvoiceDeps } from "~/backend/einvoice/registry.server";
import { checkMacValue, ecpayDate } from "~/backend/payments/gateways/ecpay";
import { sandboxKeys } from "~/backend/payments/gateways/sandbox-gateway";
import { apiJson, endProviderRest, fetchAs, fixtureHotel, hotelRefs, loadHotel, orderOneNight, payInFull, type HotelRefs } from "./helpers";

const AT_PAYMENT = "einv-soon-pay.localhost";
const AT_CHECKOUT = "einv-soon-out.localhost";
const MERCHANT = "2000132";
const today = todayIn("Asia/Taipei");

const deps: EinvoiceDeps = {
  db: env.DB,
  secret: () => undefined,
  fetcher: () => Promise.reject(new Error("no network in this test")),
  testGateway: true,
};

const hotels: Record<string, HotelRefs> = {};

beforeAll(async () => {
  for (const [domain, issuer] of [
    [AT_PAYMENT, "portico_at_payment"],
    [AT_CHECKOUT, "portico_at_checkout"],
  ] as const) {
    await loadHotel(
      fixtureHotel(domain, (file) => {
        file.room_classes[0]!.total_rooms = 30;
        file.inventory.sold_out = [];
        const hotel = file.hotel as Record<string, unknown>;
        hotel.payment_list = [
          { vendor_id: 1, method: "credit" },
          { vendor_id: 8, method: "remittance" },
        ];
        hotel.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: MERCHANT }];
        (file as { invoicing?: unknown }).invoicing = { issuer, provider: "sandbox", seller_tax_id: "04595257" };
      }),
    );
    hotels[domain] = await hotelRefs(domain);
  }
});

interface Created {
  order_doc: string;
  order: { valid_hash: string; final_amount: number };
}

let stay = 20;
async function order(domain = AT_PAYMENT, overrides: Record<string, unknown> = {}): Promise<Created & { id: number }> {
  const response = await orderOneNight<Created>(domain, hotels[domain]!, addDays(today, stay++), overrides);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const row = await env.DB.prepare("SELECT id FROM orders WHERE order_doc = ?").bind(response.body.data.order_doc).first<{ id: number }>();
  return { ...response.body.data, id: row!.id };
}

/** The guest pays on the test gateway's hosted page: it posts the signed ReturnURL callback to the real route, then sends the browser back. */
async function payOnGateway(created: Created, domain = AT_PAYMENT): Promise<{ tradeNo: string }> {
  const started = await apiJson<{ trade_no: string; start: { fields: Record<string, string> } }>(domain, "/api/payment/start?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      domain,
      order_doc: created.order_doc,
      valid_hash: created.order.valid_hash,
      return_path: `/pay/${hotels[domain]!.id}/${created.order_doc}?valid_hash=${encodeURIComponent(created.order.valid_hash)}`,
    }),
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const { fields } = started.body.data.start;
  const decided = await fetchAs(domain, "/sandbox-gateway/ecpay/decide", {
    method: "POST",
    body: new URLSearchParams({ ...fields, sandbox_decision: "pay" }),
    redirect: "manual",
  });
  expect(decided.status).toBe(303);
  return { tradeNo: started.body.data.trade_no };
}

/** A ReturnURL callback as the gateway signs it, posted to the real route: its answer. */
async function callback(tradeNo: string, amount: number, domain = AT_PAYMENT, tamper: Record<string, string> = {}) {
  const keys = await sandboxKeys(env.SESSION_SECRET as string, MERCHANT);
  const fields: Record<string, string> = {
    MerchantID: MERCHANT,
    MerchantTradeNo: tradeNo,
    RtnCode: "1",
    RtnMsg: "交易成功",
    TradeNo: "2401011234567890",
    TradeAmt: String(amount),
    PaymentDate: ecpayDate(new Date()),
    PaymentType: "Credit_CreditCard",
    TradeDate: ecpayDate(new Date()),
    SimulatePaid: "0",
  };
  const body = new URLSearchParams({ ...fields, CheckMacValue: await checkMacValue(fields, keys), ...tamper });
  const response = await fetchAs(domain, `/api/payment/callback/${hotels[domain]!.id}/1/return`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
  return { status: response.status, text: await response.text() };
}

/** A payment attempt as /api/payment/start leaves it, made directly (so a test can post its callback itself). */
async function attempt(orderId: number, amount: number): Promise<string> {
  const tradeNo = `SOON${orderId}${Date.now() % 100000}`;
  await env.DB.prepare(
    "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) VALUES (?, 1, 'sandbox', ?, ?, 'full')",
  )
    .bind(orderId, tradeNo, amount)
    .run();
  return tradeNo;
}

const invoiceOf = (orderId: number) =>
  env.DB.prepare("SELECT status, amount, number, random_number FROM order_invoices WHERE order_id = ?")
    .bind(orderId)
    .first<{ status: string; amount: number; number: string; random_number: string }>();
const orderRow = (orderId: number) =>
  env.DB.prepare("SELECT status, payment_status, paid_amount FROM orders WHERE id = ?")
    .bind(orderId)
    .first<{ status: string; payment_status: number; paid_amount: number }>();
const queued = (orderId: number) =>
  env.DB.prepare("SELECT next_attempt_at, attempts, last_error FROM einvoice_queue WHERE order_id = ?")
    .bind(orderId)
    .first<{ next_attempt_at: string; attempts: number; last_error: string }>();
/** What the sandbox "provider" holds for one order. */
const sandboxOf = (doc: string) =>
  env.DB.prepare("SELECT relate_number, number, amount, status FROM einvoice_sandbox_invoices WHERE relate_number LIKE ? ORDER BY id")
    .bind(`${doc.replace(/-/g, "")}E%`)
    .all<{ relate_number: string; number: string; amount: number; status: string }>()
    .then((rows) => rows.results);
const callsOf = (orderId: number) =>
  env.DB.prepare("SELECT kind FROM einvoice_events WHERE order_id = ? AND outcome = 'sent' ORDER BY id")
    .bind(orderId)
    .all<{ kind: string }>()
    .then((rows) => rows.results.map((row) => row.kind));

describe("issued right after the payment, with no Cron pass", () => {
  it("a card payment on the gateway: by the time its callback's background work is done, the invoice has its number", async () => {
    const created = await order();
    await payOnGateway(created);
    expect(await orderRow(created.id)).toMatchObject({ status: "confirmed", payment_status: 2, paid_amount: created.order.final_amount });
    const invoice = await invoiceOf(created.id);
    expect(invoice).toMatchObject({ status: "issued", amount: created.order.final_amount });
    expect(invoice?.number).toMatch(/^[A-Z]{2}\d{8}$/);
    expect(invoice?.random_number).toMatch(/^\d{4}$/);
    // Off the queue: nothing left for the Cron.
    expect(await queued(created.id)).toBeNull();
    expect(await sandboxOf(created.order_doc)).toEqual([
      {
        relate_number: `${created.order_doc.replace(/-/g, "")}E1`,
        number: invoice?.number,
        amount: created.order.final_amount,
        status: "issued",
      },
    ]);
    // The order the guest sees says the number.
    const page = await apiJson<{ invoice: { status: string; invoices: { number: string }[] } }>(
      AT_PAYMENT,
      `/api/ota/order/via-hash?domain=${AT_PAYMENT}&lang=en-US&valid_hash=${encodeURIComponent(created.order.valid_hash)}`,
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.data.invoice).toMatchObject({ status: "issued", invoices: [{ number: invoice?.number }] });
  });

  it("a replayed callback answers as before and issues nothing more", async () => {
    const created = await order();
    const tradeNo = await attempt(created.id, created.order.final_amount);
    expect(await callback(tradeNo, created.order.final_amount)).toEqual({ status: 200, text: "1|OK" });
    const first = await invoiceOf(created.id);
    expect(first?.status).toBe("issued");
    expect(await callback(tradeNo, created.order.final_amount)).toEqual({ status: 200, text: "1|OK" });
    expect(await invoiceOf(created.id)).toEqual(first);
    expect(await sandboxOf(created.order_doc)).toHaveLength(1);
    expect(await callsOf(created.id)).toEqual(["call:issue"]);
  });

  it("a forged callback pays nothing and issues nothing", async () => {
    const created = await order();
    const tradeNo = await attempt(created.id, created.order.final_amount);
    const forged = await callback(tradeNo, created.order.final_amount, AT_PAYMENT, { CheckMacValue: "0".repeat(64) });
    expect(forged.status).toBe(400);
    expect(await orderRow(created.id)).toMatchObject({ status: "pending_payment", paid_amount: 0 });
    expect(await invoiceOf(created.id)).toBeNull();
    expect(await sandboxOf(created.order_doc)).toEqual([]);
  });

  it("a callback signed for one hotel's trade, posted at another hotel's address, pays nothing and issues nothing", async () => {
    const created = await order();
    const tradeNo = await attempt(created.id, created.order.final_amount);
    // Both hotels use the same test merchant: the signature checks out, the hotel does not.
    const elsewhere = await callback(tradeNo, created.order.final_amount, AT_CHECKOUT);
    expect(elsewhere).toEqual({ status: 400, text: "0|trade of another hotel" });
    expect(await orderRow(created.id)).toMatchObject({ status: "pending_payment", paid_amount: 0 });
    expect(await invoiceOf(created.id)).toBeNull();
    expect(await queued(created.id)).toBeNull();
  });

  it("at a hotel that issues at check-out, the payment's run holds the invoice for the stay (issued later), never issues it", async () => {
    const created = await order(AT_CHECKOUT);
    await payOnGateway(created, AT_CHECKOUT);
    expect(await invoiceOf(created.id)).toMatchObject({ status: "delayed", number: "" });
    expect((await sandboxOf(created.order_doc)).map((row) => row.status)).toEqual(["held"]);
  });
});

describe("a failure after the payment", () => {
  it("the provider down: the payment lands, the callback answers 1|OK, and the order waits on the queue for the Cron's retry", async () => {
    const created = await order();
    const tradeNo = await attempt(created.id, created.order.final_amount);
    await failNextSandboxCalls(env.DB, hotels[AT_PAYMENT]!.id, "issue", "unavailable");
    const before = Date.now();
    expect(await callback(tradeNo, created.order.final_amount)).toEqual({ status: 200, text: "1|OK" });
    expect(await orderRow(created.id)).toMatchObject({ status: "confirmed", payment_status: 2, paid_amount: created.order.final_amount });
    expect(await invoiceOf(created.id)).toMatchObject({ status: "retrying", number: "" });
    const waiting = await queued(created.id);
    expect(waiting).toMatchObject({ attempts: 1 });
    expect(waiting?.last_error).toMatch(/unavailable|down/i);
    // Due a minute on (the first back-off step), not at once and not forgotten.
    const due = Date.parse(waiting?.next_attempt_at ?? "");
    expect(due - before).toBeGreaterThanOrEqual(60_000);
    expect(due - Date.now()).toBeLessThanOrEqual(60_000);
    // The Cron's pass when it is due issues it.
    await runInvoiceQueue(deps, () => new Date(due));
    expect(await invoiceOf(created.id)).toMatchObject({ status: "issued", amount: created.order.final_amount });
    expect(await queued(created.id)).toBeNull();
  });

  it("an HTTP 403 after the payment: the payment lands and the order is not asked for again for 30 minutes", async () => {
    const created = await order();
    const tradeNo = await attempt(created.id, created.order.final_amount);
    await failNextSandboxCalls(env.DB, hotels[AT_PAYMENT]!.id, "issue", "rate_limited");
    const before = Date.now();
    expect(await callback(tradeNo, created.order.final_amount)).toEqual({ status: 200, text: "1|OK" });
    expect(await orderRow(created.id)).toMatchObject({ status: "confirmed", paid_amount: created.order.final_amount });
    const waiting = await queued(created.id);
    expect(Date.parse(waiting?.next_attempt_at ?? "") - before).toBeGreaterThanOrEqual(30 * 60_000);
    expect(waiting?.last_error).toContain("403");
    await endProviderRest(hotels[AT_PAYMENT]!.id);
  });

  it("a run that throws (the database failing under it) is put back on the queue with its error, and the caller is not troubled", async () => {
    const created = await order();
    await payInFull(created.order_doc, "SOONT");
    expect(await queued(created.id)).not.toBeNull();
    const failing = new Proxy(env.DB, {
      get(target, property) {
        if (property === "prepare")
          return (sql: string) => {
            if (sql.includes("FROM order_invoices WHERE order_id")) throw new Error("D1_ERROR: the database is gone for a moment");
            return target.prepare(sql);
          };
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const at = new Date();
    expect(await runAfterPayment({ ...deps, db: failing }, created.id, () => at)).toBe(false);
    const waiting = await queued(created.id);
    expect(waiting?.last_error).toContain("the database is gone");
    expect(Date.parse(waiting?.next_attempt_at ?? "")).toBe(at.getTime() + 5 * 60_000);
    expect(await orderRow(created.id)).toMatchObject({ status: "confirmed" });
    expect(await invoiceOf(created.id)).toMatchObject({ status: "none" });
  });
});

describe("the Cron and the payment's run on the same order", () => {
  it("run at the same moment, they issue one invoice; whichever writes second changes nothing", async () => {
    for (let round = 0; round < 4; round++) {
      const created = await order();
      await payInFull(created.order_doc, `SOONR${round}`);
      // The payment's background run and a Cron pass that found the order due, started together (and in both orders).
      const runs =
        round % 2 === 0
          ? [runAfterPayment(deps, created.id), runInvoiceQueue(deps)]
          : [runInvoiceQueue(deps), runAfterPayment(deps, created.id)];
      await Promise.all(runs);
      // And a late one after both: nothing left to do.
      await runAfterPayment(deps, created.id);
      await runInvoiceQueue(deps);
      const mine = await sandboxOf(created.order_doc);
      expect(mine, `round ${round}`).toHaveLength(1);
      expect(await invoiceOf(created.id)).toMatchObject({ status: "issued", number: mine[0]?.number, amount: created.order.final_amount });
      expect(await callsOf(created.id)).toEqual(["call:issue"]);
      expect(await queued(created.id)).toBeNull();
    }
  });

  it("a run after the payment of an order not due (already issued, or a Cron run holding it) does nothing", async () => {
    const created = await order();
    await payInFull(created.order_doc, "SOOND");
    await runInvoiceQueue(deps);
    const issued = await invoiceOf(created.id);
    expect(await runAfterPayment(deps, created.id)).toBe(false);
    expect(await invoiceOf(created.id)).toEqual(issued);
    expect(await callsOf(created.id)).toEqual(["call:issue"]);
  });
});
