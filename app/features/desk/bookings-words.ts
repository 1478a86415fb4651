/** The desk's booking pages' words (locales/<lng>/desk-bookings.json): `useBookingWords` in components, `bookingWord` on the server (CSV headers). */
import { useTranslation } from "~/i18n/react";
import type { Language } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { fillPlaceholders } from "~/i18n/translate";

type BookingKey = keyof (typeof resources)["en-US"]["desk-bookings"];

export function useBookingWords() {
  const { t } = useTranslation();
  return (key: string, values: Record<string, string | number> = {}) => t(key, { ...values, ns: "desk-bookings" });
}

export function bookingWord(lang: Language, key: BookingKey, values: Record<string, string | number> = {}): string {
  return fillPlaceholders(resources[lang]["desk-bookings"][key] ?? key, values);
}
