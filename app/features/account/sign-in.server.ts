/**
 * Signing in on the site (spec §2, §7 Login, §8): "Sign in" saves where the guest was
 * (login_back_url) and sends them to {account}/oauth/authorize with a one-time state and a PKCE
 * challenge; /{product}/oauth/callback exchanges the code for the member token, asks one-tap who it
 * names, exchanges it at {pms} for this hotel's token, saves mem_token and pms_token and returns to
 * the saved address or the home page. Failures remove the tokens (spec §8). Decision 036.
 */
import { formatPersonName } from "~/i18n/names";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, localizePath, type Language } from "~/i18n/languages";
import { safeRedirect } from "~/platform/redirects.server";
import { safeBackPath } from "./back-url";
import { builtInClientSecret, pkceChallenge } from "~/lib/oauth-crypto";
import { randomToken, safeEqual } from "~/lib/crypto";
import {
  clearedTokenCookies,
  loginBackCookie,
  oauthStateCookie,
  readBackPath,
  readPendingSignIn,
  signedInCookies,
  signOutToken,
} from "~/platform/session.server";

/** Why a sign-in did not finish, as the callback page names it (never text from the address). */
export const SIGN_IN_FAILURES = [
  "exchange",
  "state",
  "invalid_grant",
  "invalid_client",
  "invalid_request",
  "access_denied",
  "other",
] as const;
export type SignInFailure = (typeof SIGN_IN_FAILURES)[number];

export function isSignInFailure(value: unknown): value is SignInFailure {
  return typeof value === "string" && (SIGN_IN_FAILURES as readonly string[]).includes(value);
}

type App = AppLoadContext["app"];

/** Paths a guest is never sent back to after signing in: the sign-in steps themselves. */
export function signInPaths(product: string): string[] {
  return [`/${product}/oauth`, `/${product}/login`, `/${product}/logout`, "/account", "/api", "/pms"].flatMap((path) => [
    path,
    ...LANGUAGES.filter((lang) => lang !== DEFAULT_LANGUAGE).map((lang) => `/${lang}${path}`),
  ]);
}

/** Where the browser finds the account service ({account}): its own origin when it is built in. */
export function accountPublicBase(app: App, siteOrigin: string): string {
  if (app.env.ACCOUNT_ORIGIN) return app.env.ACCOUNT_ORIGIN;
  if (app.env.HOTEL_API_ORIGIN) return `${app.env.HOTEL_API_ORIGIN}/account`;
  return `${siteOrigin}/account`;
}

/** The site's OAuth client: configured for an external account service, else the built-in one's. */
async function clientCredentials(app: App): Promise<{ clientId: string; clientSecret: string }> {
  if (app.env.ACCOUNT_CLIENT_ID && app.env.ACCOUNT_CLIENT_SECRET)
    return { clientId: app.env.ACCOUNT_CLIENT_ID, clientSecret: app.env.ACCOUNT_CLIENT_SECRET };
  return { clientId: app.domain, clientSecret: await builtInClientSecret(app.env.SESSION_SECRET, app.domain) };
}

/** The site's "Sign in" address for a page. */
export function signInHref(product: string, lang: Language, back: string): string {
  return `${localizePath(`/${product}/login`, lang)}?back=${encodeURIComponent(back)}`;
}

/** GET /{product}/login?back=…: remember where the guest was and go to the account service. */
export async function startSignIn(app: App, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const product = app.env.PRODUCT;
  const back = safeBackPath(url.searchParams.get("back"), signInPaths(product)) ?? localizePath("/", app.lang);
  const state = randomToken();
  const verifier = randomToken();
  const redirectUri = `${url.origin}/${product}/oauth/callback`;
  const authorize = new URL(`${accountPublicBase(app, url.origin)}/oauth/authorize`);
  for (const [key, value] of Object.entries({
    client_id: (await clientCredentials(app)).clientId,
    response_type: "code",
    redirect_uri: redirectUri,
    scope: "member",
    role: "mem",
    state,
    code_challenge: await pkceChallenge(verifier),
    code_challenge_method: "S256",
    lang: app.lang,
  })) {
    authorize.searchParams.set(key, value);
  }
  const headers = new Headers({ location: authorize.toString(), "cache-control": "no-store" });
  headers.append("set-cookie", await loginBackCookie(app.env).serialize({ domain: app.domain, path: back }));
  headers.append(
    "set-cookie",
    await oauthStateCookie(app.env).serialize({ domain: app.domain, state, verifier, redirectUri, lang: app.lang }),
  );
  return new Response(null, { status: 303, headers });
}

