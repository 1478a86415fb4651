/** The words of the confirmation PDF and the emails (locales/<lng>/documents.json), for the site and the back end alike. */
import zhTW from "../../locales/zh-TW/documents.json";
import zhCN from "../../locales/zh-CN/documents.json";
import enUS from "../../locales/en-US/documents.json";
import jaJP from "../../locales/ja-JP/documents.json";
import koKR from "../../locales/ko-KR/documents.json";
import { isLanguage, DEFAULT_LANGUAGE, type Language } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { paidWithLabelKeys } from "~/booking/payments";
import { resolveParticles } from "~/i18n/korean";

const CATALOGUE: Record<Language, typeof enUS> = { "zh-TW": zhTW, "zh-CN": zhCN, "en-US": enUS, "ja-JP": jaJP, "ko-KR": koKR };

export type DocumentKey = keyof typeof enUS;

export function documentLanguage(lang: string): Language {
  return isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}

export function docText(lang: Language, key: DocumentKey, params: Record<string, string | number> = {}): string {
  const template = CATALOGUE[lang][key] ?? enUS[key];
  const text = template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ""));
  return lang === "ko-KR" ? resolveParticles(text) : text;
}

/** An amount of TWD as the documents print it: NT$1,234. */
export function formatTwd(amount: number, lang: Language): string {
  return `NT$${new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(amount)}`;
}

/** How an order is paid, in words: the method, and the vendor when it is not implied by it. */
export function paymentText(lang: Language, method: string, vendor: number, paidWith = ""): string {
  const common: Record<string, string> = resources[lang].common;
  return paidWithLabelKeys(method, vendor, paidWith)
    .map((key) => common[key] ?? key)
    .join(" · ");
}
