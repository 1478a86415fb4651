/**
 * The desk's booking actions (decision 151): their names, and what `POST
 * /api/desk/bookings/{order_doc}/actions/{action}` answers. Portico's extension of the contract,
 * documented in docs/api.md.
 */
import * as v from "valibot";

/** The booking's e-invoice actions (decision 159): events of its state machine, run at once. */
export const INVOICE_ACTIONS = [
  "invoice_issue_now",
  "invoice_void",
  "invoice_allowance",
  "invoice_handled",
  // An allowance the buyer refused or let lapse (decision 167): ask for consent again, or make it at once.
  "invoice_consent_again",
  "invoice_allowance_now",
] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

export const DESK_ACTIONS = [
  "record_transfer",
  "record_at_hotel",
  "extend_deadline",
  "check_in",
  "check_out",
  "no_show",
  "cancel",
  "refund",
  "resend_confirmation",
  "note",
  ...INVOICE_ACTIONS,
] as const;
export type DeskAction = (typeof DESK_ACTIONS)[number];

export const isDeskAction = (value: unknown): value is DeskAction => (DESK_ACTIONS as readonly unknown[]).includes(value);

/** An action's answer: applied now (`done`) or before, under the same form (`already_done`), with what it did. */
export const DeskActionResultSchema = v.object({
  outcome: v.picklist(["done", "already_done"]),
  action: v.picklist(DESK_ACTIONS),
  order_doc: v.string(),
  /** record_transfer: the booking the expiry had cancelled is live again. */
  reinstated: v.optional(v.boolean()),
  /** cancel, no_show: what the guest gets back and what the hotel keeps. */
  refund: v.optional(v.number()),
  fee: v.optional(v.number()),
  /** refund: what is still due back after it. */
  due: v.optional(v.number()),
  /** invoice_*: the invoice's status after the action's run (decision 159). */
  invoice_status: v.optional(v.string()),
});
export type DeskActionResult = v.InferOutput<typeof DeskActionResultSchema>;
