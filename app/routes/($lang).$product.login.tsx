import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { startSignIn } from "~/features/account/sign-in.server";
import { memberSystemOpen } from "~/platform/session.server";
import { notFound, requireProduct } from "~/platform/not-found.server";

/** /{product}/login?back=…: "Sign in" saves the address to return to and goes to the account service. */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  requireProduct(params, context);
  if (!memberSystemOpen(app)) throw notFound();
  return startSignIn(app, request);
}
