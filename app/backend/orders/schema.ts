/** What an order payload may hold (spec §3 order payload), its idempotency key and its number. */
import * as v from "valibot";
import { CONTACT_LIMITS, contactSchemas } from "~/domain/contact-fields";
import { MAX_GUESTS } from "~/domain/stay";
import { PAYMENT_METHODS } from "~/domain/payments";
import { ApiError } from "~/backend/http.server";
import { WholeNumber } from "~/backend/pricing/stay.server";

// Text fields refuse control characters; names bidirectional controls too (decision 052); notes keep their line breaks (docs/decisions/017).
const contact = contactSchemas({
  required: "is required",
  tooLong: "is too long",
  controlCharacters: "contains control characters",
  link: "contains a web address",
  phone: "is not a phone number",
  email: "is not an email address",
  companyRegNumber: "is not a company registration number",
});

export const Note = contact.note;

export const OrderPayload = v.object({
  domain: v.string(),
  ...contact.booker,
  booker_name: contact.fullName(101),
  booking_from: v.optional(v.literal("HXA"), "HXA"),
  check_in_day: v.string(),
  check_out_day: v.string(),
  pay_way: v.picklist(PAYMENT_METHODS),
  payment_vendor: WholeNumber(1, 15),
  pay_option: v.optional(v.picklist(["all", "part"]), "all"),
  point_used: v.optional(v.union([v.number(), v.string()]), 0),
  point_cost: v.optional(v.unknown()),
  coupon_array: v.optional(v.pipe(v.array(contact.coupon), v.maxLength(1)), []),
  orders: v.pipe(v.array(v.looseObject({})), v.minLength(1), v.maxLength(20)),
  rail_item_list: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(10)), []),
  room_attachment_detail: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(50)), []),
  room_attachment_exist: v.optional(v.boolean(), false),
  adults_count: WholeNumber(1, MAX_GUESTS),
  children_count: v.optional(WholeNumber(0, MAX_GUESTS), 0),
  idempotency_key: v.optional(v.string()),
  /** A pass of /api/captcha/verify for "order", when the limits asked for one (decision 072). */
  captcha_pass: v.optional(v.pipe(v.string(), v.maxLength(400)), ""),
  /**
   * How the guest receives the e-invoice (decision 159), where Portico issues it: the kind and what
   * it needs; a company's 統一編號 and name are `company_reg_number` and `company_name`. Checked by
   * validateBuyer in createOrder. None: the provider's member carrier by the booker's email.
   */
  invoice: v.optional(
    v.object({
      kind: v.pipe(v.string(), v.maxLength(20)),
      carrier: v.optional(v.pipe(v.string(), v.maxLength(20)), ""),
      carrier_code: v.optional(v.pipe(v.string(), v.maxLength(40)), ""),
      love_code: v.optional(v.pipe(v.string(), v.maxLength(20)), ""),
      company_address: v.optional(v.pipe(v.string(), v.maxLength(200)), ""),
      /**
       * The code the guest was told the provider does not know (409 invoice_barcode_unknown or
       * invoice_love_code_unknown, decision 166): placed again with it, the order is not advised again.
       */
      advised_code: v.optional(v.pipe(v.string(), v.maxLength(40)), ""),
    }),
  ),
});

export const Occupant = v.object({
  ...contact.occupant,
  memo: Note(CONTACT_LIMITS.occupantMemo),
});

/** Idempotency-Key header (IETF draft: an sf-string, so it may arrive quoted). */
export function idempotencyKeyOf(request: Request, bodyKey: string | undefined): string | null {
  const raw = request.headers.get("idempotency-key") ?? bodyKey ?? null;
  if (raw === null) return null;
  const key = raw.trim().replace(/^"(.*)"$/, "$1");
  if (!/^[A-Za-z0-9_.:-]{8,128}$/.test(key)) throw new ApiError(400, "idempotency_key_invalid", {}, "Idempotency-Key");
  return key;
}

const ORDER_DOC_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Order numbers: PT + hotel-local date + six random characters (not secrets; links are signed). */
export function newOrderDoc(today: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  const suffix = [...bytes].map((byte) => ORDER_DOC_ALPHABET[byte % ORDER_DOC_ALPHABET.length]).join("");
  return `PT${today.replace(/-/g, "").slice(2)}-${suffix}`;
}

export const DocParam = v.pipe(v.string(), v.regex(/^[A-Z0-9-]{4,40}$/));
