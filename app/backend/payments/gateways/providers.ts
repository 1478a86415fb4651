/**
 * The payment protocols a hotel can name in its hotel file (payment_gateways[].provider), and which
 * vendor of spec §4 speaks which by default. Vendors without a public protocol have none: paying
 * through them answers the not-implemented error of spec §8 (docs/decisions/031).
 */
import { PAYMENT_VENDORS } from "~/domain/payments";

export const PAYMENT_PROVIDERS = ["ecpay_aio", "newebpay_mpg", "linepay", "jkopay", "sandbox"] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** The protocol a vendor speaks when the hotel file does not say (null: no public protocol). */
export function defaultProvider(vendorId: number): PaymentProvider | null {
  switch (vendorId) {
    case PAYMENT_VENDORS.ECPAY:
      return "ecpay_aio";
    case PAYMENT_VENDORS.NEWEB:
      return "newebpay_mpg";
    case PAYMENT_VENDORS.LINEPAY:
      return "linepay";
    case PAYMENT_VENDORS.JKOS:
      return "jkopay";
    default:
      return null;
  }
}

/** The Worker secrets each protocol needs, by role (the hotel file maps role → secret name). */
export const PROVIDER_SECRETS: Readonly<Record<PaymentProvider, readonly string[]>> = {
  ecpay_aio: ["hash_key", "hash_iv"],
  newebpay_mpg: ["hash_key", "hash_iv"],
  linepay: ["channel_secret"],
  jkopay: ["api_key", "secret_key"],
  sandbox: [],
};
