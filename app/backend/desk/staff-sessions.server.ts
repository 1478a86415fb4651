/**
 * Desk sessions (decision 149): a random token whose SHA-256 is the row's key. Sign-in gives a
 * session at stage 'password' that lives a few minutes and opens nothing but the second step; the
 * right code gives a NEW token at stage 'full' and deletes the first (no session fixation). A full
 * session ends after STAFF_IDLE_MINUTES without a request and STAFF_SESSION_HOURS after sign-in.
 */
import { randomToken, sha256Hex } from "~/lib/crypto";
import type { BackendContext } from "~/backend/route";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { DESK_SESSION_HEADER } from "~/contract/desk";
import { ApiError } from "~/backend/http.server";
import { STAFF_SESSION_HOURS, type StaffRole } from "./staff.server";

/** How long the second step may wait after a right password. */
export const PASSWORD_STAGE_MINUTES = 10;
/** Wrong codes one password-stage session may type before it ends (the password is asked again, with its throttle). */
export const CODE_FAILURES_PER_SESSION = 5;

export interface HalfSession {
  tokenHash: string;
  codeFailures: number;
  pendingSecret: string;
  staff: { id: number; email: string; name: string; role: StaffRole; totpSecret: string; totpLastStep: number };
}

export function deskToken(request: Request): string | null {
  const token = request.headers.get(DESK_SESSION_HEADER);
  return token && /^[A-Za-z0-9_-]{32,128}$/.test(token) ? token : null;
}

/** The INSERT of a new session and its token. */
export async function newSession(
  ctx: BackendContext,
  hotelId: number,
  staffId: number,
  stage: "password" | "full",
): Promise<{ token: string; statement: D1PreparedStatement }> {
  const token = randomToken();
  const lifetime = stage === "full" ? STAFF_SESSION_HOURS * 3_600_000 : PASSWORD_STAGE_MINUTES * 60_000;
  const statement = ctx.db
    .prepare(
      `INSERT INTO staff_sessions (token_hash, staff_id, hotel_id, stage, ip, created_at, last_seen_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      await sha256Hex(token),
      staffId,
      hotelId,
      stage,
      ctx.clientIp.slice(0, 64),
      ctx.now.toISOString(),
      ctx.now.toISOString(),
      new Date(ctx.now.getTime() + lifetime).toISOString(),
    );
  return { token, statement };
}

/** The request's session at stage 'password' at this hotel, unexpired, of a staff member still there; else 401. */
export async function requireHalfSession(ctx: BackendContext, hotel: Pick<HotelRow, "id">): Promise<HalfSession> {
  const token = deskToken(ctx.request);
  const row = token
    ? await ctx.db
        .prepare(
          `SELECT s.token_hash, s.code_failures, s.pending_totp_secret, t.id, t.email, t.name, t.role, t.totp_secret, t.totp_last_step
           FROM staff_sessions s JOIN staff t ON t.id = s.staff_id
           WHERE s.token_hash = ? AND s.hotel_id = ? AND s.stage = 'password' AND s.expires_at > ?
             AND t.hotel_id = s.hotel_id AND t.status = 'active'`,
        )
        .bind(await sha256Hex(token), hotel.id, ctx.now.toISOString())
        .first<{
          token_hash: string;
          code_failures: number;
          pending_totp_secret: string;
          id: number;
          email: string;
          name: string;
          role: StaffRole;
          totp_secret: string;
          totp_last_step: number;
        }>()
    : null;
  if (!row) throw new ApiError(401, "desk_signin_required");
  return {
    tokenHash: row.token_hash,
    codeFailures: row.code_failures,
    pendingSecret: row.pending_totp_secret,
    staff: {
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      totpSecret: row.totp_secret,
      totpLastStep: row.totp_last_step,
    },
  };
}

/** Ends the request's session, whatever its stage; true when there was one. */
export async function endSession(ctx: BackendContext, hotel: Pick<HotelRow, "id">): Promise<boolean> {
  const token = deskToken(ctx.request);
  if (!token) return false;
  const result = await ctx.db
    .prepare("DELETE FROM staff_sessions WHERE token_hash = ? AND hotel_id = ?")
    .bind(await sha256Hex(token), hotel.id)
    .run();
  return (result.meta.changes ?? 0) > 0;
}
