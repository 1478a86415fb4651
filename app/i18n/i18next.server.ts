import { RemixI18Next } from "remix-i18next/server";
import { i18nConfig } from "./config";
import { DEFAULT_LANGUAGE, LANGUAGES, languageFromPath } from "./languages";
import { resources } from "./resources";

/** Translations on the server: the language is the path prefix (zh-TW has none). */
export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    findLocale: async (request) => languageFromPath(new URL(request.url).pathname)?.language ?? DEFAULT_LANGUAGE,
  },
  i18next: { ...i18nConfig, resources },
});
