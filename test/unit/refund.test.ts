import { describe, expect, it } from "vitest";
import {
  depositCap,
  freeCancelUntil,
  ladderPercent,
  lessGenerousDay,
  orderRefundPolicies,
  paidByKind,
  refundFor,
  refundPolicy,
  STANDARD_ADVANCE_LADDER,
  STANDARD_DEPOSIT_LADDER,
  type RefundInput,
  type RefundStep,
} from "~/domain/refund";
import { addDays } from "~/domain/dates";

const CHECK_IN = "2026-12-20";
/** Today, `days` days before check-in. */
const before = (days: number) => addDays(CHECK_IN, -days);

/** A plan without a free window (template 0): the standard contract decides from the day of booking. */
const quote = (days: number, input: Partial<RefundInput>) =>
  refundFor({ checkIn: CHECK_IN, today: before(days), paid: 0, deposit: 0, total: 0, refundTemplateIds: [0], ...input });

describe("a deposit within the cap: the standard contract's deposit schedule, every boundary day", () => {
  // A deposit of 3,333 on a stay of 11,111 (30 % is 3,333.3): odd, so the fee is rounded down and the remainder goes to the guest.
  const deposit = 3_333;
  const total = 11_111;
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
  ])("%i days before: %i percent of the deposit back (%i refunded, %i kept)", (days, percent, refund, fee) => {
    const result = quote(days, { paid: deposit, deposit, total });
    expect(result).toEqual({
      daysBefore: days,
      rule: "deposit",
      percent,
      refund,
      fee,
      parts: [{ kind: "deposit", amount: deposit, schedule: "deposit", percent, refund, fee }],
    });
  });
});

describe("a stay paid in full in advance: the standard contract's schedule for room price collected in advance, every boundary day", () => {
  const paid = 7_777;
  it.each([
    [30, 100, 7_777, 0],
    [14, 100, 7_777, 0],
    [4, 100, 7_777, 0],
    [3, 100, 7_777, 0],
    [2, 50, 3_889, 3_888],
    [1, 50, 3_889, 3_888],
    [0, 0, 0, 7_777],
  ])("%i days before: %i percent back (%i refunded, %i kept)", (days, percent, refund, fee) => {
    const result = quote(days, { paid, total: paid });
    expect(result).toEqual({
      daysBefore: days,
      rule: "advance",
      percent,
      refund,
      fee,
      parts: [{ kind: "advance", amount: paid, schedule: "advance", percent, refund, fee }],
    });
  });
});

describe("a deposit, then the balance paid before the stay: each part by its own schedule", () => {
  // Stay 7,801; deposit 30 % rounded up = 2,341, but the cap is 30 % rounded down = 2,340: the dollar above it is room price paid in advance.
  const total = 7_801;
  const deposit = 2_341;
  it("splits at the cap", () => {
    expect(depositCap(total)).toBe(2_340);
    expect(paidByKind(total, deposit, total)).toEqual({ deposit: 2_340, advance: 5_461 });
    expect(paidByKind(1_000, deposit, total)).toEqual({ deposit: 1_000, advance: 0 });
    expect(paidByKind(total, 0, total)).toEqual({ deposit: 0, advance: total });
  });

  it.each([
    // days, deposit percent, deposit back, advance percent, advance back
    [14, 100, 2_340, 100, 5_461],
    [13, 70, 1_638, 100, 5_461],
    [4, 40, 936, 100, 5_461],
    [3, 30, 702, 100, 5_461],
    [2, 30, 702, 50, 2_731],
    [1, 20, 468, 50, 2_731],
    [0, 0, 0, 0, 0],
  ])(
    "%i days before: the deposit %i percent (%i), the rest %i percent (%i)",
    (days, depositPercent, depositBack, advancePercent, advanceBack) => {
      const result = quote(days, { paid: total, deposit, total });
      expect(result.parts).toEqual([
        { kind: "deposit", amount: 2_340, schedule: "deposit", percent: depositPercent, refund: depositBack, fee: 2_340 - depositBack },
        { kind: "advance", amount: 5_461, schedule: "advance", percent: advancePercent, refund: advanceBack, fee: 5_461 - advanceBack },
      ]);
      expect(result.refund).toBe(depositBack + advanceBack);
      expect(result.fee).toBe(total - depositBack - advanceBack);
      expect(result.rule).toBe("deposit_advance");
      expect(result.percent).toBe(Math.floor(((depositBack + advanceBack) * 100) / total));
    },
  );
});

