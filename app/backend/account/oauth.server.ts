/**
 * The built-in account service ({account}) and the PMS token exchange ({pms}) of spec §7 Login:
 * sign-in and sign-up pages, /oauth/authorize (PKCE S256, one-time state), /oauth/token (one-time,
 * short-lived codes), /api/v1/onetap, /oauth/revoke, /logout/json (JSONP), the POST logout form and
 * {pms}/oauth/token/exchange. Decision 035.
 */
import * as v from "valibot";
import { ApiError, MAX_BODY_BYTES, ok, readJsonBody } from "~/backend/http.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { hotelNameIn } from "~/backend/hotels/hotels.server";
import { CODE_CHALLENGE, CODE_VERIFIER, pkceChallenge } from "~/lib/oauth-crypto";
import { safeEqual, sha256Hex } from "~/lib/crypto";
import { clientSecretMatches, findClient, isRegisteredRedirect, siteHomeFor, type OAuthClient } from "./clients.server";
import { errorPage, signInPage, signOutPage, signUpPage, signedOutPage, accountText, type OAuthParams } from "./pages.server";
import { verifyPassword } from "./passwords";
import {
  answerChallenge,
  callerKey,
  callerNetwork,
  clearSignInFailures,
  newChallenge,
  recordSignInFailure,
  signInRisk,
  captchaText,
} from "~/backend/captcha/captcha.server";
import type { ChallengeState } from "~/backend/captcha/fieldset";
import {
  endSession,
  issueCode,
  issuePmsToken,
  issueToken,
  redeemCode,
  revokeToken,
  sessionMember,
  startSession,
  tokenMember,
  CODE_SECONDS,
} from "./tokens.server";
import { bearerToken } from "./members.server";
import {
  confirmPage,
  confirmSignUp,
  requestSignUp,
  SignUpSchema,
  signUpCheck,
  signUpHotel,
  signUpReason,
  signUpSentPage,
} from "./signup.server";
import { fromOwnOrigin } from "./initiator";
import { invalidLinkPage, requestSignInLink, signInLinkPage, signInLinkSentPage, spendSignInLink } from "./signin-link.server";
import { apiMessage } from "~/backend/messages";
import { readCookie } from "~/lib/cookie-header";
import { csrfMatches, csrfTokenFor } from "~/lib/csrf";
import { readForm } from "~/platform/forms.server";

const SESSION_COOKIE = "account_session";
const CSRF_COOKIE = "account_csrf";
const COOKIE_ATTRIBUTES = "Path=/account; HttpOnly; Secure; SameSite=Lax";

const sessionCookie = (value: string) => `${SESSION_COOKIE}=${value}; ${COOKIE_ATTRIBUTES}; Max-Age=${30 * 86_400}`;
const clearedSession = `${SESSION_COOKIE}=; ${COOKIE_ATTRIBUTES}; Max-Age=0`;

/** A form's CSRF token: the one of this browser's cookie, or a new one the page sets. */
function csrfFor(request: Request): { token: string; setCookie: string | null } {
  const { token, fresh } = csrfTokenFor(readCookie(request.headers.get("cookie"), CSRF_COOKIE));
  return { token, setCookie: fresh ? `${CSRF_COOKIE}=${token}; ${COOKIE_ATTRIBUTES}` : null };
}

function withCookie(response: Response, ...cookies: (string | null)[]): Response {
  for (const cookie of cookies) if (cookie) response.headers.append("set-cookie", cookie);
  return response;
}

/** A POST form of this service: from its own origin (when the browser says) and with its CSRF token. */
function formIsOurs(ctx: BackendContext, form: FormData): boolean {
  const origin = ctx.request.headers.get("origin");
  if (origin && origin !== "null" && origin !== ctx.url.origin) return false;
  return csrfMatches(readCookie(ctx.request.headers.get("cookie"), CSRF_COOKIE), form);
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
    {
      clientId: params.client_id,
      state: params.state,
      memberId,
      sessionHash,
      redirectUri: params.redirect_uri,
      codeChallenge: params.code_challenge,
      scope: params.scope,
    },
    ctx.now,
  );
  if (!code) return errorPage(ctx.lang, "error.request");
  const target = new URL(params.redirect_uri);
  target.searchParams.set("code", code);
  target.searchParams.set("state", params.state);
  return new Response(null, { status: 303, headers: { location: target.toString() } });
}

