/**
 * Money recorded at the desk (decision 151): a bank transfer received, or a payment taken at the
 * hotel (cash or the card terminal). Money has one path (decision 148): the desk writes a
 * `payments` row (provider 'desk', the staff member and the reference kept) and settles it with the
 * SAME statements as a verified gateway callback (settleStatements), in one batch that starts with
 * the audit entry. The row is written only while the order, as it is inside the batch, is live and
 * still owes at least the amount: two staff recording the same transfer, or a transfer recorded as
 * the gateway's callback lands, never count money twice. A booking the sweep cancelled is
 * reinstated in the same batch when its rooms, add-ons and seats are still free.
 */
import { ApiError } from "~/backend/http.server";
import { findOrder, type OrderRow } from "~/backend/orders/store.server";
import { settleStatements } from "~/backend/payments/settle.server";
import { invoiceAtTheDesk } from "~/backend/einvoice/runner.server";
import { actionAudit, refuseUnless, runAction, type ActionOutcome } from "~/backend/desk/action-batch.server";
import { maybeReinstated, reinstateAfterPayment, reinstateBeforePayment } from "~/backend/desk/reinstate.server";
import type { StaffPrincipal } from "~/backend/desk/staff.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import type { BackendContext } from "~/backend/route";

/** The vendor id of money recorded at the desk: no gateway took it. */
export const DESK_VENDOR_ID = 0;

/** How the money came: a bank transfer, cash at the hotel, or the hotel's card terminal. */
export type DeskPaidWith = "transfer" | "cash" | "card_terminal";

export interface DeskPayment {
  action: "record_transfer" | "record_at_hotel";
  amount: number;
  paidWith: DeskPaidWith;
  /** What identifies the money: "<date> *<last five digits>" of a transfer; a slip number. */
  reference: string;
  formKey: string;
}

/** Our trade number for a desk payment: letters and digits, like a gateway attempt's. */
function deskTradeNo(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return `DK${[...bytes]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase()}`;
}

/** What the order still owes, as read (the batch checks it again). */
export const owedOf = (order: Pick<OrderRow, "total_price" | "paid_amount">) => Math.max(0, order.total_price - order.paid_amount);

/** Why a recording was refused, from the order as it is now. */
async function whyRefused(ctx: BackendContext, hotel: HotelRow, orderDoc: string, amount: number): Promise<ApiError> {
  const now = await findOrder(ctx.db, hotel.id, orderDoc, ctx.now);
  if (!now) return new ApiError(404, "order_not_found");
  if (now.status === "cancelled") return new ApiError(409, maybeReinstated(now) ? "desk_state_changed" : "desk_order_cancelled");
  const owed = owedOf(now);
  return owed === 0 ? new ApiError(409, "desk_nothing_owed") : new ApiError(409, "desk_amount_over_owed", { owed, amount }, "amount");
}

export async function recordPayment(
  ctx: BackendContext,
  hotel: HotelRow,
  staff: StaffPrincipal,
  order: OrderRow,
  payment: DeskPayment,
): Promise<{ outcome: ActionOutcome; reinstated: boolean }> {
  const reinstating = maybeReinstated(order);
  if (order.status === "cancelled" && !reinstating) throw new ApiError(409, "desk_order_cancelled");
  const owed = reinstating ? order.total_price : owedOf(order);
  if (owed === 0) throw new ApiError(409, "desk_nothing_owed");
  if (payment.amount > owed) throw new ApiError(400, "desk_amount_over_owed", { owed, amount: payment.amount }, "amount");
  const paidBefore = reinstating ? 0 : order.paid_amount;
  const purpose = paidBefore > 0 ? "balance" : payment.amount < order.total_price ? "deposit" : "full";
  const tradeNo = deskTradeNo();
  const db = ctx.db;
  const id = Number(order.id);
  const statements = [
    actionAudit(
      ctx,
      staff,
      payment.action,
      order.order_doc,
      payment.formKey,
      { status: order.status, paid_amount: order.paid_amount },
      { amount: payment.amount, paid_with: payment.paidWith, reference: payment.reference, trade_no: tradeNo },
    ),
    ...reinstateBeforePayment(db, id),
    // The money is recorded only while the order, as it is now, is live and owes at least this much.
    db
      .prepare(
        `INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose, staff_id, reference)
         SELECT ?1, ?2, 'desk', ?3, ?4, ?5, ?6, ?7
         WHERE EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND hotel_id = ?8 AND status != 'cancelled' AND paid_amount + ?4 <= total_price)`,
      )
      .bind(id, DESK_VENDOR_ID, tradeNo, payment.amount, purpose, staff.id, payment.reference, hotel.id),
    refuseUnless(db, "changes() > 0"),
    ...settleStatements(db, { ref: { tradeNo }, order_id: id, amount: payment.amount }, "", ctx.site, payment.paidWith),
    // The settlement credited the order with it: anything else (kept as late or overpaid) is a refusal.
    refuseUnless(db, `EXISTS (SELECT 1 FROM payments WHERE trade_no = '${tradeNo}' AND status = 'paid' AND applied = 1)`),
    ...reinstateAfterPayment(db, id),
  ];
  const results = await runAction(db, statements, () => whyRefused(ctx, hotel, order.order_doc, payment.amount));
  // The settlement queued the order's e-invoice (a hotel that issues at payment): issued now.
  if (results !== "already_done") await invoiceAtTheDesk(ctx, id);
  return { outcome: results === "already_done" ? "already_done" : "done", reinstated: results !== "already_done" && reinstating };
}
