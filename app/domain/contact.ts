/**
 * What a guest may type into the booking form's text fields (docs/decisions/017). Pure and free of
 * imports: the checkout form and the built-in back end apply the same rules.
 */

/**
 * Control characters (C0, DEL, C1): never part of a name, address or note, and trouble wherever
 * the text goes next (emails, the hotel's PMS, CSV exports, logs). A multi-line note keeps its line
 * breaks and tabs.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Longest reason a guest may give for cancelling (a note: the form and the API alike). */
export const CANCEL_REASON_MAX_LENGTH = 500;

export function hasControlCharacters(text: string, options: { multiline?: boolean } = {}): boolean {
  return (options.multiline ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL).test(text);
}

/**
 * Bidirectional formatting controls: the embeddings and overrides (U+202A–U+202E), the isolates
 * (U+2066–U+2069) and the marks (U+200E, U+200F, U+061C). Invisible, and a right-to-left override
 * in a name reverses whatever is shown after it (issue 22: the phone and email on the order page).
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/**
 * The one rule of what a person's name may contain, at every entry that takes one (checkout's
 * booker and occupants, the order API, sign-up, the hotel file's members; decision 052): no
 * control character (C0, DEL, C1, line and paragraph separators) and no bidirectional control.
 */
export function isCleanName(text: string): boolean {
  return !hasControlCharacters(text) && !BIDI_CONTROLS.test(text);
}

/** A URL scheme (`https://`, `hxxp://`, `mailto:`, `javascript:`…). */
const SCHEME = /[a-z][a-z0-9+.-]*:\/\/|(?:^|[^\p{L}\p{N}])(?:mailto|javascript|data|tel|sms|file):/iu;
const WWW = /(?:^|[^\p{L}\p{N}])www\d{0,3}\./iu;
/**
 * A domain-like word: a label, a dot, and a top-level domain that guests' mail programs and
 * chat apps turn into a link (`evil.example`, `pay-now.com`, `bit.ly`). Not any word with a dot:
 * initials (`J.R.R.`) and titles (`Mr. Li`) are names.
 */
const DOMAIN =
  /[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.(?:com|net|org|info|biz|io|co|me|app|dev|xyz|top|site|online|shop|store|club|link|click|live|pro|tv|cc|ly|gl|gg|ai|to|tw|cn|hk|mo|jp|kr|uk|us|ru|de|fr|eu|ca|au|nz|sg|my|th|vn|ph|id|br|mx|nl|pl|ch|se|zip|mov|page|cloud|example|test|invalid|onion|xn--[a-z0-9-]+)(?![\p{L}\p{N}])/iu;

/**
 * Whether text holds a link or something a mail program would make one: a scheme, `www.`, or a
 * domain-like word, also when written with full-width or ideographic dots and letters. A person's
 * name never does (decision 072): a name is shown in the hotel's own emails, and a link there
 * turns them into a phishing relay.
 */
export function hasLink(text: string): boolean {
  const plain = text.normalize("NFKC").replace(/[\u3002\uFF61\uFF0E]/g, ".");
  return SCHEME.test(plain) || WWW.test(plain) || DOMAIN.test(plain);
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSHOWABLE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A stored name as it may be shown: without the characters `isCleanName` refuses. Names taken
 * before that rule may still hold them; shown, they are invisible, and a bidirectional one would
 * reorder what follows.
 */
export function nameForDisplay(name: string): string {
  return name.replace(UNSHOWABLE, "");
}

/**
 * A name inside plain text (an email): first-strong isolate … pop directional isolate around it,
 * the text equivalent of `<bdi>`, so even a right-to-left name cannot carry the phone number or
 * the words after it into its own direction. A name stored before names refused links (decision
 * 072) is defanged: its dots, colons, slashes and at signs become look-alikes no mail program
 * makes a link of.
 */
export function isolatedName(name: string): string {
  const shown = nameForDisplay(name);
  return `\u2068${hasLink(shown) ? defanged(shown) : shown}\u2069`;
}

/** Text no mail program turns into a link: "evil.example/x" → "evil·example∕x". */
export function defanged(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[.\u3002\uFF61]/g, "\u00B7")
    .replace(/:/g, "\uA789")
    .replace(/\//g, "\u2215")
    .replace(/@/g, " (at) ");
}

/**
 * A phone number as guests write one anywhere: an optional +country code, an optional (area code),
 * then digit groups separated by single spaces or hyphens; 7 to 15 digits in all (E.164's most).
 */
const PHONE_SHAPE = /^(?:\+\d{1,4}[ -]?)?(?:\(\d{1,5}\)[ -]?)?\d+(?:[ -]\d+)*$/;
/** A date typed into the phone field (2026-12-10, 10-12-2026): the shape is a phone's, the meaning is not. */
const DATE_SHAPE = /^(?:\d{4}[ -]\d{1,2}[ -]\d{1,2}|\d{1,2}[ -]\d{1,2}[ -]\d{4})$/;
export const PHONE_MAX_LENGTH = 25;

export function isPhoneNumber(text: string): boolean {
  if (text.length > PHONE_MAX_LENGTH || !PHONE_SHAPE.test(text) || DATE_SHAPE.test(text)) return false;
  const digits = text.replace(/\D/g, "").length;
  return digits >= 7 && digits <= 15;
}
