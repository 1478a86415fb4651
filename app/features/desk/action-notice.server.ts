/**
 * What the last desk action on a booking did, carried across its redirect (post/redirect/get) in a
 * short-lived signed cookie, so the booking's page can say it in the staff member's language and no
 * address can make the desk show words of someone else's choosing.
 */
import * as v from "valibot";
import { safeCookie } from "~/platform/cookies.server";
import type { AppEnv } from "~/platform/env.server";
import { DESK_ACTIONS } from "~/contract/desk-actions-schemas";

const NoticeSchema = v.object({
  order_doc: v.string(),
  action: v.picklist(DESK_ACTIONS),
  /** done, already_done, or refused: then `message`, the back end's words in the staff member's language. */
  outcome: v.picklist(["done", "already_done", "refused"]),
  message: v.optional(v.pipe(v.string(), v.maxLength(600)), ""),
  /** The field the refusal is about (amount, reference…), when it names one. */
  field: v.optional(v.pipe(v.string(), v.maxLength(40)), ""),
});
export type DeskActionNotice = v.InferInput<typeof NoticeSchema>;

const noticeCookie = (env: AppEnv) =>
  safeCookie("desk_notice", { httpOnly: true, secure: true, sameSite: "strict", path: "/", maxAge: 60, secrets: [env.SESSION_SECRET] });

export function setDeskNotice(env: AppEnv, notice: DeskActionNotice): Promise<string> {
  return noticeCookie(env).serialize(notice);
}

/**
 * The notice for this booking, if the last action was on it, and the Set-Cookie that clears it (for
 * the booking page's loader: a reload does not say it again).
 */
export async function takeDeskNotice(
  request: Request,
  env: AppEnv,
  orderDoc: string,
): Promise<{ notice: DeskActionNotice | null; setCookie: string | null }> {
  const parsed = v.safeParse(NoticeSchema, await noticeCookie(env).parse(request.headers.get("cookie")));
  if (!parsed.success) return { notice: null, setCookie: null };
  const setCookie = await noticeCookie(env).serialize("", { maxAge: 0 });
  return { notice: parsed.output.order_doc === orderDoc ? parsed.output : null, setCookie };
}

/** One fresh one-time key per action form, made by the booking page's loader. */
export function newFormKeys(): Record<(typeof DESK_ACTIONS)[number], string> {
  return Object.fromEntries(DESK_ACTIONS.map((action) => [action, crypto.randomUUID().replaceAll("-", "")])) as Record<
    (typeof DESK_ACTIONS)[number],
    string
  >;
}
