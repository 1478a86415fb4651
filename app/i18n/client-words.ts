/**
 * The words of the page in the browser (decision 144). A hydrating page carries only its own
 * components' words; before the first client navigation to another page (whose components may
 * need any word), the rest of the language's catalogue is fetched once, beside that page's data,
 * and laid into the same tables the page's translator reads, so the new page renders with them.
 */
import { localizePath, isLanguage } from "./languages";
import type { Messages } from "./translate";

let words: Messages = {};
let complete = true;
let loading: Promise<void> | null = null;

/** The page's words as it carried them (entry.client), and whether they are the whole catalogue. */
export function keepPageWords(messages: Messages, whole: boolean): Messages {
  words = messages;
  complete = whole;
  return words;
}

/** Does the page still lack part of the catalogue? */
export function wordsMissing(): boolean {
  return !complete;
}

/** Fetches the whole catalogue of `lang` once and adds it to the page's tables. */
export function loadAllWords(lang: string): Promise<void> {
  if (complete) return Promise.resolve();
  loading ??= fetch(isLanguage(lang) ? localizePath("/words.json", lang) : "/words.json", { credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) throw new Error(`words: ${response.status}`);
      return response.json() as Promise<Messages>;
    })
    .then((all) => {
      for (const [ns, table] of Object.entries(all)) words[ns] = Object.assign(words[ns] ?? {}, table);
      complete = true;
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}