describe("the plan's free window comes first, whatever was paid", () => {
  const paid = 4_999;
  it.each([
    // template, days before, rule, refunded (a stay paid in full)
    [1, 4, "free", 4_999],
    [1, 3, "advance", 4_999], // the free date is today: no longer free, but 3 days ahead the advance schedule gives it all back
    [1, 2, "advance", 2_500], // 50 %: 2,499.5 → 2,500 back
    [2, 8, "free", 4_999],
    [2, 7, "advance", 4_999],
    [3, 15, "free", 4_999],
    [3, 14, "advance", 4_999],
  ] as const)("template %i, %i days before: %s, %i back", (template, days, rule, refund) => {
    const result = refundFor({ checkIn: CHECK_IN, today: before(days), paid, deposit: 0, total: paid, refundTemplateIds: [template] });
    expect(result.rule).toBe(rule);
    expect(result.refund).toBe(refund);
    expect(result.fee).toBe(paid - refund);
    // The free window agrees with the date the guest was shown.
    expect(freeCancelUntil(CHECK_IN, template, before(days)) !== null).toBe(rule === "free");
  });

  it("a deposit inside the free window comes back in full; the day it closes, the deposit schedule applies", () => {
    const input = { checkIn: CHECK_IN, paid: 1_501, deposit: 1_501, total: 5_005, refundTemplateIds: [3] };
    expect(refundFor({ ...input, today: before(15) })).toMatchObject({
      rule: "free",
      refund: 1_501,
      fee: 0,
      parts: [{ kind: "deposit", schedule: "free", percent: 100 }],
    });
    expect(refundFor({ ...input, today: before(13) })).toMatchObject({ rule: "deposit", percent: 70, refund: 1_051, fee: 450 });
  });

  it("the least generous plan of the order decides the free window", () => {
    const input = { checkIn: CHECK_IN, today: before(10), paid: 1_001, deposit: 1_001, total: 3_337 };
    expect(refundFor({ ...input, refundTemplateIds: [1, 3] })).toMatchObject({ rule: "deposit", percent: 70, refund: 701 });
    expect(refundFor({ ...input, refundTemplateIds: [1, 2] })).toMatchObject({ rule: "free", refund: 1_001 });
  });

  it("an order without plans' templates uses the default template 2 (7 days)", () => {
    expect(refundFor({ checkIn: CHECK_IN, today: before(8), paid: 501, deposit: 0, total: 501, refundTemplateIds: [] })).toMatchObject({
      rule: "free",
      refund: 501,
    });
  });
});

describe("a hotel's own schedule", () => {
  const generous = [
    { days_before: 3, percent: 100 },
    { days_before: 1, percent: 75 },
    { days_before: 0, percent: 10 },
  ];
  // 5 days before both give everything back; the rule is still the hotel's, the one policy the
  // guest is told for every day (issue 37), not the standard contract's with its 50 % at 1–2 days.
  it.each([
    [5, "hotel", 100, 1_369],
    [2, "hotel", 75, 1_027],
    [1, "hotel", 75, 1_027],
    [0, "hotel", 10, 137],
  ] as const)("paid in full, %i days before: %s, %i percent of 1,369 → %i back", (days, rule, percent, refund) => {
    expect(quote(days, { paid: 1_369, total: 1_369, ladder: generous })).toMatchObject({ rule, percent, refund, fee: 1_369 - refund });
  });

  it("never gives back less than the standard contract, even when a stored schedule would", () => {
    const mean = [{ days_before: 0, percent: 0 }];
    expect(quote(4, { paid: 1_369, total: 1_369, ladder: mean })).toMatchObject({ rule: "advance", percent: 100, refund: 1_369 });
    expect(quote(4, { paid: 411, deposit: 411, total: 1_370, ladder: mean })).toMatchObject({ rule: "deposit", percent: 40, refund: 165 });
  });

  it("finds the first day a schedule is less generous than the standard contract's for a kind of payment", () => {
    const taipeiBefore = [
      { days_before: 7, percent: 100 },
      { days_before: 3, percent: 70 },
      { days_before: 1, percent: 50 },
      { days_before: 0, percent: 0 },
    ];
    expect(lessGenerousDay(taipeiBefore, "advance")).toEqual({ daysBefore: 6, percent: 70, standard: 100 });
    expect(lessGenerousDay(taipeiBefore, "deposit")).toBeNull();
    expect(lessGenerousDay(generous, "advance")).toBeNull();
    expect(lessGenerousDay(generous, "deposit")).toBeNull();
    expect(
      lessGenerousDay(
        [
          { days_before: 14, percent: 100 },
          { days_before: 10, percent: 69 },
        ],
        "deposit",
      ),
    ).toEqual({ daysBefore: 13, percent: 69, standard: 70 });
    expect(lessGenerousDay([], "deposit")).toEqual({ daysBefore: 30, percent: 0, standard: 100 });
  });
});

