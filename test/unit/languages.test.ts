import { describe, expect, it } from "vitest";
import { languageFromPath, localizePath, stripLanguage } from "~/i18n/languages";
import { hotelDomainFor } from "~/platform/context.server";

describe("language prefixes", () => {
  it.each([
    ["/", "zh-TW", false],
    ["/room/3", "zh-TW", false],
    ["/en-US", "en-US", true],
    ["/ja-JP/about", "ja-JP", true],
    ["/zh-CN/event", "zh-CN", true],
    ["/ko-KR/", "ko-KR", true],
  ])("%s is in %s", (path, language, prefixed) => {
    expect(languageFromPath(path)).toEqual({ language, prefixed });
  });

  it.each(["/fr-FR", "/en-GB/room/1", "/de-DE/"])("%s has an unknown prefix", (path) => {
    expect(languageFromPath(path)).toBeNull();
  });

  it("builds and strips localized paths, zh-TW without prefix", () => {
    expect(localizePath("/room/3", "en-US")).toBe("/en-US/room/3");
    expect(localizePath("/", "ja-JP")).toBe("/ja-JP");
    expect(localizePath("/room/3", "zh-TW")).toBe("/room/3");
    expect(localizePath("/#rooms", "en-US")).toBe("/en-US#rooms");
    expect(localizePath("/?preview=layout_300", "ko-KR")).toBe("/ko-KR?preview=layout_300");
    expect(stripLanguage("/en-US/room/3")).toBe("/room/3");
    expect(stripLanguage("/en-US")).toBe("/");
    expect(stripLanguage("/about")).toBe("/about");
  });
});

describe("domain to hotel", () => {
  it("uses the host without port, and plain localhost is the default hotel", () => {
    expect(hotelDomainFor("Lakeside.localhost:8787", "taipei.localhost")).toBe("lakeside.localhost");
    expect(hotelDomainFor("localhost:8787", "taipei.localhost")).toBe("taipei.localhost");
    expect(hotelDomainFor("127.0.0.1:8787", "taipei.localhost")).toBe("taipei.localhost");
    expect(hotelDomainFor("www.hotel.example", "taipei.localhost")).toBe("www.hotel.example");
  });
});