function formValues(form: FormData, names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      String(form.get(name) ?? "")
        .trim()
        .slice(0, 200),
    ]),
  );
}

/** A posted sign-in or sign-up form: its fields, the authorization request it carries, and the page's CSRF token. */
async function openAccountForm(
  ctx: BackendContext,
): Promise<
  | { ok: true; form: FormData; client: OAuthClient; params: OAuthParams; csrf: ReturnType<typeof csrfFor> }
  | { ok: false; response: Response }
> {
  const form = await readForm(ctx.request);
  if (!form) return { ok: false, response: errorPage(ctx.lang, "error.request") };
  const checked = await checkOAuthRequest(ctx, form);
  if (!checked.ok) return checked;
  return { ok: true, form, client: checked.client, params: checked.params, csrf: csrfFor(ctx.request) };
}

/** Keeps a wrong email as slow as a wrong password: a hash of a password nobody has. */
const DUMMY_HASH = "100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/**
 * The challenge a form carries, checked before anything else of the form (decision 070): "passed",
 * or the state to show again with a new challenge and why. An empty answer spends nothing.
 */
async function formChallenge(
  ctx: BackendContext,
  form: FormData,
  hotelId: number,
  action: "sign_in" | "sign_up",
): Promise<"passed" | "refused" | ChallengeState> {
  const token = String(form.get("captcha_token") ?? "");
  const answer = String(form.get("captcha_answer") ?? "").trim();
  const again = async (error?: string): Promise<ChallengeState> => ({ challenge: await newChallenge(ctx, hotelId, action), error });
  if (form.get("captcha_new")) return again();
  if (!token) return again();
  if (!answer) return again(captchaText(ctx.lang, "error.required"));
  const result = await answerChallenge(ctx, hotelId, action, token.slice(0, 400), answer);
  if (result === "passed" || result === "refused") return result;
  return again(captchaText(ctx.lang, result === "wrong" ? "error.wrong" : "error.expired"));
}

async function signIn(ctx: BackendContext): Promise<Response> {
  const opened = await openAccountForm(ctx);
  if (!opened.ok) return opened.response;
  const { form, client, params, csrf } = opened;
  const values = formValues(form, ["email"]);
  const again = (message: string | undefined, status: number, captcha?: ChallengeState) =>
    withCookie(signInPage(ctx.lang, client.hotel, params, csrf.token, { values, message, captcha }, status), csrf.setCookie);
  if (!formIsOurs(ctx, form)) return again(accountText(ctx.lang, "error.form_expired"), 403);
  const email = (values.email ?? "").toLowerCase();
  const password = String(form.get("password") ?? "");
  const caller = callerKey(ctx);
  const network = callerNetwork(ctx);
  const hotel = client.hotel;
  // Failed sign-ins are counted per account and caller: past a few, this caller (only) meets a
  // captcha before the password is even looked at (decision 070); past a ceiling a solved captcha
  // does not lift, this caller's password sign-ins to the account are refused, and the emailed
  // link is the way in (decision 132). Nobody is locked out.
  const risk = await signInRisk(ctx.db, hotel, email, caller, network, ctx.now);
  if (risk === "refuse") return again(accountText(ctx.lang, "error.signin_paused"), 429);
  if (form.get("captcha_new") || risk === "captcha") {
    const checked = await formChallenge(ctx, form, hotel.id, "sign_in");
    if (checked === "refused") return again(accountText(ctx.lang, "error.too_many"), 429);
    if (checked !== "passed") {
      const reason = checked.error ? undefined : captchaText(ctx.lang, "needed.signin");
      return again(undefined, form.get("captcha_new") ? 200 : 400, { ...checked, reason });
    }
  }
  const member = await ctx.db
    .prepare("SELECT id, password_hash FROM members WHERE hotel_id = ? AND email = ?")
    .bind(hotel.id, email)
    .first<{ id: number; password_hash: string }>();
  const passwordOk = await verifyPassword(password.slice(0, 200), member?.password_hash || DUMMY_HASH);
  if (!member || !member.password_hash || !passwordOk) {
    await recordSignInFailure(ctx.db, hotel.id, email, caller, network, ctx.now);
    const after = await signInRisk(ctx.db, hotel, email, caller, network, ctx.now);
    if (after === "refuse") return again(accountText(ctx.lang, "error.signin_paused"), 429);
    const captcha =
      after === "captcha"
        ? { challenge: await newChallenge(ctx, hotel.id, "sign_in"), reason: captchaText(ctx.lang, "needed.signin") }
        : undefined;
    return again(accountText(ctx.lang, "error.credentials"), 401, captcha);
  }
  await clearSignInFailures(ctx.db, hotel.id, email, caller);
  const { session, sessionHash } = await startSession(ctx.db, member.id, ctx.now);
  return withCookie(await redirectWithCode(ctx, params, member.id, sessionHash), sessionCookie(session));
}

