/** Signing out of the account service (spec §7 Login, decision 051): the browser's sign-in session ended. */
import type { BackendContext } from "~/backend/route";
import { sha256Hex } from "~/lib/crypto";
import { endSession } from "./tokens.server";
import { readCookie } from "~/lib/cookie-header";
import { SESSION_COOKIE } from "./account-forms.server";

export async function endBrowserSession(ctx: BackendContext): Promise<void> {
  const session = readCookie(ctx.request.headers.get("cookie"), SESSION_COOKIE);
  if (!session || !/^[A-Za-z0-9_-]{43}$/.test(session)) return;
  await endSession(ctx.db, await sha256Hex(session));
}

export const JSONP_CALLBACK = /^[A-Za-z_$][A-Za-z0-9_$.]{0,63}$/;
