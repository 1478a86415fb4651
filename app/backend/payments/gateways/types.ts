/**
 * The one interface every payment vendor's adapter implements (docs/decisions/031): start a
 * payment, verify a callback, query a status, refund; and what the registry hands each adapter.
 */
import type { PaymentProvider } from "~/backend/payments/gateways/providers";

/** How an adapter reaches its gateway (a fetch, or a test's stand-in for one). */
export type Fetcher = (request: Request) => Promise<Response>;

/** Where the browser goes to pay: a form to post (auto-submitted with JavaScript) or an address. */
export type PaymentStart = { kind: "form"; action: string; fields: Record<string, string> } | { kind: "redirect"; url: string };

export interface PaymentRequest {
  /** Our trade number for this attempt: 1–20 letters and digits, unique. */
  tradeNo: string;
  amount: number;
  itemName: string;
  email: string;
  now: Date;
  lang: string;
  atmDays: number;
  urls: {
    /** Server-to-server result (ECPay ReturnURL, NewebPay NotifyURL, JKOPay result_url). */
    notify: string;
    /** ECPay PaymentInfoURL (ATM / store code issued). */
    paymentInfo: string;
    /** Where the browser returns (and LINE Pay's confirmUrl). */
    browserReturn: string;
    /** LINE Pay's confirmUrl: a back-end address that confirms, then sends the browser on. */
    confirm: string;
  };
}

/** What a verified callback or status query says about one attempt. */
/** How money was actually paid, as a gateway says it (decision 047). */
export type PaidWith = "credit" | "atm" | "cvs" | "barcode" | "webatm" | "wallet" | "";

/** ECPay's PaymentType (Credit_CreditCard, ATM_TAISHIN, CVS_CVS, BARCODE_BARCODE, WebATM_TAISHIN) or NewebPay's (CREDIT, VACC, WEBATM, CVS, BARCODE) in one word. */
export function paidWithOf(paymentType: string): PaidWith {
  const type = paymentType.toUpperCase();
  if (type.startsWith("CREDIT")) return "credit";
  if (type.startsWith("WEBATM")) return "webatm";
  if (type.startsWith("ATM") || type === "VACC") return "atm";
  if (type.startsWith("CVS")) return "cvs";
  if (type.startsWith("BARCODE")) return "barcode";
  return "";
}

export type PaymentNotice =
  | { kind: "paid"; tradeNo: string; amount: number; currency: "TWD"; gatewayTradeNo: string; simulated: boolean; paidWith: PaidWith }
  | { kind: "failed"; tradeNo: string; amount: number; currency: "TWD"; gatewayTradeNo: string; message: string }
  | {
      kind: "code_issued";
      tradeNo: string;
      amount: number;
      currency: "TWD";
      gatewayTradeNo: string;
      bankCode: string;
      account: string;
      expireDate: string;
      paymentType: string;
    };

export type CallbackVerdict = { ok: true; notice: PaymentNotice } | { ok: false; reason: string };

export type CallbackKind = "return" | "payment_info";

export interface PaymentGateway {
  provider: PaymentProvider;
  /** The body a gateway expects as a callback's acknowledgement. */
  acknowledgement: string;
  start(request: PaymentRequest): Promise<PaymentStart>;
  verifyCallback(kind: CallbackKind, body: string, headers: Headers): Promise<CallbackVerdict>;
  /** Asks the gateway what became of an attempt (null: this gateway has no status query). */
  query(tradeNo: string, gatewayTradeNo: string, amount: number): Promise<{ paid: boolean; amount: number } | null>;
  refund(payment: { tradeNo: string; gatewayTradeNo: string; amount: number }, amount: number): Promise<{ ok: boolean; reason: string }>;
}

export class PaymentNotImplementedError extends Error {
  constructor(public readonly vendorId: number) {
    super(`payment vendor ${vendorId} has no public protocol: not implemented`);
    this.name = "PaymentNotImplementedError";
  }
}

export class PaymentConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PaymentConfigError";
  }
}

/** A hotel's configuration for one vendor, as the hotel file gives it. */
export interface GatewayConfig {
  vendor_id: number;
  provider: PaymentProvider;
  mode: "test" | "production";
  merchant_id: string;
  /** Role → name of the Worker secret that holds it. */
  secrets: Record<string, string>;
}

export interface GatewayDeps {
  secrets: (name: string) => string | undefined;
  signingSecret: string;
  /** The site's origin (the sandbox's hosted page is on it). */
  siteOrigin: string;
  fetcher: Fetcher;
}

/** The Worker secret that holds `role` for this vendor; a clear configuration error when it is missing. */
export function secret(config: GatewayConfig, secrets: (name: string) => string | undefined, role: string): string {
  const name = config.secrets[role];
  const value = name ? secrets(name) : undefined;
  if (!value)
    throw new PaymentConfigError(
      `vendor ${config.vendor_id}: Worker secret for ${role} (${name ?? "not named in the hotel file"}) is not set`,
    );
  return value;
}
