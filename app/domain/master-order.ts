/**
 * The master system's side of orders (spec §3 master-system order, §7 {master}/payment, §9 repay).
 * Pure: no Remix, Workers or fetch.
 */
import { PAYMENT_VENDORS } from "./payments";

/** Spec §9: the payment ids of {master}/payment and the vendor of spec §4 each stands for. */
export const REPAY_PAYMENT_IDS = { card: 2, jkos: 35, piwalle: 45, sinopacbk: 48 } as const;
export type RepayPaymentId = (typeof REPAY_PAYMENT_IDS)[keyof typeof REPAY_PAYMENT_IDS];

/** The vendor of spec §4 behind a repay payment id; card is the hotel's own card vendor. */
export function repayVendor(paymentId: number, cardVendor: number | null): number | null {
  switch (paymentId) {
    case REPAY_PAYMENT_IDS.card:
      return cardVendor;
    case REPAY_PAYMENT_IDS.jkos:
      return 3;
    case REPAY_PAYMENT_IDS.piwalle:
      return 7;
    case REPAY_PAYMENT_IDS.sinopacbk:
      return 12;
    default:
      return null;
  }
}

/**
 * Spec §9: "return urls differ by vendor". Cards come back to the order's payment page; wallets
 * (JKOS, PIWALLE) to the same page marked as a wallet return; the bank (SINOPACBK) to the
 * confirmation, since its transfer is confirmed later.
 */
export function repayReturnPath(paymentId: number, hotelId: number, orderDoc: string, validHash: string): string {
  const hash = `valid_hash=${encodeURIComponent(validHash)}`;
  const doc = encodeURIComponent(orderDoc);
  if (paymentId === REPAY_PAYMENT_IDS.sinopacbk) return `/redirect/receipt/${doc}?${hash}`;
  if (paymentId === REPAY_PAYMENT_IDS.jkos || paymentId === REPAY_PAYMENT_IDS.piwalle) return `/pay/${hotelId}/${doc}?${hash}&via=wallet`;
  return `/pay/${hotelId}/${doc}?${hash}`;
}

/** Spec §3: an invoice number is split at its hyphen into the number and the random number. */
export function splitInvoiceNumber(invoice: string): { number: string; random_number: string } {
  const at = invoice.indexOf("-");
  return at < 0 ? { number: invoice, random_number: "" } : { number: invoice.slice(0, at), random_number: invoice.slice(at + 1) };
}

/** One way to pay the rest online: a §9 payment id and the hotel's vendor behind it. */
export interface RepayOption {
  payment_id: number;
  vendor_id: number;
}

/**
 * The ways a hotel takes the rest of a deposit online (spec §9, decision 047): its own card vendor
 * and JKOS when it offers them — the §9 ids with a protocol here. PIWALLE (45) and SINOPACBK (48)
 * have none: they are not offered, and asked for anyway, {master}/payment refuses them.
 */
export function repayOptions(paymentList: readonly { vendor_id: number; method: string }[]): RepayOption[] {
  const card = paymentList.find((entry) => entry.method === "credit" && entry.vendor_id !== PAYMENT_VENDORS.JKOS);
  const jkos = paymentList.find((entry) => entry.vendor_id === PAYMENT_VENDORS.JKOS);
  return [
    ...(card ? [{ payment_id: REPAY_PAYMENT_IDS.card, vendor_id: card.vendor_id }] : []),
    ...(jkos ? [{ payment_id: REPAY_PAYMENT_IDS.jkos, vendor_id: jkos.vendor_id }] : []),
  ];
}

/** Spec §8: the repay configuration needs the master system's hotel domain. */
export class MasterDomainMissingError extends Error {
  constructor() {
    super("The master hotel domain cannot be obtained");
    this.name = "MasterDomainMissingError";
  }
}

export function repayConfig(domain: string | null | undefined): { domain: string } {
  if (!domain || domain.trim() === "") throw new MasterDomainMissingError();
  return { domain };
}
