/**
 * E-invoice allowances by the buyer's emailed consent (ECPay AllowanceByCollegiate, decision 167),
 * against the built-in back end, a real D1, the Worker and the invoice sandbox: a cancellation after
 * the void cut-off at a hotel whose file says `allowance: "consent"` asks the allowance by consent;
 * the sandbox emails the guest (the real outbox, in the order's language) a link to its consent
 * page, whose "agree" posts the signed callback to the hotel's ReturnURL route, as ECPay would; the
 * allowance is then made (the desk's panel, its history, the sandbox's amounts, the guest's order
 * page). Then a refusal, the 72 hours lapsing under the Cron, staff's two actions, a replay, a
 * forged signature, another hotel's callback, two callbacks racing, and the page on a live host.
 */
import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { sha256Hex } from "~/lib/crypto";
import { createLogger } from "~/platform/log.server";
import { handleBackendRequest } from "~/backend/router.server";
import { runInvoice } from "~/backend/einvoice/runner.server";
import { einvoiceCheckMacValue } from "~/backend/einvoice/ecpay.server";
import { sandboxEinvoiceKeys } from "~/backend/einvoice/sandbox.server";
import { composePending } from "~/backend/mail/compose.server";
import type { EinvoiceDeps } from "~/backend/einvoice/registry.server";
import { handleScheduled } from "~/worker/scheduled.server";
import { BOOKER, fetchAs, fixtureHotel, fixtureIds, loadHotel, setAsideOtherHotelsMail, text, type Envelope } from "./helpers";

const CONSENT = "einv-consent.localhost";
const OTHER = "einv-consent-other.localhost";
const today = todayIn("Asia/Taipei");
const DAY = 86_400_000;
const HOUR = 3_600_000;

const ids: Record<string, Record<string, number>> = {};

const deps: EinvoiceDeps = {
  db: env.DB,
  secret: () => undefined,
  fetcher: () => Promise.reject(new Error("no network in this test")),
  testGateway: true,
};

const hotelFile = (domain: string) =>
  fixtureHotel(domain, (file) => {
    file.room_classes[0]!.total_rooms = 30;
    Object.assign(file.hotel, { payment_list: [{ vendor_id: 8, method: "remittance" }] });
    // No free window: two days ahead the standard contract gives half back, and the hotel keeps the rest.
    for (const plan of file.rate_plans as { refund_template_id?: number }[]) plan.refund_template_id = 0;
    file.inventory.sold_out = [];
    (file as { invoicing?: unknown }).invoicing = {
      issuer: "portico_at_payment",
      provider: "sandbox",
      seller_tax_id: "04595257",
      allowance: "consent",
    };
  });

/** A front-desk member's full session made in D1 (only the token's SHA-256 is kept), last seen at `at`. */
async function staffSession(domain: string, email: string, at = new Date()): Promise<string> {
  const hotelId = ids[domain]!.hotel!;
  const staff = await env.DB.prepare(
    "INSERT INTO staff (hotel_id, email, name, role, status, password_hash) VALUES (?, ?, ?, 'front_desk', 'active', 'x') RETURNING id",
  )
    .bind(hotelId, email, email.split("@")[0])
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
  for (const domain of [CONSENT, OTHER]) {
    await loadHotel(hotelFile(domain));
    ids[domain] = await fixtureIds(domain);
  }
});

// Files share one database (decision 164): this file's orders leave no work on the queue for another file's runs.
afterAll(async () => {
  await env.DB.prepare("DELETE FROM einvoice_queue WHERE hotel_id IN (?, ?)").bind(ids[CONSENT]!.hotel!, ids[OTHER]!.hotel!).run();
});

