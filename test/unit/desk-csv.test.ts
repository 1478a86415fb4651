/** The desk's pure pieces (decision 152): the CSV writer, a hotel's month in UTC, and "today" either side of the hotel's midnight. */
import { describe, expect, it } from "vitest";
import { CSV_BOM, csvCell, csvRow } from "~/lib/csv";
import { monthSpan } from "~/domain/months";
import { todayIn } from "~/domain/dates";

describe("CSV", () => {
  it("quotes per RFC 4180: commas, quotes, line breaks and edge spaces; leaves plain text and numbers bare", () => {
    expect(csvCell("Mei Lin")).toBe("Mei Lin");
    expect(csvCell("Lin, Mei")).toBe('"Lin, Mei"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\r\nlines")).toBe('"two\r\nlines"');
    expect(csvCell(" padded")).toBe('" padded"');
    expect(csvCell(3200)).toBe("3200");
    expect(csvCell(null)).toBe("");
    expect(csvCell("林美玲")).toBe("林美玲");
  });

  it("neutralizes a cell a spreadsheet would run as a formula", () => {
    for (const formula of ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]) {
      expect(csvCell(formula).replace(/^"/, "").startsWith("'"), formula).toBe(true);
    }
    expect(csvCell("=1,2")).toBe('"\'=1,2"');
    // A phone number written with its country code is text too, and stays readable.
    expect(csvCell("+886 912 345 678")).toBe("'+886 912 345 678");
    // Numbers are numbers: a negative amount is not a formula.
    expect(csvCell(-500)).toBe("-500");
  });

  it("ends each record with CRLF; the file starts with a byte order mark", () => {
    expect(csvRow(["a", 1, "b,c"])).toBe('a,1,"b,c"\r\n');
    expect(CSV_BOM).toBe("\uFEFF");
  });
});

describe("a hotel's month", () => {
  it("runs between the hotel's midnights, in UTC", () => {
    const taipei = monthSpan("2026-11", "Asia/Taipei");
    expect(taipei).toMatchObject({
      firstDay: "2026-11-01",
      lastDay: "2026-11-30",
      nextDay: "2026-12-01",
      from: "2026-10-31T16:00:00.000Z",
      until: "2026-11-30T16:00:00.000Z",
      days: 30,
    });
    // Across a daylight-saving change, and a leap February.
    expect(monthSpan("2024-03", "Europe/London")).toMatchObject({ from: "2024-03-01T00:00:00.000Z", until: "2024-03-31T23:00:00.000Z" });
    expect(monthSpan("2024-02", "Asia/Tokyo")).toMatchObject({ lastDay: "2024-02-29", days: 29 });
  });
});

describe("today at the hotel", () => {
  it("turns at the hotel's midnight, not UTC's", () => {
    expect(todayIn("Asia/Taipei", new Date("2031-03-09T15:59:59Z"))).toBe("2031-03-09");
    expect(todayIn("Asia/Taipei", new Date("2031-03-09T16:00:00Z"))).toBe("2031-03-10");
    // Los Angeles on daylight time since 9 March 2031 (UTC-7).
    expect(todayIn("America/Los_Angeles", new Date("2031-03-10T06:59:00Z"))).toBe("2031-03-09");
    expect(todayIn("America/Los_Angeles", new Date("2031-03-10T07:00:00Z"))).toBe("2031-03-10");
  });
});
