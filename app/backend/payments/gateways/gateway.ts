/**
 * One interface for every payment vendor (docs/decisions/031): start a payment, verify a callback,
 * query a status, refund. The adapters speak each provider's real protocol; the built-in sandbox
 * is the ECPay AIO adapter pointed at the Worker's own test gateway. Nothing here reads the
 * database or the environment: the caller passes the hotel's gateway configuration, the secrets
 * it names, and a fetch function.
 */
import { ecpayAio } from "~/backend/payments/gateways/ecpay-gateway";
import { jkopay } from "~/backend/payments/gateways/jkopay-gateway";
import { linepay } from "~/backend/payments/gateways/linepay-gateway";
import { newebpayMpg } from "~/backend/payments/gateways/newebpay-gateway";
import { defaultProvider, PROVIDER_SECRETS, type PaymentProvider } from "~/backend/payments/gateways/providers";
import { sandbox } from "~/backend/payments/gateways/sandbox-gateway";
import {
  PaymentConfigError,
  PaymentNotImplementedError,
  secret,
  type GatewayConfig,
  type GatewayDeps,
  type PaymentGateway,
} from "~/backend/payments/gateways/types";

/** The registry: one adapter per protocol a hotel file may name (providers.ts), each in its own file. */
const ADAPTERS: Record<PaymentProvider, (config: GatewayConfig, deps: GatewayDeps) => Promise<PaymentGateway>> = {
  sandbox,
  ecpay_aio: ecpayAio,
  newebpay_mpg: newebpayMpg,
  linepay,
  jkopay,
};

/** The gateway of one vendor for one hotel; throws PaymentNotImplementedError for vendors without a protocol. */
export async function paymentGateway(vendorId: number, configs: readonly GatewayConfig[], deps: GatewayDeps): Promise<PaymentGateway> {
  const config = configs.find((entry) => entry.vendor_id === vendorId);
  const provider = config?.provider ?? defaultProvider(vendorId);
  if (!provider) throw new PaymentNotImplementedError(vendorId);
  if (!config) throw new PaymentConfigError(`vendor ${vendorId}: no payment_gateways entry in the hotel file`);
  for (const role of PROVIDER_SECRETS[provider]) secret(config, deps.secrets, role);
  return ADAPTERS[provider](config, deps);
}
