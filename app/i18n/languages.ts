/** The five interface languages (spec §1). zh-TW is the default and has no path prefix. */
export const LANGUAGES = ["zh-TW", "zh-CN", "en-US", "ja-JP", "ko-KR"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "zh-TW";

/** Each language's name in itself, as a language switch shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  "zh-TW": "繁體中文",
  "zh-CN": "简体中文",
  "en-US": "English",
  "ja-JP": "日本語",
  "ko-KR": "한국어",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The language named by the first path segment, or the default when the path has no prefix. */
export function languageFromPath(pathname: string): { language: Language; prefixed: boolean } | null {
  const first = pathname.split("/")[1] ?? "";
  if (isLanguage(first)) return { language: first, prefixed: first !== DEFAULT_LANGUAGE };
  // Something that looks like a locale prefix but is not one of ours is a 404, not the default.
  if (/^[a-z]{2}(-[A-Za-z]{2,4})?$/.test(first) && first.includes("-")) return null;
  return { language: DEFAULT_LANGUAGE, prefixed: false };
}

/** The path of `pathname` (without prefix) in `language`. */
export function localizePath(pathname: string, language: Language): string {
  const clean = pathname.startsWith("/") ? pathname : `/${pathname}`;
  if (language === DEFAULT_LANGUAGE) return clean;
  // The home page of a language has no trailing slash, with a query or #section too: /en-US#rooms.
  if (clean === "/" || clean.startsWith("/?") || clean.startsWith("/#")) return `/${language}${clean.slice(1)}`;
  return `/${language}${clean}`;
}

/** Strips a language prefix from a path. */
export function stripLanguage(pathname: string): string {
  const first = pathname.split("/")[1] ?? "";
  if (!isLanguage(first)) return pathname;
  const rest = pathname.slice(first.length + 1);
  return rest === "" ? "/" : rest;
}
