/**
 * The guest's "invoice issued" email (decision 163): when the e-invoice is issued after the
 * guest's emails before it were written (the Cron's retry, staff's "issue now", a void and issue
 * again), a short email says the number, in the order's language; when an email of the order
 * already said the number (the paid receipt written after the issue), none is sent. The guest is
 * told each number once, whichever of the payment's run and the mail's composition comes first.
 * Real D1, the built Worker for the gateway's callback, the e-invoice sandbox.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { sha256Hex } from "~/lib/crypto";
import { createLogger } from "~/platform/log.server";
import { handleBackendRequest } from "~/backend/router.server";
import { composePending } from "~/backend/mail/compose.server";
import { runAfterPayment, runInvoiceQueue } from "~/backend/einvoice/runner.server";
import { failNextSandboxCalls } from "~/backend/einvoice/sandbox.server";
import type { EinvoiceDeps } from "~/backend/einvoice/registry.server";
import { markOrderPaid } from "~/backend/payments/settle.server";
import { checkMacValue, ecpayDate } from "~/backend/payments/gateways/ecpay";
import { sandboxKeys } from "~/backend/payments/gateways/sandbox-gateway";
import { BOOKER, apiJson, fetchAs, fixtureHotel, hotelRefs, loadHotel, type Envelope, type HotelRefs } from "./helpers";

const HOST = "einv-mail.localhost";
const MERCHANT = "2000132";
const today = todayIn("Asia/Taipei");
const DAY = 86_400_000;

const deps: EinvoiceDeps = {
  db: env.DB,
  secret: () => undefined,
  fetcher: () => Promise.reject(new Error("no network in this test")),
  testGateway: true,
};
const compose = () =>
  composePending(
    { db: env.DB, signingSecret: env.SESSION_SECRET as string, now: new Date(), log: createLogger("test"), assets: undefined },
    50,
  );

let hotel: HotelRefs;
let token = "";

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      file.room_classes[0]!.total_rooms = 30;
      file.inventory.sold_out = [];
      const info = file.hotel as Record<string, unknown>;
      info.payment_list = [
        { vendor_id: 1, method: "credit" },
        { vendor_id: 8, method: "remittance" },
      ];
      info.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: MERCHANT }];
      (file as { invoicing?: unknown }).invoicing = { issuer: "portico_at_payment", provider: "sandbox", seller_tax_id: "04595257" };
    }),
  );
  hotel = await hotelRefs(HOST);
  // A front-desk member with a full session (only the token's SHA-256 is kept).
  const staff = await env.DB.prepare(
    "INSERT INTO staff (hotel_id, email, name, role, status, password_hash) VALUES (?, 'desk@einv-mail.example', 'desk', 'front_desk', 'active', 'x') RETURNING id",
  )
    .bind(hotel.id)
    .first<{ id: number }>();
  token = [...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const now = new Date();
  await env.DB.prepare(
    "INSERT INTO staff_sessions (token_hash, staff_id, hotel_id, stage, last_seen_at, expires_at) VALUES (?, ?, ?, 'full', ?, ?)",
  )
    .bind(await sha256Hex(token), staff!.id, hotel.id, now.toISOString(), new Date(now.getTime() + DAY).toISOString())
    .run();
});

interface Created {
  order_doc: string;
  order: { valid_hash: string; final_amount: number; pay_amount: number };
}

let stay = 30;
/** Books one night in `lang`, as a guest would (the confirmation is queued and written at once). */
async function order(lang: string, payWay: "remittance" | "credit" = "remittance") {
  const created = await apiJson<Created>(HOST, `/api/ota/order/personal-new?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      domain: HOST,
      ...BOOKER,
      check_in_day: addDays(today, stay),
      check_out_day: addDays(today, ++stay),
      pay_way: payWay,
      payment_vendor: payWay === "credit" ? 1 : 8,
      orders: [{ room_class_id: hotel.room, proposal_id: hotel.plan, num: 1 }],
      adults_count: 2,
    }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const row = await env.DB.prepare("SELECT id FROM orders WHERE order_doc = ?").bind(created.body.data.order_doc).first<{ id: number }>();
  return { ...created.body.data, id: row!.id };
}

/** A bank transfer arrives: recorded as every payment is (markOrderPaid), the paid receipt queued in its batch. */
async function pay(created: Awaited<ReturnType<typeof order>>) {
  const tradeNo = `MAIL${created.id}`;
  await env.DB.prepare(
    "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) VALUES (?, 8, 'sandbox', ?, ?, 'full')",
  )
    .bind(created.id, tradeNo, created.order.pay_amount)
    .run();
  const payment = await env.DB.prepare("SELECT id, order_id, amount FROM payments WHERE trade_no = ?")
    .bind(tradeNo)
    .first<{ id: number; order_id: number; amount: number }>();
  const outcome = await markOrderPaid(env.DB, createLogger("test"), payment!, `G${tradeNo}`, { origin: `http://${HOST}`, product: "hxa" });
  expect(outcome.changed).toBe(true);
}

/** The guest's emails of an order, oldest first. */
const mails = (orderId: number) =>
  env.DB.prepare(
    "SELECT id, kind, lang, status, subject, text_body, html_body, about, last_error FROM mail_outbox WHERE order_id = ? AND to_address = ? ORDER BY id",
  )
    .bind(orderId, BOOKER.booker_email)
    .all<{
      id: number;
      kind: string;
      lang: string;
      status: string;
      subject: string | null;
      text_body: string | null;
      html_body: string | null;
      about: string;
      last_error: string;
    }>()
    .then((rows) => rows.results);
const invoiceNumber = (orderId: number) =>
  env.DB.prepare("SELECT number FROM order_invoices WHERE order_id = ?")
    .bind(orderId)
    .first<string>("number")
    .then((number) => number ?? "");
const dueAt = (orderId: number) =>
  env.DB.prepare("SELECT next_attempt_at FROM einvoice_queue WHERE order_id = ?")
    .bind(orderId)
    .first<string>("next_attempt_at")
    .then((at) => Date.parse(at ?? ""));

/** The emails that told the guest `number` (written, and queued or sent). */
const told = async (orderId: number, number: string) =>
  (await mails(orderId))
    .filter((mail) => ["queued", "sent"].includes(mail.status) && (mail.text_body ?? "").includes(number))
    .map((mail) => mail.kind);

describe("an invoice issued after the guest's emails were written", () => {
  it("the Cron's retry: the guest gets a short email with the number, in the order's language, once", async () => {
    const created = await order("ja-JP");
    await failNextSandboxCalls(env.DB, hotel.id, "issue", "unavailable");
    await pay(created);
    await runAfterPayment(deps, created.id);
    expect(await invoiceNumber(created.id)).toBe("");
    // The confirmation and the paid receipt are written now: the receipt says the invoice is being issued.
    await compose();
    const before = await mails(created.id);
    expect(before.map((mail) => [mail.kind, mail.status])).toEqual([
      ["order_confirmation", "queued"],
      ["paid_receipt", "queued"],
    ]);
    expect(before[1]?.text_body).toContain("発行手続き中");

    // The Cron's pass when the retry is due issues it; the email is queued in the same batch, and written.
    const due = await dueAt(created.id);
    await runInvoiceQueue(deps, () => new Date(due));
    const number = await invoiceNumber(created.id);
    expect(number).toMatch(/^[A-Z]{2}\d{8}$/);
    await compose();
    const after = await mails(created.id);
    const email = after.find((mail) => mail.kind === "invoice_issued");
    expect(email).toMatchObject({ lang: "ja-JP", status: "queued", about: number });
    expect(email?.subject).toBe(`[TEST] 【測試旅館】電子発票発行のお知らせ ${created.order_doc}`);
    expect(email?.text_body).toContain("ご予約の電子発票を発行いたしました。");
    expect(email?.text_body).toMatch(new RegExp(`発票番号：${number} · ランダムコード \\d{4} · NT\\$[\\d,]+`));
    expect(email?.text_body).toContain(`/ja-JP/hxa/orders/${created.order_doc}?valid_hash=`);
    expect(email?.html_body).toContain(number);
    // The hotel's phone is a link a phone can call, as in the booking's other emails.
    expect(email?.html_body).toContain('href="tel:+886212345678"');
    expect(await told(created.id, number)).toEqual(["invoice_issued"]);

    // The Cron again, and the payment's run again: no second email.
    await runInvoiceQueue(deps, () => new Date(due + 60_000));
    await runAfterPayment(deps, created.id);
    await compose();
    expect((await mails(created.id)).filter((mail) => mail.kind === "invoice_issued")).toHaveLength(1);
  });

  it("in each of the five languages, the email's subject, and the number under the language's own label", async () => {
    const labels = { "zh-TW": "發票號碼", "en-US": "Invoice number", "ja-JP": "発票番号", "ko-KR": "영수증 번호", "zh-CN": "发票号码" };
    const subjects = {
      "zh-TW": "[TEST] 【測試旅館】電子發票已開立",
      "en-US": "[TEST] Fixture Hotel: e-invoice issued,",
      "ja-JP": "[TEST] 【測試旅館】電子発票発行のお知らせ",
      "ko-KR": "[TEST] [測試旅館] 전자 영수증 발행 안내",
      "zh-CN": "[TEST] 【測試旅館】电子发票已开立",
    };
    for (const [lang, label] of Object.entries(labels)) {
      const created = await order(lang);
      await failNextSandboxCalls(env.DB, hotel.id, "issue", "unavailable");
      await pay(created);
      await runAfterPayment(deps, created.id);
      await compose();
      await runInvoiceQueue(deps, () => new Date(Date.now() + 60_000));
      await compose();
      const number = await invoiceNumber(created.id);
      const email = (await mails(created.id)).find((mail) => mail.kind === "invoice_issued");
      expect(email?.subject, lang).toBe(`${subjects[lang as keyof typeof subjects]} ${created.order_doc}`);
      expect(email?.text_body, lang).toContain(`${label}${lang === "en-US" || lang === "ko-KR" ? ": " : "："}${number}`);
    }
  });

  it("staff's 'issue now' after the receipt said 'being issued': the email follows", async () => {
    const created = await order("en-US");
    await failNextSandboxCalls(env.DB, hotel.id, "issue", "unavailable");
    await pay(created);
    await runAfterPayment(deps, created.id);
    await compose();
    const response = await handleBackendRequest(
      new Request(`http://${HOST}/api/desk/bookings/${created.order_doc}/actions/invoice_issue_now?lang=en-US`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-desk-session": token },
        body: JSON.stringify({ domain: HOST, form_key: `fk${crypto.randomUUID().replaceAll("-", "")}` }),
      }),
      { db: env.DB, signingSecret: env.SESSION_SECRET as string, testGateway: true },
    );
    const body = (await response.json()) as Envelope<{ invoice_status: string }>;
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.data.invoice_status).toBe("issued");
    const number = await invoiceNumber(created.id);
    await compose();
    const email = (await mails(created.id)).find((mail) => mail.kind === "invoice_issued");
    expect(email?.subject).toBe(`[TEST] Fixture Hotel: e-invoice issued, ${created.order_doc}`);
    expect(email?.text_body).toContain(`Invoice number: ${number} · random number `);
    expect(await told(created.id, number)).toEqual(["invoice_issued"]);
  });

  it("a number voided before its email was written is not sent; the number issued in its place is", async () => {
    const created = await order("zh-TW");
    await failNextSandboxCalls(env.DB, hotel.id, "issue", "unavailable");
    await pay(created);
    await runAfterPayment(deps, created.id);
    await compose();
    await runInvoiceQueue(deps, () => new Date(Date.now() + 60_000));
    const first = await invoiceNumber(created.id);
    // Staff void it and issue again before any mail pass ran.
    const response = await handleBackendRequest(
      new Request(`http://${HOST}/api/desk/bookings/${created.order_doc}/actions/invoice_void?lang=en-US`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-desk-session": token },
        body: JSON.stringify({ domain: HOST, form_key: `fk${crypto.randomUUID().replaceAll("-", "")}`, number: first }),
      }),
      { db: env.DB, signingSecret: env.SESSION_SECRET as string, testGateway: true },
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const second = await invoiceNumber(created.id);
    expect(second).not.toBe(first);
    await compose();
    const invoiceMails = (await mails(created.id)).filter((mail) => mail.kind === "invoice_issued");
    expect(invoiceMails.map((mail) => [mail.about, mail.status])).toEqual([
      [first, "skipped"],
      [second, "queued"],
    ]);
    expect(invoiceMails[1]?.text_body).toContain(`發票號碼：${second}`);
    expect(invoiceMails[1]?.text_body).not.toContain(first);
  });
});

