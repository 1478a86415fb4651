/**
 * The one CSRF check (double submit) of the site's forms and the back end's account pages (issue
 * 24): the browser holds a random token in a cookie, each form carries it in a hidden `csrf` field,
 * and a POST is taken only when both are there and equal. Where the cookie lives is the caller's:
 * the site keeps it signed (app/platform/cookies.server.ts), the account service plain on /account.
 */
import { randomToken, safeEqual } from "./crypto";

/** The form field that carries the token. */
export const CSRF_FIELD = "csrf";

/** A token: 32 random bytes, base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function isCsrfToken(value: unknown): value is string {
  return typeof value === "string" && TOKEN.test(value);
}

/** The token for a page's forms: the browser's own when it holds a good one, else a new one to set (`fresh`). */
export function csrfTokenFor(fromCookie: unknown): { token: string; fresh: boolean } {
  return isCsrfToken(fromCookie) ? { token: fromCookie, fresh: false } : { token: randomToken(), fresh: true };
}

/** Whether a posted form carries the token of its browser's cookie (compared in constant time). */
export function csrfMatches(fromCookie: unknown, form: FormData): boolean {
  const given = form.get(CSRF_FIELD);
  return isCsrfToken(fromCookie) && typeof given === "string" && safeEqual(fromCookie, given);
}
