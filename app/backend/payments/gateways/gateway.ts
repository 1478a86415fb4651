/**
 * One interface for every payment vendor (docs/decisions/031): start a payment, verify a callback,
 * query a status, refund. The adapters speak each provider's real protocol; the built-in sandbox
 * is the ECPay AIO adapter pointed at the Worker's own test gateway. Nothing here reads the
 * database or the environment: the caller passes the hotel's gateway configuration, the secrets
 * it names, and a fetch function.
 */
import { checkMacValue, ECPAY_AIO_URL, ecpayCheckoutFields, ECPAY_OK, readEcpayCallback, type EcpayKeys } from "~/backend/payments/gateways/ecpay";
import { hmacSha256Hex } from "~/lib/crypto";
import { JKOPAY_HOST, jkopayEntry, jkopayInquiry, type JkopayKeys } from "~/backend/payments/gateways/jkopay";
import { LINEPAY_HOST, linepayConfirm, linepayRefund, linepayRequest, type Fetcher, type LinepayKeys } from "~/backend/payments/gateways/linepay";
import { NEWEBPAY_MPG_URL, newebpayCheckoutFields, readNewebpayCallback, type NewebpayKeys } from "~/backend/payments/gateways/newebpay";
import { defaultProvider, PROVIDER_SECRETS, type PaymentProvider } from "~/backend/payments/gateways/providers";

export type { Fetcher } from "~/backend/payments/gateways/linepay";

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
  | { kind: "code_issued"; tradeNo: string; amount: number; currency: "TWD"; gatewayTradeNo: string; bankCode: string; account: string; expireDate: string; paymentType: string };

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

/** The sandbox gateway's own address, in the same Worker. */
export const SANDBOX_PATH = "/sandbox-gateway/ecpay";

/** The sandbox's keys: derived from the Worker's signing secret, so they never live in a file or the database. */
export async function sandboxKeys(signingSecret: string, merchantId: string): Promise<EcpayKeys> {
  const derived = await hmacSha256Hex(signingSecret, `sandbox-gateway:${merchantId}`);
  return { merchantId, hashKey: derived.slice(0, 16), hashIv: derived.slice(16, 32) };
}

const ECPAY_LANGUAGE: Record<string, string> = { "en-US": "ENG", "ja-JP": "JPN", "ko-KR": "KOR", "zh-CN": "CHI" };

function secret(config: GatewayConfig, secrets: (name: string) => string | undefined, role: string): string {
  const name = config.secrets[role];
  const value = name ? secrets(name) : undefined;
  if (!value) throw new PaymentConfigError(`vendor ${config.vendor_id}: Worker secret for ${role} (${name ?? "not named in the hotel file"}) is not set`);
  return value;
}

