/**
 * Which words a hydrating page carries to the browser (decision 144). A page's HTML holds the
 * words its own components can show — those of the root and the site layout, and those its route
 * lists in `handle.words` — not the whole catalogue: the booking results page showed about a
 * quarter of it. The first client navigation to another page fetches the rest once (./client-words).
 * `test/unit/page-words.test.ts` reads every component a hydrating route imports and fails when
 * one uses a key its page does not carry.
 *
 * A word list names keys by their first segments: "cart" is every `cart.…` key (with its plural
 * and unit forms), "cart.rooms" every `cart.rooms…` key; "facility:" is the whole facility namespace.
 */
import type { Messages } from "./translate";

export type WordList = readonly string[];

/**
 * The root's and the site layout's words: header, menu, footer, banners, the error and 404 pages.
 * Not the content pages' own words (news, follow, facilities): those pages do not hydrate, and a
 * client navigation to one fetches the whole catalogue first (decision 161).
 */
export const SHELL_WORDS: WordList = [
  "language_name",
  "skip_to_content",
  "preparation_banner",
  "test_mode_banner",
  "nav",
  "member",
  "footer",
  "error",
  "not_found",
  "form",
  "loading",
  "room",
];

/** Does `key` of namespace `ns` belong to the list? */
export function inWordList(list: WordList, ns: string, key: string): boolean {
  return list.some((entry) =>
    entry.endsWith(":")
      ? entry === `${ns}:`
      : ns === "common" && (key === entry || key.startsWith(`${entry}.`) || key.startsWith(`${entry}_`)),
  );
}

/** The messages of the list, namespace by namespace (namespaces with none left out). */
export function pickWords(messages: Messages, list: WordList): Messages {
  const picked: Messages = {};
  for (const [ns, table] of Object.entries(messages)) {
    const words = Object.fromEntries(Object.entries(table).filter(([key]) => inWordList(list, ns, key)));
    if (Object.keys(words).length > 0) picked[ns] = words;
  }
  return picked;
}
