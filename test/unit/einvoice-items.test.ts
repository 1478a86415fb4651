import { describe, expect, it } from "vitest";
import { companyTaxSplit, hotelSale, invoiceItems, shareOut, type InvoiceSource } from "~/domain/einvoice/items";

/** An invoice's items (decision 159): they add up to its amount exactly; rail tickets never appear. */

const source: InvoiceSource = {
  rooms: [
    { name: "雙人房 - 含早方案", rooms: 2, nights: 3, amount: 18_000 },
    { name: "家庭房 - 不含早", rooms: 1, nights: 3, amount: 10_001 },
  ],
  addons: [
    { name: "接駁車", count: 2, amount: 600 },
    { name: "生日蛋糕", count: 1, amount: 0 },
  ],
  discount: 1_337,
  rail: 2_980,
};

const sum = (items: { amount: number }[]) => items.reduce((total, item) => total + item.amount, 0);

describe("invoice items", () => {
  it("list the rooms and the add-ons of the whole stay, the discount shared over the rooms, adding up exactly", () => {
    const amount = hotelSale(source);
    expect(amount).toBe(18_000 + 10_001 + 600 - 1_337);
    const items = invoiceItems(source, amount, "stay");
    expect(sum(items)).toBe(amount);
    expect(items.map((item) => item.name)).toEqual(["雙人房 - 含早方案", "家庭房 - 不含早", "接駁車"]);
    for (const item of items) expect(item.price * item.count).toBe(item.amount);
  });

  it("never list the rail tickets, and refuse a stay invoice of any other amount (the order's total with rail)", () => {
    const withRail = hotelSale(source) + source.rail;
    expect(() => invoiceItems(source, withRail, "stay")).toThrow(/add up to/);
    const items = invoiceItems(source, hotelSale(source), "stay");
    expect(items.some((item) => /高鐵|THSR|rail/i.test(item.name))).toBe(false);
  });

  it("show a kept deposit and a cancellation fee as one item of their own", () => {
    expect(invoiceItems(source, 3_000, "deposit")).toEqual([{ name: "住宿訂金", count: 1, word: "式", price: 3_000, amount: 3_000 }]);
    expect(invoiceItems(source, 1_234, "cancellation_fee")).toEqual([
      { name: "取消訂房費用", count: 1, word: "式", price: 1_234, amount: 1_234 },
    ]);
    expect(invoiceItems(source, 500, "balance")[0]?.amount).toBe(500);
  });

  it("refuse nothing to invoice and parts of a dollar", () => {
    expect(() => invoiceItems(source, 0, "deposit")).toThrow();
    expect(() => invoiceItems(source, 10.5, "deposit")).toThrow();
  });

  it("keep a count only when the price divides it, otherwise one lot", () => {
    const items = invoiceItems(
      { rooms: [{ name: "A", rooms: 1, nights: 2, amount: 5_000 }], addons: [], discount: 1, rail: 0 },
      4_999,
      "stay",
    );
    expect(items).toEqual([{ name: "A", count: 1, word: "式", price: 4_999, amount: 4_999 }]);
    const even = invoiceItems(
      { rooms: [{ name: "A", rooms: 1, nights: 2, amount: 5_000 }], addons: [], discount: 0, rail: 0 },
      5_000,
      "stay",
    );
    expect(even).toEqual([{ name: "A", count: 2, word: "間夜", price: 2_500, amount: 5_000 }]);
  });

  it("share a discount in whole dollars that add up to it", () => {
    for (const [total, weights] of [
      [100, [1, 1, 1]],
      [1, [3, 3]],
      [1_337, [18_000, 10_001]],
      [0, [5, 5]],
      [7, [0, 0]],
    ] as [number, number[]][]) {
      const shares = shareOut(total, weights);
      if (weights.some((weight) => weight > 0)) expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      for (const share of shares) expect(Number.isInteger(share)).toBe(true);
    }
  });
});

describe("a company invoice's tax", () => {
  it.each([
    [1_050, 1_000, 50],
    [105, 100, 5],
    [100, 95, 5],
    [1, 1, 0],
    [10, 10, 0],
    [11, 10, 1],
    [3_150, 3_000, 150],
    [12_345, 11_757, 588],
    [0, 0, 0],
  ])("%i tax included: %i untaxed, %i tax", (total, untaxed, tax) => {
    expect(companyTaxSplit(total)).toEqual({ untaxed, tax });
  });

  it("always adds up, and rounds total / 1.05 half up", () => {
    for (let total = 0; total < 5_000; total++) {
      const { untaxed, tax } = companyTaxSplit(total);
      expect(untaxed + tax).toBe(total);
      expect(untaxed).toBe(Math.round(total / 1.05 + 1e-9));
    }
  });
});