function ecpayGateway(keys: EcpayKeys, action: string, mode: "test" | "production", fetcher: Fetcher, provider: PaymentProvider): PaymentGateway {
  const host = mode === "production" ? "https://payment.ecpay.com.tw" : "https://payment-stage.ecpay.com.tw";
  return {
    provider,
    acknowledgement: ECPAY_OK,
    async start(request) {
      const fields = await ecpayCheckoutFields(
        {
          tradeNo: request.tradeNo,
          tradeDate: request.now,
          amount: request.amount,
          itemName: request.itemName,
          tradeDesc: request.itemName,
          returnUrl: request.urls.notify,
          paymentInfoUrl: request.urls.paymentInfo,
          browserReturnUrl: request.urls.browserReturn,
          atmDays: request.atmDays,
          language: ECPAY_LANGUAGE[request.lang] ?? "",
        },
        keys,
      );
      return { kind: "form", action, fields };
    },
    async verifyCallback(kind, body) {
      const verdict = await readEcpayCallback(new URLSearchParams(body), keys, kind);
      if (!verdict.ok) return verdict;
      const notice = verdict.notice;
      if (notice.kind === "paid" && notice.simulated && mode === "production") {
        // A back-office simulation (SimulatePaid=1) is never money.
        return { ok: false, reason: "SimulatePaid=1 in production" };
      }
      if (notice.kind === "paid") return { ok: true, notice: { ...notice, currency: "TWD", paidWith: paidWithOf(notice.paymentType) } };
      if (notice.kind === "failed") return { ok: true, notice: { ...notice, currency: "TWD" } };
      return { ok: true, notice: { ...notice, currency: "TWD" } };
    },
    async query(tradeNo) {
      if (provider === "sandbox") return null;
      const fields: Record<string, string> = { MerchantID: keys.merchantId, MerchantTradeNo: tradeNo, TimeStamp: String(Math.floor(Date.now() / 1000)) };
      fields.CheckMacValue = await checkMacValue(fields, keys);
      const response = await fetcher(new Request(`${host}/Cashier/QueryTradeInfo/V5`, { method: "POST", body: new URLSearchParams(fields) }));
      const answer = new URLSearchParams(await response.text());
      const signed = Object.fromEntries(answer);
      if ((await checkMacValue(signed, keys)) !== answer.get("CheckMacValue")) return null;
      return { paid: answer.get("TradeStatus") === "1", amount: Number(answer.get("TradeAmt")) };
    },
    async refund(payment, amount) {
      if (provider === "sandbox") return { ok: true, reason: "" };
      const fields: Record<string, string> = { MerchantID: keys.merchantId, MerchantTradeNo: payment.tradeNo, TradeNo: payment.gatewayTradeNo, Action: "R", TotalAmount: String(amount) };
      fields.CheckMacValue = await checkMacValue(fields, keys);
      const response = await fetcher(new Request(`${host}/CreditDetail/DoAction`, { method: "POST", body: new URLSearchParams(fields) }));
      const answer = new URLSearchParams(await response.text());
      return { ok: answer.get("RtnCode") === "1", reason: answer.get("RtnMsg") ?? "" };
    },
  };
}

export interface GatewayDeps {
  secrets: (name: string) => string | undefined;
  signingSecret: string;
  /** The site's origin (the sandbox's hosted page is on it). */
  siteOrigin: string;
  fetcher: Fetcher;
}

