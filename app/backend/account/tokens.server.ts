/**
 * What the account service issues and keeps: authorization codes (one-time, short-lived, PKCE),
 * its own sign-in sessions, member tokens (mem_token) and hotel-scoped PMS tokens (pms_token).
 * Only SHA-256 hashes of codes, sessions and tokens are stored.
 */
import { randomToken, sha256Hex } from "~/lib/crypto";

/** An authorization code lives two minutes: the site exchanges it at once. */
export const CODE_SECONDS = 120;
const SESSION_DAYS = 30;
const TOKEN_DAYS = 30;
const DAY_MS = 86_400_000;

export interface CodeGrant {
  clientId: string;
  state: string;
  memberId: number;
  sessionHash: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
}

/** Issues a code; null when the client already saw this `state` (state is one-time). */
export async function issueCode(db: D1Database, grant: CodeGrant, now: Date): Promise<string | null> {
  const code = randomToken();
  const result = await db
    .prepare(
      `INSERT INTO oauth_codes (code_hash, client_id, state, member_id, session_hash, redirect_uri, code_challenge, scope, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (client_id, state) DO NOTHING`,
    )
    .bind(
      await sha256Hex(code),
      grant.clientId,
      grant.state,
      grant.memberId,
      grant.sessionHash,
      grant.redirectUri,
      grant.codeChallenge,
      grant.scope,
      new Date(now.getTime() + CODE_SECONDS * 1000).toISOString(),
    )
    .run();
  return result.meta.changes === 1 ? code : null;
}

export interface RedeemedCode {
  client_id: string;
  member_id: number;
  session_hash: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
}

/**
 * Takes a code for good: the first redemption of an unexpired code wins, every later one (and any
 * expired or unknown code) gets null. The code is spent even when the caller then refuses it.
 */
export async function redeemCode(db: D1Database, code: string, now: Date): Promise<RedeemedCode | null> {
  return db
    .prepare(
      `UPDATE oauth_codes SET used_at = ?1 WHERE code_hash = ?2 AND used_at IS NULL AND expires_at > ?1
       RETURNING client_id, member_id, session_hash, redirect_uri, code_challenge, scope`,
    )
    .bind(now.toISOString(), await sha256Hex(code))
    .first<RedeemedCode>();
}

export async function startSession(db: D1Database, memberId: number, now: Date): Promise<{ session: string; sessionHash: string }> {
  const session = randomToken();
  const sessionHash = await sha256Hex(session);
  await db
    .prepare("INSERT INTO account_sessions (session_hash, member_id, expires_at) VALUES (?, ?, ?)")
    .bind(sessionHash, memberId, new Date(now.getTime() + SESSION_DAYS * DAY_MS).toISOString())
    .run();
  return { session, sessionHash };
}

/** The member of a live session of hotel `hotelId`, or null. */
export async function sessionMember(
  db: D1Database,
  session: string | null,
  hotelId: number,
  now: Date,
): Promise<{ memberId: number; sessionHash: string } | null> {
  if (!session || !/^[A-Za-z0-9_-]{43}$/.test(session)) return null;
  const sessionHash = await sha256Hex(session);
  const row = await db
    .prepare(
      `SELECT s.member_id FROM account_sessions s JOIN members m ON m.id = s.member_id
       WHERE s.session_hash = ? AND m.hotel_id = ? AND s.expires_at > ?`,
    )
    .bind(sessionHash, hotelId, now.toISOString())
    .first<{ member_id: number }>();
  return row ? { memberId: row.member_id, sessionHash } : null;
}

/** Ends a session and every token issued under it (member and PMS tokens). */
export async function endSession(db: D1Database, sessionHash: string): Promise<void> {
  await db.batch([
    db
      .prepare("DELETE FROM pms_tokens WHERE member_token_hash IN (SELECT token_hash FROM member_tokens WHERE session_hash = ?)")
      .bind(sessionHash),
    db.prepare("DELETE FROM member_tokens WHERE session_hash = ?").bind(sessionHash),
    db.prepare("DELETE FROM account_sessions WHERE session_hash = ?").bind(sessionHash),
  ]);
}

/** Issues a member token (mem_token) under a session; only its hash is stored. */
export async function issueToken(db: D1Database, memberId: number, sessionHash: string | null, now: Date): Promise<string> {
  const token = randomToken();
  await db
    .prepare("INSERT INTO member_tokens (token_hash, member_id, expires_at, session_hash) VALUES (?, ?, ?, ?)")
    .bind(await sha256Hex(token), memberId, new Date(now.getTime() + TOKEN_DAYS * DAY_MS).toISOString(), sessionHash)
    .run();
  return token;
}

export interface TokenMember {
  member_id: number;
  hotel_id: number;
  token_hash: string;
  session_hash: string | null;
  email: string;
  first_name: string;
  last_name: string;
}

/** The member a live member token names (any hotel: callers check the hotel). */
export async function tokenMember(db: D1Database, token: string, now: Date): Promise<TokenMember | null> {
  return db
    .prepare(
      `SELECT t.member_id, m.hotel_id, t.token_hash, t.session_hash, m.email, m.first_name, m.last_name
       FROM member_tokens t JOIN members m ON m.id = t.member_id WHERE t.token_hash = ? AND t.expires_at > ?`,
    )
    .bind(await sha256Hex(token), now.toISOString())
    .first<TokenMember>();
}

/** A hotel-scoped token for a member token; valid only at `hotelId` and no longer than the member token. */
export async function issuePmsToken(db: D1Database, member: TokenMember, now: Date): Promise<{ token: string; expiresIn: number }> {
  const token = randomToken();
  const expires = new Date(now.getTime() + TOKEN_DAYS * DAY_MS);
  await db
    .prepare(
      `INSERT INTO pms_tokens (token_hash, member_token_hash, member_id, hotel_id, expires_at)
       SELECT ?, token_hash, member_id, ?, MIN(expires_at, ?) FROM member_tokens WHERE token_hash = ?`,
    )
    .bind(await sha256Hex(token), member.hotel_id, expires.toISOString(), member.token_hash)
    .run();
  return { token, expiresIn: TOKEN_DAYS * 86_400 };
}

/** Revokes a member token and the PMS tokens made from it; and its session, when it had one. */
export async function revokeToken(db: D1Database, member: TokenMember): Promise<void> {
  if (member.session_hash) return endSession(db, member.session_hash);
  await db.batch([
    db.prepare("DELETE FROM pms_tokens WHERE member_token_hash = ?").bind(member.token_hash),
    db.prepare("DELETE FROM member_tokens WHERE token_hash = ?").bind(member.token_hash),
  ]);
}
