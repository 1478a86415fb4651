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
 * the words after it into its own direction.
 */
export function isolatedName(name: string): string {
  return `\u2068${nameForDisplay(name)}\u2069`;
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
