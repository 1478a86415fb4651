/**
 * Character references in hotel text (`&eacute;`, `&check;`, `&nbsp;`, `&#8212;`, `&#x2014;`)
 * decoded to the characters they stand for, in one pass, so `&amp;lt;` reads `&lt;` and never `<`
 * (issue 25 item 16), the way a browser reads them in text (decision 143): every HTML5 name; the
 * legacy names without their semicolon too (`&eacute`, `&copy`; `&notit;` reads "¬it;"); numbers
 * with 128–159 as Windows-1252 and 0, surrogates and numbers past U+10FFFF as U+FFFD; anything else
 * (`&bogus;`, a bare `&`) left as it is.
 *
 * On the server the `entities` package decodes; in a browser (a client navigation renders hotel
 * text and meta too) the page's own HTML parser does, and the package is not shipped.
 */
import { decodeHTML } from "./entities-decoder.server";

/** A browser's reading of text: a textarea's content is text only (RCDATA), no element is made. */
function decodeInBrowser(text: string): string {
  const textarea = document.createElement("textarea");
  textarea.innerHTML = text;
  return textarea.value;
}

/** The text with each character reference replaced by its character; once, never twice. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return typeof document === "undefined" ? decodeHTML(text) : decodeInBrowser(text);
}
