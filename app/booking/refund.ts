/** Free cancellation (spec §5): refund template 1, 2, 3 = 3, 7, 14 days before check-in. */
import { addDays } from "./dates";

export const REFUND_WINDOW_DAYS: Readonly<Record<number, number>> = { 1: 3, 2: 7, 3: 14 };
export const DEFAULT_REFUND_TEMPLATE_ID = 2;

/**
 * The last day a stay can be cancelled free of charge, or null when there is none to show:
 * a plan without a free window (template 0), an unknown template, or a date that is no longer in the future.
 */
export function freeCancelUntil(checkIn: string, refundTemplateId: number, today: string): string | null {
  const days = REFUND_WINDOW_DAYS[refundTemplateId];
  if (days === undefined) return null;
  const until = addDays(checkIn, -days);
  return until > today ? until : null;
}

/** One step of a refund ladder: cancelling at least `days_before` days before check-in gets `percent` back. */
export interface RefundStep {
  days_before: number;
  percent: number;
}

/**
 * The Taiwan tourism bureau's standard contract for accommodation: 14+ days before check-in 100 %,
 * 10–13 days 70 %, 7–9 days 50 %, 4–6 days 40 %, 2–3 days 30 %, 1 day 20 %, same day 0 %.
 */
export const STANDARD_REFUND_LADDER: readonly RefundStep[] = [
  { days_before: 14, percent: 100 },
  { days_before: 10, percent: 70 },
  { days_before: 7, percent: 50 },
  { days_before: 4, percent: 40 },
  { days_before: 2, percent: 30 },
  { days_before: 1, percent: 20 },
  { days_before: 0, percent: 0 },
];

export interface RefundInput {
  checkIn: string;
  /** Today in the hotel's time zone. */
  today: string;
  /** What the guest has paid so far (TWD). */
  paid: number;
  /** The refund templates of the order's plans: the least generous one decides the free window. */
  refundTemplateIds: readonly number[];
  /** The hotel's own ladder; empty or absent: the standard contract's. */
  ladder?: readonly RefundStep[];
}

export interface Refund {
  /** Days from today to check-in (0 on the day itself, negative after). */
  daysBefore: number;
  /** "free": inside the plan's free window; "ladder": by the ladder; "unpaid": nothing was paid. */
  rule: "free" | "ladder" | "unpaid";
  percent: number;
  refund: number;
  /** What the hotel keeps. */
  fee: number;
}

function daysUntil(today: string, checkIn: string): number {
  return Math.round((Date.parse(`${checkIn}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** The ladder's percentage for cancelling `daysBefore` days ahead: the first step it reaches. */
export function ladderPercent(daysBefore: number, ladder: readonly RefundStep[] = STANDARD_REFUND_LADDER): number {
  const steps = [...(ladder.length > 0 ? ladder : STANDARD_REFUND_LADDER)].sort((a, b) => b.days_before - a.days_before);
  return steps.find((step) => daysBefore >= step.days_before)?.percent ?? 0;
}

/**
 * What a cancellation gives back. Free (everything paid) while the order's free-cancellation date
 * is still in the future (the date `freeCancelUntil` shows; spec §5); after it, the hotel's ladder or
 * the standard contract's. The fee is rounded down, so an odd amount's remainder goes to the guest.
 */
export function refundFor(input: RefundInput): Refund {
  const daysBefore = daysUntil(input.today, input.checkIn);
  const paid = Math.max(0, Math.trunc(input.paid));
  const templates = input.refundTemplateIds.length > 0 ? input.refundTemplateIds : [DEFAULT_REFUND_TEMPLATE_ID];
  const free = templates.every((id) => freeCancelUntil(input.checkIn, id, input.today) !== null);
  const percent = free ? 100 : ladderPercent(daysBefore, input.ladder ?? []);
  const fee = Math.floor((paid * (100 - percent)) / 100);
  const rule = paid === 0 ? "unpaid" : free ? "free" : "ladder";
  return { daysBefore, rule, percent, refund: paid - fee, fee };
}
