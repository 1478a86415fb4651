/**
 * What the account service's forms share (spec §7 Login, decision 035): the session and CSRF
 * cookies, the check that a POST form is the service's own, the posted sign-in or sign-up form with
 * the authorization request it carries, and the captcha a form may have to answer (decision 070).
 */
import type { BackendContext } from "~/backend/route";
import { type OAuthClient } from "./clients.server";
import { errorPage, type OAuthParams } from "./pages.server";
import { answerChallenge, newChallenge, captchaText } from "~/backend/captcha/captcha.server";
import type { ChallengeState } from "~/backend/captcha/fieldset";
import { readCookie } from "~/lib/cookie-header";
import { csrfMatches, csrfTokenFor } from "~/lib/csrf";
import { readForm } from "~/platform/forms.server";
import { checkOAuthRequest } from "./authorize.server";

export const SESSION_COOKIE = "account_session";
const CSRF_COOKIE = "account_csrf";
const COOKIE_ATTRIBUTES = "Path=/account; HttpOnly; Secure; SameSite=Lax";

export const sessionCookie = (value: string) => `${SESSION_COOKIE}=${value}; ${COOKIE_ATTRIBUTES}; Max-Age=${30 * 86_400}`;
export const clearedSession = `${SESSION_COOKIE}=; ${COOKIE_ATTRIBUTES}; Max-Age=0`;

/** A form's CSRF token: the one of this browser's cookie, or a new one the page sets. */
export function csrfFor(request: Request): { token: string; setCookie: string | null } {
  const { token, fresh } = csrfTokenFor(readCookie(request.headers.get("cookie"), CSRF_COOKIE));
  return { token, setCookie: fresh ? `${CSRF_COOKIE}=${token}; ${COOKIE_ATTRIBUTES}` : null };
}

export function withCookie(response: Response, ...cookies: (string | null)[]): Response {
  for (const cookie of cookies) if (cookie) response.headers.append("set-cookie", cookie);
  return response;
}

/** A POST form of this service: from its own origin (when the browser says) and with its CSRF token. */
export function formIsOurs(ctx: BackendContext, form: FormData): boolean {
  const origin = ctx.request.headers.get("origin");
  if (origin && origin !== "null" && origin !== ctx.url.origin) return false;
  return csrfMatches(readCookie(ctx.request.headers.get("cookie"), CSRF_COOKIE), form);
}

export function formValues(form: FormData, names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      String(form.get(name) ?? "")
        .trim()
        .slice(0, 200),
    ]),
  );
}

/** A posted sign-in or sign-up form: its fields, the authorization request it carries, and the page's CSRF token. */
export async function openAccountForm(
  ctx: BackendContext,
): Promise<
  | { ok: true; form: FormData; client: OAuthClient; params: OAuthParams; csrf: ReturnType<typeof csrfFor> }
  | { ok: false; response: Response }
> {
  const form = await readForm(ctx.request);
  if (!form) return { ok: false, response: errorPage(ctx.lang, "error.request") };
  const checked = await checkOAuthRequest(ctx, form);
  if (!checked.ok) return checked;
  return { ok: true, form, client: checked.client, params: checked.params, csrf: csrfFor(ctx.request) };
}

/**
 * The challenge a form carries, checked before anything else of the form (decision 070): "passed",
 * or the state to show again with a new challenge and why. An empty answer spends nothing.
 */
export async function formChallenge(
  ctx: BackendContext,
  form: FormData,
  hotelId: number,
  action: "sign_in" | "sign_up",
): Promise<"passed" | "refused" | ChallengeState> {
  const token = String(form.get("captcha_token") ?? "");
  const answer = String(form.get("captcha_answer") ?? "").trim();
  const again = async (error?: string): Promise<ChallengeState> => ({ challenge: await newChallenge(ctx, hotelId, action), error });
  if (form.get("captcha_new")) return again();
  if (!token) return again();
  if (!answer) return again(captchaText(ctx.lang, "error.required"));
  const result = await answerChallenge(ctx, hotelId, action, token.slice(0, 400), answer);
  if (result === "passed" || result === "refused") return result;
  return again(captchaText(ctx.lang, result === "wrong" ? "error.wrong" : "error.expired"));
}
