/**
 * The guest's choice of how to receive a Taiwanese e-invoice (電子發票), checked as the tax rules and
 * ECPay's combination rules say (decision 159). Pure: the checkout calls it with the form's fields
 * and shows each error code beside its field; the provider's remote checks (CheckBarcode,
 * CheckLoveCode) only advise, later, and never block.
 */

/** The three ways a guest may receive the invoice, and the kinds of cloud carrier. */
export const BUYER_KINDS = ["carrier", "donation", "company"] as const;
export type BuyerKind = (typeof BUYER_KINDS)[number];
export const CARRIER_KINDS = ["mobile", "citizen", "member"] as const;
export type CarrierKind = (typeof CARRIER_KINDS)[number];

/** What a guest chose, normalised and valid. */
export type BuyerChoice =
  /** A cloud invoice on a carrier; `member` is the provider's member carrier, reached by the email. */
  | { kind: "carrier"; carrier: "mobile" | "citizen"; code: string; email: string }
  | { kind: "carrier"; carrier: "member"; code: ""; email: string }
  /** Donated to the charity with this code (愛心碼). */
  | { kind: "donation"; loveCode: string; email: string }
  /** A company invoice: its 統一編號 (tax id), name and address (printed as the proof, 電子發票證明聯). */
  | { kind: "company"; taxId: string; companyName: string; companyAddress: string; email: string };

/** The form's fields, as typed (any may be missing). */
export interface BuyerFields {
  invoice_kind?: string;
  carrier_kind?: string;
  carrier_code?: string;
  love_code?: string;
  tax_id?: string;
  company_name?: string;
  company_address?: string;
  email?: string;
}
export type BuyerField = keyof BuyerFields;

/** Why a field is refused; each is a translation key of the `einvoice` namespace (`error.<code>`). */
export type BuyerError =
  | "kind_required"
  | "carrier_kind_required"
  | "mobile_barcode_format"
  | "citizen_certificate_format"
  | "love_code_format"
  | "tax_id_format"
  | "tax_id_checksum"
  | "company_name_required"
  | "company_name_too_long"
  | "company_address_required"
  | "company_address_too_long"
  | "email_required"
  | "email_format"
  | "not_with_company"
  | "not_with_donation";

export type BuyerResult = { ok: true; choice: BuyerChoice } | { ok: false; errors: Partial<Record<BuyerField, BuyerError>> };

/** ECPay's limits: CustomerName 60 and CustomerAddr 100 characters (B2CInvoice Issue, v3.0.0). */
export const COMPANY_NAME_MAX = 60;
export const COMPANY_ADDRESS_MAX = 100;
export const EMAIL_MAX = 80;

/** Full-width ASCII (ＡＢＣ１２３／) as half-width, the ideographic space as a space. */
export function toHalfWidth(text: string): string {
  return text.replace(/[\uFF01-\uFF5E]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, " ");
}

/** A code as typed: half-width, without any white space. */
function codeOf(text: string | undefined): string {
  return toHalfWidth(text ?? "").replace(/\s+/g, "");
}

/** A carrier or donation code as a valid choice holds it: half-width, without white space, in capitals. */
export const normalisedCode = (text: string | undefined) => codeOf(text).toUpperCase();