/** "Email me a sign-in link", a second button of the sign-in form: the same answer for any address. */
async function askForSignInLink(ctx: BackendContext): Promise<Response> {
  const opened = await openAccountForm(ctx);
  if (!opened.ok) return opened.response;
  const { form, client, params, csrf } = opened;
  const values = formValues(form, ["email"]);
  const again = (message: string, status: number) =>
    withCookie(signInPage(ctx.lang, client.hotel, params, csrf.token, { values, message }, status), csrf.setCookie);
  if (!formIsOurs(ctx, form)) return again(accountText(ctx.lang, "error.form_expired"), 403);
  const result = await requestSignInLink(ctx, client.hotel, values.email ?? "");
  if (result === "invalid_email") return again(accountText(ctx.lang, "error.email"), 400);
  if (result === "refused") return again(accountText(ctx.lang, "error.too_many"), 429);
  return withCookie(signInLinkSentPage(ctx, hotelNameIn(client.hotel, ctx.lang), values.email ?? ""), csrf.setCookie);
}

/** The emailed link's button: spends the link, starts the member's session and goes on to the site's sign-in. */
async function followSignInLink(ctx: BackendContext): Promise<Response> {
  const form = (await readForm(ctx.request)) ?? new FormData();
  if (!formIsOurs(ctx, form)) return errorPage(ctx.lang, "error.form_expired", 403);
  const spent = await spendSignInLink(ctx, String(form.get("token") ?? "").slice(0, 100));
  if (!spent) return invalidLinkPage(ctx);
  // Whoever reads the account's mail starts afresh from here, as with a right password.
  await clearSignInFailures(ctx.db, spent.hotelId, spent.email, callerKey(ctx));
  const { session } = await startSession(ctx.db, spent.memberId, ctx.now);
  return withCookie(
    new Response(null, { status: 303, headers: { location: spent.next, "cache-control": "no-store" } }),
    sessionCookie(session),
  );
}

