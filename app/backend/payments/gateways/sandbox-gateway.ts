/** The built-in test gateway's adapter: ECPay AIO pointed at the Worker's own /sandbox-gateway pages. */
import type { EcpayKeys } from "~/backend/payments/gateways/ecpay";
import { ecpayGateway } from "~/backend/payments/gateways/ecpay-gateway";
import type { GatewayConfig, GatewayDeps, PaymentGateway } from "~/backend/payments/gateways/types";
import { hmacSha256Hex } from "~/lib/crypto";

/** The sandbox gateway's own address, in the same Worker. */
export const SANDBOX_PATH = "/sandbox-gateway/ecpay";

/** The sandbox's keys: derived from the Worker's signing secret, so they never live in a file or the database. */
export async function sandboxKeys(signingSecret: string, merchantId: string): Promise<EcpayKeys> {
  const derived = await hmacSha256Hex(signingSecret, `sandbox-gateway:${merchantId}`);
  return { merchantId, hashKey: derived.slice(0, 16), hashIv: derived.slice(16, 32) };
}

export async function sandbox(config: GatewayConfig, deps: GatewayDeps): Promise<PaymentGateway> {
  const keys = await sandboxKeys(deps.signingSecret, config.merchant_id || "2000132");
  return ecpayGateway(keys, `${deps.siteOrigin}${SANDBOX_PATH}/checkout`, "test", deps.fetcher, "sandbox");
}
