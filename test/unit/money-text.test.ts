import { describe, expect, it } from "vitest";
import type { OrderMoney } from "~/domain/order-view";
import { MEMBER_PROMOTION_CODE } from "~/domain/pricing";
import { LANGUAGES } from "~/i18n/languages";
import { moneyTextLines } from "~/documents/money-text";

// Issue 37 item 9: the PDF and the emails print these lines; whatever the order, what they list
// before the total adds up to it, and no discount is lost or folded into another line.

/** A seeded generator, so a failure is the same on every run. */
function generator(seed: number) {
  return (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % below;
  };
}

/** An order as the back end records one: discounts and points off the rooms, add-ons and tickets beside them. */
function generatedOrder(random: (below: number) => number): OrderMoney {
  const sum = 1 + random(60_000);
  const couponDiscount = random(3) === 0 ? 0 : random(sum + 1);
  const usedPoint = random(3) === 0 ? 0 : random(sum - couponDiscount + 1);
  const addons = random(2) === 0 ? 0 : random(9_000);
  const rail = random(2) === 0 ? 0 : random(12_000);
  const final = sum - couponDiscount - usedPoint + addons + rail;
  const paid = [0, final, random(final + 1)][random(3)] ?? 0;
  return {
    status: ["pending_payment", "confirmed", "cancelled"][random(3)] ?? "confirmed",
    payment_status: paid === 0 ? -1 : paid >= final ? 2 : 1,
    pay_way: ["credit", "remittance", "pay_arrival"][random(3)] ?? "credit",
    pay_option: random(2) === 0 ? "all" : "part",
    sum,
    couponDiscount,
    used_coupon: couponDiscount === 0 ? "" : random(2) === 0 ? MEMBER_PROMOTION_CODE : "SAVE500",
    usedPoint,
    final_amount: final,
    deposit_amount: Math.ceil(final * 0.3),
    pay_amount: Math.ceil(final * 0.3),
    paid_amount: paid,
    rail_amount: rail,
    free_cancel_before_date: null,
  };
}

/** An amount as printed back to a number: "−NT$1,000" is -1000. */
const amountOf = (shown: string) => (shown.startsWith("−") ? -1 : 1) * Number(shown.replace(/\D/g, ""));

describe("the money lines of the PDF and the emails (moneyTextLines)", () => {
  it("name the points with how many were used, a coupon with its code, the members-only discount as such", () => {
    const order = generatedOrder(generator(1));
    const lines = (lang: (typeof LANGUAGES)[number], changes: Partial<OrderMoney>) =>
      moneyTextLines(lang, {
        ...order,
        sum: 10_000,
        couponDiscount: 500,
        usedPoint: 1_000,
        final_amount: 8_500,
        rail_amount: 0,
        ...changes,
      })
        .filter((line) => line.sign === "-")
        .map((line) => `${line.text} ${line.shown}`);
    expect(lines("en-US", { used_coupon: "SAVE500" })).toEqual(["Discount SAVE500 −NT$500", "Points (1,000 pts) −NT$1,000"]);
    expect(lines("zh-TW", { used_coupon: MEMBER_PROMOTION_CODE })).toEqual(["會員專屬優惠 −NT$500", "點數折抵（1,000 點） −NT$1,000"]);
    expect(lines("zh-CN", { used_coupon: "SAVE500" })).toEqual(["优惠 SAVE500 −NT$500", "点数抵扣（1,000 点） −NT$1,000"]);
    expect(lines("ja-JP", { used_coupon: "SAVE500" })).toEqual(["割引 SAVE500 −NT$500", "ポイント利用（1,000 ポイント） −NT$1,000"]);
    expect(lines("ko-KR", { used_coupon: MEMBER_PROMOTION_CODE })).toEqual([
      "회원 전용 할인 −NT$500",
      "포인트 사용(1,000포인트) −NT$1,000",
    ]);
  });

  it("over generated orders, in every language: the printed lines before the total add up to it, each discount on a line of its own", () => {
    const random = generator(37);
    for (let round = 0; round < 400; round++) {
      const order = generatedOrder(random);
      for (const lang of LANGUAGES) {
        const lines = moneyTextLines(lang, order);
        const at = lines.findIndex((line) => line.sign === "=");
        const said = JSON.stringify({ order, lines: lines.map((line) => `${line.text} ${line.shown}`) });
        expect(amountOf(lines[at]?.shown ?? ""), said).toBe(order.final_amount);
        expect(
          lines.slice(0, at).reduce((sum, line) => sum + amountOf(line.shown), 0),
          said,
        ).toBe(order.final_amount);
        // Every discount the order took is printed, once, for its amount; lines taken off have labels of their own.
        const off = lines.filter((line) => line.sign === "-");
        expect(off.map((line) => amountOf(line.shown)).sort(), said).toEqual(
          [order.couponDiscount, order.usedPoint]
            .filter((amount) => amount > 0)
            .map((amount) => -amount)
            .sort(),
        );
        expect(new Set(off.map((line) => line.text)).size, said).toBe(off.length);
        if (order.usedPoint > 0)
          expect(off.find((line) => line.label === "points")?.text, said).toContain(order.usedPoint.toLocaleString("en-US"));
      }
    }
  });
});