async function signUp(ctx: BackendContext): Promise<Response> {
  const opened = await openAccountForm(ctx);
  if (!opened.ok) return opened.response;
  const { form, client, params, csrf } = opened;
  const values = { ...formValues(form, ["last_name", "first_name", "email", "phone"]), password: String(form.get("password") ?? "") };
  const { password: _password, ...shown } = values;
  const hotelName = hotelNameIn(client.hotel, ctx.lang);
  const again = (state: { errors?: Record<string, string>; message?: string; captcha?: ChallengeState }, status: number) =>
    withCookie(signUpPage(ctx.lang, client.hotel, params, csrf.token, { values: shown, ...state }, status), csrf.setCookie);
  if (!formIsOurs(ctx, form)) return again({ message: accountText(ctx.lang, "error.form_expired") }, 403);
  // A burst of sign-ups from one caller: a captcha, then a refusal (decision 071).
  const risk = await signUpCheck(ctx, client.hotel);
  if (risk === "refuse") return again({ message: accountText(ctx.lang, "error.too_many_signups") }, 429);
  const parsed = v.safeParse(SignUpSchema, values);
  const errors: Record<string, string> = {};
  for (const issue of parsed.issues ?? []) {
    const name = v.getDotPath(issue);
    if (name && !errors[name]) errors[name] = accountText(ctx.lang, issue.message as Parameters<typeof accountText>[1]);
  }
  if (risk === "captcha" || form.get("captcha_new")) {
    // The fields first: a challenge is spent only on a form that can then be sent.
    const checked = parsed.success
      ? await formChallenge(ctx, form, client.hotel.id, "sign_up")
      : { challenge: await newChallenge(ctx, client.hotel.id, "sign_up") };
    if (checked === "refused") return again({ message: accountText(ctx.lang, "error.too_many") }, 429);
    if (checked !== "passed") {
      const status = form.get("captcha_new") && parsed.success ? 200 : 400;
      return again({ errors, captcha: "error" in checked && checked.error ? checked : { ...checked, ...signUpReason(ctx) } }, status);
    }
  }
  if (!parsed.success) return again({ errors }, 400);
  // The same answer whether the address is new or already a member: nobody learns who is one.
  await requestSignUp(ctx, client.hotel, parsed.output);
  return withCookie(signUpSentPage(ctx, hotelName, parsed.output.email), csrf.setCookie);
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

/** RFC 6749 §5.1 and §5.2: a token endpoint's answer is never cached, by anyone. */
const OAUTH_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", pragma: "no-cache" };

type OAuthErrorCode = "invalid_request" | "invalid_client" | "invalid_grant" | "unsupported_grant_type";

/** An RFC 6749 §5.2 refusal of the token endpoint: `{ error, error_description }`, never the site envelope. */
class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** The client authenticated with HTTP Basic: a 401 must name the scheme (RFC 6749 §5.2). */
    readonly basic = false,
  ) {
    super(error);
  }
}

function oauthErrorResponse(error: OAuthError): Response {
  const status = error.error === "invalid_client" ? 401 : 400;
  const headers: Record<string, string> = { ...OAUTH_HEADERS };
  if (status === 401 && error.basic) headers["www-authenticate"] = `Basic realm="account", error="invalid_client"`;
  return new Response(JSON.stringify({ error: error.error, error_description: error.description }), { status, headers });
}

/** RFC 6749 §2.3.1: HTTP Basic carries the form-urlencoded client_id and client_secret. */
function basicCredentials(request: Request): { clientId: string; clientSecret: string } | null | "malformed" {
  const header = (request.headers.get("authorization") ?? "").trim();
  // Another scheme (a Bearer token a client sends along) is not client authentication.
  if (!/^Basic(\s|$)/i.test(header)) return null;
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)$/i.exec(header);
  if (!match?.[1]) return "malformed";
  try {
    const bytes = Uint8Array.from(atob(match[1]), (char) => char.charCodeAt(0));
    const pair = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    const colon = pair.indexOf(":");
    if (colon < 0) return "malformed";
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    return { clientId: decode(pair.slice(0, colon)), clientSecret: decode(pair.slice(colon + 1)) };
  } catch {
    return "malformed";
  }
}

