/**
 * The token endpoint, POST /account/oauth/token (spec §7 Login, decision 050): RFC 6749 §4.1.3 and
 * §5 with RFC 7636's verifier, client_secret_basic or client_secret_post, errors as §5.2 says.
 */
import { MAX_BODY_BYTES, readJsonBody } from "~/backend/http.server";
import type { BackendContext } from "~/backend/route";
import { CODE_VERIFIER, pkceChallenge } from "~/lib/oauth-crypto";
import { safeEqual } from "~/lib/crypto";
import { clientSecretMatches, findClient, type OAuthClient } from "./clients.server";
import { issueToken, redeemCode } from "./tokens.server";
import { text } from "./token-calls.server";

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
export async function exchangeCode(ctx: BackendContext): Promise<Response> {
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
