/**
 * How a desk action is applied (decisions 148, 151): one D1 batch whose first statement is the
 * audit log's row carrying the form's one-time key, whose statements re-check the state they change,
 * and which aborts whole (audit entry included) when a check finds the booking changed. A replayed
 * form fails on UNIQUE (hotel_id, form_key) and is answered "already done", never applied twice.
 */
import { ApiError } from "~/backend/http.server";
import { auditEntry, type StaffPrincipal } from "~/backend/desk/staff.server";
import type { BackendContext } from "~/backend/route";

/** What an action answers: applied now, or applied before under the same form (a replay). */
export type ActionOutcome = "done" | "already_done";

/** The action's audit entry, for the head of its batch. */
export function actionAudit(
  ctx: BackendContext,
  staff: StaffPrincipal,
  action: string,
  orderDoc: string,
  formKey: string,
  before: unknown,
  after: unknown,
): D1PreparedStatement {
  return auditEntry(ctx.db, {
    hotelId: staff.hotelId,
    staff,
    ip: ctx.clientIp,
    action,
    subject: `order:${orderDoc}`,
    before,
    after,
    formKey,
  });
}

/**
 * A statement that aborts the whole batch when `changed` (SQL) is false right after the statement
 * before it, e.g. "changes() > 0": the view desk_refusals refuses every row (migration 0017).
 */
export function refuseUnless(db: D1Database, changed: string): D1PreparedStatement {
  return db.prepare(`INSERT INTO desk_refusals (reason) SELECT 'refused' WHERE NOT (${changed})`);
}

/** The inventory a reinstated booking could not take back, by the constraint or trigger that refused it. */
const TAKEN = [
  "room_nights_not_oversold",
  "plan_nights_not_oversold",
  "addon_days_not_oversold",
  "rail_allotments_not_oversold",
  "no_inventory",
  "no_plan_price",
  "no_addon_inventory",
  "unpaid_share_reached",
];

/** Why a batch failed, as the desk says it; errors that are not a refusal stay errors. */
function refusal(error: unknown, refused: () => Promise<ApiError>): Promise<ApiError | "replay"> | ApiError | "replay" {
  const text = String(error);
  if (text.includes("audit_log.hotel_id, audit_log.form_key")) return "replay";
  if (TAKEN.some((name) => text.includes(name))) return new ApiError(409, "desk_reinstate_taken");
  // A reinstated booking spends its points again; the member has spent them since.
  if (text.includes("members_points_not_negative")) return new ApiError(409, "desk_reinstate_points");
  if (text.includes("refund_more_than_paid") || text.includes("refund_more_than_payment"))
    return new ApiError(409, "desk_refund_over_paid");
  if (text.includes("desk_refused")) return refused();
  throw error;
}

/**
 * Runs an action's batch. `refused` explains a refusal from the booking as it is now (read again);
 * answers the batch's results, or "already_done" for a replayed form.
 */
export async function runAction(
  db: D1Database,
  statements: D1PreparedStatement[],
  refused: () => Promise<ApiError>,
): Promise<D1Result[] | "already_done"> {
  try {
    return await db.batch(statements);
  } catch (error) {
    const why = await refusal(error, refused);
    if (why === "replay") return "already_done";
    throw why;
  }
}