describe("an invoice issued before the emails after the payment were written", () => {
  it("the paid receipt says the number: no second email", async () => {
    const created = await order("zh-TW");
    await compose();
    await pay(created);
    // The payment's run issues it before any mail pass wrote the receipt.
    await runAfterPayment(deps, created.id);
    const number = await invoiceNumber(created.id);
    expect(number).toMatch(/^[A-Z]{2}\d{8}$/);
    await compose();
    const after = await mails(created.id);
    expect(after.map((mail) => [mail.kind, mail.status])).toEqual([
      ["order_confirmation", "queued"],
      ["paid_receipt", "queued"],
      ["invoice_issued", "skipped"],
    ]);
    expect(after[2]?.subject).toBeNull();
    expect(after[2]?.last_error).toBe("an email of the order already said the invoice number");
    expect(await told(created.id, number)).toEqual(["paid_receipt"]);
  });

  it("paid on the gateway, the payment's run and the mail's pass racing in the callback's background work: the guest is told the number once", async () => {
    for (let round = 0; round < 3; round++) {
      const created = await order("en-US", "credit");
      const keys = await sandboxKeys(env.SESSION_SECRET as string, MERCHANT);
      const tradeNo = `MAILR${created.id}`;
      await env.DB.prepare(
        "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) VALUES (?, 1, 'sandbox', ?, ?, 'full')",
      )
        .bind(created.id, tradeNo, created.order.pay_amount)
        .run();
      const fields: Record<string, string> = {
        MerchantID: MERCHANT,
        MerchantTradeNo: tradeNo,
        RtnCode: "1",
        RtnMsg: "交易成功",
        TradeNo: "2401011234567890",
        TradeAmt: String(created.order.pay_amount),
        PaymentDate: ecpayDate(new Date()),
        PaymentType: "Credit_CreditCard",
        TradeDate: ecpayDate(new Date()),
        SimulatePaid: "0",
      };
      const answer = await fetchAs(HOST, `/api/payment/callback/${hotel.id}/1/return`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...fields, CheckMacValue: await checkMacValue(fields, keys) }).toString(),
      });
      expect(await answer.text()).toBe("1|OK");
      await compose();
      const number = await invoiceNumber(created.id);
      expect(number).toMatch(/^[A-Z]{2}\d{8}$/);
      // Whichever came first, the receipt or the invoice, exactly one written email says the number.
      expect((await told(created.id, number)).length, `round ${round}`).toBe(1);
    }
  });
});
