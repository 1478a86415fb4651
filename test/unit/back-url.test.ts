import { describe, expect, it } from "vitest";
import { safeBackPath } from "~/features/account/back-url";

/** Each variant, resolved against the site the way a browser resolves a Location, must stay on the site. */
const OPEN_REDIRECTS = [
  "//evil.com",
  "///evil.com",
  "////evil.com/path",
  "/\\evil.com",
  "\\/evil.com",
  "\\\\evil.com",
  "/\\/evil.com",
  "https:evil.com",
  "https://evil.com",
  "http://evil.com/",
  "HTTPS://EVIL.COM",
  "//evil.com/%2F..",
  "%2F%2Fevil.com",
  "%2f%2fevil.com",
  "/%2F/evil.com",
  "/%5Cevil.com",
  "/%5cevil.com",
  "%5C%5Cevil.com",
  "/%252F/evil.com",
  "%252F%252Fevil.com",
  "javascript:alert(1)",
  "JavaScript:alert(document.cookie)",
  "java%0ascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "/\t/evil.com",
  "/\n/evil.com",
  "/%09/evil.com",
  "/%0d%0a/evil.com",
  " //evil.com",
  "evil.com",
  "@evil.com",
  "/%E3%80%82/evil.com%00",
  "http:/evil.com",
  "//evil%E3%80%82com",
  "/.//evil.com",
  "ftp://evil.com",
];

describe("login_back_url keeps a guest on the site", () => {
  it.each(OPEN_REDIRECTS)("refuses %j, or keeps it on the site", (variant) => {
    const kept = safeBackPath(variant);
    if (kept === null) return;
    // Whatever is kept resolves to this site, and to nowhere else.
    const resolved = new URL(kept, "https://hotel.example");
    expect(resolved.origin).toBe("https://hotel.example");
    expect(kept.startsWith("/")).toBe(true);
    expect(kept.startsWith("//")).toBe(false);
    expect(kept).not.toContain("\\");
  });

  it("refuses the textbook open redirects outright", () => {
    for (const variant of [
      "//evil.com",
      "/\\evil.com",
      "\\/evil.com",
      "https:evil.com",
      "%2F%2Fevil.com",
      "/%5Cevil.com",
      "javascript:alert(1)",
      "/%2F/evil.com",
    ]) {
      expect(safeBackPath(variant), variant).toBeNull();
    }
  });

  it("has at least 25 variants", () => {
    expect(OPEN_REDIRECTS.length).toBeGreaterThanOrEqual(25);
  });

  it("keeps a path of the site with its query", () => {
    expect(safeBackPath("/en-US/hxa/booking?start=2026-12-01&end=2026-12-02&adults=2")).toBe(
      "/en-US/hxa/booking?start=2026-12-01&end=2026-12-02&adults=2",
    );
    expect(safeBackPath("/")).toBe("/");
    expect(safeBackPath("/room/12")).toBe("/room/12");
  });

  it("never returns to the sign-in pages themselves", () => {
    expect(safeBackPath("/hxa/oauth/callback?code=x", ["/hxa/oauth", "/hxa/login"])).toBeNull();
    expect(safeBackPath("/hxa/login", ["/hxa/oauth", "/hxa/login"])).toBeNull();
  });

  it("refuses what is not a string, empty or too long", () => {
    expect(safeBackPath(undefined)).toBeNull();
    expect(safeBackPath("")).toBeNull();
    expect(safeBackPath(`/${"a".repeat(3000)}`)).toBeNull();
  });
});

describe("return addresses refuse characters nobody sees (issue 37)", () => {
  const UNSEEN = [
    ...["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"],
    ...["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u00AD"],
    ...["\u0000", "\u0007", "\u001B", "\u007F", "\u0080", "\u0085", "\u009B", "\u009F", "\u00A0", "\u2028", "\u3000"],
  ];
  const hex = (char: string) => `U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;

  it.each(UNSEEN.map((char) => [hex(char), char]))(
    "refuses %s raw, percent-encoded and encoded twice, in the path or the query",
    (_, char) => {
      const encoded = encodeURIComponent(char);
      for (const variant of [`/${char}x`, `/${encoded}x`, `/${encodeURIComponent(encoded)}x`, `/about?q=${encoded}`, `/about${char}`]) {
        expect(safeBackPath(variant), JSON.stringify(variant)).toBeNull();
      }
    },
  );

  it("keeps letters of any script, and answers ASCII a Location header can carry", () => {
    expect(safeBackPath("/ja-JP/news?q=温泉")).toBe("/ja-JP/news?q=%E6%B8%A9%E6%B3%89");
    expect(safeBackPath("/ko-KR/about?q=%ED%98%B8%ED%85%94")).toBe("/ko-KR/about?q=%ED%98%B8%ED%85%94");
  });
});
