import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig } from "~/i18n/config";
import { koreanParticles } from "~/i18n/korean";
import { formatCapacity, formatCountry, formatDate, formatPrice } from "~/i18n/format";
import { resources } from "~/i18n/resources";

async function translator(lng: string) {
  const i18n = createInstance().use(koreanParticles);
  await i18n.init({ ...i18nConfig, lng, resources });
  return i18n.t;
}

describe("formatting for the guest's language", () => {
  it("formats TWD as NT$, without decimals, in every language (decision 090)", () => {
    for (const lang of ["zh-TW", "zh-CN", "en-US", "ja-JP", "ko-KR"] as const) expect(formatPrice(3200, lang)).toBe("NT$3,200");
    expect(formatPrice(1234567.4, "zh-TW")).toBe("NT$1,234,567");
    expect(formatPrice(0, "en-US")).toBe("NT$0");
    expect(formatPrice(-200, "en-US")).toBe("-NT$200");
  });
  it("formats hotel-local dates without shifting them", () => {
    // One style per language, with the weekday (issue 25 item 14): the style of every page, email and the PDF.
    expect(formatDate("2030-05-01", "en-US")).toBe("Wed, May 1, 2030");
    expect(formatDate("2030-05-01", "zh-TW")).toBe("2030年5月1日週三");
    expect(formatDate("2030-05-01", "ja-JP")).toBe("2030年5月1日(水)");
    expect(formatDate("2030-05-01", "ko-KR")).toBe("2030년 5월 1일 (수)");
    expect(formatDate("2030-05-01 10:00:00", "en-US")).toBe("Wed, May 1, 2030");
  });

  it("states a room's capacity with each language's plurals, leaving out children when none are allowed", async () => {
    const en = await translator("en-US");
    expect(formatCapacity(en, 1, 1)).toBe("1 adult · 1 child");
    expect(formatCapacity(en, 2, 3)).toBe("2 adults · 3 children");
    expect(formatCapacity(en, 4, 0)).toBe("4 adults");
    const zh = await translator("zh-TW");
    expect(formatCapacity(zh, 2, 1)).toBe("大人 2 位 · 兒童 1 位");
  });
});

describe("a country in the guest's language", () => {
  it.each([
    ["en-US", "Taiwan"],
    ["zh-TW", "台灣"],
    ["zh-CN", "台湾"],
    ["ja-JP", "台湾"],
    ["ko-KR", "대만"],
  ] as const)("TW in %s is %s", (lang, name) => {
    expect(formatCountry("TW", lang)).toBe(name);
  });

  it("leaves a name that is not a code as the hotel wrote it", () => {
    expect(formatCountry("臺灣", "en-US")).toBe("臺灣");
    expect(formatCountry("", "en-US")).toBe("");
  });
});
