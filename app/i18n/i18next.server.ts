import { RemixI18Next } from "remix-i18next/server";
import { i18nConfig } from "./config";
import { DEFAULT_LANGUAGE, LANGUAGES, languageFromPath, type Language } from "./languages";
import { resources } from "./resources";
import { koreanParticles } from "./korean";

/** Translations on the server: the language is the path prefix (zh-TW has none). */
export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    findLocale: async (request) => languageFromPath(new URL(request.url).pathname)?.language ?? DEFAULT_LANGUAGE,
  },
  i18next: { ...i18nConfig, resources },
  plugins: [koreanParticles],
});

const fixedTs = new Map<string, ReturnType<typeof i18nServer.getFixedT>>();

/**
 * A loader's translator for `lang`. remix-i18next builds a new i18next instance on every
 * getFixedT; its translations never change while the Worker runs, so each language's is built
 * once and shared.
 */
export function fixedT(lang: Language): ReturnType<typeof i18nServer.getFixedT> {
  let t = fixedTs.get(lang);
  if (!t) {
    t = i18nServer.getFixedT(lang);
    fixedTs.set(lang, t);
    t.catch(() => fixedTs.delete(lang));
  }
  return t;
}
