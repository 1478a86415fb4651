/**
 * STAND-IN for the "staff" part's page guard (decision 148), with exactly its signature, so that the
 * booking actions build and run before the merge; the merge replaces this file by the real one.
 * It reads the desk session's token from the cookie and names no one: the back end's requireStaff
 * decides who is signed in and what their role may do on every call.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { DESK_PATH } from "~/contract/desk";
import { localizePath } from "~/i18n/languages";

export type StaffRole = "owner" | "front_desk" | "read_only";

export interface DeskAccess {
  staff: { id: number; email: string; name: string; role: StaffRole };
  session: string;
}

/** The stand-in's cookie name (the real guard's is the staff part's to choose). */
const STAND_IN_COOKIE = "__Host-desk";

export async function requireDeskStaff(
  args: { request: Request; context: AppLoadContext },
  roles?: readonly StaffRole[],
): Promise<DeskAccess> {
  const cookie = args.request.headers.get("cookie") ?? "";
  const token = new RegExp(`(?:^|;\\s*)${STAND_IN_COOKIE}=([A-Za-z0-9_-]{32,128})(?:;|$)`).exec(cookie)?.[1];
  if (!token) throw redirect(localizePath(`${DESK_PATH}/sign-in`, args.context.app.lang), 303);
  // The stand-in cannot know the role: it names the least that may act, and the back end checks.
  const role: StaffRole = roles?.[roles.length - 1] ?? "read_only";
  return { staff: { id: 0, email: "", name: "", role }, session: token };
}
