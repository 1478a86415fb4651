/**
 * The built-in account service ({account}) and the PMS token exchange ({pms}) of spec §7 Login:
 * sign-in and sign-up pages, /oauth/authorize (PKCE S256, one-time state), /oauth/token (one-time,
 * short-lived codes), /api/v1/onetap, /oauth/revoke, /logout/json (JSONP), the POST logout form and
 * {pms}/oauth/token/exchange. Decision 035.
 */
import * as v from "valibot";
import { ApiError, ok, readJsonBody } from "~/backend/http.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { hotelNameIn } from "~/backend/hotels/hotels.server";
import { CODE_CHALLENGE, CODE_VERIFIER, pkceChallenge, randomToken, sameText, sha256Hex } from "~/session/oauth-crypto";
import { clientSecretMatches, findClient, isRegisteredRedirect, siteHomeFor, type OAuthClient } from "./clients.server";
import { errorPage, signInPage, signOutPage, signUpPage, signedOutPage, accountText, type OAuthParams } from "./pages.server";
import { hashPassword, verifyPassword } from "./passwords";
import { clientAddress, isLimited, recordFailure } from "./rate-limit.server";
import { endSession, issueCode, issuePmsToken, issueToken, redeemCode, revokeToken, sessionMember, startSession, tokenMember, CODE_SECONDS } from "./tokens.server";
import { bearerToken } from "./members.server";
import { readCookie } from "~/server/cookie-header";
import { readForm } from "~/server/forms.server";

const SESSION_COOKIE = "account_session";
const CSRF_COOKIE = "account_csrf";
const COOKIE_ATTRIBUTES = "Path=/account; HttpOnly; Secure; SameSite=Lax";


const sessionCookie = (value: string) => `${SESSION_COOKIE}=${value}; ${COOKIE_ATTRIBUTES}; Max-Age=${30 * 86_400}`;
const clearedSession = `${SESSION_COOKIE}=; ${COOKIE_ATTRIBUTES}; Max-Age=0`;

/** A form's CSRF token: the one of this browser's cookie, or a new one the page sets. */
function csrfFor(request: Request): { token: string; setCookie: string | null } {
  const existing = readCookie(request.headers.get("cookie"), CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { token: existing, setCookie: null };
  const token = randomToken();
  return { token, setCookie: `${CSRF_COOKIE}=${token}; ${COOKIE_ATTRIBUTES}` };
}

function withCookie(response: Response, ...cookies: (string | null)[]): Response {
  for (const cookie of cookies) if (cookie) response.headers.append("set-cookie", cookie);
  return response;
}

/** A POST form of this service: from its own origin (when the browser says) and with its CSRF token. */
function formIsOurs(ctx: BackendContext, form: FormData): boolean {
  const origin = ctx.request.headers.get("origin");
  if (origin && origin !== "null" && origin !== ctx.url.origin) return false;
  const expected = readCookie(ctx.request.headers.get("cookie"), CSRF_COOKIE);
  const given = form.get("csrf");
  return typeof expected === "string" && typeof given === "string" && expected.length === 43 && sameText(expected, given);
}

type OAuthRequest = { ok: true; client: OAuthClient; params: OAuthParams } | { ok: false; response: Response };

/**
 * Checks an authorization request (query of /oauth/authorize, or the hidden fields of a form). An
 * unknown client or an unregistered redirect_uri is answered here, never redirected; other faults
 * go back to the registered redirect_uri as `error=invalid_request`.
 */
async function checkOAuthRequest(ctx: BackendContext, source: URLSearchParams | FormData): Promise<OAuthRequest> {
  const get = (name: string) => {
    const value = source.get(name);
    return typeof value === "string" ? value : null;
  };
  const client = await findClient(ctx.db, get("client_id"), ctx.url, ctx.site.product);
  if (!client) return { ok: false, response: errorPage(ctx.lang, "error.request") };
  const redirectUri = get("redirect_uri");
  if (!isRegisteredRedirect(client, redirectUri)) return { ok: false, response: errorPage(ctx.lang, "error.request") };
  const state = get("state") ?? "";
  const challenge = get("code_challenge") ?? "";
  const valid =
    get("response_type") === "code" &&
    get("role") === "mem" &&
    get("code_challenge_method") === "S256" &&
    CODE_CHALLENGE.test(challenge) &&
    /^[A-Za-z0-9._~-]{16,128}$/.test(state);
  if (!valid) {
    const target = new URL(redirectUri);
    target.searchParams.set("error", "invalid_request");
    if (state && state.length <= 128) target.searchParams.set("state", state);
    return { ok: false, response: new Response(null, { status: 303, headers: { location: target.toString() } }) };
  }
  const scope = (get("scope") ?? "").slice(0, 200);
  return { ok: true, client, params: { client_id: client.clientId, redirect_uri: redirectUri, state, scope, code_challenge: challenge } };
}

/** Sends the browser back to the site with a new code; a state seen before is refused. */
async function redirectWithCode(ctx: BackendContext, params: OAuthParams, memberId: number, sessionHash: string): Promise<Response> {
  const code = await issueCode(
    ctx.db,
    { clientId: params.client_id, state: params.state, memberId, sessionHash, redirectUri: params.redirect_uri, codeChallenge: params.code_challenge, scope: params.scope },
    ctx.now,
  );
  if (!code) return errorPage(ctx.lang, "error.request");
  const target = new URL(params.redirect_uri);
  target.searchParams.set("code", code);
  target.searchParams.set("state", params.state);
  return new Response(null, { status: 303, headers: { location: target.toString() } });
}

function formValues(form: FormData, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "").trim().slice(0, 200)]));
}