/** The token request's parameters: a form (RFC 6749 §4.1.3) or, as the site once sent it, JSON. A repeated parameter is refused. */
async function readTokenRequest(request: Request): Promise<Record<string, string>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (contentType.includes("application/x-www-form-urlencoded")) {
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > MAX_BODY_BYTES) throw new OAuthError("invalid_request", "The request is too large.");
    const raw = await request.text().catch(() => null);
    if (raw === null || raw.length > MAX_BODY_BYTES) throw new OAuthError("invalid_request", "The request body could not be read.");
    const params = new URLSearchParams(raw);
    const fields: Record<string, string> = {};
    for (const [key, value] of params) {
      if (key in fields) throw new OAuthError("invalid_request", `The parameter ${key} is given more than once.`);
      fields[key] = value;
    }
    return fields;
  }
  let body: unknown;
  try {
    body = await readJsonBody(request);
  } catch {
    throw new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded.");
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, text(value)]));
}

/** Who is asking: client_secret_basic or client_secret_post, never both (RFC 6749 §2.3). */
async function authenticateClient(ctx: BackendContext, body: Record<string, string>): Promise<OAuthClient> {
  const basic = basicCredentials(ctx.request);
  if (basic === "malformed") throw new OAuthError("invalid_client", "The Authorization header is not valid HTTP Basic.", true);
  if (basic && body.client_secret !== undefined)
    throw new OAuthError("invalid_request", "Use one way to authenticate the client, not two.");
  if (basic && body.client_id !== undefined && body.client_id !== basic.clientId)
    throw new OAuthError("invalid_request", "client_id differs from the authenticated client.");
  const clientId = (basic?.clientId ?? body.client_id ?? "").toLowerCase();
  const secret = basic?.clientSecret ?? body.client_secret ?? "";
  if (!clientId) throw new OAuthError("invalid_request", "client_id is missing.");
  const client = await findClient(ctx.db, clientId, ctx.url, ctx.site.product);
  if (!client || !secret || !(await clientSecretMatches(ctx.signingSecret, clientId, secret))) {
    throw new OAuthError("invalid_client", "The client is unknown or its secret is wrong.", Boolean(basic));
  }
  return client;
}

/**
 * POST /account/oauth/token, as RFC 6749 §4.1.3 and §5 define it (with RFC 7636's verifier), so any
 * OAuth client can use it: a plain JSON token answer or `{ error, error_description }`, never cached.
 */
