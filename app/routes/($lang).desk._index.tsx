import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireDeskStaff } from "~/features/desk/guard.server";
import { deskPath } from "~/features/desk/paths";

/** /desk: the bookings list for a signed-in staff member, the sign-in for anybody else. */
export async function loader(args: LoaderFunctionArgs) {
  await requireDeskStaff(args);
  throw redirect(deskPath(args.context.app.lang, "/bookings"));
}
