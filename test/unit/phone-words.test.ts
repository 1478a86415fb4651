/**
 * Words seen on a phone (issue 37 item 17): what a guest reads says its unit and is written as the
 * language writes it.
 */
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { createTranslator } from "~/i18n/translate";
import { labelled } from "~/backend/mail/render.server";

const translator = (lang: (typeof LANGUAGES)[number]) => createTranslator(lang, resources[lang]);

describe("an add-on's limit per booking says what it counts (17c)", () => {
  it.each([
    ["zh-TW", "每筆訂單最多 3 份", "每筆訂單最多 3 位"],
    ["zh-CN", "每笔订单最多 3 份", "每笔订单最多 3 位"],
    ["en-US", "up to 3 per booking", "up to 3 guests per booking"],
    ["ja-JP", "ご予約1件につき3個まで", "ご予約1件につき3名まで"],
    ["ko-KR", "예약 1건당 최대 3개", "예약 1건당 최대 3명"],
  ] as const)("%s: pieces and people", (lang, pieces, people) => {
    const t = translator(lang);
    expect(t("checkout.addons.max", { max: 3 })).toBe(pieces);
    expect(t("checkout.addons.max.person", { max: 3 })).toBe(people);
  });
});

// 17f: Chinese and Japanese write the full-width colon "：" after a word; an ASCII ":" stays only in
// addresses (https://) and times (14:00).
const CJK_THEN_COLON = /[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e）」】]\s?:/u;
const ascii = (text: string) => text.replace(/https?:\/\/\S+/g, "").replace(/\d{1,2}:\d{2}/g, "");

describe("Chinese and Japanese use the full-width colon (17f)", () => {
  for (const lang of ["zh-TW", "zh-CN", "ja-JP"] as const) {
    it(`${lang}: no word of the locale files is followed by an ASCII colon`, () => {
      const found = Object.entries(resources[lang]).flatMap(([namespace, words]) =>
        Object.entries(words as Record<string, string>)
          .filter(([, text]) => CJK_THEN_COLON.test(ascii(text)))
          .map(([key, text]) => `${namespace}:${key} ${text}`),
      );
      expect(found).toEqual([]);
    });
    it(`${lang}: an email's "label: value" lines use "："`, () => {
      expect(labelled(lang, translator(lang)("checkout.addons"), "x")).toMatch(/：x$/);
    });
  }
  it('English and Korean keep ": "', () => {
    expect(labelled("en-US", "Booking number", "PT1")).toBe("Booking number: PT1");
    expect(labelled("ko-KR", "예약 번호", "PT1")).toBe("예약 번호: PT1");
  });
  it("zh-CN's My orders says 您, without spaces around the hotel's name", () => {
    expect(translator("zh-CN")("my_orders.intro", { hotel: "雅苑" })).toBe("您在雅苑的订单，最新的在前。");
  });
});

// 17g: Japanese writes "までに" straight after the date and calls the children お子様 throughout.
describe("ja-JP's words (17g)", () => {
  const words = Object.values(resources["ja-JP"]).flatMap((namespace) => Object.values(namespace as Record<string, string>));
  it("no space before までに", () => {
    expect(words.filter((text) => / までに/.test(text))).toEqual([]);
  });
  it("children are お子様, never 子供", () => {
    expect(words.filter((text) => text.includes("子供"))).toEqual([]);
    expect(translator("ja-JP")("order_page.guests_count", { adults: 2, children: 1 })).toBe("大人 2名、お子様 1名");
  });
});
