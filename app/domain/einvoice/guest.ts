/**
 * The guest's side of the e-invoice (decision 159, amended): the checkout form's fields as the
 * buyer's choice and its errors on the form's own fields, the order payload's `invoice`, and what
 * the order page, the emails and the PDF say of the invoice. Pure.
 */
import { normalisedCode, validateBuyer, type BuyerChoice, type BuyerError, type BuyerField, type BuyerFields } from "./buyer";
import type { Issuer } from "./machine";

/**
 * The checkout's fields. The company's 統一編號 and name are the order payload's own
 * `company_reg_number` and `company_name` (spec §3); the carriers each have their own box, so with
 * JavaScript off every field is on the page under its choice and nothing typed is lost by changing it.
 */
export const INVOICE_FORM_FIELDS = [
  "invoice_kind",
  "carrier_kind",
  "mobile_barcode",
  "citizen_certificate",
  "love_code",
  "company_reg_number",
  "company_name",
  "company_address",
  "invoice_advised",
] as const;

/** The order payload's `invoice` (docs/api.md): the choice, less what the payload already carries. */
export interface OrderInvoiceInput {
  kind: string;
  carrier?: string;
  carrier_code?: string;
  love_code?: string;
  company_address?: string;
  /**
   * The code the guest was told the provider does not know (decision 166), or the 統一編號 whose
   * registered name is not the one typed (decision 168), placed again as typed.
   */
  advised_code?: string;
}

/** The buyer's fields of an order payload: its `invoice`, its company fields and the booker's email. */
export function buyerFieldsOfPayload(
  invoice: OrderInvoiceInput,
  payload: { company_reg_number?: string; company_name?: string; booker_email: string },
): BuyerFields {
  return {
    invoice_kind: invoice.kind,
    carrier_kind: invoice.carrier,
    carrier_code: invoice.carrier_code,
    love_code: invoice.love_code,
    tax_id: payload.company_reg_number,
    company_name: payload.company_name,
    company_address: invoice.company_address,
    email: payload.booker_email,
  };
}

export type InvoiceFormResult =
  | { ok: true; choice: BuyerChoice; invoice: OrderInvoiceInput; company: { company_reg_number: string; company_name: string } }
  | { ok: false; errors: Record<string, string> };

/** The form field an error of the buyer's choice is shown beside. */
function formFieldOf(field: BuyerField, carrier: string): string {
  switch (field) {
    case "carrier_code":
      return carrier === "citizen" ? "citizen_certificate" : "mobile_barcode";
    case "tax_id":
      return "company_reg_number";
    case "email":
      return "booker_email";
    default:
      return field;
  }
}

/** The translation key of an error (locales common.json, `checkout.invoice.error.<code>`). */
export const invoiceErrorKey = (code: BuyerError) => `checkout.invoice.error.${code}`;

/**
 * The checkout form's invoice fields checked as the back end will check them: the choice and the
 * payload's `invoice` and company fields, or each error on its form field (as a translation key).
 * The booker's email is the buyer's: ECPay notifies by it, and the member carrier is reached by it.
 */
export function invoiceFromForm(values: Readonly<Record<string, string | undefined>>): InvoiceFormResult {
  const carrier = (values.carrier_kind ?? "").trim();
  const result = validateBuyer({
    invoice_kind: values.invoice_kind,
    carrier_kind: carrier,
    carrier_code: carrier === "citizen" ? values.citizen_certificate : carrier === "mobile" ? values.mobile_barcode : "",
    love_code: values.love_code,
    tax_id: values.company_reg_number,
    company_name: values.company_name,
    company_address: values.company_address,
    email: values.booker_email,
  });
  if (!result.ok) {
    const errors: Record<string, string> = {};
    for (const [field, code] of Object.entries(result.errors) as [BuyerField, BuyerError][]) {
      // A code typed under another kind of invoice than the one chosen: said of the field itself.
      const unused = code === "not_with_company" || code === "not_with_donation";
      const key = unused ? `checkout.invoice.error.${field === "tax_id" ? "tax_id_unused" : "love_code_unused"}` : invoiceErrorKey(code);
      errors[formFieldOf(field, carrier)] ??= key;
    }
    return { ok: false, errors };
  }
  const payload = payloadOfChoice(result.choice);
  // The code the checkout advised of (its hidden `invoice_advised`), sent only while it is still the
  // one chosen: the mobile barcode, the donation code, or the company's 統一編號 (decision 168).
  const advised = normalisedCode(values.invoice_advised);
  const choice = result.choice;
  const chosen = choice.kind === "donation" ? choice.loveCode : choice.kind === "carrier" ? choice.code : choice.taxId;
  if (advised !== "" && advised === chosen) payload.invoice.advised_code = advised;
  return { ok: true, choice: result.choice, ...payload };
}

/**
 * The form's values when the guest tapped "Use this name and place the booking" beside a company
 * name advice (decision 168): the button's value, the registered name, is the company name the
 * booking is placed with. The button is the form's own, so without JavaScript it is a submit of
 * the form as typed. Any other submission's values are returned as they are.
 */
export function withRegisteredCompanyName(values: Readonly<Record<string, string>>): Record<string, string> {
  const { invoice_registered_name: registered, ...rest } = values;
  if (registered === undefined || registered.trim() === "") return rest;
  return { ...rest, company_name: registered };
}