/** A posted sign-in or sign-up form: its fields, the authorization request it carries, and the page's CSRF token. */
async function openAccountForm(
  ctx: BackendContext,
): Promise<{ ok: true; form: FormData; client: OAuthClient; params: OAuthParams; csrf: ReturnType<typeof csrfFor> } | { ok: false; response: Response }> {
  const form = await readForm(ctx.request);
  if (!form) return { ok: false, response: errorPage(ctx.lang, "error.request") };
  const checked = await checkOAuthRequest(ctx, form);
  if (!checked.ok) return checked;
  return { ok: true, form, client: checked.client, params: checked.params, csrf: csrfFor(ctx.request) };
}

/** Keeps a wrong email as slow as a wrong password: a hash of a password nobody has. */
const DUMMY_HASH = "100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

async function signIn(ctx: BackendContext): Promise<Response> {
  const opened = await openAccountForm(ctx);
  if (!opened.ok) return opened.response;
  const { form, client, params, csrf } = opened;
  const values = formValues(form, ["email"]);
  const again = (message: string, status: number) =>
    withCookie(signInPage(ctx.lang, hotelNameIn(client.hotel, ctx.lang), params, csrf.token, { values, message }, status), csrf.setCookie);
  if (!formIsOurs(ctx, form)) return again(accountText(ctx.lang, "error.form_expired"), 403);
  const email = (values.email ?? "").toLowerCase();
  const password = String(form.get("password") ?? "");
  const ip = clientAddress(ctx.request);
  if (await isLimited(ctx.db, client.hotel.id, email, ip, ctx.now)) return again(accountText(ctx.lang, "error.too_many"), 429);
  const member = await ctx.db
    .prepare("SELECT id, password_hash FROM members WHERE hotel_id = ? AND email = ?")
    .bind(client.hotel.id, email)
    .first<{ id: number; password_hash: string }>();
  const passwordOk = await verifyPassword(password.slice(0, 200), member?.password_hash || DUMMY_HASH);
  if (!member || !member.password_hash || !passwordOk) {
    await recordFailure(ctx.db, client.hotel.id, email, ip, ctx.now);
    return again(accountText(ctx.lang, "error.credentials"), 401);
  }
  const { session, sessionHash } = await startSession(ctx.db, member.id, ctx.now);
  return withCookie(await redirectWithCode(ctx, params, member.id, sessionHash), sessionCookie(session));
}

const SignUpSchema = v.object({
  last_name: v.pipe(v.string(), v.minLength(1, "error.name"), v.maxLength(50, "error.name")),
  first_name: v.pipe(v.string(), v.minLength(1, "error.name"), v.maxLength(50, "error.name")),
  email: v.pipe(v.string(), v.maxLength(200, "error.email"), v.email("error.email")),
  phone: v.pipe(v.string(), v.regex(/^\+?[\d\s()-]{6,20}$/, "error.phone")),
  password: v.pipe(v.string(), v.minLength(8, "error.password"), v.maxLength(200, "error.password")),
});

async function signUp(ctx: BackendContext): Promise<Response> {
  const opened = await openAccountForm(ctx);
  if (!opened.ok) return opened.response;
  const { form, client, params, csrf } = opened;
  const values = { ...formValues(form, ["last_name", "first_name", "email", "phone"]), password: String(form.get("password") ?? "") };
  const { password: _password, ...shown } = values;
  const again = (state: { errors?: Record<string, string>; message?: string }, status: number) =>
    withCookie(signUpPage(ctx.lang, hotelNameIn(client.hotel, ctx.lang), params, csrf.token, { values: shown, ...state }, status), csrf.setCookie);
  if (!formIsOurs(ctx, form)) return again({ message: accountText(ctx.lang, "error.form_expired") }, 403);
  const parsed = v.safeParse(SignUpSchema, values);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.issues) {
      const name = v.getDotPath(issue);
      if (name && !errors[name]) errors[name] = accountText(ctx.lang, issue.message as Parameters<typeof accountText>[1]);
    }
    return again({ errors }, 400);
  }
  const input = parsed.output;
  const inserted = await ctx.db
    .prepare(
      `INSERT INTO members (hotel_id, email, first_name, last_name, phone, password_hash) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (hotel_id, email) DO NOTHING RETURNING id`,
    )
    .bind(client.hotel.id, input.email.toLowerCase(), input.first_name, input.last_name, input.phone.trim(), await hashPassword(input.password))
    .first<{ id: number }>();
  if (!inserted) return again({ errors: { email: accountText(ctx.lang, "error.email_taken") } }, 409);
  const { session, sessionHash } = await startSession(ctx.db, inserted.id, ctx.now);
  return withCookie(await redirectWithCode(ctx, params, inserted.id, sessionHash), sessionCookie(session));
}

