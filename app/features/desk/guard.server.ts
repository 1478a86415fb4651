/**
 * The desk's page guard (decision 148's shared interface): who is signed in at this hotel's desk,
 * asked of the back end on every request (so a removed staff member's next request, an idle or
 * expired session, ends at once). Nobody signed in: a redirect to the desk's sign-in (and the stale
 * cookie cleared). A role that may not: a 403 page. With an external back end there is no desk
 * here: the sign-in page says so.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import type { DeskRole } from "~/contract/desk-staff-schemas";
import { clearedDeskCookie, readDeskCookie } from "./cookie.server";
import { deskPath } from "./paths";

export interface DeskAccess {
  staff: { id: number; email: string; name: string; role: DeskRole };
  /** The token to send as the `x-desk-session` header on every staff API call. */
  session: string;
}

/**
 * Who the session names, asked once per request: the desk's frame (layout.server.ts) and the page's
 * own guard both need it, and their loaders run at once with the same load context.
 */
const asked = new WeakMap<object, Map<string, ReturnType<AppLoadContext["app"]["api"]["deskMe"]>>>();
export function deskMeOnce(context: AppLoadContext, token: string): ReturnType<AppLoadContext["app"]["api"]["deskMe"]> {
  const byToken = asked.get(context) ?? new Map<string, ReturnType<AppLoadContext["app"]["api"]["deskMe"]>>();
  asked.set(context, byToken);
  const answer = byToken.get(token) ?? context.app.api.deskMe(token);
  byToken.set(token, answer);
  return answer;
}

export async function requireDeskStaff(
  args: { request: Request; context: AppLoadContext },
  roles?: readonly DeskRole[],
): Promise<DeskAccess> {
  const { app } = args.context;
  const signIn = deskPath(app.lang, "/sign-in");
  if (app.env.HOTEL_API_ORIGIN) throw redirect(signIn);
  const cookie = await readDeskCookie(args.request, app.env, app.domain);
  if (!cookie || cookie.stage !== "full") throw redirect(signIn);
  let me;
  try {
    me = await deskMeOnce(args.context, cookie.token);
  } catch (error) {
    if (error instanceof HotelApiError && error.status === 401) {
      throw redirect(`${signIn}?ended=1`, { headers: { "set-cookie": await clearedDeskCookie(app.env) } });
    }
    throw error;
  }
  if (roles && !roles.includes(me.role)) throw new Response("Forbidden", { status: 403, statusText: "Forbidden" });
  return { staff: { id: me.id, email: me.email, name: me.name, role: me.role }, session: cookie.token };
}
