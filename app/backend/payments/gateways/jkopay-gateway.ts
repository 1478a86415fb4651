/** The JKOPay adapter. */
import { JKOPAY_HOST, jkopayEntry, jkopayInquiry, type JkopayKeys } from "~/backend/payments/gateways/jkopay";
import { PaymentConfigError, secret, type GatewayConfig, type GatewayDeps, type PaymentGateway } from "~/backend/payments/gateways/types";

export async function jkopay(config: GatewayConfig, deps: GatewayDeps): Promise<PaymentGateway> {
  const mode = config.mode;
  const provider = config.provider;
  const keys: JkopayKeys = {
    storeId: config.merchant_id,
    apiKey: secret(config, deps.secrets, "api_key"),
    secretKey: secret(config, deps.secrets, "secret_key"),
  };
  const host = JKOPAY_HOST[mode];
  return {
    provider,
    acknowledgement: "",
    async start(request) {
      const answer = await jkopayEntry(deps.fetcher, host, keys, {
        orderId: request.tradeNo,
        amount: request.amount,
        displayUrl: request.urls.browserReturn,
        resultUrl: request.urls.notify,
      });
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
      if (!inquiry.paid)
        return {
          ok: true,
          notice: {
            kind: "failed",
            tradeNo: orderId,
            amount: inquiry.amount,
            currency: "TWD",
            gatewayTradeNo: "",
            message: "inquiry: not paid",
          },
        };
      return {
        ok: true,
        notice: {
          kind: "paid",
          tradeNo: orderId,
          amount: inquiry.amount,
          currency: "TWD",
          gatewayTradeNo: String(parsed.transaction?.tradeNo ?? ""),
          simulated: false,
          paidWith: "wallet",
        },
      };
    },
    query: async (tradeNo) => jkopayInquiry(deps.fetcher, host, keys, tradeNo),
    refund: async () => ({ ok: false, reason: "JKOPay refunds are not built yet" }),
  };
}
