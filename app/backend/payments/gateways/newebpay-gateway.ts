/** The NewebPay MPG adapter. */
import { NEWEBPAY_MPG_URL, newebpayCheckoutFields, readNewebpayCallback, type NewebpayKeys } from "~/backend/payments/gateways/newebpay";
import { paidWithOf, secret, type GatewayConfig, type GatewayDeps, type PaymentGateway } from "~/backend/payments/gateways/types";

export async function newebpayMpg(config: GatewayConfig, deps: GatewayDeps): Promise<PaymentGateway> {
  const mode = config.mode;
  const provider = config.provider;
  const keys: NewebpayKeys = {
    merchantId: config.merchant_id,
    hashKey: secret(config, deps.secrets, "hash_key"),
    hashIv: secret(config, deps.secrets, "hash_iv"),
  };
  return {
    provider,
    acknowledgement: "SUCCESS",
    async start(request) {
      const fields = await newebpayCheckoutFields(
        {
          tradeNo: request.tradeNo,
          timeStamp: Math.floor(request.now.getTime() / 1000),
          amount: request.amount,
          itemDesc: request.itemName,
          email: request.email,
          returnUrl: request.urls.browserReturn,
          notifyUrl: request.urls.notify,
          browserReturnUrl: request.urls.browserReturn,
        },
        keys,
      );
      return { kind: "form", action: NEWEBPAY_MPG_URL[mode], fields };
    },
    async verifyCallback(_kind, body) {
      const verdict = await readNewebpayCallback(new URLSearchParams(body), keys);
      if (!verdict.ok) return verdict;
      const { notice } = verdict;
      return notice.kind === "paid"
        ? {
            ok: true,
            notice: {
              kind: "paid",
              tradeNo: notice.tradeNo,
              amount: notice.amount,
              currency: "TWD",
              gatewayTradeNo: notice.gatewayTradeNo,
              simulated: false,
              paidWith: paidWithOf(notice.paymentType),
            },
          }
        : {
            ok: true,
            notice: {
              kind: "failed",
              tradeNo: notice.tradeNo,
              amount: notice.amount,
              currency: "TWD",
              gatewayTradeNo: notice.gatewayTradeNo,
              message: notice.status,
            },
          };
    },
    query: async () => null,
    refund: async () => ({ ok: false, reason: "NewebPay refunds go through the merchant back office" }),
  };
}
