import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { isValidTaxId } from "~/domain/einvoice/buyer";
import { runInvoice, runInvoiceQueue } from "~/backend/einvoice/runner.server";
import { enqueueInvoiceStatements } from "~/backend/einvoice/invoices.server";
import { EinvoiceSandboxRefused, failNextSandboxCalls, sandboxEinvoice } from "~/backend/einvoice/sandbox.server";
import type { EinvoiceDeps } from "~/backend/einvoice/registry.server";
import { endProviderRest, fixtureHotel, hotelRefs, loadHotel, orderOneNight, payInFull, type HotelRefs } from "./helpers";

/**
 * E-invoices on D1 against the built-in sandbox provider (decision 159): the migration, each
 * issuing mode end to end, a provider failure and its retry, and a cancellation racing the
 * check-out trigger. The runner is called as the queue's Cron pass will call it.
 */

const AT_PAYMENT = "einv-pay.localhost";
const AT_CHECKOUT = "einv-out.localhost";
const OWN_SYSTEM = "einv-own.localhost";
const REMITTANCE = { pay_way: "remittance", payment_vendor: 8 };

const deps: EinvoiceDeps = {
  db: env.DB,
  secret: () => undefined,
  fetcher: () => Promise.reject(new Error("no network in this test")),
  testGateway: true,
};

const refs: Record<string, HotelRefs> = {};

beforeAll(async () => {
  const issuers = { [AT_PAYMENT]: "portico_at_payment", [AT_CHECKOUT]: "portico_at_checkout", [OWN_SYSTEM]: "hotel_system" } as const;
  for (const [domain, issuer] of Object.entries(issuers)) {
    await loadHotel(
      fixtureHotel(domain, (file) => {
        (file as { invoicing?: unknown }).invoicing = { issuer, provider: "sandbox", seller_tax_id: "04595257" };
      }),
    );
    refs[domain] = await hotelRefs(domain);
  }
});

let nextDay = 10;
/** Books one night (a different night each time) and pays it in full by bank transfer (markOrderPaid, as every payment). */
async function paidOrder(domain: string): Promise<{ id: number; doc: string; amount: number }> {
  const hotel = refs[domain];
  if (!hotel) throw new Error(`no hotel ${domain}`);
  nextDay += 1;
  const created = await orderOneNight<{ order_doc: string }>(domain, hotel, addDays(todayIn("Asia/Taipei"), nextDay), REMITTANCE);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const doc = created.body.data.order_doc;
  await payInFull(doc, "EINV");
  const order = await env.DB.prepare("SELECT id, paid_amount FROM orders WHERE order_doc = ?")
    .bind(doc)
    .first<{ id: number; paid_amount: number }>();
  if (!order) throw new Error(`no order ${doc}`);
  return { id: order.id, doc, amount: order.paid_amount };
}

const invoiceOf = (orderId: number) =>
  env.DB.prepare("SELECT status, amount, number, random_number, issued_on, issuer FROM order_invoices WHERE order_id = ?")
    .bind(orderId)
    .first<{ status: string; amount: number; number: string; random_number: string; issued_on: string; issuer: string }>();
const sandboxOf = (domain: string) =>
  env.DB.prepare(
    "SELECT s.relate_number, s.number, s.amount, s.status FROM einvoice_sandbox_invoices s JOIN hotels h ON h.id = s.hotel_id WHERE h.domain = ? ORDER BY s.id",
  )
    .bind(domain)
    .all<{ relate_number: string; number: string | null; amount: number; status: string }>()
    .then((rows) => rows.results);
const queued = (orderId: number) =>
  env.DB.prepare("SELECT next_attempt_at, attempts, last_error FROM einvoice_queue WHERE order_id = ?")
    .bind(orderId)
    .first<{ next_attempt_at: string; attempts: number; last_error: string }>();