/** A body of the token-style calls: a form (the OAuth convention) or JSON. */
async function readFields(request: Request): Promise<Record<string, unknown>> {
  if ((request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    // An empty or broken form names no grant: the same refusal as a wrong one.
    const form = (await readForm(request)) ?? new FormData();
    return Object.fromEntries([...form.entries()].map(([key, value]) => [key, typeof value === "string" ? value : ""]));
  }
  const body = await readJsonBody(request);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ApiError(400, "body_not_json");
  return body as Record<string, unknown>;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

async function exchangeCode(ctx: BackendContext): Promise<Response> {
  const body = await readFields(ctx.request);
  if (text(body.grant_type) !== "authorization_code") throw new ApiError(400, "unsupported_grant_type", {}, "grant_type");
  const clientId = text(body.client_id).toLowerCase();
  const client = await findClient(ctx.db, clientId, ctx.url, ctx.site.product);
  if (!client || !(await clientSecretMatches(ctx.signingSecret, clientId, text(body.client_secret)))) throw new ApiError(401, "invalid_client", {}, "client_id");
  const code = text(body.code);
  const redeemed = /^[A-Za-z0-9_-]{43}$/.test(code) ? await redeemCode(ctx.db, code, ctx.now) : null;
  if (!redeemed) throw new ApiError(400, "invalid_grant", {}, "code");
  // The code is spent now, whatever follows: a wrong verifier cannot be retried with the same code.
  if (redeemed.client_id !== client.clientId) throw new ApiError(400, "invalid_grant", {}, "client_id");
  if (text(body.redirect_uri) !== redeemed.redirect_uri) throw new ApiError(400, "invalid_grant", {}, "redirect_uri");
  const verifier = text(body.code_verifier);
  if (!CODE_VERIFIER.test(verifier) || !sameText(await pkceChallenge(verifier), redeemed.code_challenge)) {
    throw new ApiError(400, "invalid_grant", {}, "code_verifier");
  }
  const token = await issueToken(ctx.db, redeemed.member_id, redeemed.session_hash, ctx.now);
  return ok({ access_token: token, token_type: "Bearer", expires_in: 30 * 86_400, scope: redeemed.scope });
}

async function requireTokenMember(ctx: BackendContext) {
  const token = bearerToken(ctx.request);
  const member = token ? await tokenMember(ctx.db, token, ctx.now) : null;
  if (!token || !member) throw new ApiError(401, "invalid_token");
  return { token, member };
}

async function oneTap(ctx: BackendContext): Promise<Response> {
  const { token, member } = await requireTokenMember(ctx);
  const body = await readFields(ctx.request);
  if (!sameText(text(body.token), token)) throw new ApiError(401, "invalid_token", {}, "token");
  const client = await findClient(ctx.db, text(body.client), ctx.url, ctx.site.product);
  if (!client) throw new ApiError(401, "invalid_client", {}, "client");
  if (client.hotel.id !== member.hotel_id) throw new ApiError(403, "wrong_hotel", {}, "client");
  return ok({ client: client.clientId, member: { email: member.email, first_name: member.first_name, last_name: member.last_name } });
}

async function pmsExchange(ctx: BackendContext): Promise<Response> {
  const { member } = await requireTokenMember(ctx);
  const body = await readFields(ctx.request);
  const hotelId = Number(body.hotel_id);
  if (!Number.isInteger(hotelId) || hotelId <= 0) throw new ApiError(400, "invalid_field", { field: "hotel_id" }, "hotel_id");
  if (hotelId !== member.hotel_id) throw new ApiError(403, "wrong_hotel", {}, "hotel_id");
  const hotel = await ctx.db.prepare("SELECT close_member_system FROM hotels WHERE id = ?").bind(hotelId).first<{ close_member_system: number }>();
  if (!hotel || hotel.close_member_system === 1) throw new ApiError(403, "member_system_closed", {}, "hotel_id");
  const { token, expiresIn } = await issuePmsToken(ctx.db, member, ctx.now);
  return ok({ access_token: token, token_type: "Bearer", expires_in: expiresIn, hotel_id: hotelId });
}

async function endBrowserSession(ctx: BackendContext): Promise<void> {
  const session = readCookie(ctx.request.headers.get("cookie"), SESSION_COOKIE);
  if (!session || !/^[A-Za-z0-9_-]{43}$/.test(session)) return;
  await endSession(ctx.db, await sha256Hex(session));
}

const JSONP_CALLBACK = /^[A-Za-z_$][A-Za-z0-9_$.]{0,63}$/;

export const accountRoutes: BackendRoute[] = [
    {
      method: "GET",
      path: "/account/oauth/authorize",
      handler: async (ctx) => {
        const checked = await checkOAuthRequest(ctx, ctx.url.searchParams);
        if (!checked.ok) return checked.response;
        const signedIn = await sessionMember(ctx.db, readCookie(ctx.request.headers.get("cookie"), SESSION_COOKIE), checked.client.hotel.id, ctx.now);
        if (signedIn) return redirectWithCode(ctx, checked.params, signedIn.memberId, signedIn.sessionHash);
        const csrf = csrfFor(ctx.request);
        return withCookie(signInPage(ctx.lang, hotelNameIn(checked.client.hotel, ctx.lang), checked.params, csrf.token), csrf.setCookie);
      },
    },
    { method: "POST", path: "/account/signin", handler: (ctx) => signIn(ctx) },
    {
      method: "GET",
      path: "/account/signup",
      handler: async (ctx) => {
        const checked = await checkOAuthRequest(ctx, ctx.url.searchParams);
        if (!checked.ok) return checked.response;
        const csrf = csrfFor(ctx.request);
        return withCookie(signUpPage(ctx.lang, hotelNameIn(checked.client.hotel, ctx.lang), checked.params, csrf.token), csrf.setCookie);
      },
    },
    { method: "POST", path: "/account/signup", handler: (ctx) => signUp(ctx) },
    { method: "POST", path: "/account/oauth/token", handler: (ctx) => exchangeCode(ctx) },
    { method: "POST", path: "/account/api/v1/onetap", handler: (ctx) => oneTap(ctx) },
    {
      // Revokes the Bearer member token, the PMS tokens made from it and its sign-in session.
      method: "POST",
      path: "/account/oauth/revoke",
      handler: async (ctx) => {
        const token = bearerToken(ctx.request);
        const member = token ? await tokenMember(ctx.db, token, ctx.now) : null;
        if (member) await revokeToken(ctx.db, member);
        return ok({ revoked: true });
      },
    },
    {
      // JSONP for JavaScript clients: ends this browser's sign-in session at the service.
      method: "GET",
      path: "/account/logout/json",
      handler: async (ctx) => {
        const callback = ctx.url.searchParams.get("callback") ?? "callback";
        if (!JSONP_CALLBACK.test(callback)) throw new ApiError(400, "invalid_field", { field: "callback" }, "callback");
        await endBrowserSession(ctx);
        return new Response(`/**/${callback}(${JSON.stringify({ success: true, msg: { code: "ok", message: "" } })});`, {
          headers: { "content-type": "application/javascript; charset=utf-8", "cache-control": "no-store", "set-cookie": clearedSession },
        });
      },
    },
    {
      // The page with the sign-out form (client_id and the site's home to return to).
      method: "GET",
      path: "/account/logout",
      handler: async (ctx) => {
        const csrf = csrfFor(ctx.request);
        const clientId = (ctx.url.searchParams.get("client_id") ?? "").slice(0, 253);
        const redirectUri = (ctx.url.searchParams.get("redirect_uri") ?? "").slice(0, 500);
        return withCookie(signOutPage(ctx.lang, clientId, redirectUri, csrf.token), csrf.setCookie);
      },
    },
    {
      // The sign-out form without JavaScript: from this service's own page, with its CSRF token.
      method: "POST",
      path: "/account/logout",
      handler: async (ctx) => {
        const form = (await readForm(ctx.request)) ?? new FormData();
        if (!formIsOurs(ctx, form)) return errorPage(ctx.lang, "error.form_expired", 403);
        await endBrowserSession(ctx);
        const client = await findClient(ctx.db, String(form.get("client_id") ?? ""), ctx.url, ctx.site.product);
        const home = client ? siteHomeFor(client, String(form.get("redirect_uri") ?? "")) : null;
        const response = home ? new Response(null, { status: 303, headers: { location: home } }) : signedOutPage(ctx.lang, null);
        return withCookie(response, clearedSession);
      },
    },
    { method: "POST", path: "/pms/oauth/token/exchange", handler: (ctx) => pmsExchange(ctx) },
];

export { CODE_SECONDS };
