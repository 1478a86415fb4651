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
