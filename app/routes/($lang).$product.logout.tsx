import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { localizePath } from "~/i18n/languages";
import { safeRedirect } from "~/server/redirects.server";
import { signOut, signOutAllowed } from "~/session/sign-in.server";

/** POST /{product}/logout: the header's "Sign out" form (works without JavaScript). */
export async function action({ context, params, request }: ActionFunctionArgs) {
  const { app } = context;
  if (!app.hotel || params.product !== app.env.PRODUCT) throw new Response(null, { status: 404 });
  const form = await request.formData();
  if (!(await signOutAllowed(app, form.get("sign_out_token")))) throw new Response(null, { status: 403 });
  return signOut(app, request, form.get("back"));
}

/** A GET never signs anyone out: it goes home. */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (!app.hotel || params.product !== app.env.PRODUCT) throw new Response(null, { status: 404 });
  return safeRedirect(localizePath("/", app.lang), request, 303);
}
