/**
 * The translator pages render with, on the server and in the browser alike. It does what our
 * locale files use of i18next — flat keys, a second namespace, `{{name}}` interpolation, plurals
 * by `count` (`_zero`/`_one`/`_other`… suffixes, as i18next's JSON v4) and `defaultValue` — in a
 * few hundred bytes, so hydrating pages do not carry i18next in their JavaScript (design.md,
 * performance budgets). The server's own text (./server-text) fills placeholders with the same code.
 * Loaders and meta keep i18next through remix-i18next; a unit test holds the two to the same
 * output for every key of every locale file and language (decisions 011, 144).
 */
import { pluralRules } from "./format";
import { resolveParticles } from "./korean";

export type Messages = Record<string, Record<string, string>>;

export type TranslateOptions = {
  ns?: string;
  count?: number;
  defaultValue?: string;
  [name: string]: unknown;
};

export type Translate = (key: string, options?: TranslateOptions) => string;

const DEFAULT_NAMESPACE = "common";
const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

/**
 * `text` with its `{{name}}` placeholders filled from `values`. A placeholder given no value stays
 * as written (the pages, as i18next's default), or reads as `missing` when one is given (the
 * server's text, decision 094).
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, unknown>>, missing?: string): string {
  if (!text.includes("{{")) return text;
  return text.replace(PLACEHOLDER, (match, name: string) => {
    const value = values[name];
    return value === undefined || value === null ? (missing ?? match) : String(value);
  });
}

/** What every translator does last to a message of `lang`: Korean particles (decision 087). */
export function finishing(lang: string): (text: string) => string {
  return lang === "ko-KR" ? resolveParticles : (text: string) => text;
}

export function createTranslator(lang: string, messages: Messages): Translate {
  const plurals = pluralRules(lang);
  const finish = finishing(lang);
  return (key, options = {}) => {
    const table = messages[options.ns ?? DEFAULT_NAMESPACE] ?? {};
    let text: string | undefined;
    if (typeof options.count === "number") {
      if (options.count === 0) text = table[`${key}_zero`];
      text ??= table[`${key}_${plurals.select(options.count)}`];
    }
    text ??= table[key] ?? options.defaultValue ?? key;
    return finish(fillPlaceholders(text, options));
  };
}
