import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { issueMemberToken } from "~/backend/account/members.server";
import { REMOTE_CHECK_DEADLINE_MS } from "~/backend/einvoice/advice.server";
import { failNextSandboxCalls, SANDBOX_SLOW_MS } from "~/backend/einvoice/sandbox.server";
import { addDays, todayIn } from "~/domain/dates";
import { memberSessionCookie } from "~/platform/cookies.server";
import type { AppEnv } from "~/platform/env.server";
import { BOOKER, Browser, apiJson, checkoutFields, fixtureHotel, hidden, hotelRefs, loadHotel, text, type HotelRefs } from "./helpers";

/**
 * The provider's remote checks at booking only advise (issue 41, decision 166): a mobile barcode or
 * a donation code the sandbox does not know (documented: `/NO…`, `000…`) brings the checkout back
 * with the advice beside its field, nothing written and everything typed kept; placed again with
 * the same code, it books. A provider down, refusing the check or slower than the deadline says
 * nothing and the booking goes on; a hotel whose own system issues is never asked. Through the
 * real Worker and D1 as a browser without JavaScript uses it, and through the order API.
 */
const AT_PAYMENT = "einvadvice.localhost";
const AT_CHECKOUT = "einvadviceout.localhost";
const OWN_SYSTEM = "einvadviceown.localhost";
const today = todayIn("Asia/Taipei");
const refs: Record<string, HotelRefs> = {};
let memberId = 0;

beforeAll(async () => {
  const issuers = { [AT_PAYMENT]: "portico_at_payment", [AT_CHECKOUT]: "portico_at_checkout", [OWN_SYSTEM]: "hotel_system" } as const;
  for (const [domain, issuer] of Object.entries(issuers)) {
    await loadHotel(
      fixtureHotel(domain, (file) => {
        (file as { invoicing?: unknown }).invoicing = { issuer, provider: "sandbox", seller_tax_id: "04595257" };
        file.inventory.months = 6;
        file.hotel.support_lang = ["zh-TW", "en-US", "ja-JP"];
        for (const room of file.room_classes) room.total_rooms = 30;
        Object.assign(file, {
          members: [{ email: "ana@example.com", first_name: "Ana", last_name: "Wu", phone: "0912 345 678", points: 0 }],
        });
      }),
    );
    refs[domain] = await hotelRefs(domain);
  }
  memberId =
    (await env.DB.prepare("SELECT m.id FROM members m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ?")
      .bind(AT_PAYMENT)
      .first<number>("id")) ?? 0;
});

let nextDay = 40;
let guest = 0;
/** A browser at `host` with one room for a night of its own in the cart, at the checkout page in `lang`. */
async function atCheckout(host: string, lang = "en-US", cookies: string[] = []) {
  nextDay += 1;
  guest += 1;
  const stay = `start=${addDays(today, nextDay)}&end=${addDays(today, nextDay + 1)}&adults=2`;
  const browser = new Browser(host, cookies);
  const at = lang === "zh-TW" ? "" : `/${lang}`;
  const page = await browser.request(`${at}/hxa/booking?${stay}`);
  const added = await browser.request(`${at}/hxa/booking?${stay}`, {
    csrf: hidden(page.html, "csrf"),
    intent: "add",
    room_class_id: hidden(page.html, "room_class_id"),
    proposal_id: hidden(page.html, "proposal_id"),
    num: "1",
  });
  expect(added.status).toBe(303);
  const checkout = await browser.request(`${at}/hxa/checkout?${stay}`);
  expect(checkout.status).toBe(200);
  // Each booking by a guest of its own: the unpaid-holds limit never asks these tests for a captcha.
  const email = `guest${guest}@example.com`;
  const place = (fields: Record<string, string>) =>
    browser.request(
      `${at}/hxa/checkout?${stay}`,
      checkoutFields(checkout.html, {
        booker_email: email,
        payment: "8:remittance",
        intent: "order",
        due_now: hidden(checkout.html, "due_now"),
        ...fields,
      }),
    );
  return { place };
}

