/**
 * Text the server writes outside the pages — the back end's API messages, emails and the PDF, the
 * account service's pages, the captcha and the test gateway — from the locale files
 * (locales/<lng>/<ns>.json), through one i18next instance with the design card's settings
 * (./config, Korean particles included). Decision 094. The pages keep their own small translator
 * (./translate, decision 011) and their two namespaces (./resources, which hydrating pages carry);
 * these namespaces stay on the server.
 */
import { createInstance, type TFunction } from "i18next";
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
import { i18nConfig } from "./config";
import { koreanParticles } from "./korean";
import { LANGUAGES, type Language } from "./languages";
import { NAMESPACES, resources } from "./resources";

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

const i18n = createInstance().use(koreanParticles);
void i18n.init({
  ...i18nConfig,
  ns: [...NAMESPACES, ...SERVER_NAMESPACES],
  resources: Object.fromEntries(LANGUAGES.map((lang) => [lang, { ...resources[lang], ...serverResources[lang] }])),
  // The resources are bundled: initialise now, so text is at hand synchronously.
  initImmediate: false,
  missingInterpolationHandler: () => "",
});

const translators = new Map<string, TFunction>();

/**
 * Messages already written, by language, namespace, key and values: the resources never change
 * after start-up, and i18next resolves the language's fallbacks again on every call (under load a
 * twentieth of the Worker's CPU went there, issue 26). Bounded: emptied when full.
 */
const written = new Map<string, string>();
const WRITTEN_MAX = 2_000;

/**
 * A message of `ns` in `lang`, its placeholders filled from `params` (never read as i18next
 * options: a value named `count` or `lng` is only a value). `key` may be a list, the first key the
 * file has wins (a document's `<key>.<unit>` before `<key>`, decision 085).
 */
export function serverText<N extends ServerNamespace>(
  lang: Language,
  ns: N,
  key: ServerKey<N> | readonly string[],
  params: TextParams = {},
): string {
  const memo = `${lang}|${ns}|${typeof key === "string" ? key : key.join("\u0000")}|${JSON.stringify(params)}`;
  const known = written.get(memo);
  if (known !== undefined) return known;
  let t = translators.get(`${lang}|${ns}`);
  if (!t) translators.set(`${lang}|${ns}`, (t = i18n.getFixedT(lang, ns)));
  const text = t(key as string | string[], { replace: params });
  if (written.size >= WRITTEN_MAX) written.clear();
  written.set(memo, text);
  return text;
}
