import { describe, expect, it } from "vitest";
import {
  formValuesOfRemembered,
  guestInvoice,
  invoiceFromForm,
  payloadOfChoice,
  withRegisteredCompanyName,
  type StoredInvoice,
} from "~/domain/einvoice/guest";
import { invoiceTextLines } from "~/documents/invoice-text";

/**
 * The guest's side of the e-invoice (decision 159, amended): the checkout's fields as the buyer's
 * choice with each error on the form's own field, and what the guest is told in every state.
 */

const BOOKER = { booker_email: "Mei@Example.com" };

describe("the checkout's invoice fields", () => {
  it("reads each kind into the payload's invoice and company fields, normalised", () => {
    expect(invoiceFromForm({ ...BOOKER, invoice_kind: "carrier", carrier_kind: "member", mobile_barcode: "/WRONG" })).toEqual({
      ok: true,
      choice: { kind: "carrier", carrier: "member", code: "", email: "mei@example.com" },
      invoice: { kind: "carrier", carrier: "member", carrier_code: "" },
      company: { company_reg_number: "", company_name: "" },
    });
    // Only the chosen carrier's box is read: the other may hold anything.
    const mobile = invoiceFromForm({
      ...BOOKER,
      invoice_kind: "carrier",
      carrier_kind: "mobile",
      mobile_barcode: "／ａｂ+1234",
      citizen_certificate: "x",
    });
    expect(mobile.ok && mobile.invoice).toEqual({ kind: "carrier", carrier: "mobile", carrier_code: "/AB+1234" });
    const company = invoiceFromForm({
      ...BOOKER,
      invoice_kind: "company",
      company_reg_number: "0459-5257",
      company_name: "  林氏  貿易 ",
      company_address: "台北市",
    });
    expect(company.ok && company.company).toEqual({ company_reg_number: "04595257", company_name: "林氏 貿易" });
    expect(company.ok && company.invoice).toEqual({ kind: "company", company_address: "台北市" });
  });

  it("puts each error on the field the guest typed it in", () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [
        { invoice_kind: "carrier", carrier_kind: "mobile", mobile_barcode: "1234567" },
        { mobile_barcode: "checkout.invoice.error.mobile_barcode_format" },
      ],
      [
        { invoice_kind: "carrier", carrier_kind: "citizen", citizen_certificate: "A1" },
        { citizen_certificate: "checkout.invoice.error.citizen_certificate_format" },
      ],
      [{ invoice_kind: "carrier", carrier_kind: "" }, { carrier_kind: "checkout.invoice.error.carrier_kind_required" }],
      [
        { invoice_kind: "carrier", carrier_kind: "member", company_reg_number: "04595257", love_code: "919" },
        { company_reg_number: "checkout.invoice.error.tax_id_unused", love_code: "checkout.invoice.error.love_code_unused" },
      ],
      [
        { invoice_kind: "donation", love_code: "12", company_reg_number: "04595257" },
        { love_code: "checkout.invoice.error.love_code_format", company_reg_number: "checkout.invoice.error.tax_id_unused" },
      ],
      [
        { invoice_kind: "company", company_reg_number: "12345678", company_name: "", company_address: "x", love_code: "919" },
        {
          company_reg_number: "checkout.invoice.error.tax_id_checksum",
          company_name: "checkout.invoice.error.company_name_required",
          love_code: "checkout.invoice.error.love_code_unused",
        },
      ],
      [{ invoice_kind: "paper" }, { invoice_kind: "checkout.invoice.error.kind_required" }],
    ];
    for (const [fields, errors] of cases) expect(invoiceFromForm({ ...BOOKER, ...fields })).toEqual({ ok: false, errors });
    expect(invoiceFromForm({ booker_email: "", invoice_kind: "donation", love_code: "919" })).toEqual({
      ok: false,
      errors: { booker_email: "checkout.invoice.error.email_required" },
    });
  });

  it("pre-fills a remembered choice as the form's fields, and back to the same choice", () => {
    for (const choice of [
      { kind: "carrier", carrier: "citizen", code: "AB12345678901234", email: "mei@example.com" },
      { kind: "donation", loveCode: "919", email: "mei@example.com" },
      { kind: "company", taxId: "04595257", companyName: "林氏貿易", companyAddress: "台北市", email: "mei@example.com" },
    ] as const) {
      const { invoice, company } = payloadOfChoice(choice);
      const again = invoiceFromForm({ booker_email: "mei@example.com", ...formValuesOfRemembered({ ...invoice, ...company }) });
      expect(again.ok && again.choice).toEqual(choice);
    }
  });

  it("sends the code the guest was advised of (decision 166) only while it is still the code chosen", () => {
    const invoiceOf = (fields: Record<string, string>) => {
      const result = invoiceFromForm({ ...BOOKER, ...fields });
      return result.ok ? result.invoice : null;
    };
    const mobile = { invoice_kind: "carrier", carrier_kind: "mobile" };
    // Typed again in lowercase with spaces, full-width: the same code as the invoice carries it.
    expect(invoiceOf({ ...mobile, mobile_barcode: " ／nosuch1", invoice_advised: "/NOSUCH1" })?.advised_code).toBe("/NOSUCH1");
    expect(invoiceOf({ ...mobile, mobile_barcode: "/NOSUCH2", invoice_advised: "/NOSUCH1" })?.advised_code).toBeUndefined();
    expect(invoiceOf({ ...mobile, mobile_barcode: "/NOSUCH1" })?.advised_code).toBeUndefined();
    expect(invoiceOf({ invoice_kind: "donation", love_code: "0001", invoice_advised: " 0001 " })?.advised_code).toBe("0001");
    // Another kind chosen since: the donation code advised of is not the company's 統一編號.
    const company = { invoice_kind: "company", company_name: "X", company_address: "Y" };
    expect(invoiceOf({ ...company, company_reg_number: "04595257", invoice_advised: "0001" })?.advised_code).toBeUndefined();
    // A company's 統一編號 advised of (its registered name, decision 168), typed full-width with a hyphen: sent.
    expect(invoiceOf({ ...company, company_reg_number: "０４５９-５２５７", invoice_advised: "04595257" })?.advised_code).toBe("04595257");
    expect(invoiceOf({ ...company, company_reg_number: "10458575", invoice_advised: "04595257" })?.advised_code).toBeUndefined();
  });

  it("places the booking with the registered company name when its button was the one pressed (decision 168)", () => {
    const typed = { company_name: "範例旅行", company_reg_number: "04595257", intent: "order" };
    expect(withRegisteredCompanyName({ ...typed, invoice_registered_name: "範例旅行社股份有限公司" })).toEqual({
      ...typed,
      company_name: "範例旅行社股份有限公司",
    });
    // Any other submission: the values as they are; an empty value changes nothing and is not kept.
    expect(withRegisteredCompanyName(typed)).toEqual(typed);
    expect(withRegisteredCompanyName({ ...typed, invoice_registered_name: " " })).toEqual(typed);
  });
});