/** The gateway of one vendor for one hotel; throws PaymentNotImplementedError for vendors without a protocol. */
export async function paymentGateway(vendorId: number, configs: readonly GatewayConfig[], deps: GatewayDeps): Promise<PaymentGateway> {
  const config = configs.find((entry) => entry.vendor_id === vendorId);
  const provider = config?.provider ?? defaultProvider(vendorId);
  if (!provider) throw new PaymentNotImplementedError(vendorId);
  if (!config) throw new PaymentConfigError(`vendor ${vendorId}: no payment_gateways entry in the hotel file`);
  for (const role of PROVIDER_SECRETS[provider]) secret(config, deps.secrets, role);
  const mode = config.mode;
  switch (provider) {
    case "sandbox": {
      const keys = await sandboxKeys(deps.signingSecret, config.merchant_id || "2000132");
      return ecpayGateway(keys, `${deps.siteOrigin}${SANDBOX_PATH}/checkout`, "test", deps.fetcher, "sandbox");
    }
    case "ecpay_aio": {
      const keys = { merchantId: config.merchant_id, hashKey: secret(config, deps.secrets, "hash_key"), hashIv: secret(config, deps.secrets, "hash_iv") };
      return ecpayGateway(keys, ECPAY_AIO_URL[mode], mode, deps.fetcher, "ecpay_aio");
    }
    case "newebpay_mpg": {
      const keys: NewebpayKeys = { merchantId: config.merchant_id, hashKey: secret(config, deps.secrets, "hash_key"), hashIv: secret(config, deps.secrets, "hash_iv") };
      return {
        provider,
        acknowledgement: "SUCCESS",
        async start(request) {
          const fields = await newebpayCheckoutFields(
            { tradeNo: request.tradeNo, timeStamp: Math.floor(request.now.getTime() / 1000), amount: request.amount, itemDesc: request.itemName, email: request.email, returnUrl: request.urls.browserReturn, notifyUrl: request.urls.notify, browserReturnUrl: request.urls.browserReturn },
            keys,
          );
          return { kind: "form", action: NEWEBPAY_MPG_URL[mode], fields };
        },
        async verifyCallback(_kind, body) {
          const verdict = await readNewebpayCallback(new URLSearchParams(body), keys);
          if (!verdict.ok) return verdict;
          const { notice } = verdict;
          return notice.kind === "paid"
            ? { ok: true, notice: { kind: "paid", tradeNo: notice.tradeNo, amount: notice.amount, currency: "TWD", gatewayTradeNo: notice.gatewayTradeNo, simulated: false, paidWith: paidWithOf(notice.paymentType) } }
            : { ok: true, notice: { kind: "failed", tradeNo: notice.tradeNo, amount: notice.amount, currency: "TWD", gatewayTradeNo: notice.gatewayTradeNo, message: notice.status } };
        },
        query: async () => null,
        refund: async () => ({ ok: false, reason: "NewebPay refunds go through the merchant back office" }),
      };
    }
    case "linepay": {
      const keys: LinepayKeys = { channelId: config.merchant_id, channelSecret: secret(config, deps.secrets, "channel_secret") };
      const host = LINEPAY_HOST[mode];
      return {
        provider,
        acknowledgement: "",
        async start(request) {
          const answer = await linepayRequest(deps.fetcher, host, keys, { orderId: request.tradeNo, amount: request.amount, productName: request.itemName, confirmUrl: request.urls.confirm, cancelUrl: request.urls.browserReturn });
          if (!answer.ok) throw new PaymentConfigError(`LINE Pay request refused: ${answer.reason}`);
          return { kind: "redirect", url: answer.paymentUrl };
        },
        // LINE Pay has no server callback: the confirm call is the verification.
        verifyCallback: async () => ({ ok: false, reason: "LINE Pay sends no callbacks" }),
        async query(_tradeNo, gatewayTradeNo, amount) {
          const answer = await linepayConfirm(deps.fetcher, host, keys, gatewayTradeNo, amount);
          return { paid: answer.paid, amount: answer.paid ? amount : 0 };
        },
        async refund(payment, amount) {
          const answer = await linepayRefund(deps.fetcher, host, keys, payment.gatewayTradeNo, amount);
          return { ok: answer.ok, reason: answer.returnCode };
        },
      };
    }
    case "jkopay": {
      const keys: JkopayKeys = { storeId: config.merchant_id, apiKey: secret(config, deps.secrets, "api_key"), secretKey: secret(config, deps.secrets, "secret_key") };
      const host = JKOPAY_HOST[mode];
      return {
        provider,
        acknowledgement: "",
        async start(request) {
          const answer = await jkopayEntry(deps.fetcher, host, keys, { orderId: request.tradeNo, amount: request.amount, displayUrl: request.urls.browserReturn, resultUrl: request.urls.notify });
          if (!answer.ok) throw new PaymentConfigError(`JKOPay entry refused: ${answer.reason}`);
          return { kind: "redirect", url: answer.paymentUrl };
        },
        async verifyCallback(_kind, body) {
          // The result POST is only a hint: the inquiry decides (query below).
          let parsed: { transaction?: { platform_order_id?: string; status?: number; final_price?: number; tradeNo?: string } };
          try {
            parsed = JSON.parse(body) as typeof parsed;
          } catch {
            return { ok: false, reason: "not JSON" };
          }
          const orderId = parsed.transaction?.platform_order_id ?? "";
          const inquiry = await jkopayInquiry(deps.fetcher, host, keys, orderId);
          if (!inquiry.paid) return { ok: true, notice: { kind: "failed", tradeNo: orderId, amount: inquiry.amount, currency: "TWD", gatewayTradeNo: "", message: "inquiry: not paid" } };
          return { ok: true, notice: { kind: "paid", tradeNo: orderId, amount: inquiry.amount, currency: "TWD", gatewayTradeNo: String(parsed.transaction?.tradeNo ?? ""), simulated: false, paidWith: "wallet" } };
        },
        query: async (tradeNo) => jkopayInquiry(deps.fetcher, host, keys, tradeNo),
        refund: async () => ({ ok: false, reason: "JKOPay refunds are not built yet" }),
      };
    }
  }
}
