import { describe, expect, it } from "vitest";
import { validateOrderLines } from "~/domain/order-lines";
import { calculatePrice, depositPercentOf, effectivePrice, memberPromotionPercent, type PriceInput } from "~/domain/pricing";
import { freeCancelUntil } from "~/domain/refund";
import { validateStay } from "~/domain/stay";

describe("free cancellation until (spec §5)", () => {
  it.each([
    [1, "2030-03-07"],
    [2, "2030-03-03"],
    [3, "2030-02-24"],
  ])("refund template %i gives %s for a 2030-03-10 check-in", (template, expected) => {
    expect(freeCancelUntil("2030-03-10", template, "2030-01-01")).toBe(expected);
  });

  it("is not shown once the date is no longer in the future, nor for a plan without a free window (template 0)", () => {
    expect(freeCancelUntil("2030-03-10", 2, "2030-03-03")).toBeNull();
    expect(freeCancelUntil("2030-03-10", 2, "2030-03-02")).toBe("2030-03-03");
    expect(freeCancelUntil("2030-03-10", 0, "2030-01-01")).toBeNull();
  });
});

describe("effective price (spec §5)", () => {
  const plan = { price: 3000, member_price: 2700, allow_member_price: true };
  it("is the member price only when logged in, allowed and present", () => {
    expect(effectivePrice(plan, true)).toBe(2700);
    expect(effectivePrice(plan, false)).toBe(3000);
    expect(effectivePrice({ ...plan, allow_member_price: false }, true)).toBe(3000);
    expect(effectivePrice({ ...plan, member_price: null }, true)).toBe(3000);
  });
});

describe("order line validation (spec §4, §5)", () => {
  const line = { roomClassId: 1, planId: 10, roomRemaining: 3, planRemaining: null, num: 1, allow_member_price: true };
  it.each([
    ["a fitting line", [line], false, [null]],
    ["a sold-out room", [{ ...line, roomRemaining: 0 }], false, ["room_sold_out"]],
    ["a sold-out plan", [{ ...line, planRemaining: 0 }], false, ["plan_sold_out"]],
    ["too many rooms", [{ ...line, num: 4 }], false, ["not_enough_rooms"]],
    [
      "two lines sharing the last rooms",
      [
        { ...line, num: 2 },
        { ...line, planId: 11, num: 2 },
      ],
      false,
      ["not_enough_rooms", "not_enough_rooms"],
    ],
    ["more than the plan's allotment", [{ ...line, planRemaining: 1, num: 2 }], false, ["not_enough_rooms"]],
    [
      "a member mixing member-price plans",
      [line, { ...line, planId: 11, allow_member_price: false }],
      true,
      ["member_price_mixed", "member_price_mixed"],
    ],
    ["a guest mixing them", [line, { ...line, planId: 11, allow_member_price: false }], false, [null, null]],
  ] as const)("%s", (_, lines, loggedIn, expected) => {
    expect(validateOrderLines([...lines], loggedIn)).toEqual(expected);
  });
});

