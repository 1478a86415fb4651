/**
 * The authorization request of /oauth/authorize (spec §7 Login, decision 035): PKCE S256, a
 * registered redirect_uri, a one-time state; and the way back to the site with a new code.
 */
import type { BackendContext } from "~/backend/route";
import { CODE_CHALLENGE } from "~/lib/oauth-crypto";
import { findClient, isRegisteredRedirect, type OAuthClient } from "./clients.server";
import { errorPage, type OAuthParams } from "./pages.server";
import { issueCode } from "./tokens.server";

type OAuthRequest = { ok: true; client: OAuthClient; params: OAuthParams } | { ok: false; response: Response };

/**
 * Checks an authorization request (query of /oauth/authorize, or the hidden fields of a form). An
 * unknown client or an unregistered redirect_uri is answered here, never redirected; other faults
 * go back to the registered redirect_uri as `error=invalid_request`.
 */
export async function checkOAuthRequest(ctx: BackendContext, source: URLSearchParams | FormData): Promise<OAuthRequest> {
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
export async function redirectWithCode(ctx: BackendContext, params: OAuthParams, memberId: number, sessionHash: string): Promise<Response> {
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
