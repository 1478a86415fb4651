/**
 * E-invoices, the hotel's side (issue 41, decision 159), against the built-in back end, a real D1
 * and the invoice sandbox: the Worker's Cron running the queue (a failure and its retry on a later
 * run, a 403 holding the order 30 minutes), each issuing mode end to end through the desk's own
 * actions, the lodging rule at check-out and at a cancellation, void before the period's cut-off
 * and allowance after, the desk's invoice actions (role, replayed form, another hotel), and a
 * cancellation racing the check-out (the competing change run between the read and the batch).
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { sha256Hex } from "~/lib/crypto";
import { handleBackendRequest } from "~/backend/router.server";
import { runInvoice, runInvoiceQueue } from "~/backend/einvoice/runner.server";
import { enqueueInvoiceStatements } from "~/backend/einvoice/invoices.server";
import { failNextSandboxCalls } from "~/backend/einvoice/sandbox.server";
import type { EinvoiceDeps } from "~/backend/einvoice/registry.server";
import { handleScheduled } from "~/worker/scheduled.server";
import { BOOKER, endProviderRest, fixtureHotel, fixtureIds, loadHotel, type Envelope } from "./helpers";

const AT_PAYMENT = "einv-desk-pay.localhost";
const AT_CHECKOUT = "einv-desk-out.localhost";
const OWN_SYSTEM = "einv-desk-own.localhost";
const NO_INVOICING = "einv-desk-none.localhost";
const today = todayIn("Asia/Taipei");
const DAY = 86_400_000;

const ids: Record<string, Record<string, number>> = {};
const tokens: Record<string, string> = {};

const deps: EinvoiceDeps = {
  db: env.DB,
  secret: () => undefined,
  fetcher: () => Promise.reject(new Error("no network in this test")),
  testGateway: true,
};

const hotelFile = (domain: string, issuer: string | null) =>
  fixtureHotel(domain, (file) => {
    file.room_classes[0]!.total_rooms = 30;
    Object.assign(file.hotel, {
      payment_list: [
        { vendor_id: 8, method: "remittance" },
        { vendor_id: 14, method: "pay_arrival" },
      ],
    });
    // No free window: the standard contract decides (3+ days ahead 100 % back, 1–2 days 50 %, the day 0 %).
    for (const plan of file.rate_plans as { refund_template_id?: number }[]) plan.refund_template_id = 0;
    file.inventory.sold_out = [];
    if (issuer) (file as { invoicing?: unknown }).invoicing = { issuer, provider: "sandbox", seller_tax_id: "04595257" };
  });

/**
 * A staff member with a full session made directly in D1 (only the token's SHA-256 is kept), last
 * seen at `at`: a test that moves the clock months on signs in then.
 */
