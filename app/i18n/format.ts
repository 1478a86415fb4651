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

const AMOUNT: Intl.NumberFormatOptions = { maximumFractionDigits: 0, minimumFractionDigits: 0 };

/**
 * THE money format (decision 090): a TWD amount as "NT$3,200" in every language, on pages, emails,
 * the PDF and the test gateway; "-NT$3,200" below zero. (Intl's TWD symbol is "$" in zh-TW, which a
 * guest from abroad reads as US dollars.)
 */
export function formatPrice(amount: number, lang: Language | string): string {
  const digits = numberFormat(lang, "amount", AMOUNT).format(Math.abs(amount));
  return `${amount < 0 ? "-" : ""}NT$${digits}`;
}

/** A count (of points, say) grouped as the language groups it: "1,000". */
export function formatCount(count: number, lang: Language | string): string {
  return numberFormat(lang, "amount", AMOUNT).format(count);
}

/**
 * A percentage as the language writes it: "70%" in English and in Chinese, Japanese and Korean
 * (never "70 %"). Every message with a {{percent}} gets it from here and writes no sign of its own.
 */
export function formatPercent(percent: number, lang: Language | string): string {
  return numberFormat(lang, "percent", { style: "percent", maximumFractionDigits: 1 }).format(percent / 100);
}

/**
 * THE date style (issue 25 item 14; decision 088): one per language, on every page, email and the
 * PDF — the date with its weekday, as each language writes it: "Fri, Dec 18, 2026",
 * "2026年12月18日週五", "2026年12月18日(金)", "2026년 12월 18일 (금)". Stay dates are hotel-local
 * days (YYYY-MM-DD, or the day of a "YYYY-MM-DD hh:mm" time), never shifted by time zones.
 */
export function formatDate(date: string, lang: Language | string): string {
  const [year, month, day] = date.slice(0, 10).split("-").map(Number);
  if (!year || !month || !day) return date;
  return dayOf(new Date(Date.UTC(year, month - 1, day)), lang, "UTC");
}

/**
 * The CJK date styles, assembled from the date's numbers and weekday name rather than taken whole
 * from Intl: the ICU data of the Worker and of the guest's browser differ in spacing ("2026年11月24日
 * 週二" against "2026年11月24日週二"), which made hydrated pages differ from the server's.
 */
const CJK_DAY: Readonly<Record<string, (year: string, month: string, day: string, weekday: string) => string>> = {
  "zh-TW": (y, m, d, w) => `${y}年${m}月${d}日${w}`,
  "zh-CN": (y, m, d, w) => `${y}年${m}月${d}日${w}`,
  "ja-JP": (y, m, d, w) => `${y}年${m}月${d}日(${w})`,
  // Korean sets the weekday apart in brackets, as Japanese does ("2026년 12월 18일 (금)").
  "ko-KR": (y, m, d, w) => `${y}년 ${m}월 ${d}일 (${w})`,
};

function dayOf(at: Date, lang: string, timeZone: string): string {
  const cjk = CJK_DAY[lang];
  if (!cjk)
    return dateTimeFormat(lang, `day ${timeZone}`, { year: "numeric", month: "short", day: "numeric", weekday: "short", timeZone }).format(
      at,
    );
  const parts = dateTimeFormat(lang, `day-parts ${timeZone}`, {
    year: "numeric",
    month: "numeric",
    day: "numeric",
    weekday: "short",
    timeZone,
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    (parts.find((entry) => entry.type === type)?.value ?? "").replace(/[^\p{L}\p{N}]/gu, "");
  return cjk(part("year"), part("month"), part("day"), part("weekday"));
}

export function formatMonth(date: string, lang: Language): string {
  const [year, month] = date.split("-").map(Number);
  return dateTimeFormat(lang, "month", { year: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(Date.UTC(year ?? 2000, (month ?? 1) - 1, 1)),
  );
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

/**
 * An instant (ISO) — a deadline, a time something happened — in the hotel's time zone, in the one
 * date style, a 24-hour time and the zone named (issue 25 item 15): "Tue, Nov 24, 2026 19:50 (Taiwan
 * Standard Time)", "2026年11月24日(火) 19:50（台湾標準時）", so a guest elsewhere knows whose clock it is.
 */
export function formatDateTime(instant: string, lang: Language | string, timeZone: string): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return instant;
  let zone = timeZone;
  try {
    dateTimeFormat(lang, `zone ${zone}`, { timeZone: zone, timeZoneName: "long" });
  } catch {
    zone = "Asia/Taipei";
  }
  const time = dateTimeFormat(lang, `time ${zone}`, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone }).format(at);
  const zoneName =
    dateTimeFormat(lang, `zone ${zone}`, { timeZone: zone, timeZoneName: "long" })
      .formatToParts(at)
      .find((part) => part.type === "timeZoneName")?.value ?? zone;
  const fullWidth = lang === "zh-TW" || lang === "zh-CN" || lang === "ja-JP";
  return `${dayOf(at, lang, zone)} ${time}${fullWidth ? `（${zoneName}）` : ` (${zoneName})`}`;
}
