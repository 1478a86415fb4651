import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { deskBookingPath } from "~/contract/desk";
import { localizePath } from "~/i18n/languages";
import { DESK_HEADERS, deskAct } from "~/features/desk/act.server";

/**
 * /desk/bookings/{order_doc}/act: where the booking page's action forms post (decision 151). No
 * page of its own: a GET goes back to the booking.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  return redirect(localizePath(deskBookingPath(params.orderDoc ?? ""), context.app.lang), { status: 303, headers: DESK_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  return deskAct(args);
}
