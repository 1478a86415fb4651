import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { validateBuyer } from "~/domain/einvoice/buyer";
import type { InvoiceItem } from "~/domain/einvoice/items";
import { rememberBuyerStatement, rememberedBuyer } from "~/backend/einvoice/invoices.server";
import type { EinvoiceProvider } from "~/backend/einvoice/provider";
import { sandboxEinvoice } from "~/backend/einvoice/sandbox.server";
import { fixtureHotel, loadHotel } from "./helpers";

/**
 * The built-in e-invoice sandbox (decision 159) refuses what ECPay refuses, on its own D1 store:
 * items that do not add up, a void after the period's cut-off or over an allowance, an allowance
 * beyond what is left; and answers the same invoice to the same relate number. Its clock is the
 * test's, so the cut-off is crossed without waiting. And a member's remembered choice.
 */

const HOST = "einv-sandbox.localhost";
let hotelId = 0;

beforeAll(async () => {
  await loadHotel(fixtureHotel(HOST));
  hotelId = (await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(HOST).first<{ id: number }>())?.id ?? 0;
});

let clock = new Date("2026-02-10T03:00:00Z");
const sandbox = (): EinvoiceProvider => sandboxEinvoice({ db: env.DB, hotelId, allowed: true, now: () => clock });
const buyer = { kind: "carrier" as const, carrier: "member" as const, code: "" as const, email: "guest@example.com" };
const item = (amount: number): InvoiceItem => ({ name: "住宿", count: 1, word: "式", price: amount, amount });
let serial = 0;
const relate = () => `SANDBOXTEST${++serial}`;

async function issued(amount: number) {
  const answer = await sandbox().issue({ relateNumber: relate(), buyer, customerName: "Mei", amount, items: [item(amount)] });
  if (!answer.ok) throw new Error(answer.message);
  return answer.value;
}

