/**
 * The booker and occupant fields as schemas: one definition of what a name, phone, email, note or
 * company number may be, for the checkout form (messages are translation keys) and the built-in
 * back end (messages are its own). Imported only by server modules, so valibot stays out of the
 * pages' JavaScript.
 */
import * as v from "valibot";
import { hasControlCharacters, hasLink, isCleanName, isPhoneNumber, PHONE_MAX_LENGTH } from "~/domain/contact";

/** The longest each field may be (characters). */
export const CONTACT_LIMITS = {
  name: 50,
  email: 254,
  phone: PHONE_MAX_LENGTH,
  memo: 500,
  companyName: 100,
  occupantName: 100,
  occupantMemo: 200,
  coupon: 40,
} as const;

export interface ContactMessages {
  required: string;
  tooLong: string;
  controlCharacters: string;
  /** A name holding a link (decision 072); the site's forms default to the key `form.error.name_link`. */
  link?: string;
  phone: string;
  email: string;
  companyRegNumber: string;
}

/**
 * A person's name, wherever one is typed: trimmed, `max` characters at most, and `isCleanName`
 * (no control or bidirectional control characters; decision 052). Required unless `optional`.
 */
export function personName(
  messages: Pick<ContactMessages, "required" | "tooLong" | "controlCharacters" | "link">,
  max: number = CONTACT_LIMITS.name,
) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, messages.required),
    v.maxLength(max, messages.tooLong),
    v.check(isCleanName, messages.controlCharacters),
    v.check((text: string) => !hasLink(text), messages.link ?? NAME_LINK_KEY),
  );
}

/** The site's translation key for a name holding a link, when a form's messages name none. */
export const NAME_LINK_KEY = "form.error.name_link";

/** An optional name (an occupant's): empty, or a name by the same rule. */
export function optionalPersonName(messages: Pick<ContactMessages, "tooLong" | "controlCharacters" | "link">, max: number) {
  return v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(max, messages.tooLong),
      v.check(isCleanName, messages.controlCharacters),
      v.check((text: string) => !hasLink(text), messages.link ?? NAME_LINK_KEY),
    ),
    "",
  );
}

export function contactSchemas(messages: ContactMessages) {
  const singleLine = v.check((text: string) => !hasControlCharacters(text), messages.controlCharacters);
  const multiLine = v.check((text: string) => !hasControlCharacters(text, { multiline: true }), messages.controlCharacters);
  /** Optional single-line text. */
  const text = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, messages.tooLong), singleLine), "");
  /** Optional text that keeps its line breaks. */
  const note = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, messages.tooLong), multiLine), "");
  const name = personName(messages);
  const phone = v.pipe(v.string(), v.trim(), v.check(isPhoneNumber, messages.phone));
  const email = v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, messages.required),
    v.email(messages.email),
    v.maxLength(CONTACT_LIMITS.email, messages.tooLong),
  );
  const coupon = v.pipe(v.string(), v.trim(), v.maxLength(CONTACT_LIMITS.coupon, messages.tooLong), singleLine);
  const booker = {
    booker_last_name: name,
    booker_first_name: name,
    booker_phone: phone,
    booker_email: email,
    memo: note(CONTACT_LIMITS.memo),
    company_name: text(CONTACT_LIMITS.companyName),
    company_reg_number: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^(\d{8})?$/, messages.companyRegNumber)), ""),
  };
  /** The guest staying in a line's rooms (spec §3 order line): all optional, checked when given. */
  const occupant = {
    occupant_name: optionalPersonName(messages, CONTACT_LIMITS.occupantName),
    occupant_phone: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check((value: string) => value === "" || isPhoneNumber(value), messages.phone),
      ),
      "",
    ),
    occupant_email: v.optional(v.union([v.literal(""), email], messages.email), ""),
  };
  /** A whole name in one field (the order API's booker_name). */
  const fullName = (max: number) => optionalPersonName(messages, max);
  return { text, note, name, fullName, phone, email, coupon, booker, occupant };
}
