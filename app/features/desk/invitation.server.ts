/**
 * Accepting an invitation (decision 149): the emailed link opens this page on the hotel's own
 * site; the staff member chooses a password (the members' rule), the link is spent, and enrolment
 * follows in a half session.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import { deskCookieHeader } from "./cookie.server";
import { deskCsrf, field, readDeskForm, refusalMessage } from "./forms.server";
import { deskPath } from "./paths";
import { deskWord } from "./words";

type Args = { request: Request; context: AppLoadContext };

export interface InvitationView {
  csrf: string;
  token: string;
  email: string | null;
  error: string | null;
}

async function invited(context: AppLoadContext, token: string): Promise<{ email: string | null; error: string | null }> {
  if (context.app.env.HOTEL_API_ORIGIN) throw redirect(deskPath(context.app.lang, "/sign-in"));
  try {
    return { email: (await context.app.api.deskInvitation(token)).email, error: null };
  } catch (error) {
    return { email: null, error: refusalMessage(error) };
  }
}

export async function loadInvitation({ request, context }: Args) {
  const token = (new URL(request.url).searchParams.get("token") ?? "").slice(0, 100);
  const { csrf, headers } = await deskCsrf(request, context);
  const view: InvitationView = { csrf, token, ...(await invited(context, token)) };
  return data(view, { status: view.email ? 200 : 404, headers });
}

export async function invitationAction({ request, context }: Args) {
  const { app } = context;
  const { csrf } = await deskCsrf(request, context);
  const form = await readDeskForm(request, context);
  const token = form ? field(form, "token", 100) : "";
  const again = async (error: string, status: number) =>
    data({ csrf, token, email: (await invited(context, token)).email, error } satisfies InvitationView, { status });
  if (!form) return again(deskWord(app.lang, "error.form_expired"), 403);
  const password = field(form, "password", 300);
  if (password.length < 8 || password.length > 200) return again(deskWord(app.lang, "error.password"), 400);
  try {
    const accepted = await app.api.deskAcceptInvitation(token, password);
    const next = { domain: app.domain, token: accepted.token, stage: "password" as const, enrol: true };
    throw redirect(deskPath(app.lang, "/enrolment"), { headers: { "set-cookie": await deskCookieHeader(app.env, next) } });
  } catch (error) {
    if (error instanceof Response) throw error;
    return again(refusalMessage(error), error instanceof HotelApiError ? error.status : 400);
  }
}
