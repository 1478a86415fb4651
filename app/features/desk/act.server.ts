/**
 * The booking actions' resource route (decision 151): a desk action's POST form, with the site's
 * CSRF token (a cross-site POST is refused like every form of the site) and its one-time form_key,
 * sent to the staff API with the staff member's session; then back to the booking's page
 * (post/redirect/get) with what happened, in the staff member's language.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import { DESK_PATH, deskBookingPath } from "~/contract/desk";
import { isDeskAction, type DeskAction } from "~/contract/desk-actions-schemas";
import { localizePath } from "~/i18n/languages";
import { fixedT } from "~/i18n/i18next.server";
import { verifyCsrf } from "~/platform/cookies.server";
import { readForm } from "~/platform/forms.server";
import { notFound } from "~/platform/not-found.server";
import { requireDeskStaff } from "~/features/desk/guard.server";
import { ACTING_ROLES } from "~/features/desk/booking-actions";
import { setDeskNotice, type DeskActionNotice } from "~/features/desk/action-notice.server";

/** Desk answers are never cached and never indexed (decision 148). */
export const DESK_HEADERS = { "cache-control": "private, no-store", "x-robots-tag": "noindex" };

/** The form's own fields, as the staff API takes them: a ticked box is `true`, text is trimmed. */
function actionFields(form: FormData): Record<string, string | boolean> {
  const fields: Record<string, string | boolean> = {};
  for (const [name, value] of form) {
    if (name === "csrf" || name === "intent" || name === "form_key" || typeof value !== "string") continue;
    fields[name] = name === "waive_fee" ? value === "on" || value === "true" : value.trim();
  }
  return fields;
}

export async function deskAct({ request, context, params }: ActionFunctionArgs): Promise<Response> {
  const { app } = context;
  const orderDoc = params.orderDoc ?? "";
  if (!/^[A-Z0-9-]{4,40}$/.test(orderDoc)) throw notFound();
  const access = await requireDeskStaff({ request, context }, ACTING_ROLES);
  const form = await readForm(request);
  if (!form || !(await verifyCsrf(request, app, form))) {
    const t = await fixedT(app.lang);
    return new Response(t("form.error.expired"), {
      status: 403,
      headers: { ...DESK_HEADERS, "content-type": "text/plain; charset=utf-8" },
    });
  }
  const intent = form.get("intent");
  const formKey = form.get("form_key");
  if (!isDeskAction(intent) || typeof formKey !== "string") throw notFound();
  const notice = await apply(context.app, access.session, orderDoc, intent, formKey, actionFields(form));
  if (notice === "signed_out") throw redirect(localizePath(`${DESK_PATH}/sign-in`, app.lang), { status: 303, headers: DESK_HEADERS });
  return redirect(localizePath(deskBookingPath(orderDoc), app.lang), {
    status: 303,
    headers: { ...DESK_HEADERS, "set-cookie": await setDeskNotice(app.env, notice) },
  });
}

async function apply(
  app: ActionFunctionArgs["context"]["app"],
  session: string,
  orderDoc: string,
  action: DeskAction,
  formKey: string,
  fields: Record<string, string | boolean>,
): Promise<DeskActionNotice | "signed_out"> {
  try {
    const done = await app.api.deskAction(session, orderDoc, action, formKey, fields);
    return { order_doc: orderDoc, action, outcome: done.outcome };
  } catch (error) {
    if (!(error instanceof HotelApiError) || error.isUnavailable) throw error;
    if (error.status === 401) return "signed_out";
    if (error.status === 404 && error.code === "order_not_found") throw notFound();
    return {
      order_doc: orderDoc,
      action,
      outcome: "refused",
      message: error.message.slice(0, 600),
      field: error.field?.slice(0, 40) ?? "",
    };
  }
}
