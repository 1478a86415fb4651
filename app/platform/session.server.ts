/**
 * The guest's sign-in session in signed HttpOnly, Secure, SameSite=Lax cookies under the spec's
 * storage keys (spec §6; design.md): mem_token (the account service's member token, with the name
 * the header shows), pms_token (the hotel-scoped token the API calls carry), login_back_url, and
 * oauth_state (the one-time state and PKCE verifier of a sign-in under way). Every cookie names its
 * hotel's domain; another hotel's, tampered or malformed cookies read as absent. Decision 036.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { hmacSha256Base64Url } from "~/lib/crypto";
import { base, memberSessionCookie, readLegacyMemberToken, safeCookie } from "~/platform/cookies.server";
import type { AppEnv } from "~/platform/env.server";

const DAY = 60 * 60 * 24;
const Token = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~+/-]{16,2048}=*$/));

export const memTokenCookie = (env: AppEnv) => safeCookie("mem_token", { ...base(env), maxAge: 30 * DAY });
export const pmsTokenCookie = (env: AppEnv) => safeCookie("pms_token", { ...base(env), maxAge: 30 * DAY });
export const loginBackCookie = (env: AppEnv) => safeCookie("login_back_url", { ...base(env), maxAge: 60 * 60 });
export const oauthStateCookie = (env: AppEnv) => safeCookie("oauth_state", { ...base(env), maxAge: 10 * 60 });

const NamePart = v.optional(v.pipe(v.string(), v.maxLength(60)));
/** `given` and `family` are kept apart so each page orders them by its language (decision 086); `name` is their older whole. */
const MemToken = v.object({
  domain: v.string(),
  token: Token,
  name: v.pipe(v.string(), v.maxLength(120)),
  given: NamePart,
  family: NamePart,
  email: v.pipe(v.string(), v.maxLength(200)),
});
const PmsToken = v.object({ domain: v.string(), token: Token });
const BackUrl = v.object({ domain: v.string(), path: v.pipe(v.string(), v.maxLength(2000)) });
const OAuthState = v.object({
  domain: v.string(),
  state: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/)),
  verifier: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/)),
  redirectUri: v.pipe(v.string(), v.maxLength(500)),
  lang: v.string(),
});
export type PendingSignIn = v.InferOutput<typeof OAuthState>;

/** A signed-in member as the header names them: the name's parts when known, else the whole (or the email). */
export interface SessionMember {
  name: string;
  given?: string;
  family?: string;
  email: string;
}

export interface SessionState {
  /** The token API calls carry as Bearer (pms_token; a legacy `member` token until it is moved). */
  apiToken: string | null;
  memToken: string | null;
  /** Who the header says is signed in; null for a guest. */
  member: SessionMember | null;
  /** Set-Cookie headers that move a legacy `member` cookie to mem_token and pms_token. */
  migration: string[];
}

async function parse<TSchema extends v.GenericSchema>(
  schema: TSchema,
  cookie: ReturnType<typeof memTokenCookie>,
  request: Request,
  domain: string,
) {
  const parsed = v.safeParse(schema, await cookie.parse(request.headers.get("cookie")));
  return parsed.success && (parsed.output as { domain: string }).domain === domain ? (parsed.output as v.InferOutput<TSchema>) : null;
}

/** The session of this request for this hotel. */
export async function readSession(request: Request, env: AppEnv, domain: string): Promise<SessionState> {
  const [mem, pms] = await Promise.all([
    parse(MemToken, memTokenCookie(env), request, domain),
    parse(PmsToken, pmsTokenCookie(env), request, domain),
  ]);
  if (mem && pms)
    return {
      apiToken: pms.token,
      memToken: mem.token,
      member: { name: mem.name, given: mem.given, family: mem.family, email: mem.email },
      migration: [],
    };
  const legacy = await readLegacyMemberToken(request, env, domain);
  if (legacy) {
    // The back end accepts the legacy token for its hotel (a member token): it serves as both.
    return {
      apiToken: legacy,
      memToken: legacy,
      member: { name: "", email: "" },
      migration: [
        await memTokenCookie(env).serialize({ domain, token: legacy, name: "", email: "" }),
        await pmsTokenCookie(env).serialize({ domain, token: legacy }),
        await memberSessionCookie(env).serialize("", { maxAge: 0 }),
      ],
    };
  }
  return { apiToken: null, memToken: null, member: null, migration: [] };
}

export async function signedInCookies(
  env: AppEnv,
  domain: string,
  tokens: { mem: string; pms: string },
  member: SessionMember,
): Promise<string[]> {
  return [
    await memTokenCookie(env).serialize({
      domain,
      token: tokens.mem,
      name: member.name.slice(0, 120),
      ...(member.given ? { given: member.given.slice(0, 60) } : {}),
      ...(member.family ? { family: member.family.slice(0, 60) } : {}),
      email: member.email.slice(0, 200),
    }),
    await pmsTokenCookie(env).serialize({ domain, token: tokens.pms }),
    await loginBackCookie(env).serialize("", { maxAge: 0 }),
    await oauthStateCookie(env).serialize("", { maxAge: 0 }),
  ];
}

/** Removes the tokens (sign-out, a refused token, a failed sign-in: spec §8). */
export async function clearedTokenCookies(env: AppEnv): Promise<string[]> {
  return [
    await memTokenCookie(env).serialize("", { maxAge: 0 }),
    await pmsTokenCookie(env).serialize("", { maxAge: 0 }),
    await memberSessionCookie(env).serialize("", { maxAge: 0 }),
  ];
}

export async function readPendingSignIn(request: Request, env: AppEnv, domain: string): Promise<PendingSignIn | null> {
  return parse(OAuthState, oauthStateCookie(env), request, domain);
}

export async function readBackPath(request: Request, env: AppEnv, domain: string): Promise<string | null> {
  return (await parse(BackUrl, loginBackCookie(env), request, domain))?.path ?? null;
}

type App = AppLoadContext["app"];

/** Whether the hotel offers sign-in at all (its member system may be closed). */
export function memberSystemOpen(app: App): boolean {
  return Boolean(app.hotel && !app.hotel.close_member_system);
}

/**
 * The sign-out form's token: bound to the member token of this browser, so another site cannot sign
 * a guest out, and stateless, so the header needs no CSRF cookie of its own.
 */
export function signOutToken(app: App): Promise<string | null> {
  const token = app.session.memToken;
  return token ? hmacSha256Base64Url(app.env.SESSION_SECRET, `sign-out:${app.domain}:${token}`) : Promise.resolve(null);
}
