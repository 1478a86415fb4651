/**
 * Members as the back end sees them: a Bearer token (mem_token) names a member of one hotel.
 * Issuing tokens (login) belongs to the account service; `issueMemberToken` is its seam.
 */
import { ApiError, ok } from "~/backend/http.server";
import { requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import type { BackendRoute } from "~/backend/route";

export interface MemberRow {
  id: number;
  hotel_id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  points: number;
}

const TOKEN_DAYS = 30;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+([A-Za-z0-9._~+/-]{16,200}=*)$/.exec(header);
  return match?.[1] ?? null;
}

/** The member of `hotel` named by the request's token; null when there is none or it is not valid here. */
export async function memberFromRequest(db: D1Database, hotel: HotelRow, request: Request, now: Date): Promise<MemberRow | null> {
  if (hotel.close_member_system === 1) return null;
  const token = bearerToken(request);
  if (!token) return null;
  return db
    .prepare(
      `SELECT m.id, m.hotel_id, m.email, m.first_name, m.last_name, m.phone, m.points
       FROM member_tokens t JOIN members m ON m.id = t.member_id
       WHERE t.token_hash = ? AND m.hotel_id = ? AND t.expires_at > ?`,
    )
    .bind(await sha256Hex(token), hotel.id, now.toISOString())
    .first<MemberRow>();
}

/** Issues a new opaque token for a member; only its hash is stored. */
export async function issueMemberToken(db: D1Database, memberId: number, now = new Date()): Promise<string> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const expires = new Date(now.getTime() + TOKEN_DAYS * 86_400_000).toISOString();
  await db
    .prepare("INSERT INTO member_tokens (token_hash, member_id, expires_at) VALUES (?, ?, ?)")
    .bind(await sha256Hex(token), memberId, expires)
    .run();
  return token;
}

export const memberRoutes: BackendRoute[] = [
  {
    // The member's profile, which the site loads before the price check (spec §6). It is also how
    // the site learns that a saved token is no longer accepted: 401, and the site signs them out.
    method: "GET",
    path: "/api/member/profile",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const member = await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
      if (!member) throw new ApiError(401, "member_only");
      return ok({ email: member.email, first_name: member.first_name, last_name: member.last_name, phone: member.phone, points: member.points });
    },
  },
];
