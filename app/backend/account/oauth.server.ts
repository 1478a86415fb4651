/**
 * The built-in account service ({account}) and the PMS token exchange ({pms}) of spec §7 Login:
 * sign-in and sign-up pages, /oauth/authorize (PKCE S256, one-time state), /oauth/token (one-time,
 * short-lived codes), /api/v1/onetap, /oauth/revoke, /logout/json (JSONP), the POST logout form and
 * {pms}/oauth/token/exchange. Decision 035.
 *
 * This file is the service's routes table; each job is a file beside it: authorize.server.ts (the
 * authorization request, the code back to the site), account-forms.server.ts (cookies, CSRF, posted
 * forms and their captcha), signin-form.server.ts, signup-form.server.ts, token-endpoint.server.ts,
 * token-calls.server.ts (one-tap, the PMS exchange) and logout.server.ts.
 */
import { ApiError, ok } from "~/backend/http.server";
import type { BackendRoute } from "~/backend/route";
import { findClient, siteHomeFor } from "./clients.server";
import { errorPage, signInPage, signOutPage, signUpPage, signedOutPage } from "./pages.server";
import { revokeToken, sessionMember, tokenMember, CODE_SECONDS } from "./tokens.server";
import { bearerToken } from "./members.server";
import { confirmPage, confirmSignUp, signUpHotel } from "./signup.server";
import { fromOwnOrigin } from "./initiator";
import { signInLinkPage } from "./signin-link.server";
import { apiMessage } from "~/backend/messages";
import { readCookie } from "~/lib/cookie-header";
import { readForm } from "~/platform/forms.server";
import { SESSION_COOKIE, clearedSession, csrfFor, formIsOurs, withCookie } from "./account-forms.server";
import { checkOAuthRequest, redirectWithCode } from "./authorize.server";
import { JSONP_CALLBACK, endBrowserSession } from "./logout.server";
import { askForSignInLink, followSignInLink, signIn } from "./signin-form.server";
import { signUp } from "./signup-form.server";
import { oneTap, pmsExchange } from "./token-calls.server";
import { exchangeCode } from "./token-endpoint.server";

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
