/**
 * The desk's cookie (decision 149): the staff member's session token, apart from every member
 * cookie. `__Host-` makes the browser keep it host-only (Secure, path /, no Domain), so another
 * hotel's subdomain never sees it; HttpOnly; SameSite=Strict, so no other site's page, link or form
 * ever sends it. Chromium treats http://localhost and http://<name>.localhost as secure contexts, so
 * it works in development too. Signed like every cookie of the site; the back end decides whether
 * the token still names someone.
 */
import * as v from "valibot";
import { safeCookie } from "~/platform/cookies.server";
import type { AppEnv } from "~/platform/env.server";

export const DESK_COOKIE = "__Host-desk";

const deskCookie = (env: AppEnv) =>
  safeCookie(DESK_COOKIE, { httpOnly: true, secure: true, sameSite: "strict", path: "/", secrets: [env.SESSION_SECRET] });

const DeskCookieSchema = v.object({
  domain: v.string(),
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{32,128}$/)),
  // 'password': the code is awaited ('enrol': by enrolment, the staff member has no authenticator yet).
  stage: v.picklist(["password", "full"]),
  enrol: v.boolean(),
});
export type DeskCookie = v.InferOutput<typeof DeskCookieSchema>;

/** This hotel's desk session as the browser keeps it, or null (none, another hotel's, tampered). */
export async function readDeskCookie(request: Request, env: AppEnv, domain: string): Promise<DeskCookie | null> {
  const parsed = v.safeParse(DeskCookieSchema, await deskCookie(env).parse(request.headers.get("cookie")));
  return parsed.success && parsed.output.domain === domain ? parsed.output : null;
}

export function deskCookieHeader(env: AppEnv, value: DeskCookie): Promise<string> {
  return deskCookie(env).serialize(value);
}

export function clearedDeskCookie(env: AppEnv): Promise<string> {
  return deskCookie(env).serialize("", { maxAge: 0 });
}