describe("the e-invoice migration", () => {
  it("creates the invoice tables, and its constraints hold", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
    const tables = results.map((row) => row.name);
    for (const table of [
      "hotel_invoicing",
      "order_invoices",
      "einvoice_documents",
      "einvoice_allowances",
      "einvoice_events",
      "einvoice_queue",
      "einvoice_sandbox_invoices",
      "einvoice_sandbox_allowances",
      "einvoice_sandbox_failures",
      "member_invoice_choices",
    ]) {
      expect(tables).toContain(table);
    }
    const order = await paidOrder(AT_PAYMENT);
    const doc = (relate: string, seq: number) =>
      env.DB.prepare(
        "INSERT INTO einvoice_documents (relate_number, order_id, seq, amount, purpose, status) VALUES (?, ?, ?, 100, 'stay', 'sent')",
      )
        .bind(relate, order.id, seq)
        .run();
    await doc("UNIQUERELATE1", 90);
    // One relate number names one invoice, ever.
    await expect(doc("UNIQUERELATE1", 91)).rejects.toThrow(/UNIQUE constraint failed/);
    await expect(doc("NOT-ALNUM", 92)).rejects.toThrow(/CHECK constraint failed/);
    await expect(env.DB.prepare("UPDATE order_invoices SET status = 'printed' WHERE order_id = ?").bind(order.id).run()).rejects.toThrow(
      /CHECK constraint failed/,
    );
    await expect(
      env.DB.prepare(
        "INSERT INTO einvoice_sandbox_invoices (hotel_id, relate_number, number, amount, items, buyer, status) VALUES (?, 'X1', 'ab12345678', 1, '[]', '{}', 'issued')",
      )
        .bind(refs[AT_PAYMENT]?.id)
        .run(),
    ).rejects.toThrow(/CHECK constraint failed/);
  });

  it("loads each demo issuer from the hotel file", async () => {
    const rows = await env.DB.prepare(
      "SELECT h.domain, i.issuer, i.provider, i.seller_tax_id FROM hotel_invoicing i JOIN hotels h ON h.id = i.hotel_id WHERE h.domain IN (?, ?, ?) ORDER BY h.domain",
    )
      .bind(AT_PAYMENT, AT_CHECKOUT, OWN_SYSTEM)
      .all<{ domain: string; issuer: string; provider: string; seller_tax_id: string }>();
    expect(rows.results.map((row) => [row.domain, row.issuer])).toEqual([
      [AT_CHECKOUT, "portico_at_checkout"],
      [OWN_SYSTEM, "hotel_system"],
      [AT_PAYMENT, "portico_at_payment"],
    ]);
    for (const row of rows.results) expect(isValidTaxId(row.seller_tax_id)).toBe(true);
  });
});