function failureCode(error: unknown): SignInFailure {
  if (error instanceof HotelApiError && isSignInFailure(error.code)) return error.code;
  return "other";
}

/**
 * GET /{product}/oauth/callback?code&state: finish signing in. Every outcome spends the pending
 * sign-in (its state is one-time). A failure removes the tokens and shows why, in the language
 * the guest signed in from.
 */
export async function finishSignIn(app: App, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const product = app.env.PRODUCT;
  const pending = await readPendingSignIn(request, app.env, app.domain);
  const lang: Language = pending && isLanguage(pending.lang) ? pending.lang : app.lang;
  const fail = async (reason: SignInFailure) => {
    const headers = new Headers({ "cache-control": "no-store" });
    // Spec §8 removes the tokens of a sign-in that failed. Without a sign-in under way the callback
    // was not ours to finish (a forged or replayed link): it signs nobody out.
    if (pending) for (const cookie of await clearedTokenCookies(app.env)) headers.append("set-cookie", cookie);
    headers.append("set-cookie", await oauthStateCookie(app.env).serialize("", { maxAge: 0 }));
    return safeRedirect(`${localizePath(`/${product}/oauth/callback`, lang)}?error=${reason}`, request, { status: 303, headers });
  };
  const code = url.searchParams.get("code");
  const state = url.searchParams.get("state");
  const asked = url.searchParams.get("error");
  if (asked) return fail(isSignInFailure(asked) ? asked : "other");
  if (!pending || !state || state !== pending.state) return fail("state");
  if (!code) return fail("invalid_request");
  let memToken: string;
  try {
    const { clientId, clientSecret } = await clientCredentials(app);
    memToken = (
      await app.api.exchangeCode({
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uri: pending.redirectUri,
        code,
        code_verifier: pending.verifier,
      })
    ).access_token;
  } catch (error) {
    // Spec §8: a code-exchange error removes the tokens and passes the error on.
    app.log.warn("sign-in: code exchange refused", error instanceof HotelApiError ? error.code : String(error));
    return fail(failureCode(error));
  }
  let cookies: string[];
  try {
    const { member } = await app.api.oneTap((await clientCredentials(app)).clientId, memToken);
    const hotelId = app.hotel?.hotel_id ?? 0;
    const pms = await app.api.exchangeForHotel(hotelId, memToken);
    // The parts are kept; each page orders them by its language (formatPersonName, decision 086).
    const name = formatPersonName({ given: member.first_name, family: member.last_name }, "en-US") || member.email;
    cookies = await signedInCookies(
      app.env,
      app.domain,
      { mem: memToken, pms: pms.access_token },
      { name, given: member.first_name, family: member.last_name, email: member.email },
    );
  } catch (error) {
    // Spec §8: failing at the exchange step, the tokens are removed and the guest told to try later.
    app.log.warn("sign-in: token exchange failed", error instanceof HotelApiError ? error.code : String(error));
    return fail("exchange");
  }
  const back = safeBackPath(await readBackPath(request, app.env, app.domain), signInPaths(product)) ?? localizePath("/", lang);
  const headers = new Headers({ "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return safeRedirect(back, request, { status: 303, headers });
}

export async function signOutAllowed(app: App, given: unknown): Promise<boolean> {
  if (app.crossSite) return false;
  const expected = await signOutToken(app);
  return expected === null || (typeof given === "string" && safeEqual(expected, given));
}

/** POST /{product}/logout: revoke the member token at the account service and remove the session. */
export async function signOut(app: App, request: Request, back: unknown): Promise<Response> {
  if (app.session.memToken) {
    await app.api.revokeMemberToken(app.session.memToken).catch((error: unknown) => {
      // Signed out here whatever the service says; its token expires on its own.
      app.log.warn("sign-out: revoke failed", error instanceof HotelApiError ? error.code : String(error));
    });
  }
  const headers = new Headers({ "cache-control": "no-store" });
  for (const cookie of await clearedTokenCookies(app.env)) headers.append("set-cookie", cookie);
  const target = safeBackPath(back, signInPaths(app.env.PRODUCT)) ?? localizePath("/", app.lang);
  return safeRedirect(target, request, { status: 303, headers });
}
