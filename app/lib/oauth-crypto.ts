/**
 * The small pieces of OAuth both sides share: PKCE S256 (RFC 7636), random tokens, SHA-256 and the
 * built-in account service's client secret. Pure Web Crypto: no Remix, no Workers bindings.
 */
const encoder = new TextEncoder();

export function base64Url(bytes: ArrayBuffer | Uint8Array): string {
  const array = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return btoa(String.fromCharCode(...array)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 32 random bytes, base64url: 43 characters, also a valid PKCE code_verifier. */
export function randomToken(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** RFC 7636 §4.1: 43–128 characters of [A-Za-z0-9-._~]. */
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A S256 challenge: base64url of a SHA-256, 43 characters. */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** code_challenge = BASE64URL(SHA256(ASCII(code_verifier))) (RFC 7636 §4.2, method S256). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64Url(await crypto.subtle.digest("SHA-256", encoder.encode(verifier)));
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function hmac(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return base64Url(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
}

/**
 * The client secret of a site client of the built-in account service: the client is the hotel's
 * domain, and its secret is derived from the Worker's signing secret, so nothing has to be stored
 * or copied (docs/decisions/035).
 */
export function builtInClientSecret(signingSecret: string, clientId: string): Promise<string> {
  return hmac(signingSecret, `oauth-client:${clientId}`);
}

/** Compares two strings in time independent of where they differ. */
export function sameText(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  let diff = left.length ^ right.length;
  for (let i = 0; i < Math.max(left.length, right.length); i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return diff === 0;
}