describe("nothing paid", () => {
  it("an unpaid order owes and gets nothing back, whatever the day", () => {
    expect(quote(1, { paid: 0, total: 3_000 })).toEqual({ daysBefore: 1, rule: "unpaid", percent: 50, refund: 0, fee: 0, parts: [] });
    expect(quote(1, { paid: 0, deposit: 900, total: 3_000 })).toEqual({
      daysBefore: 1,
      rule: "unpaid",
      percent: 20,
      refund: 0,
      fee: 0,
      parts: [],
    });
  });

  it("the standard schedules have the contract's steps", () => {
    expect(STANDARD_DEPOSIT_LADDER.map((step) => [step.days_before, step.percent])).toEqual([
      [14, 100],
      [10, 70],
      [7, 50],
      [4, 40],
      [2, 30],
      [1, 20],
      [0, 0],
    ]);
    expect(STANDARD_ADVANCE_LADDER.map((step) => [step.days_before, step.percent])).toEqual([
      [3, 100],
      [1, 50],
      [0, 0],
    ]);
    expect(ladderPercent(-1, STANDARD_ADVANCE_LADDER)).toBe(0);
  });
});

// Issue 37: one policy for a stay. The cancel page, the order page, the emails and the PDF print
// refundPolicy's steps, and refundFor gives back by them: each day the larger of the two schedules.
describe("the one cancellation policy that applies (refundPolicy)", () => {
  // The Taipei demo hotel's ladder: 70 % back 1–2 days ahead where the standard contract gives 50 %.
  const taipei = [
    { days_before: 3, percent: 100 },
    { days_before: 1, percent: 70 },
    { days_before: 0, percent: 0 },
  ];

  it("is the hotel's, with its 70 % at 1–2 days, when the hotel's gives back more than the standard contract's 50 %", () => {
    expect(refundPolicy("advance", taipei)).toEqual({
      kind: "advance",
      schedule: "hotel",
      steps: [
        { days_before: 3, percent: 100 },
        { days_before: 1, percent: 70 },
        { days_before: 0, percent: 0 },
      ],
    });
  });

  it("is the standard contract's for a hotel without a schedule of its own, or with one that gives back no more", () => {
    expect(refundPolicy("advance")).toEqual({ kind: "advance", schedule: "advance", steps: [...STANDARD_ADVANCE_LADDER] });
    expect(refundPolicy("deposit", [])).toEqual({ kind: "deposit", schedule: "deposit", steps: [...STANDARD_DEPOSIT_LADDER] });
    expect(refundPolicy("advance", [{ days_before: 0, percent: 0 }])).toMatchObject({
      schedule: "advance",
      steps: STANDARD_ADVANCE_LADDER,
    });
  });

  it("takes each day the larger of the two, for a deposit too: the Taipei ladder beats the deposit schedule from 13 days down", () => {
    expect(refundPolicy("deposit", taipei)).toEqual({
      kind: "deposit",
      schedule: "hotel",
      steps: [
        { days_before: 3, percent: 100 },
        { days_before: 1, percent: 70 },
        { days_before: 0, percent: 0 },
      ],
    });
  });

  it("lists a deposit's and the rest's schedules when the guest pays a deposit, the advance one alone otherwise", () => {
    expect(orderRefundPolicies(0, taipei).map((policy) => policy.kind)).toEqual(["advance"]);
    expect(orderRefundPolicies(411, taipei).map((policy) => policy.kind)).toEqual(["deposit", "advance"]);
  });

  // Ladders drawn from a seeded generator: any steps, in any order, even ones import would refuse.
  it("over generated ladders: each day its percentage is the larger of the two, and refundFor gives back by it", () => {
    let seed = 37;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    for (let round = 0; round < 300; round++) {
      const ladder: RefundStep[] = Array.from({ length: random(5) }, () => ({ days_before: random(20), percent: random(101) }));
      for (const kind of ["deposit", "advance"] as const) {
        const policy = refundPolicy(kind, ladder);
        const standard = kind === "deposit" ? STANDARD_DEPOSIT_LADDER : STANDARD_ADVANCE_LADDER;
        let more = false;
        for (let days = 0; days <= 30; days++) {
          const own = ladder.length > 0 ? ladderPercent(days, ladder) : 0;
          more ||= own > ladderPercent(days, standard);
          expect(ladderPercent(days, policy.steps), `${JSON.stringify(ladder)} ${kind} ${days}`).toBe(
            Math.max(ladderPercent(days, standard), own),
          );
        }
        expect(policy.schedule).toBe(more ? "hotel" : kind);
        // Steps longest notice first, each a change of percentage, down to the day itself.
        expect(policy.steps.map((step) => step.days_before)).toEqual(
          [...policy.steps.map((step) => step.days_before)].sort((a, b) => b - a),
        );
        expect(policy.steps.at(-1)?.days_before).toBe(0);
        policy.steps.slice(1).forEach((step, index) => expect(step.percent).not.toBe(policy.steps[index]?.percent));
        const days = random(12);
        const paid = 1 + random(5_000);
        // A deposit within the contract's 30 % cap of a stay four times as dear.
        const refund = quote(days, { paid, total: kind === "deposit" ? paid * 4 : paid, deposit: kind === "deposit" ? paid : 0, ladder });
        expect(refund.parts[0]).toMatchObject({ kind, schedule: policy.schedule, percent: ladderPercent(days, policy.steps) });
      }
    }
  });
});
