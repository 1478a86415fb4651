/**
 * Who is acting at the desk (decision 148). The site keeps a staff member's session token in its
 * own host-only cookie and sends it to the back end's staff API (`/api/desk/...`) in the
 * `x-desk-session` header; only its SHA-256 is stored (staff_sessions). A session names one staff
 * member of one hotel: another hotel's session, a member's token or a signed order link names
 * nobody here. Every staff action is written to the append-only audit log in the same D1 batch
 * that applies it (`auditEntry`).
 */
import { sha256Hex } from "~/lib/crypto";
import { ApiError } from "~/backend/http.server";
import type { BackendContext } from "~/backend/route";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { DESK_SESSION_HEADER } from "~/contract/desk";

export const STAFF_ROLES = ["owner", "front_desk", "read_only"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Who may do what: the owner everything (staff too); the front desk bookings, payments and refunds; read-only lists, reports and exports. */
export const MAY_READ: readonly StaffRole[] = STAFF_ROLES;
export const MAY_ACT: readonly StaffRole[] = ["owner", "front_desk"];
export const MAY_MANAGE_STAFF: readonly StaffRole[] = ["owner"];

/** A session ends after this long without a request, and at the latest this long after sign-in. */
export const STAFF_IDLE_MINUTES = 30;
export const STAFF_SESSION_HOURS = 12;

export interface StaffPrincipal {
  id: number;
  hotelId: number;
  email: string;
  name: string;
  role: StaffRole;
  lang: string;
}

function sessionToken(request: Request): string | null {
  const token = request.headers.get(DESK_SESSION_HEADER);
  return token && /^[A-Za-z0-9_-]{32,128}$/.test(token) ? token : null;
}

/**
 * The signed-in staff member of this hotel the request's session names, or null: no token, an
 * unknown, idle, expired or half-finished (password only) session, another hotel's, or a removed
 * staff member's. A session in use is kept alive (its idle clock restarts).
 */
export async function staffFromRequest(ctx: BackendContext, hotel: Pick<HotelRow, "id">): Promise<StaffPrincipal | null> {
  const token = sessionToken(ctx.request);
  if (!token) return null;
  const now = ctx.now.toISOString();
  const idleSince = new Date(ctx.now.getTime() - STAFF_IDLE_MINUTES * 60_000).toISOString();
  const row = await ctx.db
    .prepare(
      `UPDATE staff_sessions SET last_seen_at = ?1
       WHERE token_hash = ?2 AND hotel_id = ?3 AND stage = 'full' AND expires_at > ?1 AND last_seen_at > ?4
         AND staff_id IN (SELECT id FROM staff WHERE hotel_id = ?3 AND status = 'active')
       RETURNING staff_id`,
    )
    .bind(now, await sha256Hex(token), hotel.id, idleSince)
    .first<{ staff_id: number }>();
  if (!row) return null;
  const staff = await ctx.db
    .prepare("SELECT id, hotel_id, email, name, role, lang FROM staff WHERE id = ? AND hotel_id = ? AND status = 'active'")
    .bind(row.staff_id, hotel.id)
    .first<{ id: number; hotel_id: number; email: string; name: string; role: StaffRole; lang: string }>();
  return staff ? { id: staff.id, hotelId: staff.hotel_id, email: staff.email, name: staff.name, role: staff.role, lang: staff.lang } : null;
}

/** The signed-in staff member, who must hold one of `roles`: else 401 (sign in at the desk) or 403. */
export async function requireStaff(ctx: BackendContext, hotel: Pick<HotelRow, "id">, roles: readonly StaffRole[]): Promise<StaffPrincipal> {
  const staff = await staffFromRequest(ctx, hotel);
  if (!staff) throw new ApiError(401, "desk_signin_required");
  if (!roles.includes(staff.role)) throw new ApiError(403, "desk_forbidden");
  return staff;
}

export interface AuditEntry {
  hotelId: number;
  /** Who did it; null only for what no staff member did (the hotel import). */
  staff: Pick<StaffPrincipal, "id" | "email"> | null;
  ip: string;
  action: string;
  /** 'order:<order_doc>', 'staff:<id>', 'hotel'. */
  subject: string;
  before?: unknown;
  after?: unknown;
  /** The one-time key of the form that asked for it: a replayed form fails on UNIQUE (hotel_id, form_key). */
  formKey?: string | null;
}

/** The audit log's row for one staff action, to put in the same D1 batch as the change it records. */
export function auditEntry(db: D1Database, entry: AuditEntry): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO audit_log (hotel_id, staff_id, staff_email, ip, action, subject, before, after, form_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      entry.hotelId,
      entry.staff?.id ?? null,
      entry.staff?.email ?? "",
      entry.ip.slice(0, 64),
      entry.action,
      entry.subject,
      JSON.stringify(entry.before ?? {}),
      JSON.stringify(entry.after ?? {}),
      entry.formKey ?? null,
    );
}

/**
 * Whether this hotel's audit log already holds the form's key: the form was applied before. Checked
 * before a change's own refusals, so that a replayed form is answered "already done", not refused
 * for what it did itself.
 */
export async function formKeyUsed(db: D1Database, hotelId: number, formKey: string): Promise<boolean> {
  const row = await db.prepare("SELECT 1 AS used FROM audit_log WHERE hotel_id = ? AND form_key = ?").bind(hotelId, formKey).first();
  return row !== null;
}
