import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { localizePath } from "~/i18n/languages";
import { readForm } from "~/platform/forms.server";
import { safeRedirect } from "~/platform/redirects.server";
import { signOut, signOutAllowed } from "~/features/account/sign-in.server";
import { requireProduct } from "~/platform/not-found.server";

/** POST /{product}/logout: the header's "Sign out" form (works without JavaScript). */
export async function action({ context, params, request }: ActionFunctionArgs) {
  const { app } = context;
  requireProduct(params, context);
  // Not our form (JSON, text, a broken body): nobody is signed out, as with a wrong token.
  const form = await readForm(request);
  if (!form || !(await signOutAllowed(app, form.get("sign_out_token")))) throw new Response(null, { status: 403 });
  return signOut(app, request, form.get("back"));
}

/** A GET never signs anyone out: it goes home. */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  requireProduct(params, context);
  return safeRedirect(localizePath("/", app.lang), request, 303);
}

/**
 * Never rendered (the action and the loader always redirect or throw). Having a page makes a refused
 * sign-out (403) the site's error page, with the hotel's header and the reason in the guest's
 * language, instead of a resource route's empty answer.
 */
export default function SignOut() {
  return null;
}
