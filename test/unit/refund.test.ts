import { describe, expect, it } from "vitest";
import { freeCancelUntil, ladderPercent, refundFor, STANDARD_REFUND_LADDER } from "~/booking/refund";
import { addDays } from "~/booking/dates";

const CHECK_IN = "2026-12-20";
/** Today, `days` days before check-in. */
const before = (days: number) => addDays(CHECK_IN, -days);

describe("refundFor: the standard contract's ladder after the free window (a plan without a free window, template 0)", () => {
  // An odd amount: the fee is rounded down, the remainder goes back to the guest.
  const paid = 3_333;
  it.each([
    [30, 100, 3_333, 0],
    [14, 100, 3_333, 0],
    [13, 70, 2_334, 999],
    [10, 70, 2_334, 999],
    [9, 50, 1_667, 1_666],
    [7, 50, 1_667, 1_666],
    [6, 40, 1_334, 1_999],
    [4, 40, 1_334, 1_999],
    [3, 30, 1_000, 2_333],
    [2, 30, 1_000, 2_333],
    [1, 20, 667, 2_666],
    [0, 0, 0, 3_333],
  ])("%i days before: %i %% back (%i refunded, %i kept)", (days, percent, refund, fee) => {
    const result = refundFor({ checkIn: CHECK_IN, today: before(days), paid, refundTemplateIds: [0] });
    expect(result).toEqual({ daysBefore: days, rule: "ladder", percent, refund, fee });
    expect(result.refund + result.fee).toBe(paid);
  });
});

describe("refundFor: the refund templates' free windows (spec §5: 3, 7, 14 days)", () => {
  const paid = 4_999;
  it.each([
    // template, days before, rule, refunded
    [1, 4, "free", 4_999],
    [1, 3, "ladder", 1_500], // the free date is today: no longer free; 30 % of 4,999 = 1,499.7 → 1,500 back
    [2, 8, "free", 4_999],
    [2, 7, "ladder", 2_500], // 50 %: 2,499.5 → 2,500 back
    [3, 15, "free", 4_999],
    [3, 14, "ladder", 4_999], // the ladder's 14-day step is 100 % too
    [3, 13, "ladder", 3_500], // 70 %: 3,499.3 → 3,500 back
  ] as const)("template %i, %i days before: %s, %i back", (template, days, rule, refund) => {
    const result = refundFor({ checkIn: CHECK_IN, today: before(days), paid, refundTemplateIds: [template] });
    expect(result.rule).toBe(rule);
    expect(result.refund).toBe(refund);
    expect(result.fee).toBe(paid - refund);
    // The free window agrees with the date the guest was shown.
    expect(freeCancelUntil(CHECK_IN, template, before(days)) !== null).toBe(rule === "free");
  });

  it("the least generous plan of the order decides", () => {
    expect(refundFor({ checkIn: CHECK_IN, today: before(10), paid: 1_001, refundTemplateIds: [1, 3] })).toMatchObject({ rule: "ladder", percent: 70, refund: 701 });
    expect(refundFor({ checkIn: CHECK_IN, today: before(10), paid: 1_001, refundTemplateIds: [1, 2] })).toMatchObject({ rule: "free", refund: 1_001 });
  });

  it("an order without plans' templates uses the default template 2 (7 days)", () => {
    expect(refundFor({ checkIn: CHECK_IN, today: before(8), paid: 501, refundTemplateIds: [] })).toMatchObject({ rule: "free", refund: 501 });
  });
});

describe("refundFor: a hotel's own ladder and unpaid orders", () => {
  const ladder = [
    { days_before: 5, percent: 90 },
    { days_before: 1, percent: 45 },
  ];
  it.each([
    [6, 90, 1_233],
    [5, 90, 1_233],
    [4, 45, 617],
    [1, 45, 617],
    [0, 0, 0],
  ])("%i days before: %i %% of 1,369 → %i back", (days, percent, refund) => {
    expect(refundFor({ checkIn: CHECK_IN, today: before(days), paid: 1_369, refundTemplateIds: [0], ladder })).toMatchObject({ percent, refund, fee: 1_369 - refund });
  });

  it("an unpaid order owes and gets nothing back, whatever the day", () => {
    expect(refundFor({ checkIn: CHECK_IN, today: before(1), paid: 0, refundTemplateIds: [0] })).toEqual({ daysBefore: 1, rule: "unpaid", percent: 20, refund: 0, fee: 0 });
  });

  it("the standard ladder has the contract's seven steps", () => {
    expect(STANDARD_REFUND_LADDER.map((step) => [step.days_before, step.percent])).toEqual([[14, 100], [10, 70], [7, 50], [4, 40], [2, 30], [1, 20], [0, 0]]);
    expect(ladderPercent(-1)).toBe(0);
  });
});
