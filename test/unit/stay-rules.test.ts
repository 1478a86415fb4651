/**
 * The one function that decides a stay against the hotel's rules (app/domain/stay-rules.ts,
 * decisions 154 and 157), at its edges: which night each rule is read on, the stricter of a room
 * class's and a plan's rows, month and year ends, leap days, and rows that do not exist.
 */
import { describe, expect, it } from "vitest";
import { stayBounds, stayRefusal, type NightRules, type RulesOf } from "~/domain/stay-rules";

const none: NightRules = { closed: 0, min_stay: null, max_stay: null, no_arrival: 0, no_departure: 0 };

/** Rules by night for one room class (first row) and one of its plans (second row). */
function rules(room: Record<string, Partial<NightRules>>, plan: Record<string, Partial<NightRules>> = {}): RulesOf {
  return (night) => [room[night] ? { ...none, ...room[night] } : undefined, plan[night] ? { ...none, ...plan[night] } : null];
}

describe("stayRefusal", () => {
  it("reads closed on every night of the stay, but not on the check-out day's night", () => {
    const closed15 = rules({ "2027-03-15": { closed: 1 } });
    expect(stayRefusal("2027-03-14", "2027-03-15", closed15)).toBeNull();
    expect(stayRefusal("2027-03-14", "2027-03-16", closed15)).toEqual({ rule: "closed", night: "2027-03-15" });
    expect(stayRefusal("2027-03-15", "2027-03-16", closed15)).toEqual({ rule: "closed", night: "2027-03-15" });
    expect(stayRefusal("2027-03-16", "2027-03-18", closed15)).toBeNull();
  });

  it("reads no arrival on the check-in night only, and no departure on the check-out day only", () => {
    const both = rules({ "2027-03-15": { no_arrival: true, no_departure: true } });
    expect(stayRefusal("2027-03-15", "2027-03-17", both)).toEqual({ rule: "no_arrival", night: "2027-03-15" });
    expect(stayRefusal("2027-03-14", "2027-03-16", both)).toBeNull();
    expect(stayRefusal("2027-03-13", "2027-03-15", both)).toEqual({ rule: "no_departure", night: "2027-03-15" });
  });

  it("reads the minimum and maximum on the arrival night only", () => {
    const middle = rules({ "2027-03-15": { min_stay: 3, max_stay: 3 } });
    // A stay passing through the 15th is not bound by the 15th's minimum or maximum.
    expect(stayRefusal("2027-03-14", "2027-03-16", middle)).toBeNull();
    expect(stayRefusal("2027-03-10", "2027-03-20", middle)).toBeNull();
    expect(stayRefusal("2027-03-15", "2027-03-17", middle)).toEqual({ rule: "min_stay", nights: 3 });
    expect(stayRefusal("2027-03-15", "2027-03-18", middle)).toBeNull();
    expect(stayRefusal("2027-03-15", "2027-03-19", middle)).toEqual({ rule: "max_stay", nights: 3 });
  });

  it("takes the stricter of the room class's row and the plan's, and the plan's own minimum nights", () => {
    const stricter = rules({ "2027-03-15": { min_stay: 2, max_stay: 6 } }, { "2027-03-15": { min_stay: 3, max_stay: 4 } });
    expect(stayRefusal("2027-03-15", "2027-03-17", stricter)).toEqual({ rule: "min_stay", nights: 3 });
    expect(stayRefusal("2027-03-15", "2027-03-20", stricter)).toEqual({ rule: "max_stay", nights: 4 });
    expect(stayRefusal("2027-03-15", "2027-03-19", stricter)).toBeNull();
    // A plan sold for at least four nights (rate_plans.days) asks more than either row.
    expect(stayRefusal("2027-03-15", "2027-03-18", stricter, 4)).toEqual({ rule: "min_stay", nights: 4 });
    // The plan's row alone closes the plan, not the room class's other plans.
    const planClosed = rules({}, { "2027-03-16": { closed: 1 } });
    expect(stayRefusal("2027-03-15", "2027-03-17", planClosed)).toEqual({ rule: "closed", night: "2027-03-16" });
    expect(stayRefusal("2027-03-15", "2027-03-17", rules({}))).toBeNull();
  });

  it("tells the first rule that applies, in the order a guest is told: closed, no arrival, no departure, minimum, maximum", () => {
    const all = rules({
      "2027-03-15": { no_arrival: 1, min_stay: 5 },
      "2027-03-16": { closed: 1 },
      "2027-03-17": { no_departure: 1 },
    });
    expect(stayRefusal("2027-03-15", "2027-03-17", all)).toEqual({ rule: "closed", night: "2027-03-16" });
    const noClosed = rules({ "2027-03-15": { no_arrival: 1, min_stay: 5 }, "2027-03-17": { no_departure: 1 } });
    expect(stayRefusal("2027-03-15", "2027-03-17", noClosed)).toEqual({ rule: "no_arrival", night: "2027-03-15" });
    const departure = rules({ "2027-03-15": { min_stay: 5 }, "2027-03-17": { no_departure: 1 } });
    expect(stayRefusal("2027-03-15", "2027-03-17", departure)).toEqual({ rule: "no_departure", night: "2027-03-17" });
  });

  it("crosses month ends, the year's end and a leap day night by night", () => {
    expect(stayRefusal("2027-01-30", "2027-02-02", rules({ "2027-02-01": { closed: 1 } }))).toEqual({
      rule: "closed",
      night: "2027-02-01",
    });
    expect(stayRefusal("2027-12-30", "2028-01-02", rules({ "2027-12-31": { closed: 1 } }))).toEqual({
      rule: "closed",
      night: "2027-12-31",
    });
    expect(stayRefusal("2028-02-28", "2028-03-01", rules({ "2028-02-29": { closed: 1 } }))).toEqual({
      rule: "closed",
      night: "2028-02-29",
    });
    // 2027 has no 29 February: the stay from the 28th to 1 March is one night.
    expect(stayRefusal("2027-02-28", "2027-03-01", rules({ "2027-02-28": { min_stay: 2 } }))).toEqual({ rule: "min_stay", nights: 2 });
    expect(stayRefusal("2028-02-28", "2028-03-01", rules({ "2028-02-28": { min_stay: 2 } }))).toBeNull();
  });

  it("reads a missing row as no rule: beyond the loaded calendar, whether there is a room is the inventory's question", () => {
    expect(stayRefusal("2030-01-01", "2030-01-05", () => [])).toBeNull();
    expect(stayRefusal("2030-01-01", "2030-01-05", () => [undefined, null])).toBeNull();
  });
});

describe("stayBounds", () => {
  it("is at least one night and at least the plan's days, with no maximum unless a row sets one", () => {
    expect(stayBounds([])).toEqual({ min: 1, max: null });
    expect(stayBounds([null, undefined], 3)).toEqual({ min: 3, max: null });
    expect(
      stayBounds([
        { ...none, min_stay: 2, max_stay: 9 },
        { ...none, max_stay: 5 },
      ]),
    ).toEqual({ min: 2, max: 5 });
  });
});
