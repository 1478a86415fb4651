/**
 * The pieces of OAuth both sides share: PKCE S256 (RFC 7636) and the built-in account service's
 * client secret. The primitives (base64url, SHA-256, HMAC, random tokens) are in ./crypto.
 */
import { base64Url, hmacSha256Base64Url, sha256 } from "./crypto";

/** RFC 7636 §4.1: 43–128 characters of [A-Za-z0-9-._~]. */
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A S256 challenge: base64url of a SHA-256, 43 characters. */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** code_challenge = BASE64URL(SHA256(ASCII(code_verifier))) (RFC 7636 §4.2, method S256). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64Url(await sha256(verifier));
}

/**
 * The client secret of a site client of the built-in account service: the client is the hotel's
 * domain, and its secret is derived from the Worker's signing secret, so nothing has to be stored
 * or copied (docs/decisions/035).
 */
export function builtInClientSecret(signingSecret: string, clientId: string): Promise<string> {
  return hmacSha256Base64Url(signingSecret, `oauth-client:${clientId}`);
}
