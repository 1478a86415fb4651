import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { clearedDeskCookie } from "~/features/desk/cookie.server";
import { readDeskForm } from "~/features/desk/forms.server";
import { signOutSession } from "~/features/desk/layout.server";
import { deskPath } from "~/features/desk/paths";

/** POST /desk/sign-out (CSRF): the session ends at the back end and the cookie goes. A GET signs nobody out. */
export async function action(args: ActionFunctionArgs) {
  const { app } = args.context;
  const signIn = deskPath(app.lang, "/sign-in");
  if (!(await readDeskForm(args.request, args.context))) throw redirect(deskPath(app.lang));
  await signOutSession(args);
  throw redirect(`${signIn}?signed_out=1`, { headers: { "set-cookie": await clearedDeskCookie(app.env) } });
}

export async function loader({ context }: LoaderFunctionArgs) {
  throw redirect(deskPath(context.app.lang));
}
