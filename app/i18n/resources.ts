/** Every translation, bundled into the Worker (no filesystem on Workers). One set of keys for all five. */
import zhTWCommon from "../../locales/zh-TW/common.json";
import zhCNCommon from "../../locales/zh-CN/common.json";
import enUSCommon from "../../locales/en-US/common.json";
import jaJPCommon from "../../locales/ja-JP/common.json";
import koKRCommon from "../../locales/ko-KR/common.json";
import type { Language } from "./languages";

export const NAMESPACES = ["common"] as const;
export type Namespace = (typeof NAMESPACES)[number];

export const resources: Record<Language, Record<Namespace, Record<string, string>>> = {
  "zh-TW": { common: zhTWCommon },
  "zh-CN": { common: zhCNCommon },
  "en-US": { common: enUSCommon },
  "ja-JP": { common: jaJPCommon },
  "ko-KR": { common: koKRCommon },
};
