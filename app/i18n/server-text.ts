/**
 * Text the server writes outside the pages — the back end's API messages, emails and the PDF, the
 * account service's pages, the captcha and the test gateway — from the locale files
 * (locales/<lng>/<ns>.json), filled by the pages' own small translator's code (./translate: the
 * same placeholders and Korean particles; decisions 094, 144). Its namespaces stay on the server:
 * hydrating pages carry only words of the pages' two (./resources), never these.
 */
import zhTWAccount from "../../locales/zh-TW/account.json";
import zhCNAccount from "../../locales/zh-CN/account.json";
import enUSAccount from "../../locales/en-US/account.json";
import jaJPAccount from "../../locales/ja-JP/account.json";
import koKRAccount from "../../locales/ko-KR/account.json";
import zhTWApi from "../../locales/zh-TW/api.json";
import zhCNApi from "../../locales/zh-CN/api.json";
import enUSApi from "../../locales/en-US/api.json";
import jaJPApi from "../../locales/ja-JP/api.json";
import koKRApi from "../../locales/ko-KR/api.json";
import zhTWCaptcha from "../../locales/zh-TW/captcha.json";
import zhCNCaptcha from "../../locales/zh-CN/captcha.json";
import enUSCaptcha from "../../locales/en-US/captcha.json";
import jaJPCaptcha from "../../locales/ja-JP/captcha.json";
import koKRCaptcha from "../../locales/ko-KR/captcha.json";
import zhTWDocuments from "../../locales/zh-TW/documents.json";
import zhCNDocuments from "../../locales/zh-CN/documents.json";
import enUSDocuments from "../../locales/en-US/documents.json";
import jaJPDocuments from "../../locales/ja-JP/documents.json";
import koKRDocuments from "../../locales/ko-KR/documents.json";
import zhTWSandbox from "../../locales/zh-TW/sandbox.json";
import zhCNSandbox from "../../locales/zh-CN/sandbox.json";
import enUSSandbox from "../../locales/en-US/sandbox.json";
import jaJPSandbox from "../../locales/ja-JP/sandbox.json";
import koKRSandbox from "../../locales/ko-KR/sandbox.json";
import { DEFAULT_LANGUAGE, type Language } from "./languages";
import { fillPlaceholders, finishing } from "./translate";

/** The server's own namespaces, after the pages' two (common, facility). A new locale file is added here. */
export const SERVER_NAMESPACES = ["account", "api", "captcha", "documents", "sandbox"] as const;
export type ServerNamespace = (typeof SERVER_NAMESPACES)[number];

const serverResources = {
  "zh-TW": { account: zhTWAccount, api: zhTWApi, captcha: zhTWCaptcha, documents: zhTWDocuments, sandbox: zhTWSandbox },
  "zh-CN": { account: zhCNAccount, api: zhCNApi, captcha: zhCNCaptcha, documents: zhCNDocuments, sandbox: zhCNSandbox },
  "en-US": { account: enUSAccount, api: enUSApi, captcha: enUSCaptcha, documents: enUSDocuments, sandbox: enUSSandbox },
  "ja-JP": { account: jaJPAccount, api: jaJPApi, captcha: jaJPCaptcha, documents: jaJPDocuments, sandbox: jaJPSandbox },
  "ko-KR": { account: koKRAccount, api: koKRApi, captcha: koKRCaptcha, documents: koKRDocuments, sandbox: koKRSandbox },
} satisfies Record<Language, Record<ServerNamespace, Record<string, string>>>;

/** The keys of a namespace (its English file's; the locale tests hold all five to the same keys). */
export type ServerKey<N extends ServerNamespace> = keyof (typeof serverResources)["en-US"][N] & string;

/** Values for a message's `{{name}}` placeholders; a placeholder given no value reads as nothing. */
export type TextParams = Record<string, string | number>;

/**
 * A message of `ns` in `lang`, its placeholders filled from `params` (only ever values: a value
 * named `count` or `lng` chooses no plural and no language), a placeholder given no value reading
 * as nothing. `key` may be a list, the first key the file has wins (a document's `<key>.<unit>`
 * before `<key>`, decision 085); a key the language lacks is taken from the default language, and
 * one no file has reads as itself, as i18next does.
 */
export function serverText<N extends ServerNamespace>(
  lang: Language,
  ns: N,
  key: ServerKey<N> | readonly string[],
  params: TextParams = {},
): string {
  const keys: readonly string[] = typeof key === "string" ? [key] : key;
  const table: Record<string, string> = serverResources[lang][ns];
  const fallback: Record<string, string> = serverResources[DEFAULT_LANGUAGE][ns];
  let text: string | undefined;
  for (const name of keys) {
    text = table[name] ?? fallback[name];
    if (text !== undefined) break;
  }
  return finishing(lang)(fillPlaceholders(text ?? keys[keys.length - 1] ?? "", params, ""));
}
