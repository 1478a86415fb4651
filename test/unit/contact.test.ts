import { describe, expect, it } from "vitest";
import { hasControlCharacters, hasLink, isCleanName, isolatedName, isPhoneNumber, nameForDisplay } from "~/domain/contact";

describe("isPhoneNumber", () => {
  it.each([
    "0912345678",
    "0912-345-678",
    "0912 345 678",
    "02-2345-6789",
    "(02) 2345-6789",
    "+886 912 345 678",
    "+886-2-2345-6789",
    "+886912345678",
    "+1 (555) 123-4567",
    "03-1234-5678",
    "090-1234-5678",
    "010-1234-5678",
    "9123 4567",
    "1234567",
  ])("accepts %j", (phone) => {
    expect(isPhoneNumber(phone)).toBe(true);
  });

  it.each([
    ["2026-12-10", "a date"],
    ["2026 12 10", "a date with spaces"],
    ["10-12-2026", "a date, day first"],
    ["2026-1-9", "a short date"],
    ["123456", "six digits"],
    ["1234567890123456", "sixteen digits"],
    ["0912--345678", "a doubled separator"],
    ["-0912345678", "a leading separator"],
    ["0912345678-", "a trailing separator"],
    ["09+12345678", "a plus inside"],
    ["++886912345678", "two pluses"],
    ["0912\u0000345678", "a NUL byte"],
    ["0912.345.678", "dots"],
    ["0912/345/678", "slashes"],
    ["phone 0912345678", "words"],
    ["(02 2345-6789", "an unclosed parenthesis"],
    ["", "nothing"],
  ])("refuses %j (%s)", (phone) => {
    expect(isPhoneNumber(phone)).toBe(false);
  });
});

describe("hasControlCharacters", () => {
  it.each(["\u0000", "\u0007", "\u001b[31m", "\u007f", "\u0085", "\u009f", "\n", "\r", "\t", "\u2028"])(
    "finds %j in a one-line field",
    (control) => {
      expect(hasControlCharacters(`Lin${control}Mei`)).toBe(true);
    },
  );

  it("lets a note keep line breaks and tabs, and nothing else", () => {
    expect(hasControlCharacters("Late arrival\r\nabout 23:00\tthanks", { multiline: true })).toBe(false);
    expect(hasControlCharacters("Late\u0000arrival", { multiline: true })).toBe(true);
    expect(hasControlCharacters("Late\u001barrival", { multiline: true })).toBe(true);
  });

  it("passes names in every script", () => {
    for (const name of ["林美", "Lin Mei", "李 小龍", "山田 太郎", "김민준", "José Ñúñez", "O'Brien-Smith"]) {
      expect(hasControlCharacters(name)).toBe(false);
    }
  });
});

describe("isCleanName: the one rule of every entry that takes a name (decision 052)", () => {
  it.each([
    ["\u202A", "LEFT-TO-RIGHT EMBEDDING"],
    ["\u202B", "RIGHT-TO-LEFT EMBEDDING"],
    ["\u202C", "POP DIRECTIONAL FORMATTING"],
    ["\u202D", "LEFT-TO-RIGHT OVERRIDE"],
    ["\u202E", "RIGHT-TO-LEFT OVERRIDE"],
    ["\u2066", "LEFT-TO-RIGHT ISOLATE"],
    ["\u2067", "RIGHT-TO-LEFT ISOLATE"],
    ["\u2068", "FIRST STRONG ISOLATE"],
    ["\u2069", "POP DIRECTIONAL ISOLATE"],
    ["\u200E", "LEFT-TO-RIGHT MARK"],
    ["\u200F", "RIGHT-TO-LEFT MARK"],
    ["\u061C", "ARABIC LETTER MARK"],
    ["\u0000", "NUL"],
    ["\u0007", "BEL"],
    ["\r\n", "CR LF"],
    ["\t", "a tab"],
    ["\u001b", "ESC"],
    ["\u007f", "DEL"],
    ["\u0085", "NEL (C1)"],
    ["\u009b", "CSI (C1)"],
    ["\u2028", "LINE SEPARATOR"],
  ])("refuses %j (%s) anywhere in a name", (control) => {
    for (const name of [`${control}Lin`, `Li${control}n`, `Lin${control}`]) expect(isCleanName(name), JSON.stringify(name)).toBe(false);
  });

  it("takes names in every script, right-to-left ones included", () => {
    for (const name of [
      "林美",
      "Lin Mei",
      "山田 太郎",
      "김민준",
      "José Ñúñez",
      "O'Brien-Smith",
      "محمد الأحمد",
      "שרה כהן",
      "Zoë Saldaña-Perez",
    ]) {
      expect(isCleanName(name), name).toBe(true);
    }
  });

  it("shows a name stored before the rule without its controls, and isolates it in plain text", () => {
    expect(nameForDisplay("Lin\u202E Mei\u0000\u0007")).toBe("Lin Mei");
    expect(isolatedName("Lin\u202E")).toBe("\u2068Lin\u2069");
    expect(isolatedName("שרה")).toBe("\u2068שרה\u2069");
  });
});

describe("hasLink: a name holding a link (decision 072)", () => {
  it.each([
    "guest. URGENT: card declined, re-verify at https://evil.example/a/verify",
    "https://evil.example",
    "hxxps://evil",
    "mailto:me",
    "www.evil",
    "WWW.EVIL.TEST",
    "evil.example",
    "pay-now.com",
    "bit.ly",
    "Chen evil.com/verify",
    "ｅｖｉｌ．ｃｏｍ",
    "evil。com",
    "javascript:alert(1)",
  ])("finds one in %j", (text) => {
    expect(hasLink(text)).toBe(true);
  });

  it.each([
    "Mei Lin",
    "J.R.R. Tolkien",
    "Mr. Li",
    "St. John",
    "O'Brien",
    "Anne-Marie",
    "陳 美玲",
    "山田 太郎",
    "김민준",
    "שרה כהן",
    "Dr.Who",
    "Ph.D.",
  ])("finds none in the name %j", (text) => {
    expect(hasLink(text)).toBe(false);
  });
});

describe("isolatedName in an email: a stored name with a link is defanged (decision 072)", () => {
  it("leaves a name alone and breaks every link in one", () => {
    expect(isolatedName("Mei Lin")).toBe("\u2068Mei Lin\u2069");
    const shown = isolatedName("guest. URGENT: card declined, re-verify at https://evil.example/a/verify");
    expect(hasLink(shown)).toBe(false);
    expect(shown).not.toMatch(/https?:|evil\.example/);
  });
});
