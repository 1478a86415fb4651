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
