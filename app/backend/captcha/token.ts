/**
 * The captcha's tokens, stateless and signed (decision 070): a challenge token carries its action,
 * hotel, expiry and a one-time nonce, and one HMAC per accepted answer (the picture's characters,
 * the sum's digits) so the answers themselves are never in it; a pass carries action, hotel,
 * expiry and its own nonce. The nonces are spent in D1 (captcha.server.ts): each token works once.
 * Pure Web Crypto.
 */
import { base64Url, hmacSha256Base64Url, safeEqual } from "~/lib/crypto";

export const CHALLENGE_SECONDS = 10 * 60;
export const PASS_SECONDS = 5 * 60;

export interface TokenClaims {
  action: string;
  hotelId: number;
  /** Seconds since the epoch. */
  expires: number;
  nonce: string;
}

const ACTION = /^[a-z_]{2,32}$/;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

export function newNonce(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(16)));
}

function body(kind: "c1" | "p1", claims: TokenClaims): string {
  return [kind, claims.action, claims.hotelId, claims.expires, claims.nonce].join(".");
}

function parse(kind: "c1" | "p1", token: string, macs: number): { claims: TokenClaims; body: string; macs: string[] } | null {
  if (token.length > 400) return null;
  const parts = token.split(".");
  if (parts.length !== 5 + macs || parts[0] !== kind) return null;
  const [, action = "", hotel = "", expires = "", nonce = "", ...rest] = parts;
  if (!ACTION.test(action) || !/^\d{1,10}$/.test(hotel) || !/^\d{1,12}$/.test(expires) || !NONCE.test(nonce)) return null;
  if (rest.some((mac) => !/^[A-Za-z0-9_-]{43}$/.test(mac))) return null;
  const claims = { action, hotelId: Number(hotel), expires: Number(expires), nonce };
  return { claims, body: body(kind, claims), macs: rest };
}

const answerMac = (secret: string, tokenBody: string, answer: string) =>
  hmacSha256Base64Url(secret, `captcha-answer:${tokenBody}:${answer}`);

/** A challenge token for `answers` (already normalised): any one of them passes. */
export async function signChallenge(secret: string, claims: TokenClaims, answers: readonly string[]): Promise<string> {
  const tokenBody = body("c1", claims);
  const macs = await Promise.all(answers.map((answer) => answerMac(secret, tokenBody, answer)));
  return [tokenBody, ...macs].join(".");
}

export type ChallengeCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: "malformed" | "wrong"; claims: TokenClaims | null };

/** Whether `answer` (normalised) is one of the token's answers; says nothing of expiry or reuse. */
export async function checkChallenge(secret: string, token: string, answer: string): Promise<ChallengeCheck> {
  const parsed = parse("c1", token, 2);
  if (!parsed) return { ok: false, reason: "malformed", claims: null };
  const mac = await answerMac(secret, parsed.body, answer);
  // Both compared, always: the time taken does not tell which answer the guest gave.
  const matches = parsed.macs.map((expected) => safeEqual(expected, mac));
  return matches.some(Boolean) ? { ok: true, claims: parsed.claims } : { ok: false, reason: "wrong", claims: parsed.claims };
}

/** The claims of a challenge token, when it is well formed (its MACs are not checked here). */
export function challengeClaims(token: string): TokenClaims | null {
  return parse("c1", token, 2)?.claims ?? null;
}

export async function signPass(secret: string, claims: TokenClaims): Promise<string> {
  const tokenBody = body("p1", claims);
  return `${tokenBody}.${await hmacSha256Base64Url(secret, `captcha-pass:${tokenBody}`)}`;
}

/** The claims of a pass whose signature holds; null for anything else. */
export async function checkPass(secret: string, token: string): Promise<TokenClaims | null> {
  const parsed = parse("p1", token, 1);
  if (!parsed) return null;
  return safeEqual(parsed.macs[0] ?? "", await hmacSha256Base64Url(secret, `captcha-pass:${parsed.body}`)) ? parsed.claims : null;
}
