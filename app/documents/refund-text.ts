/**
 * The one wording of a refund (decision 040, issue 22 item 14): the cancel page, the order page,
 * the cancellation email and the confirmation PDF all say it with these lines, in the guest's
 * language (locales/<lng>/documents.json). A refund has one status — being refunded, refunded, or
 * none — and every line with money says what the hotel keeps and by which rule.
 */
import type { Language } from "~/i18n/languages";
import type { RefundPart, RefundPolicy, RefundStep } from "~/domain/refund";
import type { OrderAccount } from "~/domain/order-view";
import { docText, type DocumentKey } from "~/documents/labels";
import { formatPercent, formatPrice } from "~/i18n/format";

/** The one refund status: `due` is being refunded, `refunded` is done, `none` is nothing to give back. */
export type RefundStatus = "none" | "due" | "refunded";

/** One kind of money paid, as the API answers it: what comes back of it and by which schedule. */
export interface RefundPartView extends RefundPart {
  steps?: RefundStep[];
}

/** A refund as the API answers it, quoted or recorded. */
export interface RefundFacts {
  rule?: string;
  refund: number;
  fee: number;
  /** What was paid (refund + fee when absent). */
  paid?: number;
  parts?: RefundPartView[];
}

const t = (lang: Language, key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params);

/** A schedule in words, longest notice first: "14+ days before check-in 100 %, 10–13 days 70 %, …, on the day 0 %". */
export function scheduleText(lang: Language, steps: readonly { days_before: number; percent: number }[]): string {
  const sorted = [...steps].sort((a, b) => b.days_before - a.days_before);
  const words = sorted.map((step, index) => {
    const previous = sorted[index - 1];
    const params = { percent: formatPercent(step.percent, lang), days: step.days_before };
    if (step.days_before === 0) return t(lang, "refund.step.same_day", params);
    if (previous === undefined) return t(lang, "refund.step.from", params);
    const to = previous.days_before - 1;
    if (to > step.days_before) return t(lang, "refund.step.range", { ...params, from: step.days_before, to });
    return step.days_before === 1 ? t(lang, "refund.step.one_day", params) : t(lang, "refund.step.days", params);
  });
  return words.join(t(lang, "refund.step.separator"));
}

/**
 * Each kind of money paid for the stay: how much comes back, what the hotel keeps, and the rule (its
 * schedule in full). `addons`: the order has add-ons, which the stay's rule refunds with the rooms,
 * so the money paid in advance is named for both.
 */
export function refundRuleLines(lang: Language, facts: RefundFacts, addons = false): string[] {
  if (facts.rule === "free") return [t(lang, "refund.free")];
  return (facts.parts ?? [])
    .filter((part) => part.schedule !== "free")
    .map((part) =>
      t(lang, "refund.part", {
        what: t(lang, part.kind === "advance" && addons ? "refund.what.advance_addons" : `refund.what.${part.kind}`),
        amount: formatPrice(part.amount, lang),
        percent: formatPercent(part.percent, lang),
        refund: formatPrice(part.refund, lang),
        fee: formatPrice(part.fee, lang),
        rule: ruleText(lang, part.schedule as "deposit" | "advance" | "hotel", part.steps ?? []),
      }),
    );
}

/** A schedule by name and steps: the standard contract's for a kind, or the hotel's own and why it applies. */
function ruleText(lang: Language, schedule: "deposit" | "advance" | "hotel", steps: readonly RefundStep[]): string {
  return t(lang, `refund.schedule.${schedule}`, { steps: scheduleText(lang, steps) });
}

/**
 * The cancellation policy an order is under (the order page, the confirmation email, the PDF): for
 * each kind of money it takes, the one schedule refundPolicy applies — so they quote the same
 * percentages as the cancel page and the refund itself.
 */
export function policyLines(lang: Language, policies: readonly Pick<RefundPolicy, "kind" | "schedule" | "steps">[] = []): string[] {
  return policies.map((policy) =>
    t(lang, "refund.policy", { what: t(lang, `refund.what.${policy.kind}`), rule: ruleText(lang, policy.schedule, policy.steps) }),
  );
}

/**
 * Where what was charged goes (orderAccount, issue 37): the hotel's share of it, and the rail
 * operator's refund fees on the tickets refunded, which the hotel does not keep.
 */
function keptLines(lang: Language, account: OrderAccount): string[] {
  return [
    t(lang, "refund.kept", { fee: formatPrice(account.keptHotel, lang), paid: formatPrice(account.charged, lang) }),
    ...(account.keptRailFees > 0 ? [t(lang, "refund.kept_rail", { fee: formatPrice(account.keptRailFees, lang) })] : []),
  ];
}

const hasAddons = (account: OrderAccount) => account.lines.some((line) => line.label === "addons");

/**
 * What cancelling now would give back (the cancel page), from `account`, the order as cancelling it
 * now would leave it (accountIfCancelled): everything that comes back of what was charged — tickets
 * refunded before included — what the hotel keeps, and the rail operator's fees.
 */
export function quoteLines(lang: Language, quote: RefundFacts, account: OrderAccount): string[] {
  if (account.charged === 0) return [t(lang, "refund.unpaid")];
  const back = account.refunded + account.toBeRefunded;
  return [
    t(lang, "refund.quote", {
      amount: formatPrice(back, lang),
      paid: formatPrice(account.charged, lang),
      fee: formatPrice(account.keptHotel, lang),
    }),
    ...(account.keptRailFees > 0 ? [t(lang, "refund.kept_rail", { fee: formatPrice(account.keptRailFees, lang) })] : []),
    ...refundRuleLines(lang, quote, hasAddons(account)),
  ];
}

/** The status of a recorded refund, in the one vocabulary: being refunded, refunded, or no refund. */
export function refundStatusLine(lang: Language, status: RefundStatus, refund: number): string {
  if (refund === 0 || status === "none") return t(lang, "refund.status.none");
  return t(lang, status === "refunded" ? "refund.status.refunded" : "refund.status.due", { amount: formatPrice(refund, lang) });
}

/**
 * A cancelled booking's refund (the order page, the cancellation email, the PDF), from its account
 * (orderAccount of the cancelled order): what was given back and what is still owed — tickets
 * refunded before the cancellation included — what the hotel and the rail operator keep, and why.
 */
export function cancellationLines(lang: Language, cancellation: RefundFacts, account: OrderAccount): string[] {
  if (account.charged === 0) return [t(lang, "refund.unpaid_cancelled")];
  const status = [
    ...(account.refunded > 0 ? [refundStatusLine(lang, "refunded", account.refunded)] : []),
    ...(account.toBeRefunded > 0 ? [refundStatusLine(lang, "due", account.toBeRefunded)] : []),
  ];
  return [
    ...(status.length > 0 ? status : [t(lang, "refund.status.none")]),
    ...keptLines(lang, account),
    ...refundRuleLines(lang, cancellation, hasAddons(account)),
  ];
}
