import { describe, expect, it } from "vitest";
import { earliestCheckOut } from "~/domain/check-out";

describe("earliestCheckOut", () => {
  it.each([
    ["2026-12-10", "2026-12-01", "2026-12-11"],
    ["2026-12-31", "2026-12-01", "2027-01-01"],
    ["2028-02-28", "2028-01-01", "2028-02-29"],
    ["2027-02-28", "2027-01-01", "2027-03-01"],
    ["2026-12-01", "2026-12-01", "2026-12-02"],
    // Not a date, or before today: the night after today.
    ["2026-11-30", "2026-12-01", "2026-12-02"],
    ["", "2026-12-01", "2026-12-02"],
    ["2026-02-30", "2026-01-01", "2026-01-02"],
    ["10/12/2026", "2026-12-01", "2026-12-02"],
  ])("check-in %s, today %s: %s", (checkIn, today, expected) => {
    expect(earliestCheckOut(checkIn, today)).toBe(expected);
  });
});