/** What the advice could have written: orders, invoice rows, remembered choices, emails. */
const written = async (host: string) =>
  env.DB.prepare(
    `SELECT (SELECT COUNT(*) FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ?1) AS orders,
            (SELECT COUNT(*) FROM order_invoices i JOIN hotels h ON h.id = i.hotel_id WHERE h.domain = ?1) AS invoices,
            (SELECT COUNT(*) FROM member_invoice_choices) AS remembered,
            (SELECT COUNT(*) FROM mail_outbox m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ?1) AS mail`,
  )
    .bind(host)
    .first<{ orders: number; invoices: number; remembered: number; mail: number }>();

const newestBuyer = async (host: string) =>
  JSON.parse(
    (await env.DB.prepare(
      `SELECT i.buyer FROM orders o JOIN hotels h ON h.id = o.hotel_id JOIN order_invoices i ON i.order_id = o.id
       WHERE h.domain = ? ORDER BY o.id DESC LIMIT 1`,
    )
      .bind(host)
      .first<string>("buyer")) ?? "null",
  ) as Record<string, string> | null;

/** The planned sandbox failures of `op` not yet taken: a call the sandbox answered takes one. */
const plannedLeft = (host: string, op: string) =>
  env.DB.prepare("SELECT COALESCE(SUM(remaining), 0) AS n FROM einvoice_sandbox_failures WHERE hotel_id = ? AND op = ?")
    .bind(refs[host]?.id ?? 0, op)
    .first<number>("n");

const errorOf = (html: string, field: string) =>
  new RegExp(`id="${field}-error">([^<]*)<`).exec(html)?.[1]?.replace(/&#x27;/g, "'") ?? null;
const valueOf = (html: string, field: string) =>
  new RegExp(`<input[^>]*name="${field}"[^>]*>`).exec(html)?.[0].match(/value="([^"]*)"/)?.[1] ?? "";

const MOBILE = { invoice_kind: "carrier", carrier_kind: "mobile" };

/** One night `day` days ahead through the order API, by bank transfer, with this e-invoice choice, from `address`. */
const apiOrder = (host: string, day: number, invoice: Record<string, string>, address = "") =>
  apiJson(host, "/api/ota/order/personal-new?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json", ...(address ? { "cf-connecting-ip": address } : {}) },
    body: JSON.stringify({
      domain: host,
      ...BOOKER,
      booker_email: `api-${day}@example.com`,
      check_in_day: addDays(today, day),
      check_out_day: addDays(today, day + 1),
      pay_way: "remittance",
      payment_vendor: 8,
      orders: [{ room_class_id: refs[host]?.room, proposal_id: refs[host]?.plan, num: 1 }],
      adults_count: 2,
      invoice,
    }),
  });