async function call<T>(domain: string, path: string, body: unknown, headers: Record<string, string> = {}, now = new Date()) {
  const request = new Request(`http://${domain}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await handleBackendRequest(request, { db: env.DB, signingSecret: env.SESSION_SECRET as string, now, testGateway: true });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

const newFormKey = () => `fk${crypto.randomUUID().replaceAll("-", "")}`;

function act(domain: string, doc: string, action: string, token: string, fields: Record<string, unknown> = {}, now = new Date()) {
  return call<{ outcome: string; invoice_status?: string }>(
    domain,
    `/api/desk/bookings/${doc}/actions/${action}?lang=en-US`,
    { domain, form_key: newFormKey(), ...fields },
    { "x-desk-session": token },
    now,
  );
}

interface Panel {
  status: string;
  amount: number;
  kept: number;
  number: string;
  allowances: { number: string; invoice_number: string; amount: number; status: string; consent: boolean; expires_at: string }[];
  lapsed_consent: { status: string; amount: number } | null;
  actions: string[];
  history: { kind: string; outcome: string; detail: string }[];
}

async function panel(domain: string, doc: string, token: string, now = new Date()): Promise<Panel> {
  const page = await call<{ invoice: Panel | null }>(
    domain,
    `/api/desk/bookings/${doc}?domain=${domain}&lang=en-US`,
    undefined,
    { "x-desk-session": token },
    now,
  );
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  if (!page.body.data.invoice) throw new Error("no invoice panel");
  return page.body.data.invoice;
}

let seq = 0;
interface Paid {
  doc: string;
  id: number;
  total: number;
  viewHash: string;
}

/** Books one night two days ahead (in `lang`), pays it in full at the desk, and has the Cron issue its invoice. */
/** A booking paid by a transfer recorded at the desk at `at`: the desk issues its invoice then, before answering (decision 169). */
async function paid(domain: string, token: string, lang = "en-US", at = new Date()): Promise<Paid> {
  const refs = ids[domain]!;
  const created = await call<{ order_doc: string; order: { valid_hash: string } }>(
    domain,
    `/api/ota/order/personal-new?lang=${lang}`,
    {
      domain,
      ...BOOKER,
      check_in_day: addDays(today, 2),
      check_out_day: addDays(today, 3),
      pay_way: "remittance",
      payment_vendor: 8,
      orders: [{ room_class_id: refs.room, proposal_id: refs.BAR, num: 1 }],
      adults_count: 2,
    },
    { "idempotency-key": `einv-consent-${++seq}-${Date.now()}` },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const doc = created.body.data.order_doc;
  const order = await env.DB.prepare("SELECT id, total_price FROM orders WHERE order_doc = ?")
    .bind(doc)
    .first<{ id: number; total_price: number }>();
  const done = await act(
    domain,
    doc,
    "record_transfer",
    token,
    { amount: order!.total_price, transfer_date: at.toISOString().slice(0, 10), account_last5: "54321" },
    at,
  );
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { doc, id: order!.id, total: order!.total_price, viewHash: created.body.data.order.valid_hash };
}

/**
 * An order paid and invoiced now, cancelled by the desk two days ahead (the hotel keeps a fee), then
 * run 80 days on, when its invoice's period has closed (whatever today's period): the allowance of
 * what goes back is asked by the guest's consent. Answers the order, the fee, the later clock and a
 * staff session valid then.
 */
async function cancelledAfterCutOff(domain: string, lang = "en-US", clock: { issuedAt?: number; askedAt?: number } = {}) {
  const token = await staffSession(domain, `desk${++seq}@${domain}`);
  // Paid (and so invoiced, by the desk) at `issuedAt`, by staff signed in then.
  const paidAt = new Date(clock.issuedAt ?? Date.now());
  const order = await paid(domain, await staffSession(domain, `paid${++seq}@${domain}`, paidAt), lang, paidAt);
  const cancelled = await act(domain, order.doc, "cancel", token, { reason: "Guest phoned" });
  expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  const after = new Date(clock.askedAt ?? Date.now() + 80 * DAY);
  await runInvoice(deps, order.id, () => after);
  const later = await staffSession(domain, `later${++seq}@${domain}`, after);
  const fee = (await panel(domain, order.doc, later, after)).kept;
  expect(fee).toBeGreaterThan(0);
  expect(fee).toBeLessThan(order.total);
  return { order, fee, after, later };
}

/** The sandbox's invoices of an order less their allowances MADE (one awaiting consent is not). */
const sandboxNet = async (doc: string) =>
  (
    await env.DB.prepare(
      `SELECT COALESCE(SUM(i.amount - COALESCE((SELECT SUM(a.amount) FROM einvoice_sandbox_allowances a WHERE a.invoice_number = i.number AND a.status = 'issued'), 0)), 0) AS net
       FROM einvoice_sandbox_invoices i WHERE i.relate_number LIKE ? AND i.status = 'issued'`,
    )
      .bind(`${doc.replace(/-/g, "")}E%`)
      .first<{ net: number }>()
  )?.net ?? -1;

const compose = () =>
  composePending(
    { db: env.DB, signingSecret: env.SESSION_SECRET as string, now: new Date(), log: createLogger("test"), assets: undefined },
    50,
  );

/** The order's consent emails, composed, oldest first. */
async function consentMails(orderId: number) {
  await setAsideOtherHotelsMail(CONSENT, OTHER);
  await compose();
  return (
    await env.DB.prepare(
      "SELECT lang, to_address, subject, text_body, html_body, status, about FROM mail_outbox WHERE order_id = ? AND kind = 'einvoice_consent' ORDER BY id",
    )
      .bind(orderId)
      .all<{ lang: string; to_address: string; subject: string; text_body: string; html_body: string; status: string; about: string }>()
  ).results;
}

/** The consent page's path in an email's text (the site's origin stripped: the test asks the Worker by host). */
const consentPath = (mail: { text_body: string }) => {
  const link = /https?:\/\/[^\s]+\/sandbox-einvoice\/consent\?t=[0-9a-f]{32}/.exec(mail.text_body)?.[0];
  if (!link) throw new Error(`no consent link in ${mail.text_body}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** The guest answers on the sandbox's consent page, as a browser without JavaScript would: the page, then its form. */
async function answer(domain: string, path: string, decision: "agree" | "refuse"): Promise<Response> {
  const page = await fetchAs(domain, path);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain(`name="decision" value="${decision}"`);
  const token = /name="token" value="([0-9a-f]{32})"/.exec(html)?.[1] ?? "";
  return fetchAs(domain, "/sandbox-einvoice/consent", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, decision }).toString(),
  });
}

