import { describe, expect, it } from "vitest";
import { DateTime } from "luxon";
import { addDays, addMonths, dayOfWeek, isIsoDate, nightsBetween, resolveDayRef, stayNights, todayIn } from "~/domain/dates";

describe("hotel-local dates", () => {
  it("computes today in the hotel's time zone", () => {
    // 2030-01-01 17:30 UTC is already 2030-01-02 in Taipei (UTC+8) but still 2030-01-01 in New York.
    const moment = new Date("2030-01-01T17:30:00Z");
    expect(todayIn("Asia/Taipei", moment)).toBe("2030-01-02");
    expect(todayIn("America/New_York", moment)).toBe("2030-01-01");
  });

  it("turns the day at the hotel's midnight exactly, asked in any order, daylight saving days included", () => {
    const asked: [string, string, string][] = [
      ["Asia/Taipei", "2030-01-01T15:59:59.999Z", "2030-01-01"],
      ["Asia/Taipei", "2030-01-01T16:00:00.000Z", "2030-01-02"],
      ["Asia/Taipei", "2030-01-01T15:59:59.999Z", "2030-01-01"],
      ["Asia/Taipei", "2030-01-02T15:59:59.999Z", "2030-01-02"],
      // New York springs forward on 2030-03-10: that day is 23 hours long.
      ["America/New_York", "2030-03-10T04:59:59.999Z", "2030-03-09"],
      ["America/New_York", "2030-03-10T05:00:00.000Z", "2030-03-10"],
      ["America/New_York", "2030-03-11T03:59:59.999Z", "2030-03-10"],
      ["America/New_York", "2030-03-11T04:00:00.000Z", "2030-03-11"],
      ["America/New_York", "2030-03-10T12:00:00.000Z", "2030-03-10"],
      ["Not/AZone", "2030-01-01T16:00:00.000Z", "2030-01-02"],
    ];
    for (const [zone, instant, day] of asked) expect(todayIn(zone, new Date(instant)), `${zone} ${instant}`).toBe(day);
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

  it("gives luxon's answers for every day of four years, month ends and leap days included (decision 046)", () => {
    const utc = (date: string) => DateTime.fromISO(date, { zone: "utc" });
    const first = utc("2024-01-01");
    const mismatches: string[] = [];
    for (let index = 0; index < 1_461; index += 1) {
      const date = first.plus({ days: index }).toISODate() as string;
      for (const days of [-400, -31, -1, 1, 2, 29, 30, 31, 365]) {
        if (addDays(date, days) !== utc(date).plus({ days }).toISODate()) mismatches.push(`${date} + ${days} days`);
      }
      for (const months of [-13, -1, 1, 2, 12]) {
        if (addMonths(date, months) !== utc(date).plus({ months }).toISODate()) mismatches.push(`${date} + ${months} months`);
      }
      if (dayOfWeek(date) !== utc(date).weekday % 7) mismatches.push(`weekday of ${date}`);
      if (nightsBetween(date, "2015-06-15") !== Math.round(utc("2015-06-15").diff(utc(date), "days").days))
        mismatches.push(`nights from ${date}`);
    }
    expect(mismatches).toEqual([]);
    expect(addMonths("2024-01-31", 1)).toBe("2024-02-29");
    expect(addMonths("2023-01-31", 1)).toBe("2023-02-28");
    for (const text of ["2023-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "2024-1-01"]) expect(isIsoDate(text), text).toBe(false);
    for (const text of ["2024-02-29", "0099-12-31", "9999-12-31"]) expect(isIsoDate(text), text).toBe(true);
  });
});