const issued = { number: "TS12345678", random_number: "1234", amount: 3600, issued_on: "2026-12-01" };
const stored = (change: Partial<StoredInvoice>): StoredInvoice => ({
  hotelIssuer: "portico_at_payment",
  issuer: null,
  buyer: null,
  documents: [],
  ...change,
});

describe("what the guest is told", () => {
  it("names every state, from the hotel's issuer until the order has its own row", () => {
    const unpaid = { paid_amount: 0, status: "pending_payment" };
    const paid = { paid_amount: 3600, status: "confirmed" };
    expect(guestInvoice(stored({ hotelIssuer: null }), paid)).toBeNull();
    expect(guestInvoice(stored({}), unpaid)?.status).toBe("after_payment");
    expect(guestInvoice(stored({}), paid)?.status).toBe("being_issued");
    expect(guestInvoice(stored({ hotelIssuer: "portico_at_checkout" }), paid)?.status).toBe("at_checkout");
    expect(guestInvoice(stored({ hotelIssuer: "hotel_system" }), paid)).toEqual({ status: "hotel_system", invoices: [], buyer: null });
    // The order's own issuer wins over a hotel file changed since (one issuer per stay).
    expect(guestInvoice(stored({ hotelIssuer: "hotel_system", issuer: "portico_at_payment" }), paid)?.status).toBe("being_issued");
    expect(guestInvoice(stored({ issuer: "portico_at_payment", documents: [{ ...issued, status: "issued" }] }), paid)).toEqual({
      status: "issued",
      invoices: [issued],
      buyer: null,
    });
    // A held invoice (at check-out) has no number yet; a voided one is shown only when none stands.
    expect(
      guestInvoice(stored({ issuer: "portico_at_checkout", documents: [{ ...issued, number: "", status: "delayed" }] }), paid)?.status,
    ).toBe("at_checkout");
    const both = guestInvoice(
      stored({
        documents: [
          { ...issued, status: "voided" },
          { ...issued, number: "TS00000002", status: "issued" },
        ],
      }),
      paid,
    );
    expect(both?.invoices.map((invoice) => invoice.number)).toEqual(["TS00000002"]);
    expect(guestInvoice(stored({ documents: [{ ...issued, status: "voided" }] }), { paid_amount: 0, status: "cancelled" })?.status).toBe(
      "voided",
    );
    expect(guestInvoice(stored({}), { paid_amount: 0, status: "cancelled" })).toBeNull();
  });

  it("says it in the guest's words, the number with its random number", () => {
    const buyer = { kind: "carrier", carrier: "mobile", carrier_code: "/AB+1234" };
    expect(invoiceTextLines("en-US", { status: "issued", invoices: [issued], buyer })).toEqual([
      ["Invoice number", "TS12345678 · random number 1234 · NT$3,600 · Tue, Dec 1, 2026"],
      ["Sent as", "Cloud invoice, mobile barcode /AB+1234"],
    ]);
    expect(invoiceTextLines("zh-TW", { status: "at_checkout", invoices: [], buyer: { kind: "donation", love_code: "919" } })).toEqual([
      ["電子發票", "於退房時開立"],
      ["發票類型", "捐贈發票，捐贈碼 919"],
    ]);
    expect(
      invoiceTextLines(
        "zh-TW",
        { status: "after_payment", invoices: [], buyer: { kind: "company" } },
        { company_reg_number: "04595257", company_name: "林氏貿易" },
      )[1],
    ).toEqual(["發票類型", "公司發票，統一編號 04595257，公司抬頭 林氏貿易"]);
    expect(invoiceTextLines("ja-JP", { status: "hotel_system", invoices: [], buyer: null })).toEqual([["電子発票", "ホテルが発行します"]]);
    expect(invoiceTextLines("en-US", null)).toEqual([]);
  });
});