/** A consent callback signed with a hotel's sandbox keys, as the sandbox (or ECPay) posts it. */
async function signedCallback(hotelId: number, fields: Record<string, string>): Promise<string> {
  const keys = await sandboxEinvoiceKeys(env.SESSION_SECRET as string, hotelId);
  return new URLSearchParams({ ...fields, CheckMacValue: einvoiceCheckMacValue(fields, keys) }).toString();
}

const postCallback = (domain: string, hotelId: number, body: string) =>
  fetchAs(domain, `/api/einvoice/allowance-consent/${hotelId}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });

/** What could change: the order's invoice row, its allowances and history, the sandbox's allowances. */
const snapshot = async (orderId: number, doc: string) => ({
  row: await env.DB.prepare("SELECT version, state FROM order_invoices WHERE order_id = ?").bind(orderId).first(),
  allowances: (await env.DB.prepare("SELECT * FROM einvoice_allowances WHERE order_id = ? ORDER BY seq").bind(orderId).all()).results,
  events: (await env.DB.prepare("SELECT COUNT(*) AS n FROM einvoice_events WHERE order_id = ?").bind(orderId).first<{ n: number }>())?.n,
  net: await sandboxNet(doc),
});

const cron = (at: number) => handleScheduled({ scheduledTime: at, cron: "*/5 * * * *" }, env as unknown as Record<string, unknown>);
const historyKinds = (invoice: Panel) => invoice.history.map((line) => line.kind);
const count = (kinds: string[], kind: string) => kinds.filter((candidate) => candidate === kind).length;

describe("an allowance by the guest's emailed consent", () => {
  it("after the cut-off: awaiting consent, the guest emailed in their language, agreeing on the sandbox's page makes it; the desk, the amounts and the order page say so", async () => {
    const { order, fee, after, later } = await cancelledAfterCutOff(CONSENT, "ja-JP");
    const back = order.total - fee;
    const asked = await panel(CONSENT, order.doc, later, after);
    // Asked, not made: the invoice still counts in full, the allowance awaits the guest.
    expect(asked).toMatchObject({ status: "issued", amount: order.total, kept: fee, lapsed_consent: null });
    expect(asked.allowances).toEqual([expect.objectContaining({ amount: back, status: "awaiting", consent: true })]);
    expect(Date.parse(asked.allowances[0]!.expires_at) - after.getTime()).toBe(72 * HOUR);
    expect(asked.allowances[0]!.number).toMatch(/^\d{16}$/);
    expect(await sandboxNet(order.doc)).toBe(order.total);
    // Asked once: the queue looking again asks nothing more.
    await runInvoice(deps, order.id, () => new Date(after.getTime() + HOUR));
    expect(count(historyKinds(await panel(CONSENT, order.doc, later, after)), "call:allowance")).toBe(1);

    // The guest's order page: awaiting their consent by email.
    const page = text(
      await (await fetchAs(CONSENT, `/en-US/hxa/orders/${order.doc}?valid_hash=${encodeURIComponent(order.viewHash)}`)).text(),
    );
    expect(page).toMatch(/awaiting your consent: we emailed you a link/);

    // The consent email, through the outbox, in the order's language (ja-JP), to the buyer.
    const [mail, ...more] = await consentMails(order.id);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ lang: "ja-JP", to_address: BOOKER.booker_email, status: "queued" });
    expect(mail!.subject).toContain("折讓へのご同意のお願い");
    expect(mail!.subject).toContain(order.doc);
    expect(mail!.text_body).toContain(asked.number);
    expect(mail!.text_body).toContain("72時間以内");

    // The page, in Japanese; the guest agrees: the page posts the signed callback to the hotel's ReturnURL.
    const consentPage = await fetchAs(CONSENT, consentPath(mail!));
    const html = await consentPage.text();
    expect(html).toMatch(/<html lang="ja-JP"/);
    expect(html).toContain(asked.number);
    const agreed = await answer(CONSENT, consentPath(mail!), "agree");
    expect(agreed.status).toBe(200);
    expect(await agreed.text()).toContain("同意され、折讓が作成されました");

    const made = await panel(CONSENT, order.doc, later, after);
    expect(made).toMatchObject({ status: "allowance", amount: fee, kept: fee, lapsed_consent: null });
    expect(made.allowances).toEqual([expect.objectContaining({ amount: back, status: "issued", consent: true, expires_at: "" })]);
    expect(count(historyKinds(made), "consent:agreed")).toBe(1);
    expect(made.history.find((line) => line.kind === "consent:agreed")?.detail).toContain(asked.allowances[0]!.number);
    // What the provider holds is what the hotel keeps.
    expect(await sandboxNet(order.doc)).toBe(fee);
    const pageAfter = text(
      await (await fetchAs(CONSENT, `/en-US/hxa/orders/${order.doc}?valid_hash=${encodeURIComponent(order.viewHash)}`)).text(),
    );
    expect(pageAfter).toMatch(/made with your consent/);

    // The link again: answered already, it cannot be answered twice; the same callback again changes nothing.
    const again = await fetchAs(CONSENT, "/sandbox-einvoice/consent", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: mail!.about, decision: "refuse" }).toString(),
    });
    expect(again.status).toBe(409);
    const before = await snapshot(order.id, order.doc);
    const replay = await postCallback(
      CONSENT,
      ids[CONSENT]!.hotel!,
      await signedCallback(ids[CONSENT]!.hotel!, {
        RtnCode: "1",
        RtnMsg: "",
        IA_Allow_No: asked.allowances[0]!.number,
        IA_Invoice_No: asked.number,
        IA_Date: "2026-01-01 10:00:00",
        IIS_Remain_Allowance_Amt: String(fee),
      }),
    );
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe("1|OK");
    // Even a refusal of the same allowance after it was made: the same answer, nothing changes.
    const lateRefusal = await postCallback(
      CONSENT,
      ids[CONSENT]!.hotel!,
      await signedCallback(ids[CONSENT]!.hotel!, {
        RtnCode: "0",
        RtnMsg: "",
        IA_Allow_No: asked.allowances[0]!.number,
        IA_Invoice_No: asked.number,
      }),
    );
    expect(await lateRefusal.text()).toBe("1|OK");
    expect(await snapshot(order.id, order.doc)).toEqual(before);
  });

  it("refused by the guest: recorded and shown to staff, never asked again by itself; staff make it now (once), audit-logged", async () => {
    const { order, fee, after, later } = await cancelledAfterCutOff(CONSENT);
    const [mail] = await consentMails(order.id);
    expect(mail?.lang).toBe("en-US");
    const refused = await answer(CONSENT, consentPath(mail!), "refuse");
    expect(await refused.text()).toContain("You did not agree");
    const shown = await panel(CONSENT, order.doc, later, after);
    expect(shown).toMatchObject({
      status: "issued",
      amount: order.total,
      lapsed_consent: { status: "refused", amount: order.total - fee },
    });
    expect(shown.allowances[0]).toMatchObject({ status: "refused" });
    expect(shown.actions).toEqual(expect.arrayContaining(["invoice_consent_again", "invoice_allowance_now"]));
    expect(count(historyKinds(shown), "consent:refused")).toBe(1);
    const page = text(
      await (await fetchAs(CONSENT, `/en-US/hxa/orders/${order.doc}?valid_hash=${encodeURIComponent(order.viewHash)}`)).text(),
    );
    expect(page).toMatch(/not agreed: the hotel will contact you/);
    // The Cron, days later, asks nothing.
    await cron(after.getTime() + 5 * DAY);
    await runInvoice(deps, order.id, () => new Date(after.getTime() + 6 * DAY));
    expect(count(historyKinds(await panel(CONSENT, order.doc, later, after)), "call:allowance")).toBe(1);

    // Staff hold the guest's written consent: the allowance made at once.
    const now = await act(CONSENT, order.doc, "invoice_allowance_now", later, {}, after);
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    const made = await panel(CONSENT, order.doc, later, after);
    expect(made).toMatchObject({ status: "allowance", amount: fee, lapsed_consent: null });
    expect(made.allowances.map((allowance) => [allowance.status, allowance.consent])).toEqual([
      ["refused", true],
      ["issued", false],
    ]);
    expect(await sandboxNet(order.doc)).toBe(fee);
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE subject = ? ORDER BY id")
      .bind(`order:${order.doc}`)
      .all<{ action: string }>();
    expect(audit.results.map((row) => row.action)).toContain("invoice_allowance_now");
    // Nothing left to follow up: both actions refused with a clear message, nothing written.
    for (const action of ["invoice_allowance_now", "invoice_consent_again"]) {
      const refusedAgain = await act(CONSENT, order.doc, action, later, {}, after);
      expect(refusedAgain.status).toBe(409);
      expect(refusedAgain.body.msg.code).toBe("desk_invoice_no_lapsed_consent");
      expect(refusedAgain.body.msg.message).toMatch(/nothing to ask again or to make now/);
    }
    const jaRefusal = await call(
      CONSENT,
      `/api/desk/bookings/${order.doc}/actions/invoice_consent_again?lang=ja-JP`,
      { domain: CONSENT, form_key: newFormKey() },
      { "x-desk-session": later },
      after,
    );
    expect(jaRefusal.body.msg.message).toMatch(/同意されなかった折讓/);
  });

  it("72 hours without consent: the Cron marks it expired once; staff ask again (a new email), and the old link is dead", async () => {
    // Invoiced 100 days ago, asked 73 hours ago: the link has lapsed by the sandbox's (real) clock too.
    const asked = Date.now() - 73 * HOUR;
    const { order, fee, after, later } = await cancelledAfterCutOff(CONSENT, "en-US", { issuedAt: Date.now() - 100 * DAY, askedAt: asked });
    const [first] = await consentMails(order.id);
    // 71 hours on: still awaiting.
    await cron(after.getTime() + 71 * HOUR);
    expect((await panel(CONSENT, order.doc, later, after)).allowances[0]?.status).toBe("awaiting");
    // The queue looks again when the link lapses: expired, once however often the Cron passes.
    for (const hours of [72, 72.5, 73]) await cron(after.getTime() + hours * HOUR + 1_000);
    const lapsed = await panel(CONSENT, order.doc, later, after);
    expect(lapsed).toMatchObject({
      status: "issued",
      amount: order.total,
      lapsed_consent: { status: "expired", amount: order.total - fee },
    });
    expect(count(historyKinds(lapsed), "consent_expired")).toBe(1);
    expect(count(historyKinds(lapsed), "call:allowance")).toBe(1);
    const page = text(
      await (await fetchAs(CONSENT, `/en-US/hxa/orders/${order.doc}?valid_hash=${encodeURIComponent(order.viewHash)}`)).text(),
    );
    expect(page).toMatch(/consent link expired/);

    // Ask again: a new allowance by consent and a new email; the first link no longer answers.
    const askedAgain = new Date();
    const again = await act(
      CONSENT,
      order.doc,
      "invoice_consent_again",
      await staffSession(CONSENT, `again${++seq}@x.example`, askedAgain),
      {},
      askedAgain,
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const renewed = await panel(CONSENT, order.doc, later, after);
    expect(renewed.allowances.map((allowance) => allowance.status)).toEqual(["expired", "awaiting"]);
    expect(renewed.lapsed_consent).toBeNull();
    const mails = await consentMails(order.id);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.about).not.toBe(first!.about);
    const dead = await fetchAs(CONSENT, consentPath(first!));
    expect(dead.status).toBe(410);
    expect(await dead.text()).toContain("can no longer be answered");
    // The second link works.
    expect((await answer(CONSENT, consentPath(mails[1]!), "agree")).status).toBe(200);
    expect((await panel(CONSENT, order.doc, later, after)).amount).toBe(fee);
    expect(await sandboxNet(order.doc)).toBe(fee);
  });

  it("a forged signature, an unknown allowance, another hotel's callback: 400, and nothing changes", async () => {
    const { order, after, later } = await cancelledAfterCutOff(CONSENT);
    const asked = await panel(CONSENT, order.doc, later, after);
    const allowanceNo = asked.allowances[0]!.number;
    const fields = {
      RtnCode: "1",
      RtnMsg: "",
      IA_Allow_No: allowanceNo,
      IA_Invoice_No: asked.number,
      IA_Date: "",
      IIS_Remain_Allowance_Amt: "0",
    };
    const hotelId = ids[CONSENT]!.hotel!;
    const otherId = ids[OTHER]!.hotel!;
    const before = await snapshot(order.id, order.doc);
    const refusals: [string, Response][] = [
      // A signature that does not verify.
      ["forged", await postCallback(CONSENT, hotelId, new URLSearchParams({ ...fields, CheckMacValue: "0".repeat(32) }).toString())],
      // No signature at all.
      ["unsigned", await postCallback(CONSENT, hotelId, new URLSearchParams(fields).toString())],
      // Signed for this hotel, but no allowance of it by that number, or on another invoice.
      ["unknown", await postCallback(CONSENT, hotelId, await signedCallback(hotelId, { ...fields, IA_Allow_No: "1234567890123456" }))],
      ["other invoice", await postCallback(CONSENT, hotelId, await signedCallback(hotelId, { ...fields, IA_Invoice_No: "TS99999999" }))],
      // Signed by another hotel's keys, posted at this hotel's address, or at its own naming this hotel's allowance.
      ["other hotel's keys", await postCallback(CONSENT, hotelId, await signedCallback(otherId, fields))],
      ["other hotel's address", await postCallback(OTHER, otherId, await signedCallback(otherId, fields))],
      // No such hotel.
      ["no hotel", await postCallback(CONSENT, 999_999, await signedCallback(999_999, fields))],
    ];
    for (const [label, response] of refusals) {
      expect(response.status, label).toBe(400);
      expect(await response.text(), label).toMatch(/^0\|/);
    }
    expect(await snapshot(order.id, order.doc)).toEqual(before);
    expect((await panel(CONSENT, order.doc, later, after)).allowances[0]?.status).toBe("awaiting");
  });

  it("two callbacks of one consent racing (and the Cron's expiry racing a late consent): made once, one history line", async () => {
    const { order, fee, after, later } = await cancelledAfterCutOff(CONSENT);
    const asked = await panel(CONSENT, order.doc, later, after);
    const hotelId = ids[CONSENT]!.hotel!;
    const body = await signedCallback(hotelId, {
      RtnCode: "1",
      RtnMsg: "",
      IA_Allow_No: asked.allowances[0]!.number,
      IA_Invoice_No: asked.number,
      IA_Date: "2026-01-01 10:00:00",
      IIS_Remain_Allowance_Amt: String(fee),
    });
    // The Cron's pass after the 72 hours and two deliveries of the consent, all at once.
    const answers = await Promise.all([
      postCallback(CONSENT, hotelId, body),
      cron(after.getTime() + 73 * HOUR),
      postCallback(CONSENT, hotelId, body),
    ]);
    for (const response of [answers[0], answers[2]] as Response[]) expect(await response.text()).toBe("1|OK");
    const made = await panel(CONSENT, order.doc, later, after);
    // The provider's word wins: the consent was given, so the allowance is made, whatever the Cron read.
    expect(made.allowances[0]?.status).toBe("issued");
    expect(made).toMatchObject({ status: "allowance", amount: fee, lapsed_consent: null });
    expect(count(historyKinds(made), "consent:agreed")).toBe(1);
    expect(count(historyKinds(made), "call:allowance")).toBe(1);
  });

  it("the consent page does not exist on a live host, and answers nothing without its token", async () => {
    const { order } = await cancelledAfterCutOff(CONSENT);
    const [mail] = await consentMails(order.id);
    const live = await fetchAs("www.example.com", consentPath(mail!));
    expect(live.status).toBe(404);
    expect(await live.text()).not.toContain("sandbox-einvoice");
    const noToken = await fetchAs(CONSENT, "/sandbox-einvoice/consent?t=not-a-token&lang=en-US");
    expect(noToken.status).toBe(404);
    expect(await noToken.text()).toContain("not valid");
    // Still awaiting: nothing was decided.
    expect(
      (await env.DB.prepare("SELECT status FROM einvoice_sandbox_allowances WHERE token = ?").bind(mail!.about).first<{ status: string }>())
        ?.status,
    ).toBe("awaiting");
  });
});
