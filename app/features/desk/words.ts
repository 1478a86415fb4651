/** The desk's words (locales/<lng>/desk.json): `useDeskWords` in components, `deskWord` where a loader or action writes a message. */
import { useTranslation } from "~/i18n/react";
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { fillPlaceholders } from "~/i18n/translate";

export function useDeskWords() {
  const { t } = useTranslation();
  return (key: string, values: Record<string, string | number> = {}) => t(key, { ...values, ns: "desk" });
}

export function deskWord(
  lang: Language,
  key: keyof (typeof resources)["en-US"]["desk"],
  values: Record<string, string | number> = {},
): string {
  return fillPlaceholders(resources[lang].desk[key] ?? key, values);
}

/** A desk page's title in the page's language (from its path: `/desk…` zh-TW, `/<lang>/desk…`). */
export function deskTitle(lang: string | undefined, key: keyof (typeof resources)["en-US"]["desk"]): string {
  return `${deskWord(isLanguage(lang) ? lang : DEFAULT_LANGUAGE, key)} | ${deskWord(isLanguage(lang) ? lang : DEFAULT_LANGUAGE, "title")}`;
}