describe("price detail", () => {
  const base: PriceInput = {
    lines: [
      { price: 6000, member_price: 5400, allow_member_price: true, allow_coupon: true, num: 2 },
      { price: 4000, member_price: null, allow_member_price: false, allow_coupon: false, num: 1 },
    ],
    loggedIn: false,
    discount: { kind: "none" },
    points: 0,
    pointsHeld: 0,
    depositType: "all",
    depositPercent: 100,
    payOption: "all",
    attachmentAmount: 0,
  };

  it("sums normal prices for a guest", () => {
    expect(calculatePrice(base)).toEqual({
      ok: true,
      detail: {
        original_amount: 16000,
        room_price: 16000,
        promotion_discount: 0,
        point_used: 0,
        attachment_amount: 0,
        total_price: 16000,
        deposit_amount: 0,
        pay_amount: 16000,
      },
    });
  });

  it("applies member prices, a percent coupon on coupon plans only, and points", () => {
    const result = calculatePrice({
      ...base,
      loggedIn: true,
      discount: { kind: "percent", code: "WELCOME10", percent: 10 },
      points: 500,
      pointsHeld: 800,
    });
    expect(result).toMatchObject({
      ok: true,
      detail: { original_amount: 16000, room_price: 14800, promotion_discount: 1080, point_used: 500, total_price: 13220 },
    });
  });

  it("caps an amount coupon at the eligible amount and honours its minimum", () => {
    expect(calculatePrice({ ...base, discount: { kind: "amount", code: "SAVE", amount: 500, minAmount: 3000 } })).toMatchObject({
      detail: { promotion_discount: 500 },
    });
    // Only the coupon plan's 2 × 6,000 is eligible: a 20,000 coupon takes 12,000 and leaves the
    // other plan's 4,000 to pay, never less.
    expect(calculatePrice({ ...base, discount: { kind: "amount", code: "BIG", amount: 20000 } })).toMatchObject({
      ok: true,
      detail: { promotion_discount: 12000, total_price: 4000, pay_amount: 4000 },
    });
    expect(calculatePrice({ ...base, discount: { kind: "amount", code: "SAVE", amount: 500, minAmount: 20000 } })).toEqual({
      ok: false,
      problem: "coupon_min_amount",
      params: { amount: 20000 },
    });
    expect(calculatePrice({ ...base, lines: [base.lines[1]!], discount: { kind: "percent", code: "X", percent: 10 } })).toEqual({
      ok: false,
      problem: "coupon_not_applicable",
    });
    // The members-only code is no coupon: its refusal names it (issue 25 item 17).
    expect(
      calculatePrice({ ...base, lines: [base.lines[1]!], discount: { kind: "percent", code: "Memberpromotion", percent: 10 } }),
    ).toEqual({ ok: false, problem: "coupon_member_not_applicable" });
  });

  it.each([
    [-1, 100, "points_negative"],
    [1.5, 100, "points_negative"],
    [200, 100, "points_exceed_balance"],
    [20000, 50000, "points_exceed_amount"],
  ])("refuses %d points when holding %d (%s)", (points, held, problem) => {
    expect(calculatePrice({ ...base, points, pointsHeld: held })).toMatchObject({ ok: false, problem });
  });

  it("takes a deposit when paying part at a deposit hotel, and refuses part payment elsewhere", () => {
    expect(calculatePrice({ ...base, depositType: "deposit", depositPercent: 30, payOption: "part" })).toMatchObject({
      detail: { total_price: 16000, deposit_amount: 4800, pay_amount: 4800 },
    });
    expect(calculatePrice({ ...base, depositType: "deposit", depositPercent: 30, payOption: "all" })).toMatchObject({
      detail: { deposit_amount: 4800, pay_amount: 16000 },
    });
    expect(calculatePrice({ ...base, payOption: "part" })).toEqual({ ok: false, problem: "deposit_not_available" });
  });

  it("holds a hotel asking more than the standard contract's 30 % deposit to 30 % of the total", () => {
    expect(calculatePrice({ ...base, depositType: "deposit", depositPercent: 50, payOption: "part" })).toMatchObject({
      detail: { total_price: 16000, deposit_amount: 4800, pay_amount: 4800 },
    });
    expect(calculatePrice({ ...base, depositType: "deposit", depositPercent: 20, payOption: "part" })).toMatchObject({
      detail: { deposit_amount: 3200 },
    });
    expect(depositPercentOf(100)).toBe(30);
  });

  it("rounds a percent discount down and a deposit up, to the dollar (decision 022), never past the contract's 30 % (decision 040)", () => {
    const odd: PriceInput = {
      ...base,
      lines: [{ price: 2345, member_price: null, allow_member_price: false, allow_coupon: true, num: 1 }],
    };
    // 10 % of 2,345 is 234.5: 234 off, 2,111 to pay. 30 % of 2,111 is 633.3: rounding up would pass the contract's cap, so 633.
    expect(
      calculatePrice({
        ...odd,
        discount: { kind: "percent", code: "WELCOME10", percent: 10 },
        depositType: "deposit",
        depositPercent: 30,
        payOption: "part",
      }),
    ).toEqual({
      ok: true,
      detail: {
        original_amount: 2345,
        room_price: 2345,
        promotion_discount: 234,
        point_used: 0,
        attachment_amount: 0,
        total_price: 2111,
        deposit_amount: 633,
        pay_amount: 633,
      },
    });
    // Below the cap a deposit is still rounded up: 20 % of 2,111 is 422.2, a deposit of 423.
    expect(
      calculatePrice({
        ...odd,
        discount: { kind: "percent", code: "WELCOME10", percent: 10 },
        depositType: "deposit",
        depositPercent: 20,
        payOption: "part",
      }),
    ).toMatchObject({
      detail: { total_price: 2111, deposit_amount: 423 },
    });
    // 15 % of 2,345 is 351.75: still rounded down, 351. 30 % of 1,994 is 598.2: the cap, 598.
    expect(
      calculatePrice({
        ...odd,
        discount: { kind: "percent", code: "X", percent: 15 },
        depositType: "deposit",
        depositPercent: 30,
        payOption: "part",
      }),
    ).toMatchObject({
      detail: { promotion_discount: 351, total_price: 1994, deposit_amount: 598, pay_amount: 598 },
    });
  });

  it("gives Memberpromotion 100 minus the hotel's member discount", () => {
    expect(memberPromotionPercent(80)).toBe(20);
    expect(memberPromotionPercent(90)).toBe(10);
    expect(memberPromotionPercent(100)).toBe(0);
  });
});

describe("stay validation", () => {
  it.each([
    ["2030-01-10", "2030-01-12", []],
    ["2030-01-09", "2030-01-12", [{ field: "start", code: "date_in_past" }]],
    ["2030-01-12", "2030-01-12", [{ field: "end", code: "dates_reversed" }]],
    ["2030-01-10", "2030-03-01", [{ field: "end", code: "stay_too_long" }]],
    ["2031-08-01", "2031-08-02", [{ field: "start", code: "beyond_sellable_window" }]],
    // The window ends 18 months on (2031-07-10): the last night sold is the one before it.
    ["2031-07-08", "2031-07-10", []],
    ["2031-07-08", "2031-07-12", [{ field: "end", code: "beyond_sellable_window" }]],
    [
      "2030-13-01",
      "x",
      [
        { field: "start", code: "invalid_date" },
        { field: "end", code: "invalid_date" },
      ],
    ],
  ])("%s → %s", (start, end, expected) => {
    expect(validateStay(start, end, "2030-01-10")).toEqual(expected);
  });
});
