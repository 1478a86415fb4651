/**
 * The checkout form's rules: its schema and the occupants', the promotion and points it names, the
 * extras it asks for that cannot be priced, and the first message for each field.
 */
import * as v from "valibot";
import { contactSchemas } from "~/domain/contact-fields";
import { PAYMENT_CHOICE_PATTERN } from "~/domain/payments";
import { MEMBER_PROMOTION_CODE } from "~/domain/pricing";
import { addonChoicesOf, addonsOverLeft, type AddonGroup } from "~/features/addons/addons";

export type Values = Record<string, string>;

const contact = contactSchemas({
  required: "form.error.required",
  tooLong: "form.error.too_long",
  controlCharacters: "form.error.control_characters",
  phone: "form.error.phone",
  email: "form.error.email",
  companyRegNumber: "form.error.company_reg_number",
});

export const CheckoutForm = v.object({
  ...contact.booker,
  payment: v.pipe(v.string("form.error.payment"), v.regex(PAYMENT_CHOICE_PATTERN, "form.error.payment")),
  pay_option: v.optional(v.picklist(["all", "part"], "form.error.pay_option"), "all"),
  coupon_code: v.optional(contact.coupon, ""),
  member_promotion: v.optional(v.picklist(["", "1"], "form.error.coupon"), ""),
  points: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^\d{0,7}$/, "form.error.points")), ""),
  checkout_key: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,64}$/, "form.error.expired")),
  /** The amount the page showed as due now when the guest placed the booking; none when it showed no price. */
  due_now: v.optional(v.string(), ""),
});
export const Occupant = v.object(contact.occupant);
const OCCUPANT_FIELDS = ["occupant_name", "occupant_phone", "occupant_email"] as const;

/** What the guest chose among the promotions: a coupon, or the members-only code (which replaces it). */
export function promotionOf(values: Record<string, string | undefined>): string | undefined {
  if (values.member_promotion === "1") return MEMBER_PROMOTION_CODE;
  return values.coupon_code?.trim() || undefined;
}

/** Points to use: "" is none; anything but a whole number of 0 or more is refused. */
export function pointsOf(values: Record<string, string | undefined>): number | null {
  const raw = (values.points ?? "").trim();
  if (raw === "") return 0;
  return /^\d{1,7}$/.test(raw) ? Number(raw) : null;
}

/** Points the guest cannot use: not a whole number of 0 or more, or more than the member holds. */
export function pointsError(points: number | null, member: { points: number } | null) {
  return points === null ? "form.error.points" : points > 0 && member && points > member.points ? "form.error.points_balance" : null;
}

/**
 * The extras the form asks for beyond what is left for the stay, each on its field with a message
 * naming the item and how many are left, in the guest's language.
 */
export function addonLeftErrors(
  values: Record<string, string | undefined>,
  groups: readonly AddonGroup[],
  t: (key: string, params?: Record<string, unknown>) => string,
): Record<string, string> {
  return Object.fromEntries(
    addonsOverLeft(values, groups).map(({ field, name, left }) => [
      field,
      left === 0 ? t("checkout.error.addon_sold_out", { name }) : t("checkout.error.addon_left", { name, count: left }),
    ]),
  );
}

/**
 * The extras fields that cannot be priced as they are: not a whole number 0-100, or more than are
 * left. No price is shown while there is one: a price without the extra would not be what placing
 * the booking charges (issue 37 item 11).
 */
export function addonErrorsOf(
  values: Record<string, string | undefined>,
  groups: readonly AddonGroup[],
  t: (key: string, params?: Record<string, unknown>) => string,
): Record<string, string> {
  return {
    ...Object.fromEntries(addonChoicesOf(values, groups).invalid.map((field) => [field, "form.error.addon_count"])),
    ...addonLeftErrors(values, groups, t),
  };
}

/** The message to show above the form for extras refused: the first that names an item, else "correct the fields". */
export const addonMessageOf = (errors: Record<string, string>) =>
  Object.values(errors).find((message) => message !== "form.error.addon_count") ?? "form.error.fix_fields";

/** The first message for each field: the booker's fields by name, each line's occupant as `<field>_<index>`. */
export function validateCheckout(values: Values, lineCount: number) {
  const fieldErrors: Record<string, string> = {};
  const parsed = v.safeParse(CheckoutForm, values);
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const field = v.getDotPath(issue);
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
  }
  const occupants = Array.from({ length: lineCount }, (_, index) => {
    const occupant = v.safeParse(
      Occupant,
      Object.fromEntries(OCCUPANT_FIELDS.map((name) => [name, (values[`${name}_${index}`] ?? "").trim()])),
    );
    if (occupant.success) return occupant.output;
    for (const issue of occupant.issues) {
      const field = `${v.getDotPath(issue)}_${index}`;
      if (!fieldErrors[field]) fieldErrors[field] = issue.message;
    }
    return null;
  });
  const valid = parsed.success && !occupants.includes(null);
  return valid
    ? { ok: true as const, input: parsed.output, occupants: occupants as v.InferOutput<typeof Occupant>[], fieldErrors }
    : { ok: false as const, fieldErrors };
}
