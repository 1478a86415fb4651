/**
 * The checkout's draft (issue 37 item 12): what the guest typed and chose at the checkout, kept
 * while they leave it for the rail page and come back, by its back link, the browser's back or
 * "Continue to checkout". A plain link cannot carry a form, so "Add/Change rail tickets" is a
 * submit button of the checkout form that saves the draft here, then goes on to the rail page; the
 * checkout's loader fills the form from it. JavaScript off first: the draft lives in a signed,
 * HttpOnly cookie of this hotel and stay (decision 138).
 */
import type { AppEnv } from "~/platform/env.server";
import { base, safeCookie } from "~/platform/cookies.server";
import { CONTACT_LIMITS } from "~/domain/contact-fields";

type Values = Record<string, string>;

/**
 * A few hours: long enough to choose trains, short enough that a guest's name and phone do not stay
 * in a shared browser. Placing the booking clears it.
 */
export const draftCookie = (env: AppEnv) => safeCookie("checkout_draft", { ...base(env), maxAge: 60 * 60 * 3 });

/**
 * The fields a draft keeps, most wanted first: what is dropped when it would not fit a cookie is
 * from the end (the rooms' guests' details). Promotions and points are not kept: they are applied by
 * the price check, which the guest runs again.
 */
const KEPT: readonly RegExp[] = [
  /^booker_(?:last_name|first_name|phone|email)$/,
  /^addon_\d{1,9}(?:_r\d{1,2})?(?:_children)?$/,
  /^(?:payment|pay_option)$/,
  /^memo$/,
  /^company_(?:name|reg_number)$/,
  /^occupant_(?:name|phone|email)_\d{1,2}$/,
];

/** The longest value kept: the longest field (the note), so nothing a valid form holds is cut. */
const LONGEST = CONTACT_LIMITS.memo;
/** What one cookie may hold, with its name and attributes: browsers keep up to 4096 bytes. */
const COOKIE_BYTES = 4000;

interface Draft {
  domain: string;
  start: string;
  end: string;
  values: Values;
}

/** The fields of a form a draft keeps, in the order of `KEPT`; anything else, or too long, is left out. */
function keptFields(values: Record<string, string | undefined>): [string, string][] {
  return KEPT.flatMap((pattern) =>
    Object.entries(values).flatMap(([name, value]) =>
      pattern.test(name) && typeof value === "string" && value.length <= LONGEST ? [[name, value] as [string, string]] : [],
    ),
  );
}

/**
 * The Set-Cookie that keeps the form's draft for this hotel and stay. When everything would not fit
 * one cookie (ten rooms with every guest's details), the last fields are left out until it does.
 */
export async function saveDraft(env: AppEnv, stay: { domain: string; start: string; end: string }, values: Record<string, string>) {
  const fields = keptFields(values);
  const cookie = draftCookie(env);
  for (let kept = fields.length; kept >= 0; kept--) {
    const draft: Draft = { ...stay, values: Object.fromEntries(fields.slice(0, kept)) };
    const header = await cookie.serialize(draft);
    if (new TextEncoder().encode(header).length <= COOKIE_BYTES) return header;
  }
  return cookie.serialize("", { maxAge: 0 });
}

/** The draft of this hotel and stay, as the form's values; none for another hotel, other dates, or a tampered cookie. */
export async function readDraft(request: Request, env: AppEnv, stay: { domain: string; start: string; end: string }): Promise<Values> {
  const raw: unknown = await draftCookie(env).parse(request.headers.get("cookie"));
  if (typeof raw !== "object" || raw === null) return {};
  const draft = raw as Partial<Draft>;
  if (draft.domain !== stay.domain || draft.start !== stay.start || draft.end !== stay.end) return {};
  if (typeof draft.values !== "object" || draft.values === null) return {};
  return Object.fromEntries(keptFields(draft.values as Record<string, string | undefined>));
}

/** The Set-Cookie that forgets the draft (the booking was placed). */
export function clearDraft(env: AppEnv) {
  return draftCookie(env).serialize("", { maxAge: 0 });
}
