/**
 * An invoice's items from an order (decision 159): room nights and add-ons as items whose amounts
 * add up to the invoice's amount exactly, in whole TWD, tax included (B2C). Rail tickets are never
 * the hotel's sale and never appear. A deposit or a cancellation fee the hotel keeps is one item of
 * its own. For a company buyer, the untaxed amount and the 5 % tax are split from the total as
 * ECPay does for vat=1 (prices tax included).
 */

/** What an order sold, as the invoice sees it. */
export interface InvoiceSource {
  /** Each room line: its name (room class and plan), rooms, nights and what it costs for the whole stay. */
  rooms: readonly { name: string; rooms: number; nights: number; amount: number }[];
  /** Each add-on: its name, how many, and what they cost together. */
  addons: readonly { name: string; count: number; amount: number }[];
  /** Taken off the room price: the coupon or members-only discount and points. */
  discount: number;
  /** The rail tickets' price (in the order's total, never in the hotel's invoice). */
  rail: number;
}

/** One invoice item as ECPay takes it: ItemName, ItemCount, ItemWord, ItemPrice, ItemAmount. */
export interface InvoiceItem {
  name: string;
  count: number;
  word: string;
  price: number;
  amount: number;
}

/** Why an invoice is for this amount: the whole stay, or a part of it the hotel keeps. */
export type InvoicePurpose = "stay" | "deposit" | "balance" | "cancellation_fee";

/** ECPay's ItemName limit (B2CInvoice Issue v3.0.0: String(100)). */
export const ITEM_NAME_MAX = 100;

/** The words printed on an invoice: invoices are Chinese documents whatever the guest's language. */
const PURPOSE_NAME: Readonly<Record<Exclude<InvoicePurpose, "stay">, string>> = {
  deposit: "住宿訂金",
  balance: "住宿費用（尾款）",
  cancellation_fee: "取消訂房費用",
};

/** What the hotel sold: rooms and add-ons, less the discounts; the rail tickets are not its sale. */
export function hotelSale(source: InvoiceSource): number {
  const rooms = source.rooms.reduce((sum, line) => sum + line.amount, 0);
  const addons = source.addons.reduce((sum, line) => sum + line.amount, 0);
  return rooms + addons - source.discount;
}

function itemName(name: string): string {
  const clean = name.replace(/[\p{Cc}\p{Cf}|]/gu, " ").trim() || "住宿";
  const chars = [...clean];
  return chars.length > ITEM_NAME_MAX ? chars.slice(0, ITEM_NAME_MAX).join("") : clean;
}

/** A count, a unit word and a unit price that multiply to `amount` exactly, else one lot (式). */
function priced(name: string, count: number, word: string, amount: number): InvoiceItem {
  if (count > 0 && amount % count === 0) return { name: itemName(name), count, word, price: amount / count, amount };
  return { name: itemName(name), count: 1, word: "式", price: amount, amount };
}

/**
 * Splits `total` over `weights` in whole numbers that add up to it exactly (largest remainder):
 * how a discount is shared by the room lines it was taken from.
 */
export function shareOut(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact
    .map((value, index) => ({ index, rest: value - Math.floor(value) }))
    .sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

export class InvoiceItemsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvoiceItemsError";
  }
}

/**
 * The items of an invoice of `amount` TWD. For the whole stay ("stay") the room lines (the discount
 * shared over them) and the add-ons, and `amount` must be exactly what the hotel sold; for a part
 * (deposit, balance, cancellation fee) one item of that amount. The items always add up to `amount`.
 */
export function invoiceItems(source: InvoiceSource, amount: number, purpose: InvoicePurpose): InvoiceItem[] {
  if (!Number.isInteger(amount) || amount <= 0) throw new InvoiceItemsError(`an invoice is for a whole TWD amount above 0, not ${amount}`);
  if (purpose !== "stay") return [priced(PURPOSE_NAME[purpose], 1, "式", amount)];
  const sale = hotelSale(source);
  if (sale !== amount) throw new InvoiceItemsError(`the stay's items add up to ${sale}, not ${amount}`);
  const roomAmounts = source.rooms.map((line) => line.amount);
  const discounts = shareOut(source.discount, roomAmounts);
  const items = [
    ...source.rooms.map((line, index) => priced(line.name, line.rooms * line.nights, "間夜", line.amount - (discounts[index] ?? 0))),
    ...source.addons.map((line) => priced(line.name, line.count, "份", line.amount)),
  ];
  if (items.some((item) => item.amount < 0)) throw new InvoiceItemsError("a discount larger than the rooms it was taken from");
  // A line the discount took whole is no sale to print.
  return items.filter((item) => item.amount > 0);
}

/** What the hotel's invoices should add up to: what it keeps of the money paid, rail tickets left out. */
export function invoiceTarget(kept: { paid: number; refunded: number; railKept: number }): number {
  return Math.max(0, kept.paid - kept.refunded - kept.railKept);
}

/**
 * A company invoice's untaxed amount and 5 % business tax from its tax-included total: the untaxed
 * amount is the total divided by 1.05 rounded half up, the tax what is left, so the two always add
 * up to the total (ECPay, vat=1: SalesAmount tax included; the tax is worked out from it).
 */
export function companyTaxSplit(total: number): { untaxed: number; tax: number } {
  if (!Number.isInteger(total) || total < 0) throw new InvoiceItemsError(`not a whole TWD amount: ${total}`);
  // total / 1.05 = total * 20 / 21, rounded half up in whole numbers: floor((40 * total + 21) / 42).
  const untaxed = Math.floor((40 * total + 21) / 42);
  return { untaxed, tax: total - untaxed };
}