describe("issuing modes against the sandbox", () => {
  it("at payment: the settlement queues the invoice in its own batch; the paid stay is invoiced once, in the real number format, however often the queue runs", async () => {
    const order = await paidOrder(AT_PAYMENT);
    // markOrderPaid's batch opened the order's invoice and queued it.
    expect(await invoiceOf(order.id)).toMatchObject({ status: "none", issuer: "portico_at_payment" });
    expect(await queued(order.id)).not.toBeNull();
    await runInvoiceQueue(deps);
    const invoice = await invoiceOf(order.id);
    expect(invoice).toMatchObject({ status: "issued", amount: order.amount, issued_on: todayIn("Asia/Taipei") });
    expect(invoice?.number).toMatch(/^[A-Z]{2}\d{8}$/);
    expect(invoice?.random_number).toMatch(/^\d{4}$/);
    expect(await queued(order.id)).toBeNull();
    // Queued again (a second payment notice, a replay): nothing new is issued.
    await env.DB.batch(enqueueInvoiceStatements(env.DB, order.id));
    await runInvoiceQueue(deps);
    await runInvoice(deps, order.id);
    const issued = (await sandboxOf(AT_PAYMENT)).filter((row) => row.relate_number.startsWith(order.doc.replace(/-/g, "")));
    expect(issued).toEqual([
      { relate_number: `${order.doc.replace(/-/g, "")}E1`, number: invoice?.number, amount: order.amount, status: "issued" },
    ]);
    const history = await env.DB.prepare("SELECT kind, outcome FROM einvoice_events WHERE order_id = ? ORDER BY id")
      .bind(order.id)
      .all<{ kind: string; outcome: string }>();
    expect(history.results.slice(0, 3)).toEqual([
      { kind: "kept", outcome: "recorded" },
      { kind: "call:issue", outcome: "sent" },
      { kind: "answered:issue", outcome: "done" },
    ]);
  });

  it("an unpaid booking has no invoice and nothing queued", async () => {
    const hotel = refs[AT_PAYMENT];
    if (!hotel) throw new Error("no hotel");
    const created = await orderOneNight<{ order_doc: string }>(AT_PAYMENT, hotel, addDays(todayIn("Asia/Taipei"), 40), REMITTANCE);
    const order = await env.DB.prepare("SELECT id FROM orders WHERE order_doc = ?")
      .bind(created.body.data.order_doc)
      .first<{ id: number }>();
    expect(await invoiceOf(order?.id ?? 0)).toBeNull();
    expect(await queued(order?.id ?? 0)).toBeNull();
  });

  it("at check-out: held when paid, issued when the guest checks out", async () => {
    const order = await paidOrder(AT_CHECKOUT);
    await runInvoiceQueue(deps);
    expect(await invoiceOf(order.id)).toMatchObject({ status: "delayed", number: "" });
    expect((await sandboxOf(AT_CHECKOUT)).find((row) => row.relate_number.startsWith(order.doc.replace(/-/g, "")))?.status).toBe("held");
    // The desk checks the guest out (as its stay action does), and the change queues the invoice.
    await env.DB.batch([
      env.DB.prepare("UPDATE orders SET stay_status = 'checked_out' WHERE id = ?").bind(order.id),
      ...enqueueInvoiceStatements(env.DB, order.id),
    ]);
    await runInvoiceQueue(deps);
    const invoice = await invoiceOf(order.id);
    expect(invoice).toMatchObject({ status: "issued", amount: order.amount });
    expect(invoice?.number).toMatch(/^[A-Z]{2}\d{8}$/);
  });

  it("by the hotel's own system: Portico records that and issues nothing", async () => {
    const order = await paidOrder(OWN_SYSTEM);
    expect(await invoiceOf(order.id)).toMatchObject({ status: "hotel_system", issuer: "hotel_system" });
    expect(await queued(order.id)).toBeNull();
    expect(await runInvoice(deps, order.id)).toBe("hotel_system");
    expect(await sandboxOf(OWN_SYSTEM)).toEqual([]);
  });

  it("refuses to run the sandbox where the test gateway may not (a live host)", () => {
    expect(() => sandboxEinvoice({ db: env.DB, hotelId: 1, allowed: false })).toThrow(EinvoiceSandboxRefused);
  });
});

