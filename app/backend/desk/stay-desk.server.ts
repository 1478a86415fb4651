/**
 * The desk's actions on a booking's stay and its paperwork (decision 151): extend a payment
 * deadline, check in, check out, no-show, cancel on the guest's behalf, resend the confirmation,
 * add a note. Each is one batch led by its audit entry whose statements re-check the state they
 * change (runAction); cancelling and a no-show go through the guest's own cancellation batch.
 */
import { DateTime } from "luxon";
import { checkInStart, todayIn } from "~/domain/dates";
import { latestDeadline } from "~/domain/payments";
import { ApiError } from "~/backend/http.server";
import { cancelOrder } from "~/backend/orders/cancel.server";
import { findOrder, type OrderRow } from "~/backend/orders/store.server";
import { queueMail } from "~/backend/mail/outbox.server";
import { enqueueInvoiceStatements, invoicedSql } from "~/backend/einvoice/invoices.server";
import { invoiceAtTheDesk } from "~/backend/einvoice/runner.server";
import { actionAudit, refuseUnless, runAction, type ActionOutcome } from "~/backend/desk/action-batch.server";
import type { StaffPrincipal } from "~/backend/desk/staff.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import type { BackendContext } from "~/backend/route";

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** How many confirmations an order may be sent in a day, the first one included. */
export const CONFIRMATIONS_PER_DAY = 3;

/** An order as the desk reads it: with where the guest is in their stay (migration 0014). */
export type DeskOrder = OrderRow & { stay_status?: "expected" | "in_house" | "checked_out" | "no_show" };

export interface Acting {
  ctx: BackendContext;
  hotel: HotelRow;
  staff: StaffPrincipal;
  order: DeskOrder;
  formKey: string;
}

/** A refusal explained from the booking as it is now. */
function explain(acting: Acting, why: (order: DeskOrder) => ApiError): () => Promise<ApiError> {
  return async () => {
    const now = await findOrder(acting.ctx.db, acting.hotel.id, acting.order.order_doc, acting.ctx.now);
    return now ? why(now) : new ApiError(404, "order_not_found");
  };
}

const stageRefusal = (order: DeskOrder) =>
  order.status === "cancelled" ? new ApiError(409, "desk_order_cancelled") : new ApiError(409, "desk_stay_stage");

/** One guarded change: [audit, change, refuse unless it changed, what follows from it (`then`)]. */
async function guarded(
  acting: Acting,
  action: string,
  change: D1PreparedStatement,
  before: unknown,
  after: unknown,
  why: (order: DeskOrder) => ApiError,
  then: D1PreparedStatement[] = [],
): Promise<ActionOutcome> {
  const { ctx, staff, order, formKey } = acting;
  const results = await runAction(
    ctx.db,
    [actionAudit(ctx, staff, action, order.order_doc, formKey, before, after), change, refuseUnless(ctx.db, "changes() > 0"), ...then],
    explain(acting, why),
  );
  return results === "already_done" ? "already_done" : "done";
}

/**
 * A later payment deadline: the end of `day` in the hotel's time zone, never past the start of the
 * check-in day (latestDeadline, as a gateway's code expiry), and only ever later than it was.
 */
export async function extendDeadline(acting: Acting, day: string): Promise<ActionOutcome> {
  const { ctx, hotel, order } = acting;
  if (order.status !== "pending_payment" || order.payment_status !== -1 || order.pay_deadline === null)
    throw new ApiError(409, "desk_not_awaiting_payment");
  const endOfDay = DateTime.fromISO(day, { zone: hotel.time_zone }).endOf("day").toJSDate().getTime();
  const cap = latestDeadline(checkInStart(order.check_in_day, hotel.time_zone), ctx.now);
  const deadline = new Date(Math.min(endOfDay, cap)).toISOString();
  if (deadline <= order.pay_deadline || deadline <= ctx.now.toISOString())
    throw new ApiError(400, "desk_deadline_invalid", { latest: new Date(cap).toISOString() }, "deadline_day");
  return guarded(
    acting,
    "extend_deadline",
    ctx.db
      .prepare(
        `UPDATE orders SET pay_deadline = ?1, updated_at = ${NOW}
         WHERE id = ?2 AND status = 'pending_payment' AND payment_status = -1 AND pay_deadline IS NOT NULL AND pay_deadline < ?1`,
      )
      .bind(deadline, order.id),
    { pay_deadline: order.pay_deadline },
    { pay_deadline: deadline },
    (now) => (now.status === "pending_payment" ? new ApiError(409, "desk_state_changed") : new ApiError(409, "desk_not_awaiting_payment")),
  );
}

/**
 * Check in (from the check-in day until the last night), check out (an in-house guest). The
 * check-out queues the order's e-invoice in its batch (decision 159): at a hotel that issues at
 * check-out, the held invoice is triggered (the lodging rule: at settlement).
 */
