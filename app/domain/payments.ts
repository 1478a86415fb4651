/**
 * THE definition of payment methods and vendors (spec §4), for the back end, the hotel file and the
 * site alike; and the payment choices at checkout: the hotel's payment_list, limited to the methods
 * a booking can take. Pure: no Remix, Workers or fetch.
 */

export const PAYMENT_METHODS = ["credit", "remittance", "pay_arrival", "cash"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Spec §4 payment vendor ids. */
export const PAYMENT_VENDORS = {
  ECPG: 1,
  NEWEB: 2,
  JKOS: 3,
  LINEPAY: 4,
  ECPAY: 6,
  PIWALLE: 7,
  REMITTANCE: 8,
  CATHAYBK: 9,
  TCBBK: 10,
  TAISHINBK: 11,
  SINOPACBK: 12,
  CTBCBK: 13,
  PAYARRIVAL: 14,
  TAICHUNGBK: 15,
} as const;
export type PaymentVendorName = keyof typeof PAYMENT_VENDORS;
export const PAYMENT_VENDOR_IDS: readonly number[] = Object.values(PAYMENT_VENDORS);

export const isPaymentVendor = (id: number): boolean => PAYMENT_VENDOR_IDS.includes(id);
export const isPaymentMethod = (method: string): method is PaymentMethod => (PAYMENT_METHODS as readonly string[]).includes(method);

/**
 * Methods paid at the hotel, after the stay has begun. Rail tickets are issued only when paid
 * (decision 120), so an order with tickets cannot be paid this way: the back end refuses it and
 * the checkout does not offer it.
 */
export const paidAtTheHotel = (method: string): boolean => method === "pay_arrival" || method === "cash";

/** Methods settled away from the site (bank transfer, at the hotel): no gateway is involved. */
export function isOfflineMethod(method: string): boolean {
  return method === "remittance" || method === "pay_arrival" || method === "cash";
}

/** The form value of a choice, "<vendor id>:<method>", as a pattern (checkout form validation). */
export const PAYMENT_CHOICE_PATTERN = new RegExp(`^\\d{1,2}:(${PAYMENT_METHODS.join("|")})$`);

/** Spec §4: payment status of an order. */
export const PAYMENT_STATUS = { unpaid: -1, part: 1, full: 2 } as const;

/**
 * How long an unpaid order holds its rooms, per way of paying (docs/decisions/030). A hotel sets
 * its own in the hotel file (payment_deadlines); these are the defaults.
 */
export interface PaymentDeadlines {
  /** Card and wallets: the guest is at the gateway now. */
  online_minutes: number;
  /** An ATM / convenience-store number issued by the gateway. */
  atm_days: number;
  /** Bank transfer to the hotel's account. */
  remittance_days: number;
  /** Unpaid orders one guest (same email, or same address) may hold at the hotel at once. */
  max_unpaid_per_guest: number;
}
export const DEFAULT_PAYMENT_DEADLINES: PaymentDeadlines = { online_minutes: 30, atm_days: 3, remittance_days: 3, max_unpaid_per_guest: 3 };

/** What a booking made on (or just before) its check-in day gets to pay: an hour, never past that day. */
const LAST_MINUTE_MS = 3_600_000;

/**
 * The payment deadline of a new order (ISO instant), or null when nothing is due before arrival.
 * Never later than the start of the check-in day (decision 047): a stay does not start unpaid for a
 * method that is paid in advance. A booking made on its check-in day, or less than an hour before
 * it starts, gets at most an hour, and never past the end of that day.
 */
export function paymentDeadline(
  method: string,
  dueNow: number,
  now: Date,
  deadlines: PaymentDeadlines,
  checkInStart: Date | null = null,
): string | null {
  if (dueNow <= 0 || method === "pay_arrival" || method === "cash") return null;
  const ms = method === "remittance" ? deadlines.remittance_days * 86_400_000 : deadlines.online_minutes * 60_000;
  let at = now.getTime() + ms;
  if (checkInStart) at = Math.min(at, latestDeadline(checkInStart, now));
  return new Date(at).toISOString();
}

/** The latest any payment deadline of a stay may be, whatever a gateway says (decision 047). */
export function latestDeadline(checkInStart: Date, now: Date): number {
  const start = checkInStart.getTime();
  return Math.max(start, Math.min(now.getTime() + LAST_MINUTE_MS, start + 86_400_000));
}

/** How money was paid, when a gateway said something other than its vendor's usual (decision 047). */
const PAID_WITH_WORDS = ["atm", "webatm", "cvs", "barcode"] as const;

/**
 * The translation keys that name how money was actually paid: an ATM transfer or a store code taken
 * through a card vendor is named as such, never "credit card"; otherwise as paymentLabelKeys.
 */
export function paidWithLabelKeys(method: string, vendor: number, paidWith: string): string[] {
  if ((PAID_WITH_WORDS as readonly string[]).includes(paidWith)) return [`payment.paid_with.${paidWith}`];
  // "Pay online" is the choice at checkout, not what paid: money paid online is named by its
  // vendor's instrument alone ("Credit card (ECPay)"), never "Pay online · Credit card (ECPay)".
  if (method === "credit" && METHOD_VENDORS[vendor] === undefined) return [`payment.vendor.${vendor}`];
  return paymentLabelKeys(method, vendor);
}

/** How an order's money came: the newest paid attempt's way ("" when none is recorded). */
export function orderPaidWith(order: { payment_attempts?: readonly { status: string; paid_with?: string }[] }): string {
  return order.payment_attempts?.find((attempt) => attempt.status === "paid")?.paid_with ?? "";
}

/** Spec §4: the default payment type is credit card and the default vendor ECPG (id 1). */
export const DEFAULT_PAYMENT = { method: "credit", vendor: 1 } as const;

export interface PaymentOption {
  /** The form value: "<vendor id>:<method>". */
  value: string;
  vendor: number;
  method: PaymentMethod;
}

/** The hotel's payment methods in its own order, without methods a booking cannot use. */
export function paymentOptions(list: readonly { vendor_id: number; method: string }[]): PaymentOption[] {
  return list.flatMap((entry) =>
    isPaymentMethod(entry.method) ? [{ value: `${entry.vendor_id}:${entry.method}`, vendor: entry.vendor_id, method: entry.method }] : [],
  );
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
