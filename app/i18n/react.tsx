import { createContext, useContext, useMemo, type ReactNode } from "react";
import { DEFAULT_LANGUAGE } from "./languages";
import { createTranslator, type Messages, type Translate } from "./translate";

type Translation = { t: Translate; i18n: { language: string } };

const TranslationContext = createContext<Translation>({
  t: createTranslator(DEFAULT_LANGUAGE, {}),
  i18n: { language: DEFAULT_LANGUAGE },
});

/** Gives every component below the page's language and its messages (entry.server and entry.client). */
export function TranslationProvider({ lang, messages, children }: { lang: string; messages: Messages; children: ReactNode }) {
  const value = useMemo(() => ({ t: createTranslator(lang, messages), i18n: { language: lang } }), [lang, messages]);
  return <TranslationContext.Provider value={value}>{children}</TranslationContext.Provider>;
}

/** `const { t } = useTranslation()`, as with react-i18next. */
export function useTranslation(): Translation {
  return useContext(TranslationContext);
}
