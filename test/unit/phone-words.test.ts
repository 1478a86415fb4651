/**
 * Words seen on a phone (issue 37 item 17): what a guest reads says its unit and is written as the
 * language writes it.
 */
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { createTranslator } from "~/i18n/translate";

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
