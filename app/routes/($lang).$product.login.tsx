import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { memberSystemOpen, startSignIn } from "~/features/account/sign-in.server";

/** /{product}/login?back=…: "Sign in" saves the address to return to and goes to the account service. */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (!app.hotel || params.product !== app.env.PRODUCT || !memberSystemOpen(app)) throw new Response(null, { status: 404 });
  return startSignIn(app, request);
}
