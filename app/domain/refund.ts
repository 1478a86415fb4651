/**
 * Refunds on cancellation (decision 040). Free cancellation (spec §5): refund template 1, 2, 3 =
 * 3, 7, 14 days before check-in. After it, the Taiwan tourism authority's standard contract for
 * individual guests booking a hotel directly (觀光旅館業、旅館業及民宿個別旅客直接訂房定型化契約應記載
 * 及不得記載事項) gives two schedules, one for each kind of money a hotel holds before the stay:
 * a deposit (定金, at most 30 % of the agreed room price) and the room price collected in advance
 * (預收約定房價總金額). A hotel's own `refund_ladder` may replace them only where it gives back at
 * least as much (checked at import, and again here).
 */
import { addDays } from "./dates";
import { DEPOSIT_CAP_PERCENT } from "./pricing";

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

/** One step of a refund schedule: cancelling at least `days_before` days before check-in gets `percent` back. */
export interface RefundStep {
  days_before: number;
  percent: number;
}

/**
 * The standard contract for a deposit (定金): notice 14+ days before check-in 100 %, 10–13 days
 * 70 %, 7–9 days 50 %, 4–6 days 40 %, 2–3 days 30 %, 1 day 20 %, on the day or none 0 %.
 */
export const STANDARD_DEPOSIT_LADDER: readonly RefundStep[] = [
  { days_before: 14, percent: 100 },
  { days_before: 10, percent: 70 },
  { days_before: 7, percent: 50 },
  { days_before: 4, percent: 40 },
  { days_before: 2, percent: 30 },
  { days_before: 1, percent: 20 },
  { days_before: 0, percent: 0 },
];

/**
 * The standard contract for the room price collected in advance (預收約定房價總金額): notice 3+ days
 * before check-in 100 %, 1–2 days 50 %, on the day or none 0 %.
 */
export const STANDARD_ADVANCE_LADDER: readonly RefundStep[] = [
  { days_before: 3, percent: 100 },
  { days_before: 1, percent: 50 },
  { days_before: 0, percent: 0 },
];

/** What kind of money was paid: a deposit (within the cap), or room price paid in advance. */
export type PaymentKind = "deposit" | "advance";

export const STANDARD_LADDERS: Readonly<Record<PaymentKind, readonly RefundStep[]>> = {
  deposit: STANDARD_DEPOSIT_LADDER,
  advance: STANDARD_ADVANCE_LADDER,
};

/** Which schedule decided a part: the plan's free window, the standard contract's for its kind, or the hotel's own. */
export type RefundSchedule = "free" | "deposit" | "advance" | "hotel";

/**
 * The rule a whole refund followed: `unpaid` (nothing paid), `free` (the plan's free window),
 * `deposit` / `advance` (the standard contract's schedule for what was paid), `deposit_advance`
 * (a deposit and money beyond it, each by its schedule), `hotel` (the hotel's own, more generous, schedule).
 */
export type RefundRule = "unpaid" | "free" | "deposit" | "advance" | "deposit_advance" | "hotel";

export const REFUND_RULES: readonly RefundRule[] = ["unpaid", "free", "deposit", "advance", "deposit_advance", "hotel"];

/** One kind of money paid and what comes back of it. */
export interface RefundPart {
  kind: PaymentKind;
  /** What was paid of this kind (TWD). */
  amount: number;
  schedule: RefundSchedule;
  percent: number;
  refund: number;
  /** What the hotel keeps of it. */
  fee: number;
}

export interface RefundInput {
  checkIn: string;
  /** Today in the hotel's time zone. */
  today: string;
  /** What the guest has paid so far (TWD). */
  paid: number;
  /** The deposit agreed for this order when the guest chose to pay part (0 when the whole stay was to be paid). */
  deposit: number;
  /** The stay's agreed price: a deposit is one only up to DEPOSIT_CAP_PERCENT of it. */
  total: number;
  /** The refund templates of the order's plans: the least generous one decides the free window. */
  refundTemplateIds: readonly number[];
  /** The hotel's own schedule; empty or absent: the standard contract's. */
  ladder?: readonly RefundStep[];
}

export interface Refund {
  /** Days from today to check-in (0 on the day itself, negative after). */
  daysBefore: number;
  rule: RefundRule;
  /** The share given back: the one schedule's percent, or for two parts the whole refund's share, rounded down. */
  percent: number;
  refund: number;
  /** What the hotel keeps. */
  fee: number;
  /** What was paid, by kind (none when nothing was paid). */
  parts: RefundPart[];
}

