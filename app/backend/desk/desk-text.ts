/** The desk's words (locales/<lng>/desk.json) for what the back end writes itself: the invitation email. */
import type { Language } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { createTranslator } from "~/i18n/translate";

export function deskText(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  return createTranslator(lang, { desk: resources[lang].desk })(key, { ...params, ns: "desk" });
}
