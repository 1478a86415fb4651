/**
 * The desk's sign-in page (decision 149), in steps kept by the desk cookie: email and password
 * (with the captcha when the throttle asks), then the authenticator's code or a recovery code. A
 * staff member without an authenticator goes on to enrolment instead. A new token is set at each
 * step: the one the password gave is never the signed-in one.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { HotelApiError } from "~/contract/client";
import { DeskChallengeSchema } from "~/contract/desk-staff-schemas";
import { clearedDeskCookie, deskCookieHeader, readDeskCookie } from "./cookie.server";
import { deskCsrf, field, readDeskForm, refusalMessage } from "./forms.server";
import { deskPath } from "./paths";
import { deskWord } from "./words";

type Args = { request: Request; context: AppLoadContext };

export interface SignInChallenge {
  token: string;
  picture: string;
  question: string;
  error: string | null;
}

export interface SignInView {
  step: "password" | "code" | "external";
  csrf: string;
  email: string;
  error: string | null;
  notice: "signed_out" | "session_ended" | null;
  captcha: SignInChallenge | null;
}

export async function loadSignIn({ request, context }: Args) {
  const { app } = context;
  const { csrf, headers } = await deskCsrf(request, context);
  const url = new URL(request.url);
  const notice = url.searchParams.has("ended") ? "session_ended" : url.searchParams.has("signed_out") ? "signed_out" : null;
  const view: SignInView = { step: "password", csrf, email: "", error: null, notice, captcha: null };
  if (app.env.HOTEL_API_ORIGIN) return data({ ...view, step: "external" as const }, { headers });
  const cookie = await readDeskCookie(request, app.env, app.domain);
  if (cookie?.stage === "full") throw redirect(deskPath(app.lang));
  if (cookie?.enrol) throw redirect(deskPath(app.lang, "/enrolment"));
  return data({ ...view, step: cookie ? ("code" as const) : ("password" as const) }, { headers });
}

function challengeOf(error: unknown, message: string | null): SignInChallenge | null {
  if (!(error instanceof HotelApiError)) return null;
  const parsed = v.safeParse(DeskChallengeSchema, error.data);
  // The answer's own error beside its field (a wrong or stale answer); the page's alert says it too.
  const answerError = error.code === "captcha_wrong" || error.code === "captcha_expired";
  return parsed.success ? { ...parsed.output.challenge, error: answerError ? message : null } : null;
}

export async function signInAction({ request, context }: Args) {
  const { app } = context;
  const here = deskPath(app.lang, "/sign-in");
  const { csrf } = await deskCsrf(request, context);
  const form = await readDeskForm(request, context);
  const again = (view: Partial<SignInView>, status: number) =>
    data({ step: "password" as const, csrf, email: "", error: null, notice: null, captcha: null, ...view } satisfies SignInView, {
      status,
    });
  if (app.env.HOTEL_API_ORIGIN) throw redirect(here);
  if (!form) return again({ error: deskWord(app.lang, "error.form_expired") }, 403);
  const cookie = await readDeskCookie(request, app.env, app.domain);
  const intent = field(form, "intent", 20);
  if (intent === "restart") {
    if (cookie) await app.api.deskSignOut(cookie.token).catch(refusalMessage);
    throw redirect(here, { headers: { "set-cookie": await clearedDeskCookie(app.env) } });
  }
  if (intent === "code" && cookie?.stage === "password") {
    try {
      const signedIn = await app.api.deskSignInCode(cookie.token, field(form, "code", 40));
      const next = { domain: app.domain, token: signedIn.token, stage: "full" as const, enrol: false };
      throw redirect(deskPath(app.lang), { headers: { "set-cookie": await deskCookieHeader(app.env, next) } });
    } catch (error) {
      if (error instanceof Response) throw error;
      const message = refusalMessage(error);
      if (error instanceof HotelApiError && error.status === 401) {
        // Too many wrong codes, or the step waited too long: from the password again.
        return data({ step: "password" as const, csrf, email: "", error: message, notice: null, captcha: null } satisfies SignInView, {
          status: 401,
          headers: { "set-cookie": await clearedDeskCookie(app.env) },
        });
      }
      return again({ step: "code", error: message }, 400);
    }
  }
  const email = field(form, "email", 200).trim();
  try {
    const signedIn = await app.api.deskSignIn({
      email,
      password: field(form, "password", 200),
      captcha_token: field(form, "captcha_token", 400) || undefined,
      captcha_answer: field(form, "captcha_answer", 64) || undefined,
    });
    const next = { domain: app.domain, token: signedIn.token, stage: "password" as const, enrol: signedIn.enrol };
    throw redirect(signedIn.enrol ? deskPath(app.lang, "/enrolment") : here, {
      headers: { "set-cookie": await deskCookieHeader(app.env, next) },
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    const message = refusalMessage(error);
    const captcha = challengeOf(error, message);
    return again({ email, error: message, captcha }, error instanceof HotelApiError ? error.status : 400);
  }
}