export async function moveStay(acting: Acting, to: "in_house" | "checked_out"): Promise<ActionOutcome> {
  const { ctx, hotel, order } = acting;
  const from = to === "in_house" ? "expected" : "in_house";
  if (order.status === "cancelled") throw new ApiError(409, "desk_order_cancelled");
  if ((order.stay_status ?? "expected") !== from) throw new ApiError(409, "desk_stay_stage");
  const today = todayIn(hotel.time_zone, ctx.now);
  if (to === "in_house") {
    if (order.status !== "confirmed") throw new ApiError(409, "desk_checkin_unpaid");
    if (today < order.check_in_day || today >= order.check_out_day) throw new ApiError(409, "desk_checkin_day");
  }
  const outcome = await guarded(
    acting,
    to === "in_house" ? "check_in" : "check_out",
    ctx.db
      .prepare(
        `UPDATE orders SET stay_status = ?1, updated_at = ${NOW}
         WHERE id = ?2 AND stay_status = ?3 AND ${to === "in_house" ? "status = 'confirmed'" : "status != 'cancelled'"}`,
      )
      .bind(to, order.id, from),
    { stay_status: from },
    { stay_status: to },
    stageRefusal,
    to === "checked_out"
      ? enqueueInvoiceStatements(
          ctx.db,
          order.id,
          null,
          `${invoicedSql(order.id)} AND (SELECT stay_status FROM orders WHERE id = ${Number(order.id)}) = 'checked_out'`,
        )
      : [],
  );
  // The check-out queued the held invoice (a hotel that issues at check-out): issued now, the guest at the desk.
  if (to === "checked_out" && outcome === "done") await invoiceAtTheDesk(ctx, Number(order.id));
  return outcome;
}

/**
 * Cancel on the guest's behalf, or mark a no-show (from the check-in day: a cancellation on the
 * day, so the hotel keeps what the refund rules give it then). Both go through the guest's own
 * cancellation batch: rooms, add-ons and seats released, the refund recorded and asked of the
 * gateways; the fee may be waived with a reason.
 */
export async function cancelForGuest(
  acting: Acting,
  kind: "cancel" | "no_show",
  reason: string,
  waiveFee: boolean,
): Promise<{ outcome: ActionOutcome; refund: number; fee: number }> {
  const { ctx, hotel, staff, order, formKey } = acting;
  if (order.status === "cancelled") throw new ApiError(409, "desk_order_cancelled");
  if ((order.stay_status ?? "expected") !== "expected") throw new ApiError(409, "desk_stay_stage");
  if (kind === "no_show" && todayIn(hotel.time_zone, ctx.now) < order.check_in_day) throw new ApiError(409, "desk_checkin_day");
  let shown = { refund: 0, fee: 0 };
  try {
    await cancelOrder(ctx, hotel, order, "hotel", kind === "no_show" ? `no_show ${reason}`.trim() : reason, {
      waiveFee,
      lead: (read, quote) => {
        shown = { refund: quote.refund, fee: quote.fee };
        return [
          actionAudit(
            ctx,
            staff,
            kind,
            read.order_doc,
            formKey,
            { status: read.status, paid_amount: read.paid_amount, stay_status: (read as DeskOrder).stay_status ?? "expected" },
            { refund: quote.refund, fee: quote.fee, waived: waiveFee, reason },
          ),
          // Still expected: a guest checked in meanwhile is checked out, never cancelled.
          ctx.db
            .prepare(`UPDATE orders SET stay_status = ?1 WHERE id = ?2 AND stay_status = 'expected' AND status != 'cancelled'`)
            .bind(kind === "no_show" ? "no_show" : "expected", read.id),
          refuseUnless(ctx.db, "changes() > 0"),
        ];
      },
    });
  } catch (error) {
    if (error instanceof Error && String(error).includes("audit_log.hotel_id, audit_log.form_key"))
      return { outcome: "already_done", ...shown };
    throw error;
  }
  return { outcome: "done", ...shown };
}

/** The guest's confirmation queued again, at most CONFIRMATIONS_PER_DAY a day (counted inside the batch). */
export async function resendConfirmation(acting: Acting): Promise<ActionOutcome> {
  const { ctx, hotel, order } = acting;
  const dayAgo = new Date(ctx.now.getTime() - 86_400_000).toISOString();
  const underLimit = `(SELECT COUNT(*) FROM mail_outbox WHERE order_id = ${Number(order.id)} AND kind = 'order_confirmation' AND created_at > '${dayAgo}') < ${CONFIRMATIONS_PER_DAY}`;
  return guarded(
    acting,
    "resend_confirmation",
    queueMail(
      ctx.db,
      { hotelId: hotel.id, order: { id: order.id }, kind: "order_confirmation", lang: order.lang, to: order.booker_email, site: ctx.site },
      underLimit,
    ),
    {},
    { to: order.booker_email },
    () => new ApiError(429, "desk_resend_limit", { max: CONFIRMATIONS_PER_DAY }),
  );
}

/** A note on the booking: the audit entry is the note (append-only, shown in the booking's timeline). */
export async function addNote(acting: Acting, note: string): Promise<ActionOutcome> {
  const { ctx, staff, order, formKey } = acting;
  const results = await runAction(
    ctx.db,
    [actionAudit(ctx, staff, "note", order.order_doc, formKey, {}, { note })],
    async () => new ApiError(409, "desk_state_changed"),
  );
  return results === "already_done" ? "already_done" : "done";
}