async function staffSession(domain: string, role: "owner" | "front_desk" | "read_only", email: string, at = new Date()): Promise<string> {
  const hotelId = ids[domain]!.hotel!;
  const staff = await env.DB.prepare(
    "INSERT INTO staff (hotel_id, email, name, role, status, password_hash) VALUES (?, ?, ?, ?, 'active', 'x') RETURNING id",
  )
    .bind(hotelId, email, email.split("@")[0], role)
    .first<{ id: number }>();
  const token = [...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  await env.DB.prepare(
    "INSERT INTO staff_sessions (token_hash, staff_id, hotel_id, stage, last_seen_at, expires_at) VALUES (?, ?, ?, 'full', ?, ?)",
  )
    .bind(await sha256Hex(token), staff!.id, hotelId, at.toISOString(), new Date(at.getTime() + DAY).toISOString())
    .run();
  return token;
}

beforeAll(async () => {
  const issuers = {
    [AT_PAYMENT]: "portico_at_payment",
    [AT_CHECKOUT]: "portico_at_checkout",
    [OWN_SYSTEM]: "hotel_system",
    [NO_INVOICING]: null,
  };
  for (const [domain, issuer] of Object.entries(issuers)) {
    await loadHotel(hotelFile(domain, issuer));
    ids[domain] = await fixtureIds(domain);
    tokens[domain] = await staffSession(domain, "front_desk", `desk@${domain}`);
  }
  tokens.owner = await staffSession(AT_PAYMENT, "owner", "owner@einv-desk.example");
  tokens.reader = await staffSession(AT_PAYMENT, "read_only", "reader@einv-desk.example");
});

/**
 * The D1 binding with a competitor: `before` runs once, just before the first batch sent through
 * it — after the reader read, before the batch that applies what it decided.
 */
function racing(db: D1Database, before: () => Promise<unknown>): D1Database {
  let raced = false;
  return new Proxy(db, {
    get(target, property) {
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (!raced) {
            raced = true;
            await before();
          }
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function call<T>(
  domain: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  db: D1Database = env.DB,
  now = new Date(),
) {
  const request = new Request(`http://${domain}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await handleBackendRequest(request, { db, signingSecret: env.SESSION_SECRET as string, now, testGateway: true });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

const newFormKey = () => `fk${crypto.randomUUID().replaceAll("-", "")}`;

interface ActResult {
  outcome: "done" | "already_done";
  refund?: number;
  fee?: number;
  invoice_status?: string;
}

function act(
  domain: string,
  doc: string,
  action: string,
  fields: Record<string, unknown> = {},
  { token = tokens[domain]!, formKey = newFormKey(), db = env.DB, now = new Date(), lang = "en-US" } = {},
) {
  return call<ActResult>(
    domain,
    `/api/desk/bookings/${doc}/actions/${action}?lang=${lang}`,
    { domain, form_key: formKey, ...fields },
    { "x-desk-session": token },
    db,
    now,
  );
}

interface Panel {
  issuer: string | null;
  status: string;
  amount: number;
  kept: number;
  number: string;
  handled_outside: boolean;
  invoices: {
    number: string;
    amount: number;
    remaining: number;
    status: string;
    purpose: string;
    can_void: boolean;
    last_void_day: string;
  }[];
  allowances: { number: string; invoice_number: string; amount: number; status: string }[];
  failure: { kind: string; retry_at: string | null } | null;
  actions: string[];
  history: { at: string; kind: string; outcome: string }[];
}

async function panel(domain: string, doc: string, now = new Date(), token = tokens[domain]!): Promise<Panel | null> {
  const page = await call<{ invoice: Panel | null }>(
    domain,
    `/api/desk/bookings/${doc}?domain=${domain}&lang=en-US`,
    undefined,
    { "x-desk-session": token },
    env.DB,
    now,
  );
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return page.body.data.invoice;
}

let seq = 0;
/** Books one night from `checkIn` through the API as a guest would (remittance unless told). */
async function book(domain: string, checkIn: string, overrides: Record<string, unknown> = {}) {
  const refs = ids[domain]!;
  const created = await call<{ order_doc: string }>(
    domain,
    "/api/ota/order/personal-new?lang=en-US",
    {
      domain,
      ...BOOKER,
      check_in_day: checkIn,
      check_out_day: addDays(checkIn, 1),
      pay_way: "remittance",
      payment_vendor: 8,
      orders: [{ room_class_id: refs.room, proposal_id: refs.BAR, num: 1 }],
      adults_count: 2,
      ...overrides,
    },
    { "idempotency-key": `einv-desk-${++seq}-${Date.now()}` },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.order_doc;
}

const orderOf = (doc: string) =>
  env.DB.prepare("SELECT id, status, stay_status, paid_amount, total_price FROM orders WHERE order_doc = ?")
    .bind(doc)
    .first<{ id: number; status: string; stay_status: string; paid_amount: number; total_price: number }>()
    .then((row) => {
      if (!row) throw new Error(`no order ${doc}`);
      return row;
    });

/** Books and pays in full at the desk (a bank transfer, or at the hotel for a stay from today): every payment queues the invoice. */
/**
 * A booking paid at the desk (a transfer, or at the hotel on the day of arrival). The desk issues the
 * invoice it queues before answering (at a hotel that issues at payment): a provider failure planned
 * before it is met by that first run, at `now`.
 */
async function paid(domain: string, checkIn: string, now = new Date()): Promise<{ doc: string; id: number; total: number }> {
  const arrival = checkIn === today;
  const doc = await book(domain, checkIn, arrival ? { pay_way: "pay_arrival", payment_vendor: 14 } : {});
  const { id, total_price: total } = await orderOf(doc);
  const done = arrival
    ? await act(domain, doc, "record_at_hotel", { amount: total, method: "card_terminal", reference: "slip 1" }, { now })
    : await act(domain, doc, "record_transfer", { amount: total, transfer_date: today, account_last5: "54321" }, { now });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { doc, id, total };
}

/** The sandbox's invoices of one order: what the "provider" holds. */
const sandboxOf = (doc: string) =>
  env.DB.prepare("SELECT relate_number, number, amount, status FROM einvoice_sandbox_invoices WHERE relate_number LIKE ? ORDER BY id")
    .bind(`${doc.replace(/-/g, "")}E%`)
    .all<{ relate_number: string; number: string | null; amount: number; status: string }>()
    .then((rows) => rows.results);
/** What the sandbox's invoices of an order come to: issued ones less their allowances. */
const sandboxNet = async (doc: string) =>
  (
    await env.DB.prepare(
      `SELECT COALESCE(SUM(i.amount - COALESCE((SELECT SUM(a.amount) FROM einvoice_sandbox_allowances a WHERE a.invoice_number = i.number AND a.status = 'issued'), 0)), 0) AS net
       FROM einvoice_sandbox_invoices i WHERE i.relate_number LIKE ? AND i.status = 'issued'`,
    )
      .bind(`${doc.replace(/-/g, "")}E%`)
      .first<{ net: number }>()
  )?.net ?? -1;
const queued = (orderId: number) =>
  env.DB.prepare("SELECT next_attempt_at, attempts, last_error FROM einvoice_queue WHERE order_id = ?")
    .bind(orderId)
    .first<{ next_attempt_at: string; attempts: number; last_error: string }>();
const cron = (at: number) => handleScheduled({ scheduledTime: at, cron: "*/5 * * * *" }, env as unknown as Record<string, unknown>);
const auditActions = async (doc: string) =>
  (
    await env.DB.prepare("SELECT action FROM audit_log WHERE subject = ? ORDER BY id").bind(`order:${doc}`).all<{ action: string }>()
  ).results.map((row) => row.action);

describe("the Cron runs the e-invoice queue", () => {
  it("a provider failure at the desk's payment leaves the order on the queue; a later Cron run retries and issues it, once", async () => {
    await failNextSandboxCalls(env.DB, ids[AT_PAYMENT]!.hotel!, "issue", "unavailable");
    const start = Date.now();
    // The payment is recorded all the same; its invoice waits on the queue.
    const order = await paid(AT_PAYMENT, addDays(today, 30), new Date(start));
    expect((await panel(AT_PAYMENT, order.doc))?.status).toBe("retrying");
    const waiting = await queued(order.id);
    expect(Date.parse(waiting?.next_attempt_at ?? "") - start).toBe(60_000);
    expect(waiting?.attempts).toBe(1);
    // Half a minute on: not due yet, nothing asked.
    await cron(start + 30_000);
    expect((await panel(AT_PAYMENT, order.doc))?.status).toBe("retrying");
    await cron(start + 60_000);
    const invoice = await panel(AT_PAYMENT, order.doc);
    expect(invoice).toMatchObject({ status: "issued", amount: order.total, kept: order.total });
    expect(invoice?.number).toMatch(/^[A-Z]{2}\d{8}$/);
    expect(await queued(order.id)).toBeNull();
    // The lost answer is looked up by its relate number: one invoice, never two.
    expect(await sandboxOf(order.doc)).toHaveLength(1);
    const kinds = invoice?.history.map((line) => line.kind) ?? [];
    // Newest first: the second issue, after the lookup found nothing under the relate number, after the failed first call.
    expect(kinds.slice(0, 4)).toEqual(["answered:issue", "call:issue", "answered:lookup", "call:lookup"]);
    expect(kinds).toContain("failed:issue");
  });

  it("after an HTTP 403 the Cron leaves the order alone for 30 minutes, and staff cannot hurry it", async () => {
    await failNextSandboxCalls(env.DB, ids[AT_PAYMENT]!.hotel!, "issue", "rate_limited");
    const start = Date.now();
    const order = await paid(AT_PAYMENT, addDays(today, 31), new Date(start));
    expect(Date.parse((await queued(order.id))?.next_attempt_at ?? "") - start).toBe(30 * 60_000);
    await cron(start + 29 * 60_000);
    expect((await panel(AT_PAYMENT, order.doc))?.status).toBe("retrying");
    const hurried = await act(AT_PAYMENT, order.doc, "invoice_issue_now", {}, { now: new Date(start + 29 * 60_000) });
    expect(hurried.status).toBe(409);
    expect(hurried.body.msg.code).toBe("desk_invoice_rate_limited");
    expect(hurried.body.msg.message).toMatch(/HTTP 403/);
    await cron(start + 30 * 60_000);
    expect((await panel(AT_PAYMENT, order.doc))?.status).toBe("issued");
    expect(await sandboxOf(order.doc)).toHaveLength(1);
    await endProviderRest(ids[AT_PAYMENT]!.hotel!);
  });

  it("takes a bounded batch per run: the rest wait for the next", async () => {
    // The provider down at both payments: both wait on the queue, due a minute on.
    await failNextSandboxCalls(env.DB, ids[AT_PAYMENT]!.hotel!, "issue", "unavailable", 2);
    const start = Date.now();
    const orders = [
      await paid(AT_PAYMENT, addDays(today, 32), new Date(start)),
      await paid(AT_PAYMENT, addDays(today, 33), new Date(start)),
    ];
    for (const order of orders) expect((await panel(AT_PAYMENT, order.doc))?.status).toBe("retrying");
    // Whatever else is queued, a pass of one looks at one order.
    expect((await runInvoiceQueue(deps, () => new Date(start + 60_000), 1)).looked).toBe(1);
    await runInvoiceQueue(deps, () => new Date(start + 60_000), 50);
    for (const order of orders) expect((await panel(AT_PAYMENT, order.doc))?.status).toBe("issued");
  });
});

describe("each issuing mode, end to end through the desk", () => {
  it("at payment: the desk's payment issues it before answering, no Cron pass needed; the desk shows it with its history", async () => {
    const order = await paid(AT_PAYMENT, addDays(today, 34));
    expect(await queued(order.id)).toBeNull();
    const invoice = await panel(AT_PAYMENT, order.doc);
    expect(invoice).toMatchObject({ issuer: "portico_at_payment", status: "issued", amount: order.total, handled_outside: false });
    expect(invoice?.invoices).toEqual([
      expect.objectContaining({ amount: order.total, remaining: order.total, status: "issued", purpose: "stay", can_void: true }),
    ]);
    expect(invoice?.actions).toEqual(["invoice_void", "invoice_allowance"]);
    const times = invoice?.history.map((line) => line.at) ?? [];
    expect([...times].sort().reverse()).toEqual(times);
    expect((await act(AT_PAYMENT, order.doc, "invoice_issue_now")).body.msg.code).toBe("desk_invoice_nothing_to_do");
  });

  it("at check-out: held when paid, issued by the desk's check-out; issuing sooner is refused", async () => {
    const order = await paid(AT_CHECKOUT, today);
    await cron(Date.now());
    expect(await panel(AT_CHECKOUT, order.doc)).toMatchObject({ issuer: "portico_at_checkout", status: "delayed", number: "" });
    expect((await sandboxOf(order.doc)).map((row) => row.status)).toEqual(["held"]);
    const early = await act(AT_CHECKOUT, order.doc, "invoice_issue_now");
    expect([early.status, early.body.msg.code]).toEqual([409, "desk_invoice_awaits_checkout"]);
    expect((await act(AT_CHECKOUT, order.doc, "check_in")).status).toBe(200);
    expect(await queued(order.id)).toBeNull();
    expect((await act(AT_CHECKOUT, order.doc, "check_out")).status).toBe(200);
    // The check-out's own batch queued the invoice, and the desk issued it before answering: the
    // guest at the desk has it, with no Cron pass.
    expect(await queued(order.id)).toBeNull();
    const invoice = await panel(AT_CHECKOUT, order.doc);
    expect(invoice).toMatchObject({ status: "issued", amount: order.total });
    expect(invoice?.number).toMatch(/^[A-Z]{2}\d{8}$/);
    expect(await sandboxOf(order.doc)).toEqual([
      expect.objectContaining({ status: "issued", amount: order.total, number: invoice?.number }),
    ]);
  });

  it("by the hotel's own system: the desk says so, Portico issues nothing and refuses to", async () => {
    const order = await paid(OWN_SYSTEM, addDays(today, 30));
    await cron(Date.now());
    const invoice = await panel(OWN_SYSTEM, order.doc);
    expect(invoice).toMatchObject({ issuer: "hotel_system", status: "hotel_system", actions: [], invoices: [] });
    expect(await sandboxOf(order.doc)).toEqual([]);
    const refused = await act(OWN_SYSTEM, order.doc, "invoice_issue_now", {}, { lang: "zh-TW" });
    expect([refused.status, refused.body.msg.code]).toEqual([409, "desk_invoice_hotel_system"]);
    expect(refused.body.msg.message).toContain("自有系統");
    expect(await auditActions(order.doc)).not.toContain("invoice_issue_now");
  });

  it("a hotel without invoicing shows no invoice panel and refuses the actions", async () => {
    const order = await paid(NO_INVOICING, addDays(today, 30));
    expect(await panel(NO_INVOICING, order.doc)).toBeNull();
    expect((await act(NO_INVOICING, order.doc, "invoice_issue_now")).body.msg.code).toBe("desk_invoice_none");
  });
});

describe("the lodging rule and changes to the stay", () => {
  it("at check-out, a cancellation before the stay invoices only the fee the hotel keeps", async () => {
    // Two days ahead the standard contract gives half back: the hotel keeps the rest.
    const order = await paid(AT_CHECKOUT, addDays(today, 2));
    await cron(Date.now());
    expect((await panel(AT_CHECKOUT, order.doc))?.status).toBe("delayed");
    const cancelled = await act(AT_CHECKOUT, order.doc, "cancel", { reason: "Guest phoned" });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const fee = cancelled.body.data.fee ?? 0;
    expect(fee).toBeGreaterThan(0);
    // The cancellation's batch queued the invoice; the refund is still due (paid back by hand later): the fee is what is kept.
    expect(await queued(order.id)).not.toBeNull();
    await cron(Date.now());
    const invoice = await panel(AT_CHECKOUT, order.doc);
    expect(invoice).toMatchObject({ status: "issued", amount: fee, kept: fee });
    expect(invoice?.invoices.find((doc) => doc.status === "issued")).toMatchObject({ amount: fee, purpose: "cancellation_fee" });
    expect((await sandboxOf(order.doc)).map((row) => [row.status, row.amount])).toEqual([
      ["cancelled", order.total],
      ["issued", fee],
    ]);
  });

  it("at check-out, a cancellation with the fee waived issues nothing at all", async () => {
    const order = await paid(AT_CHECKOUT, addDays(today, 2));
    await cron(Date.now());
    expect((await act(AT_CHECKOUT, order.doc, "cancel", { reason: "Typhoon", waive_fee: true })).status).toBe(200);
    await cron(Date.now());
    expect(await panel(AT_CHECKOUT, order.doc)).toMatchObject({ amount: 0, kept: 0, number: "" });
    expect((await sandboxOf(order.doc)).map((row) => row.status)).toEqual(["cancelled"]);
  });

  it("a cancellation forty days ahead gives everything back: the invoice is voided, nothing is kept", async () => {
    const order = await paid(AT_PAYMENT, addDays(today, 40));
    await cron(Date.now());
    const first = (await panel(AT_PAYMENT, order.doc))?.number;
    expect((await act(AT_PAYMENT, order.doc, "cancel", { reason: "Guest phoned" })).status).toBe(200);
    await cron(Date.now());
    expect(await panel(AT_PAYMENT, order.doc)).toMatchObject({ status: "voided", amount: 0, kept: 0 });
    expect((await sandboxOf(order.doc)).map((row) => [row.number, row.status])).toEqual([[first, "voided"]]);
    // The refund paid back by hand afterwards changes nothing more: it was already not kept.
    expect((await act(AT_PAYMENT, order.doc, "refund", { method: "manual", amount: order.total, reference: "bank ref" })).status).toBe(200);
    await cron(Date.now());
    expect((await sandboxOf(order.doc)).map((row) => row.status)).toEqual(["voided"]);
  });

  it("a cancellation keeping a fee: voided and issued again for the fee before the cut-off, an allowance after it", async () => {
    // Two days ahead the standard contract gives half back: the hotel keeps the rest.
    const near = [await paid(AT_PAYMENT, addDays(today, 2)), await paid(AT_PAYMENT, addDays(today, 2))];
    const issuedAt = Date.now();
    await cron(issuedAt);
    for (const order of near) expect((await act(AT_PAYMENT, order.doc, "cancel", { reason: "Guest phoned" })).status).toBe(200);
    const [soon, late] = near as [(typeof near)[0], (typeof near)[0]];
    // Within the period: the stay's invoice voided, the fee issued anew.
    await runInvoice(deps, soon.id, () => new Date(issuedAt + 60_000));
    const within = await panel(AT_PAYMENT, soon.doc);
    const fee = within?.kept ?? 0;
    expect(fee).toBeGreaterThan(0);
    expect(fee).toBeLessThan(soon.total);
    expect(within).toMatchObject({ status: "issued", amount: fee });
    expect((await sandboxOf(soon.doc)).map((row) => [row.status, row.amount])).toEqual([
      ["voided", soon.total],
      ["issued", fee],
    ]);
    // Past the cut-off (80 days on, whatever today's period): an allowance of the difference, the invoice kept.
    const after = new Date(issuedAt + 80 * DAY);
    await runInvoice(deps, late.id, () => after);
    const allowed = await panel(
      AT_PAYMENT,
      late.doc,
      after,
      await staffSession(AT_PAYMENT, "front_desk", "later1@einv-desk.example", after),
    );
    expect(allowed).toMatchObject({ status: "allowance", amount: fee });
    expect(allowed?.allowances).toEqual([expect.objectContaining({ amount: late.total - fee, status: "issued" })]);
    expect((await sandboxOf(late.doc)).map((row) => row.status)).toEqual(["issued"]);
    expect(await sandboxNet(late.doc)).toBe(fee);
  });
});

describe("the desk's invoice actions", () => {
  it("void within the period: the invoice voided and issued again under a new number; refused after the cut-off with the last day, where an allowance does it", async () => {
    const order = await paid(AT_PAYMENT, addDays(today, 35));
    const issuedAt = Date.now();
    await cron(issuedAt);
    const first = await panel(AT_PAYMENT, order.doc);
    const voided = await act(AT_PAYMENT, order.doc, "invoice_void", { number: first?.number });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body.data).toMatchObject({ outcome: "done", invoice_status: "issued" });
    const second = await panel(AT_PAYMENT, order.doc);
    expect(second?.number).not.toBe(first?.number);
    expect(second?.amount).toBe(order.total);
    expect((await sandboxOf(order.doc)).map((row) => [row.number, row.status])).toEqual([
      [first?.number, "voided"],
      [second?.number, "issued"],
    ]);
    // The voided one cannot be voided again.
    expect((await act(AT_PAYMENT, order.doc, "invoice_void", { number: first?.number })).body.msg.code).toBe(
      "desk_invoice_no_such_invoice",
    );

    // 80 days on, its period has closed: a void is refused with the last day and told to make an allowance.
    const later = new Date(issuedAt + 80 * DAY);
    const token = await staffSession(AT_PAYMENT, "front_desk", "later2@einv-desk.example", later);
    const closed = await act(AT_PAYMENT, order.doc, "invoice_void", { number: second?.number }, { now: later, token });
    expect([closed.status, closed.body.msg.code, closed.body.msg.extrainfo?.field]).toEqual([409, "desk_invoice_void_closed", "number"]);
    expect(closed.body.msg.message).toContain(second?.invoices.find((doc) => doc.number === second.number)?.last_void_day ?? "?");
    expect(closed.body.msg.message).toMatch(/allowance/);
    const inJapanese = await act(AT_PAYMENT, order.doc, "invoice_void", { number: second?.number }, { now: later, token, lang: "ja-JP" });
    expect(inJapanese.body.msg.message).toContain("折讓");
    expect((await panel(AT_PAYMENT, order.doc, later, token))?.actions).toEqual(["invoice_allowance"]);
    const allowance = await act(AT_PAYMENT, order.doc, "invoice_allowance", { number: second?.number }, { now: later, token });
    expect(allowance.status, JSON.stringify(allowance.body)).toBe(200);
    const third = await panel(AT_PAYMENT, order.doc, later, token);
    // The old invoice reduced to nothing by the allowance; the stay issued again; what the hotel keeps unchanged.
    expect(third?.allowances).toEqual([expect.objectContaining({ invoice_number: second?.number, amount: order.total, status: "issued" })]);
    expect(third?.amount).toBe(order.total);
    expect(await sandboxNet(order.doc)).toBe(order.total);
    expect((await auditActions(order.doc)).filter((action) => action.startsWith("invoice_"))).toEqual([
      "invoice_void",
      "invoice_allowance",
    ]);
  });

  it("issue now retries a failure at once; mark as handled takes over a failure left to staff, after which Portico asks nothing", async () => {
    const hotelId = ids[AT_PAYMENT]!.hotel!;
    await failNextSandboxCalls(env.DB, hotelId, "issue", "unavailable");
    const order = await paid(AT_PAYMENT, addDays(today, 36));
    expect((await panel(AT_PAYMENT, order.doc))?.actions).toEqual(["invoice_issue_now"]);
    const retried = await act(AT_PAYMENT, order.doc, "invoice_issue_now");
    expect(retried.body.data).toMatchObject({ outcome: "done", invoice_status: "issued" });
    expect(await queued(order.id)).toBeNull();

    // Refused three times by the provider: left to staff.
    await failNextSandboxCalls(env.DB, hotelId, "issue", "refused", 3);
    const start = Date.now();
    // The first refusal meets the desk's own run at the payment; two retries later it is left to staff.
    const stuck = await paid(AT_PAYMENT, addDays(today, 37), new Date(start));
    await runInvoice(deps, stuck.id, () => new Date(start + 60_000));
    await runInvoice(deps, stuck.id, () => new Date(start + 6 * 60_000));
    const failed = await panel(AT_PAYMENT, stuck.doc);
    expect(failed).toMatchObject({ status: "failed", failure: { kind: "refused", retry_at: null } });
    expect(failed?.actions).toEqual(["invoice_issue_now", "invoice_handled"]);
    const noNote = await act(AT_PAYMENT, stuck.doc, "invoice_handled", { resolution: "outside", note: "" });
    expect(noNote.status).toBe(400);
    const lostKind = await act(AT_PAYMENT, stuck.doc, "invoice_handled", { resolution: "allowance_absent", note: "x" });
    expect(lostKind.body.msg.code).toBe("desk_invoice_not_stuck");
    const handled = await act(AT_PAYMENT, stuck.doc, "invoice_handled", {
      resolution: "outside",
      note: "Issued by hand in the back office",
    });
    expect(handled.body.data).toMatchObject({ outcome: "done", invoice_status: "hotel_system" });
    expect(await panel(AT_PAYMENT, stuck.doc)).toMatchObject({ handled_outside: true, actions: [] });
    expect((await act(AT_PAYMENT, stuck.doc, "invoice_issue_now")).body.msg.code).toBe("desk_invoice_handled_outside");
    // Even a cancellation afterwards makes Portico ask nothing.
    expect((await act(AT_PAYMENT, stuck.doc, "cancel", { reason: "Guest phoned" })).status).toBe(200);
    await cron(Date.now());
    expect(await sandboxOf(stuck.doc)).toEqual([]);
  });

  it("refuses the read-only role, answers a replayed form as already done, and treats another hotel's booking as not found", async () => {
    const order = await paid(AT_PAYMENT, addDays(today, 38));
    await cron(Date.now());
    const number = (await panel(AT_PAYMENT, order.doc))?.number;
    const reader = await act(AT_PAYMENT, order.doc, "invoice_void", { number }, { token: tokens.reader });
    expect([reader.status, reader.body.msg.code]).toEqual([403, "desk_forbidden"]);
    const other = await act(AT_PAYMENT, order.doc, "invoice_void", { number }, { token: tokens[AT_CHECKOUT] });
    expect(other.status).toBe(401);
    const elsewhere = await act(AT_CHECKOUT, order.doc, "invoice_void", { number });
    expect([elsewhere.status, elsewhere.body.msg.code]).toEqual([404, "order_not_found"]);
    const malformed = await act(AT_PAYMENT, order.doc, "invoice_void", { number: "12345678" });
    expect([malformed.status, malformed.body.msg.extrainfo?.field]).toEqual([400, "number"]);
    expect(await sandboxOf(order.doc)).toHaveLength(1);

    const formKey = newFormKey();
    const first = await act(AT_PAYMENT, order.doc, "invoice_void", { number }, { formKey, token: tokens.owner });
    expect(first.body.data.outcome).toBe("done");
    const replay = await act(AT_PAYMENT, order.doc, "invoice_void", { number }, { formKey, token: tokens.owner });
    expect(replay.body.data.outcome).toBe("already_done");
    // One void, one new invoice: nothing done twice.
    expect((await sandboxOf(order.doc)).map((row) => row.status)).toEqual(["voided", "issued"]);
    expect((await auditActions(order.doc)).filter((action) => action === "invoice_void")).toHaveLength(1);
  });

  it("a void racing the Cron's run: the desk's batch loses to the runner's write and refuses whole, nothing recorded", async () => {
    const order = await paid(AT_PAYMENT, addDays(today, 39));
    await cron(Date.now());
    const number = (await panel(AT_PAYMENT, order.doc))?.number;
    // Between the desk's read and its batch, a run writes the invoice (here: the order queued again and run).
    const raced = await act(
      AT_PAYMENT,
      order.doc,
      "invoice_void",
      { number },
      {
        db: racing(env.DB, async () => {
          await env.DB.batch(enqueueInvoiceStatements(env.DB, order.id));
          await runInvoice(deps, order.id);
        }),
      },
    );
    expect([raced.status, raced.body.msg.code]).toEqual([409, "desk_state_changed"]);
    expect(await auditActions(order.doc)).not.toContain("invoice_void");
    expect((await sandboxOf(order.doc)).map((row) => row.status)).toEqual(["issued"]);
  });
});

describe("a cancellation racing the check-out", () => {
  it("the desk's cancellation read the guest as expected; the check-in and check-out land first: the cancellation refuses, the stay is invoiced once in full", async () => {
    const order = await paid(AT_CHECKOUT, today);
    await cron(Date.now());
    const cancel = await act(
      AT_CHECKOUT,
      order.doc,
      "cancel",
      { reason: "Guest phoned" },
      {
        db: racing(env.DB, async () => {
          expect((await act(AT_CHECKOUT, order.doc, "check_in")).status).toBe(200);
          expect((await act(AT_CHECKOUT, order.doc, "check_out")).status).toBe(200);
        }),
      },
    );
    expect(cancel.status).toBe(409);
    expect(await orderOf(order.doc)).toMatchObject({ status: "confirmed", stay_status: "checked_out" });
    await cron(Date.now());
    expect(await panel(AT_CHECKOUT, order.doc)).toMatchObject({ status: "issued", amount: order.total, kept: order.total });
    expect((await sandboxOf(order.doc)).map((row) => row.status)).toEqual(["issued"]);
  });

  it("the runner read the stay as live; the cancellation lands before its write: it holds the stale amount, and the next run settles on the fee", async () => {
    const order = await paid(AT_CHECKOUT, addDays(today, 2));
    let fee = -1;
    await runInvoice(
      {
        ...deps,
        db: racing(env.DB, async () => {
          const cancelled = await act(AT_CHECKOUT, order.doc, "cancel", { reason: "Guest phoned" });
          expect(cancelled.status).toBe(200);
          fee = cancelled.body.data.fee ?? -1;
        }),
      },
      order.id,
    );
    expect(fee).toBeGreaterThan(0);
    // The runner acted on what it read: the whole stay held. The cancellation queued the order again.
    expect((await sandboxOf(order.doc)).map((row) => [row.status, row.amount])).toEqual([["held", order.total]]);
    expect(await queued(order.id)).not.toBeNull();
    await cron(Date.now());
    const invoice = await panel(AT_CHECKOUT, order.doc);
    expect(invoice).toMatchObject({ status: "issued", amount: fee, kept: fee });
    expect((await sandboxOf(order.doc)).map((row) => [row.status, row.amount])).toEqual([
      ["cancelled", order.total],
      ["issued", fee],
    ]);
    expect(await sandboxNet(order.doc)).toBe(fee);
  });
});
