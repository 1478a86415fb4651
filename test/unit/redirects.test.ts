import { describe, expect, it } from "vitest";
import { canonicalLocation, sameOriginLocation } from "~/platform/redirects.server";

const BASE = "http://taipei.localhost:8792/en-US/hxa/booking";

describe("sameOriginLocation", () => {
  it.each([
    ["//evil.com", "/"],
    ["///evil.com", "/"],
    ["/\\evil.com", "/"],
    ["\\/evil.com", "/"],
    ["//%65vil.com/x?y=1#z", "/"],
    ["https://evil.com/", "/"],
    ["javascript:alert(1)", "/"],
    ["http://taipei.localhost:8792//evil.com", "/evil.com"],
    ["/en-US/hxa/booking?start=2030-01-01#cart", "/en-US/hxa/booking?start=2030-01-01#cart"],
    ["/redirect/receipt/AB12?valid_hash=x", "/redirect/receipt/AB12?valid_hash=x"],
  ])("%s → %s", (target, expected) => {
    expect(sameOriginLocation(target, BASE)).toBe(expected);
  });
});

describe("canonicalLocation", () => {
  const canonical = (path: string) => canonicalLocation(new URL(`http://taipei.localhost${path}`), "hxa");
  it.each([
    ["/", null],
    ["/en-US", null],
    ["/about", null],
    ["/event?id=7", null],
    ["/pay/3/AbC123?x=1", null],
    ["/redirect/receipt/AbC123", null],
    ["/desk/bookings/PT261128-AB3CD", null],
    ["/en-US/Desk/Bookings/PT261128-AB3CD", "/en-US/desk/bookings/PT261128-AB3CD"],
    ["/Pay/3/AbC123", "/pay/3/AbC123"],
    ["/en-US/", "/en-US"],
    ["/EN-us//About/", "/en-US/about"],
    ["/zh-TW//evil.com?x=1", "/evil.com?x=1"],
    ["/room/0016", "/room/16"],
    ["/room/0", null],
    ["/booking?adults=2", "/hxa/booking?adults=2"],
    ["/ko-kr/booking", "/ko-KR/hxa/booking"],
    ["/news?page=1", "/news"],
    ["/news?page=03&utm=x", "/news?page=3&utm=x"],
  ])("%s → %s", (path, expected) => {
    expect(canonical(path)).toBe(expected);
  });
});
