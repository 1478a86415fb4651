/**
 * The desk's frame: who is signed in (for the header and its navigation), without asking anybody
 * to sign in (the sign-in pages are inside the frame too; each page guards itself), and whether
 * this site has a desk at all (not with an external back end).
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import { readDeskCookie } from "./cookie.server";
import { deskCsrf } from "./forms.server";
import { deskMeOnce } from "./guard.server";

export async function loadDeskFrame({ request, context }: { request: Request; context: AppLoadContext }) {
  const { app } = context;
  const external = Boolean(app.env.HOTEL_API_ORIGIN);
  const cookie = external ? null : await readDeskCookie(request, app.env, app.domain);
  let staff: { name: string; email: string; role: string } | null = null;
  if (cookie?.stage === "full") {
    try {
      const me = await deskMeOnce(context, cookie.token);
      staff = { name: me.name, email: me.email, role: me.role };
    } catch (error) {
      if (!(error instanceof HotelApiError) || error.isUnavailable) throw error;
    }
  }
  const { csrf } = await deskCsrf(request, context);
  return { external, staff, csrf };
}

/** Sign out: the session's row is deleted at the back end and the cookie cleared. */
export async function signOutSession({ request, context }: { request: Request; context: AppLoadContext }): Promise<void> {
  const { app } = context;
  const cookie = await readDeskCookie(request, app.env, app.domain);
  if (cookie && !app.env.HOTEL_API_ORIGIN) {
    try {
      await app.api.deskSignOut(cookie.token);
    } catch (error) {
      if (!(error instanceof HotelApiError) || error.isUnavailable) throw error;
    }
  }
}
