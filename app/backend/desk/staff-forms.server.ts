/**
 * How a staff change is applied (decision 148): one D1 batch whose first statement is the audit
 * log's row, carrying the form's one-time key. A replayed form fails on UNIQUE (hotel_id,
 * form_key) as a whole and is answered "already done"; a statement whose guard refuses the change
 * fails a CHECK (see `refusedUnless`) and rolls the audit row back with it.
 */
import * as v from "valibot";
import type { BackendContext } from "~/backend/route";
import { auditEntry, type AuditEntry } from "./staff.server";

/** A form's one-time key, made by the page's loader. */
export const FormKey = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/));

export type Applied = "done" | "already_done" | "refused";

/** The value a guarded column takes when the guard refuses: no CHECK of the desk's tables accepts it. */
export const REFUSED_VALUE = "refused";

/**
 * Applies `statements` after the audit row of `entry`, all or nothing: "already_done" for a form
 * key already used, "refused" when a guard made a CHECK fail.
 */
export async function applyAudited(ctx: BackendContext, entry: AuditEntry, statements: D1PreparedStatement[]): Promise<Applied> {
  try {
    await ctx.db.batch([auditEntry(ctx.db, entry), ...statements]);
    return "done";
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/UNIQUE constraint failed: audit_log\.hotel_id, audit_log\.form_key/.test(message)) return "already_done";
    if (/CHECK constraint failed/.test(message)) return "refused";
    throw error;
  }
}
