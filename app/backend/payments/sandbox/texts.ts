/** The sandbox gateway's page texts (locales/<lng>/sandbox.json; decision 094), by ECPay's Language parameter (empty: Traditional Chinese). */
import type { Language } from "~/i18n/languages";
import { serverText, type ServerKey } from "~/i18n/server-text";

/** Each text of the page and its key in sandbox.json. */
const KEYS = {
  title: "title",
  notice: "notice",
  order: "order",
  amount: "amount",
  pay: "pay",
  decline: "decline",
  atm: "atm",
  atmIssued: "atm_issued",
  bank: "bank",
  account: "account",
  payBy: "pay_by",
  transferNow: "transfer_now",
  back: "back",
  invalid: "invalid",
} as const satisfies Record<string, ServerKey<"sandbox">>;

export type SandboxTexts = Record<keyof typeof KEYS, string> & {
  /** The page's `lang` attribute. */
  lang: string;
};

/** ECPay's Language values, the language each names, and how the page's `lang` attribute writes it. */
const LANGUAGE_PARAMETERS: Record<string, { language: Language; lang: string }> = {
  "": { language: "zh-TW", lang: "zh-Hant-TW" },
  CHI: { language: "zh-CN", lang: "zh-Hans-CN" },
  ENG: { language: "en-US", lang: "en-US" },
  JPN: { language: "ja-JP", lang: "ja-JP" },
  KOR: { language: "ko-KR", lang: "ko-KR" },
};

export function sandboxTexts(parameter: string | undefined): SandboxTexts {
  const { language, lang } = LANGUAGE_PARAMETERS[parameter ?? ""] ?? { language: "zh-TW", lang: "zh-Hant-TW" };
  const texts = Object.fromEntries(Object.entries(KEYS).map(([name, key]) => [name, serverText(language, "sandbox", key)]));
  return { ...(texts as Record<keyof typeof KEYS, string>), lang };
}
