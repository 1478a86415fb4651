/**
 * One interface for every e-invoice provider (decision 159), as payments have one for their
 * gateways: the ECPay adapter speaks ECPay's B2C e-invoice API, the ezPay adapter ezPay's (decision
 * 171), the built-in sandbox answers the
 * same questions from D1 for `npm start` and the tests. Nothing here reads the database or the
 * environment.
 */
import type { BuyerChoice } from "~/domain/einvoice/buyer";
import type { InvoiceItem } from "~/domain/einvoice/items";
import type { FailureKind } from "~/domain/einvoice/machine";

export const EINVOICE_PROVIDERS = ["sandbox", "ecpay", "ezpay"] as const;
export type EinvoiceProviderName = (typeof EINVOICE_PROVIDERS)[number];

/** The names of the Worker secrets a hotel file may give for a provider's keys (ECPay's, ezPay's: decision 171). */
export const EINVOICE_SECRET_NAME = /^(ECPAY|EZPAY)_EINVOICE_[A-Z0-9_]{1,60}$/;

/** How an adapter reaches its provider (a fetch, or a test's stand-in for one). */
export type Fetcher = (request: Request) => Promise<Response>;

/** An invoice to issue (or hold until triggered). */
export interface IssueRequest {
  /** Ours, unique, letters and digits, at most 30 (derived from the order: machine.ts relateNumber). */
  relateNumber: string;
  buyer: BuyerChoice;
  /** The guest's name (B2C; a company buyer's name is its company name). */
  customerName: string;
  /** Whole TWD, tax included; the items add up to it exactly. */
  amount: number;
  items: readonly InvoiceItem[];
  remark?: string;
}

/** An issued invoice: its number (2 letters, 8 digits), random number (4 digits) and when. */
export interface IssuedInvoice {
  number: string;
  randomNumber: string;
  /** The Taipei date printed on it (YYYY-MM-DD): the void cut-off counts from it. */
  issuedOn: string;
}

export interface AllowanceRequest {
  number: string;
  issuedOn: string;
  amount: number;
  items: readonly InvoiceItem[];
  customerName: string;
  email: string;
  /** The invoice's relate number (ezPay names the invoice by it as well as by its number). */
  relateNumber?: string;
}

export interface AllowanceAnswer {
  allowanceNumber: string;
  /** What the invoice still counts for after it. */
  remaining: number;
  /** By consent: when the buyer's link lapses (ISO; ECPay's IA_TempExpireDate, Taipei time). */
  expiresAt?: string;
}

/**
 * What a caller knows of an invoice besides its relate number: its total. ezPay finds an invoice by
 * relate number only with its total (decision 171); ECPay and the sandbox need only the relate number.
 */
export interface KnownInvoice {
  amount: number;
}

/** What the provider knows of a relate number. */
export type IssueLookup =
  | { found: false }
  | { found: true; delayed: true }
  | { found: true; delayed: false; invoice: IssuedInvoice; amount: number; voided: boolean };

/** A failed call: `rate_limited` (HTTP 403: wait 30 minutes), `unavailable` (unreachable, unreadable, unverified), `refused` (the provider said no). */
export interface ProviderFailure {
  ok: false;
  kind: FailureKind;
  /** The provider's code (RtnCode, TransCode, HTTP status), or "" for a network failure. */
  code: string;
  message: string;
}

export type ProviderAnswer<T> = { ok: true; value: T } | ProviderFailure;

export interface EinvoiceProvider {
  name: EinvoiceProviderName;
  issue(request: IssueRequest): Promise<ProviderAnswer<IssuedInvoice>>;
  /** Held until triggerIssue (ECPay DelayIssue, DelayFlag=2): issue at check-out. */
  delayIssue(request: IssueRequest): Promise<ProviderAnswer<{ held: true }>>;
  triggerIssue(relateNumber: string, known?: KnownInvoice): Promise<ProviderAnswer<IssuedInvoice>>;
  /** Withdraws a held invoice before it is triggered (ECPay CancelDelayIssue). */
  cancelDelayIssue(relateNumber: string): Promise<ProviderAnswer<{ cancelled: true }>>;
  /** Voids an issued invoice (only until its period's cut-off). */
  invalid(request: { number: string; issuedOn: string; reason: string }): Promise<ProviderAnswer<{ number: string }>>;
  /** An allowance made at once (the hotel holds the buyer's consent). */
  allowance(request: AllowanceRequest): Promise<ProviderAnswer<AllowanceAnswer>>;
  /** An allowance the buyer consents to by an emailed link (valid 72 h); the answer arrives at `returnUrl`. */
  allowanceByCollegiate(request: AllowanceRequest & { returnUrl: string }): Promise<ProviderAnswer<AllowanceAnswer>>;
  /** Voids an allowance (at AllowanceInvalid, never at the allowance endpoint). */
  allowanceInvalid(request: { number: string; allowanceNumber: string; reason: string }): Promise<ProviderAnswer<{ number: string }>>;
  getIssue(relateNumber: string, known?: KnownInvoice): Promise<ProviderAnswer<IssueLookup>>;
  /** Advisory only: whether a mobile barcode is registered ("no data" is not "invalid"). */
  checkBarcode(code: string): Promise<ProviderAnswer<{ exists: boolean }>>;
  /** Advisory only: whether a donation code belongs to a charity. */
  checkLoveCode(code: string): Promise<ProviderAnswer<{ exists: boolean }>>;
  /**
   * Advisory only (decision 168): the name the Ministry of Finance's data registers a 統一編號 to
   * (ECPay GetCompanyNameByTaxID), or null when it has none ("no data" is not "invalid": a company
   * new to its data, for one).
   */
  companyName(taxId: string): Promise<ProviderAnswer<{ name: string | null }>>;
}

export function failure(kind: FailureKind, code: string, message: string): ProviderFailure {
  return { ok: false, kind, code, message: message.slice(0, 300) };
}
