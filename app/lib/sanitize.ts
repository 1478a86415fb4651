/**
 * Hotel-provided HTML (introductions, policies, promotion details) reduced to an allow-list before
 * it is rendered. Runs on Workers, so it cannot lean on a DOM: it tokenizes tags and rebuilds
 * only what is allowed. Text is re-escaped; unknown tags are dropped but their text is kept,
 * except inside script/style/iframe-like elements, whose content goes too.
 */
import { decodeEntities as decodeCharacterReferences } from "~/lib/entities";

const ALLOWED: Record<string, readonly string[]> = {
  p: [],
  br: [],
  strong: [],
  b: [],
  em: [],
  i: [],
  u: [],
  ul: [],
  ol: [],
  li: [],
  h3: [],
  h4: [],
  blockquote: [],
  span: [],
  a: ["href", "title"],
};
const VOID = new Set(["br"]);
const DROP_WITH_CONTENT = new Set([
  "script",
  "style",
  "iframe",
  "object",
  "embed",
  "template",
  "noscript",
  "textarea",
  "select",
  "svg",
  "math",
]);

function escapeText(text: string): string {
  return text
    .replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z]+);)/gi, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function decodeEntities(value: string): string {
  return value
    .replace(/&#(\d+);?/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);?/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&colon;/gi, ":")
    .replace(/&tab;|&newline;/gi, "")
    .replace(/&amp;/gi, "&");
}

/** Percent-decoded for checking only; a malformed escape is left as it is. */
function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * http(s), mailto, tel and same-site paths only; never javascript:, data: or protocol-relative.
 * Browsers read a backslash as a slash, so `/\evil.example`, `\/evil.example` and `\\evil.example`
 * are protocol-relative too, and so are their entity- and percent-encoded spellings.
 */
export function isSafeHref(raw: string): boolean {
  // Browsers ignore control characters and spaces inside a URL scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex
  const value = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  if (/^[/\\]{2}/.test(value) || value.startsWith("\\")) return false;
  // eslint-disable-next-line no-control-regex
  if (/^[/\\]{2}/.test(percentDecoded(value).replace(/[\u0000-\u0020\u007f-\u009f]/g, ""))) return false;
  if (/^(https?:|mailto:|tel:)/i.test(value)) return true;
  return !/^[a-z][a-z0-9+.-]*:/i.test(value);
}

/**
 * A link the hotel set for guests to follow (a banner's link): an http(s) URL or a path on this
 * site, else "". Stricter than isSafeHref: no mailto/tel, no relative or protocol-relative paths,
 * and no whitespace or control characters, which browsers drop ("/\t/evil.example").
 */
export function safeLink(raw: string): string {
  const value = raw.trim();
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f]/.test(value)) return "";
  if (/^\/(?![/\\])/.test(value)) return value;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : "";
  } catch {
    return "";
  }
}

function parseAttributes(source: string): [string, string][] {
  const out: [string, string][] = [];
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(source))) {
    out.push([match[1]!.toLowerCase(), match[2] ?? match[3] ?? match[4] ?? ""]);
  }
  return out;
}

export function sanitizeHtml(input: string | null | undefined): string {
  if (!input) return "";
  const html = input.replace(/<!--[\s\S]*?-->/g, "");
  const tag = /<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g;
  const open: string[] = [];
  let out = "";
  let last = 0;
  let dropping: string | null = null;
  let match: RegExpExecArray | null;
  while ((match = tag.exec(html))) {
    const text = html.slice(last, match.index);
    if (!dropping) out += escapeText(text);
    last = tag.lastIndex;
    const name = match[1]!.toLowerCase();
    const closing = match[0].startsWith("</");
    if (dropping) {
      if (closing && name === dropping) dropping = null;
      continue;
    }
    if (DROP_WITH_CONTENT.has(name)) {
      if (!closing && !match[0].endsWith("/>")) dropping = name;
      continue;
    }
    const allowed = ALLOWED[name];
    if (!allowed) continue;
    if (closing) {
      const index = open.lastIndexOf(name);
      if (index === -1) continue;
      // Close anything left open inside it, so the output is always well nested.
      while (open.length > index) out += `</${open.pop()}>`;
      continue;
    }
    let attributes = "";
    for (const [attribute, value] of parseAttributes(match[2] ?? "")) {
      if (!allowed.includes(attribute)) continue;
      if (attribute === "href" && !isSafeHref(value)) continue;
      attributes += ` ${attribute}="${escapeAttribute(decodeEntities(value))}"`;
    }
    if (name === "a" && attributes.includes("href")) {
      const external = /href="https?:/i.test(attributes);
      if (external) attributes += ' rel="noopener noreferrer nofollow" target="_blank"';
    }
    out += `<${name}${attributes}>`;
    if (!VOID.has(name)) open.push(name);
  }
  if (!dropping) out += escapeText(html.slice(last));
  while (open.length > 0) out += `</${open.pop()}>`;
  return out;
}

/** Allowed tags that end a line of text; the others (strong, a, span…) sit inside a word or sentence. */
const BLOCK_TAG = /<\/?(?:p|br|ul|ol|li|h3|h4|blockquote)\b[^>]*>/gi;
/** Block elements the sanitizer drops (keeping their text): their end still ends a line. */
const DROPPED_BLOCK_END = /<\/(?:div|h[1256])\s*>/gi;

/**
 * Plain text of hotel HTML, the one converter (issue 24): sanitized, tags gone, then character
 * references (`&eacute;`, `&nbsp;`, `&#8212;`) decoded once (issue 25 item 16; decision 100);
 * whoever writes the text escapes it once more for where it goes. On one line for meta
 * descriptions and structured data; with `lines`, each paragraph, list item or line break on its
 * own line, for the PDF and emails. A block boundary ends a line; an inline tag becomes nothing,
 * so "bath<strong>tub</strong>," reads "bathtub," and not "bath tub ,".
 */
export function htmlToText(input: string | null | undefined, options: { lines?: boolean } = {}): string {
  const lines = decodeCharacterReferences(
    sanitizeHtml((input ?? "").replace(DROPPED_BLOCK_END, "$&\n"))
      .replace(BLOCK_TAG, "\n")
      .replace(/<[^>]*>/g, ""),
  )
    .split("\n")
    .map((line) => line.replace(/[ \t\r\f]+/g, " ").trim())
    .filter(Boolean);
  return lines.join(options.lines ? "\n" : " ");
}