function daysUntil(today: string, checkIn: string): number {
  return Math.round((Date.parse(`${checkIn}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** A schedule's percentage for cancelling `daysBefore` days ahead: the first step it reaches (none: 0). */
export function ladderPercent(daysBefore: number, ladder: readonly RefundStep[]): number {
  const steps = [...ladder].sort((a, b) => b.days_before - a.days_before);
  return steps.find((step) => daysBefore >= step.days_before)?.percent ?? 0;
}

/** The largest deposit the standard contract allows on a stay of `total`: 30 %, rounded down. */
export function depositCap(total: number): number {
  return Math.floor((Math.max(0, total) * DEPOSIT_CAP_PERCENT) / 100);
}

/**
 * Splits what was paid by kind: up to the agreed deposit (and never beyond the contract's cap) it
 * is a deposit; everything else, and everything of a stay paid in full, is room price paid in advance.
 */
export function paidByKind(paid: number, deposit: number, total: number): Record<PaymentKind, number> {
  const all = Math.max(0, Math.trunc(paid));
  const asDeposit = Math.min(all, Math.max(0, Math.trunc(deposit)), depositCap(total));
  return { deposit: asDeposit, advance: all - asDeposit };
}

/**
 * Where a hotel's own schedule gives back less than the standard contract's for `kind`: the first
 * day (counting down from 30 days) it does, or null when it is at least as generous every day.
 */
export function lessGenerousDay(
  ladder: readonly RefundStep[],
  kind: PaymentKind,
): { daysBefore: number; percent: number; standard: number } | null {
  const standard = STANDARD_LADDERS[kind];
  const longest = Math.max(30, ...ladder.map((step) => step.days_before), ...standard.map((step) => step.days_before));
  for (let days = longest; days >= 0; days--) {
    const own = ladderPercent(days, ladder);
    const floor = ladderPercent(days, standard);
    if (own < floor) return { daysBefore: days, percent: own, standard: floor };
  }
  return null;
}

/**
 * The one schedule money of `kind` is refunded by once the free window has passed: each day the
 * larger of the standard contract's percentage and the hotel's own (what refundFor applies). It is
 * the hotel's (`schedule: "hotel"`) when the hotel's gives back more on some day, else the standard
 * contract's for the kind. Every page, email and the PDF print these steps, so none can quote the
 * standard contract's 50 % for a day on which the hotel's 70 % is what a guest gets back (issue 37).
 */
export interface RefundPolicy {
  kind: PaymentKind;
  schedule: PaymentKind | "hotel";
  steps: RefundStep[];
}

export function refundPolicy(kind: PaymentKind, ladder: readonly RefundStep[] = []): RefundPolicy {
  const standard = STANDARD_LADDERS[kind];
  // Both schedules are constant between their own steps, so the larger of the two changes only on one of them.
  const days = [...new Set([0, ...standard.map((step) => step.days_before), ...ladder.map((step) => step.days_before)])]
    .filter((day) => day >= 0)
    .sort((a, b) => b - a);
  const steps: RefundStep[] = [];
  let generous = false;
  for (const day of days) {
    const floor = ladderPercent(day, standard);
    const own = ladder.length > 0 ? ladderPercent(day, ladder) : 0;
    if (own > floor) generous = true;
    const percent = Math.max(floor, own);
    // A run of days with one percentage is one step, starting at its fewest days.
    const last = steps[steps.length - 1];
    if (last?.percent === percent) last.days_before = day;
    else steps.push({ days_before: day, percent });
  }
  return { kind, schedule: generous ? "hotel" : kind, steps };
}

/**
 * The schedules an order's money is refunded by: a deposit's and the rest's when the guest agreed to
 * pay a deposit, else room price paid in advance only.
 */
export function orderRefundPolicies(deposit: number, ladder: readonly RefundStep[] = []): RefundPolicy[] {
  return (deposit > 0 ? (["deposit", "advance"] as const) : (["advance"] as const)).map((kind) => refundPolicy(kind, ladder));
}

/**
 * What a cancellation gives back. Free (everything paid) while the order's free-cancellation date
 * is still in the future (the date `freeCancelUntil` shows; spec §5). After it, each kind of money
 * paid by its schedule: the standard contract's for a deposit or for room price paid in advance,
 * or the hotel's own where it gives back more. Each part's fee is rounded down, so an odd amount's
 * remainder goes to the guest.
 */
export function refundFor(input: RefundInput): Refund {
  const daysBefore = daysUntil(input.today, input.checkIn);
  const templates = input.refundTemplateIds.length > 0 ? input.refundTemplateIds : [DEFAULT_REFUND_TEMPLATE_ID];
  const free = templates.every((id) => freeCancelUntil(input.checkIn, id, input.today) !== null);
  const own = input.ladder ?? [];
  const byKind = paidByKind(input.paid, input.deposit, input.total);
  const parts: RefundPart[] = [];
  for (const kind of ["deposit", "advance"] as const) {
    const amount = byKind[kind];
    if (amount === 0) continue;
    // The schedule is named for the whole policy, not today's step: on a day both give back the same,
    // a hotel whose own terms are more generous elsewhere is still the rule the guest is told.
    const policy = refundPolicy(kind, own);
    const schedule: RefundSchedule = free ? "free" : policy.schedule;
    const percent = free ? 100 : ladderPercent(daysBefore, policy.steps);
    const fee = Math.floor((amount * (100 - percent)) / 100);
    parts.push({ kind, amount, schedule, percent, refund: amount - fee, fee });
  }
  const paid = byKind.deposit + byKind.advance;
  const refund = parts.reduce((sum, part) => sum + part.refund, 0);
  const fee = paid - refund;
  const [first] = parts;
  const rule: RefundRule =
    first === undefined
      ? "unpaid"
      : free
        ? "free"
        : parts.some((part) => part.schedule === "hotel")
          ? "hotel"
          : parts.length === 2
            ? "deposit_advance"
            : first.kind;
  // Nothing paid: the percent the schedule for the money this order asks for would give back today.
  const unpaidKind: PaymentKind = input.deposit > 0 ? "deposit" : "advance";
  const unpaidPercent = free ? 100 : ladderPercent(daysBefore, refundPolicy(unpaidKind, own).steps);
  const percent = first === undefined ? unpaidPercent : parts.length === 1 ? first.percent : Math.floor((refund * 100) / paid);
  return { daysBefore, rule, percent, refund, fee, parts };
}