describe("the provider's remote check at the checkout", () => {
  it("advises of a mobile barcode it does not know beside the field, writes nothing, keeps everything; placed again it books", async () => {
    const checkout = await atCheckout(AT_PAYMENT);
    const before = await written(AT_PAYMENT);
    // Typed in lowercase: the check and the advice are of the code as the invoice carries it.
    const advised = await checkout.place({ ...MOBILE, mobile_barcode: " /nosuch1", memo: "late arrival" });
    expect(advised.status).toBe(409);
    expect(errorOf(advised.html, "mobile_barcode")).toBe(
      "The invoice platform does not know this mobile barcode. Check it, or place the booking again to use it as typed.",
    );
    expect(advised.html).toContain('aria-describedby="mobile_barcode-error"');
    expect(text(advised.html)).toContain("Your booking is not placed yet: please check the e-invoice detail marked below.");
    // Everything as typed, the kind of invoice and carrier still chosen.
    expect(valueOf(advised.html, "mobile_barcode")).toBe(" /nosuch1");
    expect(valueOf(advised.html, "booker_last_name")).toBe("Chen");
    expect(advised.html).toMatch(/<textarea[^>]*name="memo"[^>]*>late arrival<\/textarea>/);
    expect(advised.html).toMatch(/<input type="radio" name="carrier_kind" checked="" value="mobile"/);
    expect(hidden(advised.html, "invoice_advised")).toBe("/NOSUCH1");
    expect(await written(AT_PAYMENT)).toEqual(before);

    // Placed again as the page now stands (its hidden field names the code advised of): booked with it.
    const placed = await checkout.place({
      ...MOBILE,
      mobile_barcode: " /nosuch1",
      memo: "late arrival",
      invoice_advised: hidden(advised.html, "invoice_advised"),
    });
    expect(placed.status, errorOf(placed.html, "mobile_barcode") ?? "").toBe(303);
    expect(await newestBuyer(AT_PAYMENT)).toMatchObject({ kind: "carrier", carrier: "mobile", code: "/NOSUCH1" });
    expect((await written(AT_PAYMENT))?.orders).toBe((before?.orders ?? 0) + 1);
  });

  it("advises again of another code typed after the advice, and of a code the platform knows says nothing", async () => {
    const checkout = await atCheckout(AT_PAYMENT);
    const changed = await checkout.place({ ...MOBILE, mobile_barcode: "/NOSUCH2", invoice_advised: "/NOSUCH1" });
    expect(changed.status).toBe(409);
    expect(hidden(changed.html, "invoice_advised")).toBe("/NOSUCH2");
    const known = await checkout.place({ ...MOBILE, mobile_barcode: "/ABC+123", invoice_advised: "/NOSUCH2" });
    expect(known.status).toBe(303);
    expect(await newestBuyer(AT_PAYMENT)).toMatchObject({ code: "/ABC+123" });
  });

  it("zh-TW: advises of a donation code it does not know, at a hotel that issues at check-out; placed again it books", async () => {
    const checkout = await atCheckout(AT_CHECKOUT, "zh-TW");
    const before = await written(AT_CHECKOUT);
    const advised = await checkout.place({ invoice_kind: "donation", love_code: "0001" });
    expect(advised.status).toBe(409);
    expect(errorOf(advised.html, "love_code")).toBe("電子發票平台查無此捐贈碼。請確認號碼，或再次送出訂單，照所填內容使用。");
    expect(text(advised.html)).toContain("訂房尚未完成：請確認下方標示的電子發票資料。");
    expect(valueOf(advised.html, "love_code")).toBe("0001");
    expect(await written(AT_CHECKOUT)).toEqual(before);
    const placed = await checkout.place({
      invoice_kind: "donation",
      love_code: "0001",
      invoice_advised: hidden(advised.html, "invoice_advised"),
    });
    expect(placed.status).toBe(303);
    expect(await newestBuyer(AT_CHECKOUT)).toMatchObject({ kind: "donation", loveCode: "0001" });
  });

  it("books without a word when the provider is down, refuses the check, or answers later than the deadline", async () => {
    // Every code here is one the sandbox does not know: had the booking waited for the slow answer
    // (SANDBOX_SLOW_MS, beyond the deadline), it would have been advised, not booked. (The Worker's
    // clock stands still between I/O, so the time taken is not measured here.)
    expect(SANDBOX_SLOW_MS).toBeGreaterThan(REMOTE_CHECK_DEADLINE_MS * 2);
    const cases: ["checkBarcode" | "checkLoveCode", "unavailable" | "rate_limited" | "refused" | "slow", Record<string, string>, string][] =
      [
        ["checkBarcode", "unavailable", { ...MOBILE, mobile_barcode: "/NOSUCH3" }, "/NOSUCH3"],
        ["checkBarcode", "rate_limited", { ...MOBILE, mobile_barcode: "/NOSUCH4" }, "/NOSUCH4"],
        ["checkLoveCode", "refused", { invoice_kind: "donation", love_code: "0002" }, "0002"],
        ["checkLoveCode", "slow", { invoice_kind: "donation", love_code: "0003" }, "0003"],
      ];
    for (const [op, kind, fields, code] of cases) {
      await failNextSandboxCalls(env.DB, refs[AT_PAYMENT]?.id ?? 0, op, kind);
      const checkout = await atCheckout(AT_PAYMENT);
      const placed = await checkout.place(fields);
      expect(placed.status, `${op} ${kind}: ${errorOf(placed.html, "love_code") ?? errorOf(placed.html, "mobile_barcode")}`).toBe(303);
      // The provider was asked (its planned failure taken), and its code is on the order as typed.
      expect(await plannedLeft(AT_PAYMENT, op)).toBe(0);
      expect(Object.values((await newestBuyer(AT_PAYMENT)) ?? {})).toContain(code);
    }
  });

  it("never asks for a hotel whose own system issues its invoices", async () => {
    await failNextSandboxCalls(env.DB, refs[OWN_SYSTEM]?.id ?? 0, "checkBarcode", "refused");
    const placed = await apiOrder(OWN_SYSTEM, 20, { kind: "carrier", carrier: "mobile", carrier_code: "/NOSUCH5" });
    expect(placed.status, JSON.stringify(placed.body.msg)).toBe(201);
    // The planned failure is still there: the sandbox was never asked.
    expect(await plannedLeft(OWN_SYSTEM, "checkBarcode")).toBe(1);
  });
});

