import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/i18n/languages";
import { NAMESPACES } from "~/i18n/resources";
import { SERVER_NAMESPACES } from "~/i18n/server-text";

const root = new URL("../../locales/", import.meta.url);
const namespaces = readdirSync(new URL("zh-TW/", root)).filter((name) => name.endsWith(".json"));

function keys(lang: string, namespace: string): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`${lang}/${namespace}`, root), "utf8"));
}

describe("translations", () => {
  it.each(namespaces)("%s has the same keys, all non-empty, in all five languages", (namespace) => {
    const reference = Object.keys(keys("zh-TW", namespace)).sort();
    for (const lang of LANGUAGES) {
      const entries = keys(lang, namespace);
      expect(Object.keys(entries).sort(), `${lang}/${namespace}`).toEqual(reference);
      for (const [key, value] of Object.entries(entries)) expect(value.trim(), `${lang}/${namespace}: ${key}`).not.toBe("");
    }
  });

  it("registers every namespace: the pages' (i18n/resources) or the server's (i18n/server-text), not both", () => {
    const registered = [...NAMESPACES, ...SERVER_NAMESPACES].map((namespace) => `${namespace}.json`);
    expect([...registered].sort()).toEqual([...namespaces].sort());
  });

  it("has no namespace that exists in one language only", () => {
    for (const lang of LANGUAGES) {
      expect(
        readdirSync(new URL(`${lang}/`, root))
          .filter((name) => name.endsWith(".json"))
          .sort(),
      ).toEqual([...namespaces].sort());
    }
  });
});

/** Keys whose text is the same in every language: brand names, codes and pure layout. */
const SAME_IN_EVERY_LANGUAGE = new Set([
  "not_found.title", // "404"
  "booking.complementary_plan", // "{{room}} · {{plan}}"
  "rail.route", // "{{origin}} {{departure}} → {{destination}} {{arrival}}"
  "rail.passengers.separator", // ", " (Korean lists use the comma too; Chinese and Japanese "、")
  "payment.vendor.2", // NewebPay
  "payment.vendor.3", // JKOPAY
  "payment.vendor.4", // LINE Pay
  "payment.vendor.6", // ECPay
  "payment.vendor.7", // PXPay Plus
]);

/** Latin words a Chinese, Japanese or Korean sentence may carry: brands, codes, units, API names. */
const LATIN_TERMS = new Set([
  "API",
  "ATM",
  "BBQ",
  "Bluetooth",
  "CSV",
  "CTBC",
  "ECPay",
  "FAX",
  "Google",
  "Idempotency",
  "JKOPAY",
  "JSON",
  "Key",
  "LINE",
  "NT",
  "NewebPay",
  "PDF",
  "PXPay",
  "QR",
  "Pay",
  "Plus",
  "SNS",
  "SPA",
  "TV",
  "TWD",
  "UTC",
  "Wi",
  "Fi",
  "HTTP",
  "domain",
]);

const NON_ENGLISH = LANGUAGES.filter((lang) => lang !== "en-US");

describe("every language reads as its own, not as English", () => {
  it.each(namespaces)("%s: no text is left as the English one", (namespace) => {
    const english = keys("en-US", namespace);
    const untranslated = NON_ENGLISH.flatMap((lang) =>
      Object.entries(keys(lang, namespace))
        .filter(([key, value]) => value === english[key] && !SAME_IN_EVERY_LANGUAGE.has(key))
        .map(([key, value]) => `${lang}/${namespace}: ${key} = ${value}`),
    );
    expect(untranslated).toEqual([]);
  });

  it.each(namespaces)("%s: no English words inside Chinese, Japanese or Korean text", (namespace) => {
    const stray = NON_ENGLISH.flatMap((lang) =>
      Object.entries(keys(lang, namespace)).flatMap(([key, value]) =>
        (value.replace(/\{\{\w+\}\}/g, "").match(/[A-Za-z]{2,}/g) ?? [])
          .filter((word) => !LATIN_TERMS.has(word))
          .map((word) => `${lang}/${namespace}: ${key} has "${word}"`),
      ),
    );
    expect(stray).toEqual([]);
  });
});

// Characters common in this site's text that differ between the two scripts (traditional, simplified).
const SCRIPT_PAIRS =
  "們们 體体 訂订 價价 間间 設设 請请 會会 這这 與与 點点 須须 選选 擇择 無无 為为 於于 個个 時时 後后 來来 說说 國国 電电 開开 關关 門门 頁页 號号 單单 預预 額额 條条 費费 資资 訊讯 帳账 戶户 匯汇 銀银 幣币 僅仅 剩剩 滿满 儲储 寄寄 撥拨 態态 認认 確确 讀读 線线 網网 結结 優优 惠惠 區区 廳厅 淋淋 櫃柜 視视 樂乐 餐餐 衛卫 備备 寢寝 燈灯 紙纸 語语 樓楼 層层 務务 氣气 鐵铁 車车"
    .split(" ")
    .filter((pair) => pair[0] !== pair[1]);

describe("Chinese in the right script", () => {
  it.each(namespaces)("%s: zh-CN is Simplified, zh-TW Traditional", (namespace) => {
    const wrong: string[] = [];
    for (const [key, value] of Object.entries(keys("zh-CN", namespace)))
      for (const pair of SCRIPT_PAIRS) if (value.includes(pair[0]!)) wrong.push(`zh-CN/${namespace}: ${key} has traditional ${pair[0]}`);
    for (const [key, value] of Object.entries(keys("zh-TW", namespace)))
      for (const pair of SCRIPT_PAIRS) if (value.includes(pair[1]!)) wrong.push(`zh-TW/${namespace}: ${key} has simplified ${pair[1]}`);
    expect(wrong).toEqual([]);
  });
});
