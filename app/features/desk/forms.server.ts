/**
 * What every desk form shares: the page's CSRF token (and its cookie when new), a one-time form
 * key for each change (decision 148: a replayed form is "already done"), and the reading of a
 * posted form, refused whole when it is not ours (no body, another site, a stale CSRF token).
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import { csrfToken, verifyCsrf } from "~/platform/cookies.server";
import { readForm } from "~/platform/forms.server";
import { randomToken } from "~/lib/crypto";

export async function deskCsrf(request: Request, context: AppLoadContext) {
  const { token, setCookie } = await csrfToken(request, context.app.env);
  return { csrf: token, headers: setCookie ? { "set-cookie": setCookie } : undefined };
}

/** A new one-time key for one form of a page. */
export const newFormKey = (): string => randomToken();

/** The posted form when it is one of ours (CSRF checked), else null. */
export async function readDeskForm(request: Request, context: AppLoadContext): Promise<FormData | null> {
  const form = await readForm(request);
  if (!form || !(await verifyCsrf(request, context.app, form))) return null;
  return form;
}

export const field = (form: FormData, name: string, max = 200): string => String(form.get(name) ?? "").slice(0, max);

/** The back end's refusal as the staff member reads it (already in their language), or a rethrow. */
export function refusalMessage(error: unknown): string {
  if (error instanceof HotelApiError && !error.isUnavailable) return error.message;
  throw error;
}