async function exchangeCode(ctx: BackendContext): Promise<Response> {
  try {
    const body = await readTokenRequest(ctx.request);
    const grantType = body.grant_type ?? "";
    if (!grantType) throw new OAuthError("invalid_request", "grant_type is missing.");
    if (grantType !== "authorization_code")
      throw new OAuthError("unsupported_grant_type", "Only the authorization_code grant is supported.");
    const client = await authenticateClient(ctx, body);
    const code = body.code ?? "";
    if (!code) throw new OAuthError("invalid_request", "code is missing.");
    if (!body.redirect_uri) throw new OAuthError("invalid_request", "redirect_uri is missing.");
    const redeemed = /^[A-Za-z0-9_-]{43}$/.test(code) ? await redeemCode(ctx.db, code, ctx.now) : null;
    if (!redeemed) throw new OAuthError("invalid_grant", "The code is unknown, used or expired.");
    // The code is spent now, whatever follows: a wrong verifier cannot be retried with the same code.
    if (redeemed.client_id !== client.clientId) throw new OAuthError("invalid_grant", "The code was issued to another client.");
    if (body.redirect_uri !== redeemed.redirect_uri)
      throw new OAuthError("invalid_grant", "redirect_uri differs from the authorization request's.");
    const verifier = body.code_verifier ?? "";
    if (!CODE_VERIFIER.test(verifier) || !safeEqual(await pkceChallenge(verifier), redeemed.code_challenge)) {
      throw new OAuthError("invalid_grant", "code_verifier is missing or does not match the code_challenge.");
    }
    const token = await issueToken(ctx.db, redeemed.member_id, redeemed.session_hash, ctx.now);
    const answer: Record<string, string | number> = { access_token: token, token_type: "Bearer", expires_in: 30 * 86_400 };
    if (redeemed.scope) answer.scope = redeemed.scope;
    return new Response(JSON.stringify(answer), { status: 200, headers: OAUTH_HEADERS });
  } catch (error) {
    if (error instanceof OAuthError) return oauthErrorResponse(error);
    throw error;
  }
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
  if (!safeEqual(text(body.token), token)) throw new ApiError(401, "invalid_token", {}, "token");
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
  const hotel = await ctx.db
    .prepare("SELECT close_member_system FROM hotels WHERE id = ?")
    .bind(hotelId)
    .first<{ close_member_system: number }>();
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
      const signedIn = await sessionMember(
        ctx.db,
        readCookie(ctx.request.headers.get("cookie"), SESSION_COOKIE),
        checked.client.hotel.id,
        ctx.now,
      );
      if (signedIn) return redirectWithCode(ctx, checked.params, signedIn.memberId, signedIn.sessionHash);
      const csrf = csrfFor(ctx.request);
      return withCookie(signInPage(ctx.lang, checked.client.hotel, checked.params, csrf.token), csrf.setCookie);
    },
  },
  { method: "POST", path: "/account/signin", handler: (ctx) => signIn(ctx) },
  { method: "POST", path: "/account/signin/email-link", handler: (ctx) => askForSignInLink(ctx) },
  {
    // The emailed sign-in link: a button; its POST signs in (decision 132).
    method: "GET",
    path: "/account/signin/link",
    handler: async (ctx) => {
      const csrf = csrfFor(ctx.request);
      const token = (ctx.url.searchParams.get("token") ?? "").slice(0, 100);
      return withCookie(await signInLinkPage(ctx, token, csrf.token), csrf.setCookie);
    },
  },
  { method: "POST", path: "/account/signin/link", handler: (ctx) => followSignInLink(ctx) },
  {
    method: "GET",
    path: "/account/signup",
    handler: async (ctx) => {
      const checked = await checkOAuthRequest(ctx, ctx.url.searchParams);
      if (!checked.ok) return checked.response;
      const csrf = csrfFor(ctx.request);
      return withCookie(signUpPage(ctx.lang, checked.client.hotel, checked.params, csrf.token), csrf.setCookie);
    },
  },
  { method: "POST", path: "/account/signup", handler: (ctx) => signUp(ctx) },
  {
    // The emailed sign-up link: a form to finish; its POST makes (or claims) the account.
    method: "GET",
    path: "/account/signup/confirm",
    handler: async (ctx) => {
      const token = (ctx.url.searchParams.get("token") ?? "").slice(0, 100);
      const csrf = csrfFor(ctx.request);
      return withCookie(confirmPage(ctx, await signUpHotel(ctx, token), token, csrf.token), csrf.setCookie);
    },
  },
  {
    method: "POST",
    path: "/account/signup/confirm",
    handler: async (ctx) => {
      const form = (await readForm(ctx.request)) ?? new FormData();
      if (!formIsOurs(ctx, form)) return errorPage(ctx.lang, "error.form_expired", 403);
      return confirmSignUp(ctx, String(form.get("token") ?? "").slice(0, 100));
    },
  },
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
      const headers = { "content-type": "application/javascript; charset=utf-8", "cache-control": "no-store" };
      // Only the service's own pages sign out this way: a link or redirect from another site
      // carries the SameSite=Lax session cookie too (decision 051). The sign-out form stays open to all.
      if (!fromOwnOrigin(ctx.request.headers, ctx.url.origin)) {
        const message = apiMessage("cross_site_request", ctx.lang);
        const refused = { success: false, msg: { code: "cross_site_request", message, extrainfo: { message } } };
        return new Response(`/**/${callback}(${JSON.stringify(refused)});`, { status: 403, headers });
      }
      await endBrowserSession(ctx);
      return new Response(`/**/${callback}(${JSON.stringify({ success: true, msg: { code: "ok", message: "" } })});`, {
        headers: { ...headers, "set-cookie": clearedSession },
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
