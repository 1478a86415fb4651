import zhTW from "../../locales/zh-TW/api.json";
import zhCN from "../../locales/zh-CN/api.json";
import enUS from "../../locales/en-US/api.json";
import jaJP from "../../locales/ja-JP/api.json";
import koKR from "../../locales/ko-KR/api.json";
import type { Language } from "~/i18n/languages";

/** Messages of the built-in back end, in the request's language (locales/<lng>/api.json). */
const CATALOGUE: Record<Language, typeof enUS> = {
  "zh-TW": zhTW,
  "zh-CN": zhCN,
  "en-US": enUS,
  "ja-JP": jaJP,
  "ko-KR": koKR,
};

export type ApiMessageCode = keyof typeof enUS;

export function apiMessage(code: ApiMessageCode, lang: Language, params: Record<string, string | number> = {}): string {
  const template = CATALOGUE[lang][code] ?? enUS[code];
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ""));
}
