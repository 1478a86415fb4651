/**
 * Enrolment (decision 149): a staff member signed in with their password but without an
 * authenticator sees the secret (QR code drawn by the back end as SVG, the secret and the URI as
 * text), and confirms it with a first code; the answer is the signed-in session and the ten
 * recovery codes, shown on this one answer and never again.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import type { DeskEnrolment } from "~/contract/desk-staff-schemas";
import { clearedDeskCookie, deskCookieHeader, readDeskCookie } from "./cookie.server";
import { deskCsrf, field, readDeskForm, refusalMessage } from "./forms.server";
import { deskPath } from "./paths";
import { deskWord } from "./words";

type Args = { request: Request; context: AppLoadContext };

export type EnrolmentView =
  | { step: "scan"; csrf: string; offer: DeskEnrolment; error: string | null }
  | { step: "recovery"; codes: string[] };

/** The half session of a staff member to enrol, else back to the sign-in. */
async function enrolling({ request, context }: Args) {
  const { app } = context;
  const cookie = await readDeskCookie(request, app.env, app.domain);
  if (app.env.HOTEL_API_ORIGIN || !cookie || cookie.stage !== "password" || !cookie.enrol) throw redirect(deskPath(app.lang, "/sign-in"));
  return cookie;
}

async function offer({ context }: Args, session: string): Promise<DeskEnrolment> {
  try {
    return await context.app.api.deskEnrolment(session);
  } catch (error) {
    if (error instanceof HotelApiError && (error.status === 401 || error.status === 409)) {
      throw redirect(`${deskPath(context.app.lang, "/sign-in")}?ended=1`, {
        headers: { "set-cookie": await clearedDeskCookie(context.app.env) },
      });
    }
    throw error;
  }
}

/** The requests (by their load context, shared by the action and the loaders) whose action has just enrolled. */
const enrolledIn = new WeakSet<AppLoadContext>();

export async function loadEnrolment(args: Args) {
  // A form posted without JavaScript runs this loader after the action, with the request's old
  // cookie, whose session the confirmed enrolment has just replaced: the page shows the action's
  // answer (the recovery codes), not this.
  if (enrolledIn.has(args.context)) return data({ step: "recovery", codes: [] } satisfies EnrolmentView);
  const cookie = await enrolling(args);
  const { csrf, headers } = await deskCsrf(args.request, args.context);
  const view: EnrolmentView = { step: "scan", csrf, offer: await offer(args, cookie.token), error: null };
  return data(view, { headers });
}

export async function enrolmentAction(args: Args) {
  const { app } = args.context;
  const cookie = await enrolling(args);
  const { csrf } = await deskCsrf(args.request, args.context);
  const form = await readDeskForm(args.request, args.context);
  const again = async (error: string, status: number) =>
    data({ step: "scan", csrf, offer: await offer(args, cookie.token), error } satisfies EnrolmentView, { status });
  if (!form) return again(deskWord(app.lang, "error.form_expired"), 403);
  try {
    const enrolled = await app.api.deskConfirmEnrolment(cookie.token, field(form, "code", 40));
    const next = { domain: app.domain, token: enrolled.token, stage: "full" as const, enrol: false };
    enrolledIn.add(args.context);
    return data({ step: "recovery", codes: enrolled.recovery_codes } satisfies EnrolmentView, {
      headers: { "set-cookie": await deskCookieHeader(app.env, next) },
    });
  } catch (error) {
    const message = refusalMessage(error);
    if (error instanceof HotelApiError && error.status === 401) {
      throw redirect(`${deskPath(app.lang, "/sign-in")}?ended=1`, { headers: { "set-cookie": await clearedDeskCookie(app.env) } });
    }
    return again(message, 400);
  }
}