/** Text as typed: half-width letters and digits, trimmed, inner runs of spaces as one. */
function textOf(text: string | undefined): string {
  return toHalfWidth(text ?? "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Mobile barcode carrier (手機條碼): `/` and 7 of 0-9, A-Z, `.`, `+`, `-`. */
export const MOBILE_BARCODE = /^\/[0-9A-Z.+-]{7}$/;
/** Citizen digital certificate carrier (自然人憑證條碼): 2 uppercase letters and 14 digits. */
export const CITIZEN_CERTIFICATE = /^[A-Z]{2}\d{14}$/;
/** Donation code (愛心碼): 3 to 7 digits. */
export const LOVE_CODE = /^\d{3,7}$/;

const TAX_ID_WEIGHTS = [1, 2, 1, 2, 1, 2, 4, 1] as const;

/**
 * The 統一編號 checksum: each digit times its weight (1,2,1,2,1,2,4,1), the digits of each product
 * added up, the sum divisible by 5 (by 10 before 2023: a number valid then is valid now). When the
 * 7th digit is 7 its product 28 counts as 10 or as 1, so sum + 1 may pass instead.
 */
export function isValidTaxId(taxId: string): boolean {
  if (!/^\d{8}$/.test(taxId)) return false;
  let sum = 0;
  TAX_ID_WEIGHTS.forEach((weight, index) => {
    const product = Number(taxId[index]) * weight;
    sum += Math.floor(product / 10) + (product % 10);
  });
  if (sum % 5 === 0) return true;
  return taxId[6] === "7" && (sum + 1) % 5 === 0;
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

function emailError(email: string): BuyerError | null {
  if (email === "") return "email_required";
  if (email.length > EMAIL_MAX || !EMAIL.test(email)) return "email_format";
  return null;
}

/**
 * Checks and normalises the guest's choice. Every field with a problem gets its own code, so the
 * checkout can show them all at once. Combination rules (ECPay): a donation carries no 統一編號; a
 * company invoice is never donated; a cloud carrier is neither.
 */
export function validateBuyer(fields: BuyerFields): BuyerResult {
  const errors: Partial<Record<BuyerField, BuyerError>> = {};
  const kind = textOf(fields.invoice_kind);
  const email = textOf(fields.email).toLowerCase();
  const loveCode = codeOf(fields.love_code);
  const taxId = codeOf(fields.tax_id).replace(/-/g, "");
  const mailProblem = emailError(email);

  switch (kind) {
    case "carrier": {
      const carrier = textOf(fields.carrier_kind);
      const code = codeOf(fields.carrier_code).toUpperCase();
      if (carrier === "mobile" && !MOBILE_BARCODE.test(code)) errors.carrier_code = "mobile_barcode_format";
      else if (carrier === "citizen" && !CITIZEN_CERTIFICATE.test(code)) errors.carrier_code = "citizen_certificate_format";
      else if (carrier !== "mobile" && carrier !== "citizen" && carrier !== "member") errors.carrier_kind = "carrier_kind_required";
      if (mailProblem) errors.email = mailProblem;
      if (taxId !== "") errors.tax_id = "not_with_company";
      if (loveCode !== "") errors.love_code = "not_with_donation";
      if (Object.keys(errors).length > 0) return { ok: false, errors };
      if (carrier === "member") return { ok: true, choice: { kind: "carrier", carrier: "member", code: "", email } };
      return { ok: true, choice: { kind: "carrier", carrier: carrier as "mobile" | "citizen", code, email } };
    }
    case "donation": {
      if (!LOVE_CODE.test(loveCode)) errors.love_code = "love_code_format";
      // A donated invoice has no 統一編號 (ECPay: Donation=1 needs CustomerIdentifier empty).
      if (taxId !== "") errors.tax_id = "not_with_donation";
      if (mailProblem) errors.email = mailProblem;
      if (Object.keys(errors).length > 0) return { ok: false, errors };
      return { ok: true, choice: { kind: "donation", loveCode, email } };
    }
    case "company": {
      if (!/^\d{8}$/.test(taxId)) errors.tax_id = "tax_id_format";
      else if (!isValidTaxId(taxId)) errors.tax_id = "tax_id_checksum";
      const companyName = textOf(fields.company_name);
      if (companyName === "") errors.company_name = "company_name_required";
      else if ([...companyName].length > COMPANY_NAME_MAX) errors.company_name = "company_name_too_long";
      const companyAddress = textOf(fields.company_address);
      if (companyAddress === "") errors.company_address = "company_address_required";
      else if ([...companyAddress].length > COMPANY_ADDRESS_MAX) errors.company_address = "company_address_too_long";
      // With a 統一編號 the invoice is never donated (ECPay: CustomerIdentifier needs Donation=0).
      if (loveCode !== "") errors.love_code = "not_with_company";
      if (mailProblem) errors.email = mailProblem;
      if (Object.keys(errors).length > 0) return { ok: false, errors };
      return { ok: true, choice: { kind: "company", taxId, companyName, companyAddress, email } };
    }
    default:
      return { ok: false, errors: { invoice_kind: "kind_required" } };
  }
}

/** ECPay's buyer fields for a choice: Print, Donation, LoveCode, CarrierType, CarrierNum, CustomerIdentifier. */
export interface EcpayBuyerFlags {
  Print: "0" | "1";
  Donation: "0" | "1";
  LoveCode: string;
  /** "": none; "1": ECPay member carrier; "2": citizen certificate; "3": mobile barcode. */
  CarrierType: "" | "1" | "2" | "3";
  CarrierNum: string;
  CustomerIdentifier: string;
}

/**
 * ECPay's combination rules, from a valid choice: a donation is not printed and has no 統一編號; a
 * 統一編號 has no donation and no carrier, and is printed (its proof, 電子發票證明聯); a cloud carrier
 * is not printed.
 */
export function ecpayBuyerFlags(choice: BuyerChoice): EcpayBuyerFlags {
  switch (choice.kind) {
    case "donation":
      return { Print: "0", Donation: "1", LoveCode: choice.loveCode, CarrierType: "", CarrierNum: "", CustomerIdentifier: "" };
    case "company":
      return { Print: "1", Donation: "0", LoveCode: "", CarrierType: "", CarrierNum: "", CustomerIdentifier: choice.taxId };
    case "carrier": {
      const type = choice.carrier === "member" ? "1" : choice.carrier === "citizen" ? "2" : "3";
      return { Print: "0", Donation: "0", LoveCode: "", CarrierType: type, CarrierNum: choice.code, CustomerIdentifier: "" };
    }
  }
}