/** A valid choice as the order payload carries it: `invoice`, and the company fields (empty unless a company invoice). */
export function payloadOfChoice(choice: BuyerChoice): {
  invoice: OrderInvoiceInput;
  company: { company_reg_number: string; company_name: string };
} {
  switch (choice.kind) {
    case "carrier":
      return {
        invoice: { kind: "carrier", carrier: choice.carrier, carrier_code: choice.code },
        company: { company_reg_number: "", company_name: "" },
      };
    case "donation":
      return { invoice: { kind: "donation", love_code: choice.loveCode }, company: { company_reg_number: "", company_name: "" } };
    case "company":
      return {
        invoice: { kind: "company", company_address: choice.companyAddress },
        company: { company_reg_number: choice.taxId, company_name: choice.companyName },
      };
  }
}

/** A remembered choice, as the member's profile carries it (payload shape), as the checkout's fields to pre-fill. */
export function formValuesOfRemembered(
  remembered: OrderInvoiceInput & { company_reg_number?: string; company_name?: string },
): Record<string, string> {
  const code = remembered.carrier_code ?? "";
  return {
    invoice_kind: remembered.kind,
    carrier_kind: remembered.carrier || "member",
    mobile_barcode: remembered.carrier === "mobile" ? code : "",
    citizen_certificate: remembered.carrier === "citizen" ? code : "",
    love_code: remembered.love_code ?? "",
    company_reg_number: remembered.company_reg_number ?? "",
    company_name: remembered.company_name ?? "",
    company_address: remembered.company_address ?? "",
  };
}

/** What a guest is told of an order's invoice. */
export type GuestInvoiceStatus =
  /** Issued: its numbers are shown. */
  | "issued"
  /** Voided (a cancellation): its numbers are shown as voided. */
  | "voided"
  /** Paid, and the invoice is on its way (queued, retrying, or left to staff). */
  | "being_issued"
  /** Issued at payment, and nothing is paid yet. */
  | "after_payment"
  /** The hotel issues it at check-out (the lodging rule). */
  | "at_checkout"
  /** The hotel's own system issues it: Portico says so and nothing more. */
  | "hotel_system";

export interface GuestInvoiceNumber {
  number: string;
  random_number: string;
  amount: number;
  issued_on: string;
}

/** The latest allowance, when asked by the buyer's emailed consent (decision 167): where it stands, and its amount. */
export interface GuestAllowance {
  status: "awaiting" | "issued" | "refused" | "expired";
  amount: number;
}

export interface GuestInvoice {
  status: GuestInvoiceStatus;
  /** The latest allowance when it was asked by the guest's consent; absent otherwise. */
  allowance?: GuestAllowance;
  /** The issued (or, when voided, the voided) invoices, oldest first. */
  invoices: GuestInvoiceNumber[];
  /** How the guest receives it (null: the hotel's own system decides). */
  buyer: BuyerChoice | null;
}

/** The order's invoice facts as stored (order_invoices, einvoice_documents, hotel_invoicing). */
export interface StoredInvoice {
  /** The hotel's issuer now; null: the hotel file has no invoicing. */
  hotelIssuer: Issuer | null;
  /** The order's own row, once opened (at booking or at the first payment). */
  issuer: Issuer | null;
  buyer: BuyerChoice | null;
  documents: (GuestInvoiceNumber & { status: string })[];
  /** The order's latest allowance (made or asked), whether by consent; absent: none. */
  latestAllowance?: { status: string; amount: number; consent: boolean } | null;
}

/**
 * What the guest is told: the numbers once issued; else when it will be (at check-out, once paid,
 * being issued); "issued by the hotel" for a hotel's own system. Null: Portico says nothing (no
 * invoicing, or a cancelled booking with nothing kept and nothing issued).
 */
export function guestInvoice(stored: StoredInvoice, order: { paid_amount: number; status: string }): GuestInvoice | null {
  const issuer = stored.issuer ?? stored.hotelIssuer;
  if (issuer === null) return null;
  if (issuer === "hotel_system") return { status: "hotel_system", invoices: [], buyer: null };
  const pick = (status: string) =>
    stored.documents
      .filter((document) => document.status === status && document.number !== "")
      .map(({ number, random_number, amount, issued_on }) => ({ number, random_number, amount, issued_on }));
  const buyer = stored.buyer;
  const issued = pick("issued");
  const latest = stored.latestAllowance;
  const allowance =
    latest?.consent && ["awaiting", "issued", "refused", "expired"].includes(latest.status)
      ? { allowance: { status: latest.status as GuestAllowance["status"], amount: latest.amount } }
      : {};
  if (issued.length > 0) return { status: "issued", invoices: issued, buyer, ...allowance };
  const voided = pick("voided");
  if (voided.length > 0) return { status: "voided", invoices: voided, buyer };
  if (order.status === "cancelled" && order.paid_amount === 0) return null;
  if (issuer === "portico_at_checkout") return { status: "at_checkout", invoices: [], buyer };
  return { status: order.paid_amount > 0 ? "being_issued" : "after_payment", invoices: [], buyer };
}

/** The master-system order's `invoice_numbers` entries (spec §3: "number-random", split at the hyphen). */
export const invoiceNumberText = (invoice: Pick<GuestInvoiceNumber, "number" | "random_number">) =>
  invoice.random_number ? `${invoice.number}-${invoice.random_number}` : invoice.number;