describe("the order API", () => {
  it("answers 409 naming the field in the request's language, counts the attempt, and books the code sent again as advised", async () => {
    const hotel = refs[AT_PAYMENT];
    if (!hotel) throw new Error("no hotel");
    const before = await written(AT_PAYMENT);
    const address = "2001:db8:166::1";
    const events = () =>
      env.DB.prepare("SELECT COUNT(*) AS n FROM abuse_events WHERE hotel_id = ? AND kind = 'order_change'")
        .bind(hotel.id)
        .first<number>("n");
    const eventsBefore = (await events()) ?? 0;
    const order = (invoice: Record<string, string>) => apiOrder(AT_PAYMENT, 21, invoice, address);
    const refused = await order({ kind: "donation", love_code: "000777" });
    expect(refused.status).toBe(409);
    expect(refused.body.msg.code).toBe("invoice_love_code_unknown");
    expect(refused.body.msg.extrainfo?.field).toBe("invoice.love_code");
    expect(refused.body.msg.message).toBe(
      "The invoice platform does not know this donation code. Check it, or place the booking again to use it as typed",
    );
    expect(await written(AT_PAYMENT)).toEqual(before);
    // The advice counts as one of the caller's order changes: a script cannot have the provider asked without end.
    expect(await events()).toBe(eventsBefore + 1);
    const booked = await order({ kind: "donation", love_code: "000777", advised_code: "000777" });
    expect(booked.status, JSON.stringify(booked.body.msg)).toBe(201);
    expect(await newestBuyer(AT_PAYMENT)).toMatchObject({ kind: "donation", loveCode: "000777" });
  });

  it("does not ask again for a member's remembered code", async () => {
    const token = await issueMemberToken(env.DB, memberId);
    const cookie = await memberSessionCookie(env as unknown as AppEnv).serialize({ domain: AT_PAYMENT, token });
    const first = await atCheckout(AT_PAYMENT, "en-US", [cookie]);
    const advised = await first.place({ ...MOBILE, mobile_barcode: "/NOSUCH6", booker_last_name: "Wu", booker_first_name: "Ana" });
    expect(advised.status).toBe(409);
    const placed = await first.place({
      ...MOBILE,
      mobile_barcode: "/NOSUCH6",
      booker_last_name: "Wu",
      booker_first_name: "Ana",
      invoice_advised: "/NOSUCH6",
    });
    expect(placed.status).toBe(303);
    // The next checkout offers it again; placed as offered, the provider is not asked (a planned failure stays).
    await failNextSandboxCalls(env.DB, refs[AT_PAYMENT]?.id ?? 0, "checkBarcode", "refused");
    const again = await atCheckout(AT_PAYMENT, "en-US", [cookie]);
    const second = await again.place({ ...MOBILE, mobile_barcode: "/NOSUCH6", booker_last_name: "Wu", booker_first_name: "Ana" });
    expect(second.status).toBe(303);
    expect(await plannedLeft(AT_PAYMENT, "checkBarcode")).toBe(1);
    await failNextSandboxCalls(env.DB, refs[AT_PAYMENT]?.id ?? 0, "checkBarcode", "refused", 0);
  });
});
