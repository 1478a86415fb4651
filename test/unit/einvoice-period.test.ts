import { describe, expect, it } from "vitest";
import { canVoid, invoicePeriod, lastVoidDay, taipeiDate, voidOrAllowance } from "~/domain/einvoice/period";

/**
 * Void or allowance (decision 159): an invoice can be voided until 23:59:59 Taipei on the 13th of
 * the odd month after its two-month period; from 00:00:00 on the 14th only an allowance reduces it.
 * Both sides of every period's cut-off, the year end, and instants written in Taipei time.
 */

/** An instant given as Taipei wall time. */
const taipei = (local: string) => new Date(`${local}+08:00`);

const PERIODS: [string, string, string, string][] = [
  // first day, last day of the period, last day to void, first day of allowances only
  ["2026-01-01", "2026-02-28", "2026-03-13", "2026-03-14"],
  ["2026-03-01", "2026-04-30", "2026-05-13", "2026-05-14"],
  ["2026-05-01", "2026-06-30", "2026-07-13", "2026-07-14"],
  ["2026-07-01", "2026-08-31", "2026-09-13", "2026-09-14"],
  ["2026-09-01", "2026-10-31", "2026-11-13", "2026-11-14"],
  ["2026-11-01", "2026-12-31", "2027-01-13", "2027-01-14"],
];

describe.each(PERIODS)("an invoice of the period %s – %s", (first, last, lastVoid, closed) => {
  for (const issuedOn of [first, last]) {
    it(`issued ${issuedOn} can be voided until ${lastVoid} 23:59:59 Taipei`, () => {
      expect(lastVoidDay(issuedOn)).toBe(lastVoid);
      expect(canVoid(issuedOn, taipei(`${issuedOn}T00:00:00`))).toBe(true);
      expect(canVoid(issuedOn, taipei(`${lastVoid}T00:00:00`))).toBe(true);
      expect(canVoid(issuedOn, taipei(`${lastVoid}T23:59:59`))).toBe(true);
      expect(canVoid(issuedOn, taipei(`${lastVoid}T23:59:59.999`))).toBe(true);
      expect(voidOrAllowance(issuedOn, taipei(`${lastVoid}T23:59:59`))).toBe("void");
    });

    it(`issued ${issuedOn} needs an allowance from ${closed} 00:00:00 Taipei`, () => {
      expect(canVoid(issuedOn, taipei(`${closed}T00:00:00`))).toBe(false);
      expect(canVoid(issuedOn, taipei(`${closed}T12:00:00`))).toBe(false);
      expect(voidOrAllowance(issuedOn, taipei(`${closed}T00:00:00`))).toBe("allowance");
    });
  }
});

describe("the period and the cut-off", () => {
  it("counts in Taipei, not UTC: 16:00 UTC on the 13th is already the 14th in Taipei", () => {
    expect(canVoid("2026-02-10", new Date("2026-03-13T15:59:59Z"))).toBe(true);
    expect(canVoid("2026-02-10", new Date("2026-03-13T16:00:00Z"))).toBe(false);
  });

  it("dates an invoice in Taipei: 20:00 UTC on 31 December is New Year's Day there, a new period", () => {
    const at = new Date("2026-12-31T20:00:00Z");
    expect(taipeiDate(at)).toBe("2027-01-01");
    expect(lastVoidDay(taipeiDate(at))).toBe("2027-03-13");
  });

  it("a December invoice is voidable over the year end until 13 January", () => {
    expect(canVoid("2026-12-31", taipei("2027-01-01T00:00:00"))).toBe(true);
    expect(canVoid("2026-12-31", taipei("2027-01-13T23:59:59"))).toBe(true);
    expect(canVoid("2026-12-31", taipei("2027-01-14T00:00:00"))).toBe(false);
  });

  it("a leap-year February invoice shares January's cut-off", () => {
    expect(lastVoidDay("2028-02-29")).toBe("2028-03-13");
  });

  it("names each date's period by its first month", () => {
    expect(invoicePeriod("2026-02-28")).toEqual({ year: 2026, firstMonth: 1 });
    expect(invoicePeriod("2026-12-01")).toEqual({ year: 2026, firstMonth: 11 });
    expect(() => invoicePeriod("2026-13-01")).toThrow();
    expect(() => invoicePeriod("yesterday")).toThrow();
  });
});
