import { describe, expect, it } from "vitest";
import { addDays, dayOfWeek, isIsoDate, nightsBetween, resolveDayRef, stayNights, todayIn } from "~/booking/dates";

describe("hotel-local dates", () => {
  it("computes today in the hotel's time zone", () => {
    // 2030-01-01 17:30 UTC is already 2030-01-02 in Taipei (UTC+8) but still 2030-01-01 in New York.
    const moment = new Date("2030-01-01T17:30:00Z");
    expect(todayIn("Asia/Taipei", moment)).toBe("2030-01-02");
    expect(todayIn("America/New_York", moment)).toBe("2030-01-01");
  });

  it("counts nights and lists them", () => {
    expect(nightsBetween("2030-03-30", "2030-04-02")).toBe(3);
    expect(stayNights("2030-03-30", "2030-04-02")).toEqual(["2030-03-30", "2030-03-31", "2030-04-01"]);
    expect(stayNights("2030-04-02", "2030-03-30")).toEqual([]);
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });

  it("knows real dates and weekdays", () => {
    expect(isIsoDate("2030-02-29")).toBe(false);
    expect(isIsoDate("2028-02-29")).toBe(true);
    expect(isIsoDate("2030-1-1")).toBe(false);
    expect(dayOfWeek("2030-01-05")).toBe(6); // Saturday
    expect(dayOfWeek("2030-01-06")).toBe(0); // Sunday
  });

  it("resolves relative days of a hotel file", () => {
    expect(resolveDayRef("today", "2030-01-01")).toBe("2030-01-01");
    expect(resolveDayRef("today+31", "2030-01-01")).toBe("2030-02-01");
    expect(resolveDayRef("today-1", "2030-01-01")).toBe("2029-12-31");
    expect(resolveDayRef("2031-05-05", "2030-01-01")).toBe("2031-05-05");
  });
});
