import { DEFAULT_LANGUAGE, LANGUAGES } from "./languages";

/** i18next settings for translations in loaders and meta (remix-i18next); pages render with ./translate. */
export const i18nConfig = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "common",
  // Keys contain dots ("nav.home") but are flat in the JSON files.
  keySeparator: false,
  interpolation: { escapeValue: false },
  // Korean particles chosen from the word before them (./korean.ts), as the page translator does.
  postProcess: ["koreanParticles"],
} as const;
