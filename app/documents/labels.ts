/** The words of the confirmation PDF and the emails (locales/<lng>/documents.json, through serverText: decision 094), for the site and the back end alike. */
import { isLanguage, DEFAULT_LANGUAGE, type Language } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { formatCapacity } from "~/i18n/format";
import { createTranslator } from "~/i18n/translate";
import { paidWithLabelKeys } from "~/domain/payments";
import type { LodgingUnit } from "~/domain/units";
import { serverText, type ServerKey, type TextParams } from "~/i18n/server-text";

export type DocumentKey = ServerKey<"documents">;

export function documentLanguage(lang: string): Language {
  return isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}

/**
 * A document's text in `lang`; for a hotel that sells sites (or whole units), the `<key>.<unit>`
 * words stand in for the room words when the catalogue has them (decision 085), as on the pages.
 */
export function docText(lang: Language, key: DocumentKey, params: TextParams = {}, unit: LodgingUnit = "room"): string {
  return serverText(lang, "documents", unit !== "room" ? [`${key}.${unit}`, key] : key, params);
}

/** How an order is paid, in words: the method, and the vendor when it is not implied by it. */
export function paymentText(lang: Language, method: string, vendor: number, paidWith = ""): string {
  const common: Record<string, string> = resources[lang].common;
  return paidWithLabelKeys(method, vendor, paidWith)
    .map((key) => common[key] ?? key)
    .join(" · ");
}

/** The party as the pages count it ("2 adults · 1 child", plurals by the language): one formatter for pages, emails and the PDF. */
export function partyText(lang: Language, adults: number, children: number): string {
  return formatCapacity(createTranslator(lang, resources[lang]), adults, children);
}
