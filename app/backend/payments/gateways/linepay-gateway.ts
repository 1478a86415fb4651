/** The LINE Pay v3 adapter. */
import { LINEPAY_HOST, linepayConfirm, linepayRefund, linepayRequest, type LinepayKeys } from "~/backend/payments/gateways/linepay";
import { PaymentConfigError, secret, type GatewayConfig, type GatewayDeps, type PaymentGateway } from "~/backend/payments/gateways/types";

export async function linepay(config: GatewayConfig, deps: GatewayDeps): Promise<PaymentGateway> {
  const mode = config.mode;
  const provider = config.provider;
  const keys: LinepayKeys = { channelId: config.merchant_id, channelSecret: secret(config, deps.secrets, "channel_secret") };
  const host = LINEPAY_HOST[mode];
  return {
    provider,
    acknowledgement: "",
    async start(request) {
      const answer = await linepayRequest(deps.fetcher, host, keys, {
        orderId: request.tradeNo,
        amount: request.amount,
        productName: request.itemName,
        confirmUrl: request.urls.confirm,
        cancelUrl: request.urls.browserReturn,
      });
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
