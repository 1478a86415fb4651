/**
 * The audit log as the owner reads it (decision 149): newest first, keyset-paged by id, so a page
 * reads AUDIT_PAGE_SIZE + 1 rows however long the log grows (index audit_log_by_hotel). Read only:
 * the table itself refuses UPDATE and DELETE.
 */
import * as v from "valibot";
import { ok, parseInput } from "~/backend/http.server";
import type { BackendRoute } from "~/backend/route";
import { requireHotel } from "~/backend/hotels/hotels.server";
import { MAY_MANAGE_STAFF, requireStaff } from "./staff.server";

export const AUDIT_PAGE_SIZE = 50;

const AuditQuery = v.object({
  domain: v.pipe(v.string(), v.maxLength(253)),
  before: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/), v.transform(Number))),
});

interface AuditRow {
  id: number;
  created_at: string;
  staff_email: string;
  ip: string;
  action: string;
  subject: string;
  before: string;
  after: string;
}

export const staffAuditRoutes: BackendRoute[] = [
  {
    // x-desk-session (owner), ?domain&before=<id> → { entries, next_before }: the page of entries older than `before`.
    method: "GET",
    path: "/api/desk/audit",
    handler: async (ctx) => {
      const query = parseInput(AuditQuery, Object.fromEntries(ctx.url.searchParams));
      const hotel = await requireHotel(ctx.db, query.domain);
      await requireStaff(ctx, hotel, MAY_MANAGE_STAFF);
      const { results } = await ctx.db
        .prepare(
          `SELECT id, created_at, staff_email, ip, action, subject, before, after FROM audit_log
           WHERE hotel_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
        )
        .bind(hotel.id, query.before ?? Number.MAX_SAFE_INTEGER, AUDIT_PAGE_SIZE + 1)
        .all<AuditRow>();
      const page = results.slice(0, AUDIT_PAGE_SIZE);
      return ok({
        entries: page,
        next_before: results.length > AUDIT_PAGE_SIZE ? (page[page.length - 1]?.id ?? null) : null,
      });
    },
  },
];
