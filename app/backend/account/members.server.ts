/**
 * Members as the back end sees them: a Bearer token names a member of one hotel. It is either the
 * hotel-scoped token of {pms}/oauth/token/exchange (pms_token, what the site sends) or the account
 * service's member token (mem_token) of a member of this hotel. The account service
 * (oauth.server.ts) issues both.
 */
import { rememberedBuyer } from "~/backend/einvoice/invoices.server";
import type { BuyerChoice } from "~/domain/einvoice/buyer";
import { payloadOfChoice } from "~/domain/einvoice/guest";
import { ApiError, ok } from "~/backend/http.server";
import { requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import type { BackendRoute } from "~/backend/route";
import { sha256Hex } from "~/lib/crypto";
import { issueToken } from "./tokens.server";

export interface MemberRow {
  id: number;
  hotel_id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  points: number;
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
  // A token of another hotel's member, or a PMS token scoped to another hotel, names nobody here.
  return db
    .prepare(
      `SELECT m.id, m.hotel_id, m.email, m.first_name, m.last_name, m.phone, m.points FROM members m
       WHERE m.hotel_id = ?2 AND m.id IN (
         SELECT member_id FROM pms_tokens WHERE token_hash = ?1 AND hotel_id = ?2 AND expires_at > ?3
         UNION ALL SELECT member_id FROM member_tokens WHERE token_hash = ?1 AND expires_at > ?3)`,
    )
    .bind(await sha256Hex(token), hotel.id, now.toISOString())
    .first<MemberRow>();
}

/** Issues a new opaque member token outside any sign-in session (tests, tools); only its hash is stored. */
export function issueMemberToken(db: D1Database, memberId: number, now = new Date()): Promise<string> {
  return issueToken(db, memberId, null, now);
}

/** A remembered e-invoice choice as the order payload would carry it: `invoice` and the company fields. */
function rememberedPayload(choice: BuyerChoice | null) {
  if (!choice) return null;
  const { invoice, company } = payloadOfChoice(choice);
  return { ...invoice, ...company };
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
      return ok({
        email: member.email,
        first_name: member.first_name,
        last_name: member.last_name,
        phone: member.phone,
        points: member.points,
        // The e-invoice choice of their last booking, offered again at the checkout (decision 159).
        invoice_choice: rememberedPayload(await rememberedBuyer(ctx.db, member.id)),
      });
    },
  },
];