describe("the e-invoice sandbox", () => {
  it("issues in the real format, and the same relate number answers the same invoice", async () => {
    clock = new Date("2026-02-10T03:00:00Z");
    const request = { relateNumber: relate(), buyer, customerName: "Mei", amount: 3_000, items: [item(3_000)] };
    const first = await sandbox().issue(request);
    const again = await sandbox().issue(request);
    expect(first).toEqual(again);
    expect(first.ok && first.value.number).toMatch(/^[A-Z]{2}\d{8}$/);
    expect(first.ok && first.value.randomNumber).toMatch(/^\d{4}$/);
    expect(first.ok && first.value.issuedOn).toBe("2026-02-10");
    expect(await sandbox().getIssue(request.relateNumber)).toMatchObject({
      ok: true,
      value: { found: true, delayed: false, amount: 3_000, voided: false },
    });
    expect(await sandbox().getIssue("NEVERSENT1")).toEqual({ ok: true, value: { found: false } });
    // The same relate number for another amount is refused, as ECPay refuses a reused RelateNumber.
    expect(await sandbox().issue({ ...request, amount: 3_001, items: [item(3_001)] })).toMatchObject({ ok: false, kind: "refused" });
  });

  it("refuses items that do not add up to the amount (ECPay's 1200031)", async () => {
    const answer = await sandbox().issue({ relateNumber: relate(), buyer, customerName: "Mei", amount: 3_000, items: [item(2_999)] });
    expect(answer).toMatchObject({ ok: false, kind: "refused", code: "1200031" });
  });

  it("voids until 23:59:59 on the 13th of the next odd month, then refuses and takes an allowance", async () => {
    clock = new Date("2026-02-10T03:00:00Z");
    const early = await issued(5_000);
    const late = await issued(5_000);
    clock = new Date("2026-03-13T15:59:59Z"); // 23:59:59 on 13 March, Taipei
    expect(await sandbox().invalid({ number: early.number, issuedOn: early.issuedOn, reason: "取消" })).toEqual({
      ok: true,
      value: { number: early.number },
    });
    clock = new Date("2026-03-13T16:00:00Z"); // 00:00:00 on 14 March, Taipei
    expect(await sandbox().invalid({ number: late.number, issuedOn: late.issuedOn, reason: "取消" })).toMatchObject({
      ok: false,
      kind: "refused",
    });
    const allowance = await sandbox().allowance({
      number: late.number,
      issuedOn: late.issuedOn,
      amount: 2_000,
      items: [item(2_000)],
      customerName: "Mei",
      email: "guest@example.com",
    });
    expect(allowance).toMatchObject({ ok: true, value: { remaining: 3_000 } });
    expect(allowance.ok && allowance.value.allowanceNumber).toMatch(/^\d{16}$/);
    // Never beyond what is left.
    expect(
      await sandbox().allowance({
        number: late.number,
        issuedOn: late.issuedOn,
        amount: 3_001,
        items: [item(3_001)],
        customerName: "Mei",
        email: "guest@example.com",
      }),
    ).toMatchObject({ ok: false, kind: "refused" });
  });

  it("refuses to void an invoice over a live allowance; once the allowance is voided, the invoice can be", async () => {
    clock = new Date("2026-05-02T03:00:00Z");
    const invoice = await issued(4_000);
    const allowance = await sandbox().allowance({
      number: invoice.number,
      issuedOn: invoice.issuedOn,
      amount: 1_000,
      items: [item(1_000)],
      customerName: "Mei",
      email: "guest@example.com",
    });
    if (!allowance.ok) throw new Error(allowance.message);
    expect(await sandbox().invalid({ number: invoice.number, issuedOn: invoice.issuedOn, reason: "取消" })).toMatchObject({
      ok: false,
      kind: "refused",
    });
    expect(
      await sandbox().allowanceInvalid({ number: invoice.number, allowanceNumber: allowance.value.allowanceNumber, reason: "取消" }),
    ).toMatchObject({ ok: true });
    expect(await sandbox().invalid({ number: invoice.number, issuedOn: invoice.issuedOn, reason: "取消" })).toMatchObject({ ok: true });
  });

  it("holds a delayed invoice until it is triggered, or withdraws it", async () => {
    clock = new Date("2026-07-01T03:00:00Z");
    const held = { relateNumber: relate(), buyer, customerName: "Mei", amount: 6_000, items: [item(6_000)] };
    expect(await sandbox().delayIssue(held)).toEqual({ ok: true, value: { held: true } });
    expect(await sandbox().getIssue(held.relateNumber)).toEqual({ ok: true, value: { found: true, delayed: true } });
    clock = new Date("2026-07-03T03:00:00Z");
    const triggered = await sandbox().triggerIssue(held.relateNumber);
    expect(triggered).toMatchObject({ ok: true, value: { issuedOn: "2026-07-03" } });
    const withdrawn = { ...held, relateNumber: relate() };
    await sandbox().delayIssue(withdrawn);
    expect(await sandbox().cancelDelayIssue(withdrawn.relateNumber)).toEqual({ ok: true, value: { cancelled: true } });
    expect(await sandbox().triggerIssue(withdrawn.relateNumber)).toMatchObject({ ok: false, kind: "refused" });
    expect(await sandbox().getIssue(withdrawn.relateNumber)).toEqual({ ok: true, value: { found: false } });
  });
});

describe("a member's remembered choice", () => {
  it("is kept per member, offered again, and dropped when it no longer passes the rules", async () => {
    await env.DB.prepare("INSERT INTO members (hotel_id, email) VALUES (?, 'remember@example.com')").bind(hotelId).run();
    const member = await env.DB.prepare("SELECT id FROM members WHERE email = 'remember@example.com'").first<{ id: number }>();
    const id = member?.id ?? 0;
    expect(await rememberedBuyer(env.DB, id)).toBeNull();
    const company = validateBuyer({
      invoice_kind: "company",
      tax_id: "04595257",
      company_name: "波提科",
      company_address: "臺北市",
      email: "ap@example.com",
    });
    if (!company.ok) throw new Error("fixture");
    await rememberBuyerStatement(env.DB, id, company.choice).run();
    expect(await rememberedBuyer(env.DB, id)).toEqual(company.choice);
    const carrier = validateBuyer({ invoice_kind: "carrier", carrier_kind: "mobile", carrier_code: "/ABC1234", email: "m@example.com" });
    if (!carrier.ok) throw new Error("fixture");
    await rememberBuyerStatement(env.DB, id, carrier.choice).run();
    expect(await rememberedBuyer(env.DB, id)).toEqual(carrier.choice);
    await env.DB.prepare("UPDATE member_invoice_choices SET choice = json_set(choice, '$.code', '/BAD') WHERE member_id = ?")
      .bind(id)
      .run();
    expect(await rememberedBuyer(env.DB, id)).toBeNull();
  });
});
