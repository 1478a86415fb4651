/** Payment choices at checkout (spec §4): the hotel's payment_list, limited to the methods a booking can take. */

export const PAYMENT_METHODS = ["credit", "remittance", "pay_arrival", "cash"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Spec §4: the default payment type is credit card and the default vendor ECPG (id 1). */
export const DEFAULT_PAYMENT = { method: "credit", vendor: 1 } as const;

export interface PaymentOption {
  /** The form value: "<vendor id>:<method>". */
  value: string;
  vendor: number;
  method: PaymentMethod;
}

const isMethod = (method: string): method is PaymentMethod => (PAYMENT_METHODS as readonly string[]).includes(method);

/** The hotel's payment methods in its own order, without methods a booking cannot use. */
export function paymentOptions(list: readonly { vendor_id: number; method: string }[]): PaymentOption[] {
  return list.flatMap((entry) => (isMethod(entry.method) ? [{ value: `${entry.vendor_id}:${entry.method}`, vendor: entry.vendor_id, method: entry.method }] : []));
}

/** The option chosen at first: ECPG credit card when offered, else any credit card, else the hotel's first. */
export function defaultPaymentOption(options: readonly PaymentOption[]): string | null {
  const ecpg = options.find((option) => option.method === DEFAULT_PAYMENT.method && option.vendor === DEFAULT_PAYMENT.vendor);
  return (ecpg ?? options.find((option) => option.method === DEFAULT_PAYMENT.method) ?? options[0])?.value ?? null;
}

/** Vendors that are a payment method themselves (spec §4: REMITTANCE 8, PAYARRIVAL 14). */
const METHOD_VENDORS: Readonly<Record<number, PaymentMethod>> = { 8: "remittance", 14: "pay_arrival" };

/**
 * The translation keys that name a payment choice: the method, then its vendor, unless the vendor
 * is the method itself (a bank transfer is not "Bank transfer · Bank transfer").
 */
export function paymentLabelKeys(method: string, vendor: number): string[] {
  const methodKey = `payment.method.${method}`;
  return METHOD_VENDORS[vendor] === method ? [methodKey] : [methodKey, `payment.vendor.${vendor}`];
}
