/**
 * The two-month invoice period (期別) and the void cut-off (decision 159). An invoice may be voided
 * until 23:59:59 on the 13th of the odd month after its period, in Taipei: January–February
 * invoices until 13 March, …, November–December until 13 January of the next year. After that it
 * can only be reduced by an allowance (折讓).
 */

/** Taipei's offset: UTC+8 all year (Taiwan has kept no daylight saving time since 1979). */
const TAIPEI_OFFSET_MS = 8 * 3_600_000;

const pad = (n: number) => String(n).padStart(2, "0");

/** The calendar date in Taipei at an instant: the date an invoice issued then carries. */
export function taipeiDate(at: Date): string {
  const local = new Date(at.getTime() + TAIPEI_OFFSET_MS);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
}

/** The period of a date: its year and its first month (1, 3, 5, 7, 9, 11). */
export function invoicePeriod(issuedOn: string): { year: number; firstMonth: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(issuedOn);
  if (!match) throw new Error(`not a date: ${issuedOn}`);
  const month = Number(match[2]);
  if (month < 1 || month > 12) throw new Error(`not a date: ${issuedOn}`);
  return { year: Number(match[1]), firstMonth: month % 2 === 1 ? month : month - 1 };
}

/**
 * The first instant an invoice issued on `issuedOn` (a Taipei date) can no longer be voided:
 * 00:00:00 Taipei on the 14th of the month after its period's second month.
 */
export function voidClosesAt(issuedOn: string): Date {
  const { year, firstMonth } = invoicePeriod(issuedOn);
  // The month after the period's second month, as a 0-based month: firstMonth + 2 - 1 (may be 12: January next year).
  const monthIndex = firstMonth + 1;
  return new Date(Date.UTC(year, monthIndex, 14) - TAIPEI_OFFSET_MS);
}

/** The last day an invoice can be voided, as a Taipei date (the 13th of the next odd month). */
export function lastVoidDay(issuedOn: string): string {
  return taipeiDate(new Date(voidClosesAt(issuedOn).getTime() - 1));
}

/** Whether an invoice issued on `issuedOn` can still be voided at `now`; otherwise it needs an allowance. */
export function canVoid(issuedOn: string, now: Date): boolean {
  return now.getTime() < voidClosesAt(issuedOn).getTime();
}

/** What reducing an invoice takes at `now`: a void while the period allows it, otherwise an allowance. */
export function voidOrAllowance(issuedOn: string, now: Date): "void" | "allowance" {
  return canVoid(issuedOn, now) ? "void" : "allowance";
}
