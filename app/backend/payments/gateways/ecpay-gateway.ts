/** The ECPay AIO adapter (and, pointed at the Worker's own test gateway, the sandbox's). */
import {
  checkMacValue,
  ECPAY_AIO_URL,
  ecpayCheckoutFields,
  ECPAY_OK,
  readEcpayCallback,
  type EcpayKeys,
} from "~/backend/payments/gateways/ecpay";
import type { PaymentProvider } from "~/backend/payments/gateways/providers";
import {
  paidWithOf,
  secret,
  type Fetcher,
  type GatewayConfig,
  type GatewayDeps,
  type PaymentGateway,
} from "~/backend/payments/gateways/types";

const ECPAY_LANGUAGE: Record<string, string> = { "en-US": "ENG", "ja-JP": "JPN", "ko-KR": "KOR", "zh-CN": "CHI" };

export function ecpayGateway(
  keys: EcpayKeys,
  action: string,
  mode: "test" | "production",
  fetcher: Fetcher,
  provider: PaymentProvider,
): PaymentGateway {
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
      const fields: Record<string, string> = {
        MerchantID: keys.merchantId,
        MerchantTradeNo: tradeNo,
        TimeStamp: String(Math.floor(Date.now() / 1000)),
      };
      fields.CheckMacValue = await checkMacValue(fields, keys);
      const response = await fetcher(
        new Request(`${host}/Cashier/QueryTradeInfo/V5`, { method: "POST", body: new URLSearchParams(fields) }),
      );
      const answer = new URLSearchParams(await response.text());
      const signed = Object.fromEntries(answer);
      if ((await checkMacValue(signed, keys)) !== answer.get("CheckMacValue")) return null;
      return { paid: answer.get("TradeStatus") === "1", amount: Number(answer.get("TradeAmt")) };
    },
    async refund(payment, amount) {
      if (provider === "sandbox") return { ok: true, reason: "" };
      const fields: Record<string, string> = {
        MerchantID: keys.merchantId,
        MerchantTradeNo: payment.tradeNo,
        TradeNo: payment.gatewayTradeNo,
        Action: "R",
        TotalAmount: String(amount),
      };
      fields.CheckMacValue = await checkMacValue(fields, keys);
      const response = await fetcher(new Request(`${host}/CreditDetail/DoAction`, { method: "POST", body: new URLSearchParams(fields) }));
      const answer = new URLSearchParams(await response.text());
      return { ok: answer.get("RtnCode") === "1", reason: answer.get("RtnMsg") ?? "" };
    },
  };
}

export async function ecpayAio(config: GatewayConfig, deps: GatewayDeps): Promise<PaymentGateway> {
  const mode = config.mode;
  const keys = {
    merchantId: config.merchant_id,
    hashKey: secret(config, deps.secrets, "hash_key"),
    hashIv: secret(config, deps.secrets, "hash_iv"),
  };
  return ecpayGateway(keys, ECPAY_AIO_URL[mode], mode, deps.fetcher, "ecpay_aio");
}