describe("failures and retries", () => {
  it("after an HTTP 403 the order waits 30 minutes on the queue, and the hotel's provider is asked nothing meanwhile; then both are issued", async () => {
    const hotelId = refs[AT_PAYMENT]?.id ?? 0;
    const order = await paidOrder(AT_PAYMENT);
    await failNextSandboxCalls(env.DB, hotelId, "issue", "rate_limited");
    const start = Date.now();
    try {
      await runInvoice(deps, order.id, () => new Date(start));
      expect(await invoiceOf(order.id)).toMatchObject({ status: "retrying", number: "" });
      const waiting = await queued(order.id);
      expect(Date.parse(waiting?.next_attempt_at ?? "") - start).toBe(30 * 60_000);
      expect(waiting).toMatchObject({ attempts: 1 });
      expect(waiting?.last_error).toContain("403");
      // The hotel's provider rests (decision 170): another order's invoice, a minute on, is not asked for at all.
      const rest = await env.DB.prepare("SELECT until FROM einvoice_provider_rest WHERE hotel_id = ?")
        .bind(hotelId)
        .first<{ until: string }>();
      expect(Date.parse(rest?.until ?? "") - start).toBe(30 * 60_000);
      const other = await paidOrder(AT_PAYMENT);
      await failNextSandboxCalls(env.DB, hotelId, "issue", "unavailable");
      await runInvoice(deps, other.id, () => new Date(start + 60_000));
      expect(await invoiceOf(other.id)).toMatchObject({ status: "retrying", number: "" });
      expect((await queued(other.id))?.last_error).toMatch(/not asked.*resting until/);
      // The sandbox was not called: the failure planned for its next call is still there.
      const planned = await env.DB.prepare("SELECT kind, remaining FROM einvoice_sandbox_failures WHERE hotel_id = ? AND remaining > 0")
        .bind(hotelId)
        .all<{ kind: string; remaining: number }>();
      expect(planned.results).toEqual([{ kind: "unavailable", remaining: 1 }]);
      await env.DB.prepare("DELETE FROM einvoice_sandbox_failures WHERE hotel_id = ?").bind(hotelId).run();
      // 29 minutes on: not yet.
      await runInvoice(deps, order.id, () => new Date(start + 29 * 60_000));
      expect(await invoiceOf(order.id)).toMatchObject({ status: "retrying" });
      expect(await queued(order.id)).toEqual(waiting);
      // 30 minutes on: the rest is over; each order is issued at its own due time.
      await runInvoice(deps, order.id, () => new Date(start + 30 * 60_000));
      expect(await invoiceOf(order.id)).toMatchObject({ status: "issued", amount: order.amount });
      expect(await queued(order.id)).toBeNull();
      await runInvoice(deps, other.id, () => new Date(start + 31 * 60_000));
      expect(await invoiceOf(other.id)).toMatchObject({ status: "issued", amount: other.amount });
    } finally {
      await endProviderRest(hotelId);
    }
  });

  it("an issue whose answer was lost is looked up by its relate number, never issued twice", async () => {
    const order = await paidOrder(AT_PAYMENT);
    await failNextSandboxCalls(env.DB, refs[AT_PAYMENT]?.id ?? 0, "issue", "lost_answer");
    const start = Date.now();
    await runInvoiceQueue(deps, () => new Date(start));
    expect(await invoiceOf(order.id)).toMatchObject({ status: "retrying" });
    await runInvoiceQueue(deps, () => new Date(start + 60_000));
    expect(await invoiceOf(order.id)).toMatchObject({ status: "issued", amount: order.amount });
    const mine = (await sandboxOf(AT_PAYMENT)).filter((row) => row.relate_number.startsWith(order.doc.replace(/-/g, "")));
    expect(mine).toHaveLength(1);
    const calls = await env.DB.prepare("SELECT kind FROM einvoice_events WHERE order_id = ? AND outcome = 'sent' ORDER BY id")
      .bind(order.id)
      .all<{ kind: string }>();
    expect(calls.results.map((row) => row.kind)).toEqual(["call:issue", "call:lookup"]);
  });
});

describe("a cancellation racing the check-out trigger", () => {
  it("ends with nothing invoiced when the hotel keeps nothing, whichever runner writes first", async () => {
    const order = await paidOrder(AT_CHECKOUT);
    await runInvoiceQueue(deps);
    expect(await invoiceOf(order.id)).toMatchObject({ status: "delayed" });
    // Checked out, and, at once, cancelled with everything refunded (the desk's correction of a mistaken booking).
    await env.DB.batch([
      env.DB.prepare("UPDATE orders SET stay_status = 'checked_out' WHERE id = ?").bind(order.id),
      ...enqueueInvoiceStatements(env.DB, order.id),
    ]);
    const trigger = runInvoice(deps, order.id);
    const cancel = env.DB.batch([
      env.DB.prepare("UPDATE orders SET status = 'cancelled' WHERE id = ?").bind(order.id),
      env.DB.prepare("INSERT INTO refunds (hotel_id, order_id, amount, method, status) VALUES (?, ?, ?, 'manual', 'done')").bind(
        refs[AT_CHECKOUT]?.id,
        order.id,
        order.amount,
      ),
      ...enqueueInvoiceStatements(env.DB, order.id),
    ]);
    await Promise.all([trigger, cancel]);
    await runInvoice(deps, order.id);
    await runInvoiceQueue(deps);
    const invoice = await invoiceOf(order.id);
    expect(invoice?.amount).toBe(0);
    expect(["voided", "none"]).toContain(invoice?.status);
    const mine = (await sandboxOf(AT_CHECKOUT)).filter((row) => row.relate_number.startsWith(order.doc.replace(/-/g, "")));
    // Whatever the sandbox holds for this stay counts for nothing: voided, or withdrawn before it was issued.
    expect(mine.every((row) => row.status === "voided" || row.status === "cancelled")).toBe(true);
    expect(mine.length).toBeGreaterThan(0);
  });
});
