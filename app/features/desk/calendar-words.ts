/** The desk calendar's words (locales/<lng>/desk-calendar.json): `useCalendarWords` in components, `calendarWord` on the server. */
import { useTranslation } from "~/i18n/react";
import type { Language } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { fillPlaceholders } from "~/i18n/translate";

type CalendarKey = keyof (typeof resources)["en-US"]["desk-calendar"];

export function useCalendarWords() {
  const { t } = useTranslation();
  return (key: string, values: Record<string, string | number> = {}) => t(key, { ...values, ns: "desk-calendar" });
}

export function calendarWord(lang: Language, key: CalendarKey, values: Record<string, string | number> = {}): string {
  return fillPlaceholders(resources[lang]["desk-calendar"][key] ?? key, values);
}
