import { DEFAULT_LANGUAGE, LANGUAGES } from "./languages";

/** Shared i18next settings for the server and the (hydrating) client. */
export const i18nConfig = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "common",
  // Keys contain dots ("nav.home") but are flat in the JSON files.
  keySeparator: false,
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
} as const;
