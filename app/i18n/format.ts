import type { Language } from "./languages";

/**
 * Intl formatters cost far more to build than to use (a booking page formats hundreds of prices
 * and dates): each is built once per language and options and kept, as they never change.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();

/** The kept object under `key`, built the first time (a throwing build keeps nothing). */
function kept<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(key: string, build: () => T): T {
  let value = formatters.get(key) as T | undefined;
  if (!value) formatters.set(key, (value = build()));
  return value;
}

/** `name` stands for the options (one name, one set of options): cheaper than serializing them per call. */
function numberFormat(lang: string, name: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return kept(`n|${lang}|${name}`, () => new Intl.NumberFormat(lang, options));
}

/** Throws as Intl does for an unknown time zone (nothing is kept then). */
export function dateTimeFormat(lang: string, name: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return kept(`d|${lang}|${name}`, () => new Intl.DateTimeFormat(lang, options));
}

/** The language's plural rules (the translator picks `_one`/`_other`… keys with them). */
export function pluralRules(lang: string): Intl.PluralRules {
  return kept(`p|${lang}`, () => new Intl.PluralRules(lang));
}

const PRICE: Intl.NumberFormatOptions = { style: "currency", currency: "TWD", maximumFractionDigits: 0, minimumFractionDigits: 0 };

/** A TWD amount for the guest's language: "NT$3,200" in English, "$3,200" in Taiwan… */
export function formatPrice(amount: number, lang: Language): string {
  return numberFormat(lang, "price", PRICE).format(amount);
}

/** A hotel-local date (YYYY-MM-DD) for the guest's language, never shifted by time zones. */
export function formatDate(date: string, lang: Language, style: "medium" | "long" | "short" = "medium"): string {
  const [year, month, day] = date.split("-").map(Number);
  if (!year || !month || !day) return date;
  return dateTimeFormat(lang, `date-${style}`, { dateStyle: style, timeZone: "UTC" }).format(new Date(Date.UTC(year, month - 1, day)));
}

export function formatMonth(date: string, lang: Language): string {
  const [year, month] = date.split("-").map(Number);
  return dateTimeFormat(lang, "month", { year: "numeric", month: "long", timeZone: "UTC" }).format(new Date(Date.UTC(year ?? 2000, (month ?? 1) - 1, 1)));
}

/** "2 adults · 1 child" (children left out when a room takes none), with each language's plural forms. */
export function formatCapacity(t: (key: string, options: { count: number }) => string, adults: number, children: number): string {
  const parts = [t("room.adults", { count: adults })];
  if (children > 0) parts.push(t("room.children", { count: children }));
  return parts.join(" · ");
}

/** A country as the guest reads it: an ISO 3166 code ("TW") in the guest's language; other text as given. */
export function formatCountry(country: string, lang: Language): string {
  if (!/^[A-Za-z]{2}$/.test(country)) return country;
  try {
    return new Intl.DisplayNames([lang], { type: "region", fallback: "code" }).of(country.toUpperCase()) ?? country;
  } catch {
    return country;
  }
}

/** An instant (ISO) as a date and time in the hotel's time zone, for the guest's language. */
export function formatDateTime(instant: string, lang: Language, timeZone: string): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return instant;
  try {
    return dateTimeFormat(lang, `date-time ${timeZone}`, { dateStyle: "medium", timeStyle: "short", timeZone }).format(at);
  } catch {
    return dateTimeFormat(lang, "date-time Asia/Taipei", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Taipei" }).format(at);
  }
}
