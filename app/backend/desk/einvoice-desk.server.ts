/**
 * A booking's e-invoice at the desk (decision 159, the hotel's side): what the invoice panel shows
 * (who issues, the state, the invoices and allowances, the history, newest first) and the staff's
 * actions on it: issue now (retry now), void, allowance, mark as handled. Each action is an event of
 * the order's state machine, never a provider call of its own: it is recorded in one batch led by
 * the audit entry with the form's one-time key (decision 151), guarded on the invoice's version (a
 * runner or another member of staff who wrote meanwhile makes it refuse whole); then the runner
 * makes the calls the event leads to, at once, and the queue takes over if that run is cut short.
 */
import type { InvoiceAction } from "~/contract/desk-actions-schemas";
import { ApiError } from "~/backend/http.server";
import { lastVoidDay } from "~/domain/einvoice/period";
import {
  applyEvent,
  invoiceStatus,
  isLapsed,
  netMade,
  remaining,
  staffEvent,
  type InvoiceEvent,
  type InvoiceState,
  type Issuer,
  type StaffRefusal,
  type StaffRequest,
} from "~/domain/einvoice/machine";
import { enqueueInvoiceStatements, loadInvoice, orderFacts, saveStatements, type OrderFacts } from "~/backend/einvoice/invoices.server";
import { hotelInvoicing, requestEinvoiceDeps } from "~/backend/einvoice/registry.server";
import { runInvoice } from "~/backend/einvoice/runner.server";
import { actionAudit, refuseUnless, runAction, type ActionOutcome } from "~/backend/desk/action-batch.server";
import type { Acting } from "~/backend/desk/stay-desk.server";

/** History lines the panel shows at most (newest first). */
const HISTORY_LINES = 50;

export interface DeskInvoicePanel {
  /** Who issues this stay's invoice: the order's own issuer once it has an invoice, else the hotel's; null: no invoicing. */
  issuer: Issuer | null;
  provider: string;
  status: string;
  /** What the invoices less allowances come to now, and what the hotel keeps (what they must come to). */
  amount: number;
  kept: number;
  number: string;
  random_number: string;
  issued_on: string;
  handled_outside: boolean;
  invoices: {
    number: string;
    random_number: string;
    amount: number;
    remaining: number;
    purpose: string;
    status: string;
    issued_on: string;
    /** The last Taipei day it can be voided ("" until issued), and whether that is still possible now. */
    last_void_day: string;
    can_void: boolean;
    can_allowance: boolean;
  }[];
  allowances: { number: string; invoice_number: string; amount: number; status: string; consent: boolean; expires_at: string }[];
  /** A consent refused or lapsed, waiting for staff (decision 167). */
  lapsed_consent: { status: "refused" | "expired"; amount: number } | null;
  failure: { kind: string; message: string; attempts: number; retry_at: string | null } | null;
  /** The actions that apply now (the role decides the rest). */
  actions: InvoiceAction[];
  /** A lost allowance waits for staff to say whether it exists. */
  lost_allowance: boolean;
  history: { at: string; kind: string; outcome: string; detail: string }[];
}

/** The state as the order stands now: what the hotel keeps and whether the guest has checked out (no call decided). */
function withFacts(state: InvoiceState, facts: OrderFacts, now: Date): InvoiceState {
  const kept = applyEvent(state, { type: "kept", target: facts.target, sale: facts.sale, cancelled: facts.cancelled }, now);
  return facts.checkedOut ? applyEvent(kept, { type: "checked_out" }, now) : kept;
}

/** The invoice panel of an order of `hotelId` (its caller found the order in this hotel). */
export async function deskInvoice(db: D1Database, hotelId: number, orderId: number, now: Date): Promise<DeskInvoicePanel | null> {
  const [row, config, facts] = await Promise.all([loadInvoice(db, orderId), hotelInvoicing(db, hotelId), orderFacts(db, orderId)]);
  if (!row && !config) return null;
  const history = row
    ? (
        await db
          .prepare("SELECT created_at AS at, kind, outcome, detail FROM einvoice_events WHERE order_id = ? ORDER BY id DESC LIMIT ?")
          .bind(orderId, HISTORY_LINES)
          .all<{ at: string; kind: string; outcome: string; detail: string }>()
      ).results
    : [];
  const state = row ? (facts ? withFacts(row.parsed, facts, now) : row.parsed) : null;
  const actions: InvoiceAction[] = [];
  if (state) {
    if (staffEvent(state, { action: "issue_now" }, now).ok) actions.push("invoice_issue_now");
    if (staffEvent(state, { action: "handled" }, now).ok) actions.push("invoice_handled");
    if (staffEvent(state, { action: "consent_again" }, now).ok) actions.push("invoice_consent_again", "invoice_allowance_now");
  } else if (config && config.issuer !== "hotel_system" && (facts?.target ?? 0) > 0) {
    actions.push("invoice_issue_now");
  }
  const invoices = (state?.invoices ?? [])
    .filter((invoice) => invoice.status !== "absent")
    .map((invoice) => {
      const issued = invoice.status === "issued";
      const left = issued && state ? remaining(state, invoice) : 0;
      return {
        number: invoice.number,
        random_number: invoice.randomNumber,
        amount: invoice.amount,
        remaining: left,
        purpose: invoice.purpose,
        status: invoice.status,
        issued_on: invoice.issuedOn,
        last_void_day: issued && invoice.issuedOn ? lastVoidDay(invoice.issuedOn) : "",
        can_void: issued && state !== null && staffEvent(state, { action: "void", number: invoice.number }, now).ok,
        can_allowance: issued && state !== null && staffEvent(state, { action: "allowance", number: invoice.number }, now).ok,
      };
    });
  if (invoices.some((invoice) => invoice.can_void)) actions.push("invoice_void");
  if (invoices.some((invoice) => invoice.can_allowance)) actions.push("invoice_allowance");
  const byseq = new Map((state?.invoices ?? []).map((invoice) => [invoice.seq, invoice.number]));
  return {
    issuer: row?.issuer ?? config?.issuer ?? null,
    provider: row?.provider ?? config?.provider ?? "",
    status: state ? invoiceStatus(state) : config?.issuer === "hotel_system" ? "hotel_system" : "none",
    // What the invoices come to now: an allowance awaiting the buyer's consent is not made yet.
    amount: state ? netMade(state) : 0,
    kept: facts?.target ?? 0,
    number: row && state ? ([...state.invoices].reverse().find((invoice) => invoice.status === "issued")?.number ?? "") : "",
    random_number: row && state ? ([...state.invoices].reverse().find((invoice) => invoice.status === "issued")?.randomNumber ?? "") : "",
    issued_on: row && state ? ([...state.invoices].reverse().find((invoice) => invoice.status === "issued")?.issuedOn ?? "") : "",
    handled_outside: state?.handledOutside === true,
    invoices,
    allowances: (state?.allowances ?? []).map((allowance) => ({
      number: allowance.number,
      invoice_number: byseq.get(allowance.invoiceSeq) ?? "",
      amount: allowance.amount,
      status: allowance.status,
      consent: allowance.consent === true,
      expires_at: allowance.status === "awaiting" ? (allowance.expiresAt ?? "") : "",
    })),
    lapsed_consent: (() => {
      const lapsed = [...(state?.allowances ?? [])].reverse().find(isLapsed);
      return lapsed ? { status: lapsed.status as "refused" | "expired", amount: lapsed.amount } : null;
    })(),
    failure: state?.failure
      ? { kind: state.failure.kind, message: state.failure.message, attempts: state.failure.attempts, retry_at: state.failure.retryAt }
      : null,
    actions,
    lost_allowance: (state?.allowances ?? []).some((allowance) => allowance.status === "sent"),
    history,
  };
}

/** An instant as "YYYY-MM-DD HH:MM" in Taipei (UTC+8 all year). */
function taipeiMinute(iso: string): string {
  return new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");
}

/** The refusal the staff member reads, in their language (locales/{lang}/api.json desk_invoice_*). */
function refusal(refused: StaffRefusal): ApiError {
  switch (refused.reason) {
    case "void_closed":
      return new ApiError(409, "desk_invoice_void_closed", { last_day: refused.lastVoidDay }, "number");
    case "rate_limited":
      // The time in Taipei, as the desk's staff read the clock.
      return new ApiError(409, "desk_invoice_rate_limited", { at: taipeiMinute(refused.retryAt) });
    case "no_such_invoice":
    case "already_withdrawn":
      return new ApiError(409, `desk_invoice_${refused.reason}`, {}, "number");
    default:
      return new ApiError(409, `desk_invoice_${refused.reason}`);
  }
}

export interface InvoiceAsked {
  action: InvoiceAction;
  /** void, allowance: the invoice's number. */
  number?: string;
  /** handled: a lost allowance found (its number) or not; or a failure taken over outside Portico. */
  resolution?: "allowance_found" | "allowance_absent" | "outside";
  allowance_number?: string;
  note?: string;
}

function staffRequest(asked: InvoiceAsked): StaffRequest {
  switch (asked.action) {
    case "invoice_issue_now":
      return { action: "issue_now" };
    case "invoice_void":
      return { action: "void", number: asked.number ?? "" };
    case "invoice_allowance":
      return { action: "allowance", number: asked.number ?? "" };
    case "invoice_handled":
      return { action: "handled", allowanceNumber: asked.resolution === "allowance_found" ? (asked.allowance_number ?? "") : null };
    case "invoice_consent_again":
      return { action: "consent_again" };
    case "invoice_allowance_now":
      return { action: "allowance_now" };
  }
}

/**
 * Applies one invoice action: refused (nothing written) when the machine says it cannot be done
 * now, recorded with its audit entry otherwise, then run. Answers the outcome and the status after the run.
 */
export async function invoiceAction(acting: Acting, asked: InvoiceAsked): Promise<{ outcome: ActionOutcome; invoice_status: string }> {
  const { ctx, hotel, staff, order, formKey } = acting;
  const [row, config, facts] = await Promise.all([
    loadInvoice(ctx.db, order.id),
    hotelInvoicing(ctx.db, hotel.id),
    orderFacts(ctx.db, order.id),
  ]);
  if (!facts) throw new ApiError(404, "order_not_found");
  const audit = (before: unknown, after: unknown) => actionAudit(ctx, staff, asked.action, order.order_doc, formKey, before, after);
  let statements: D1PreparedStatement[];
  if (!row) {
    // No invoice yet (paid before the hotel's file named an issuer, say): only "issue now" opens one.
    if (!config) throw new ApiError(409, "desk_invoice_none");
    if (config.issuer === "hotel_system") throw new ApiError(409, "desk_invoice_hotel_system");
    if (asked.action !== "invoice_issue_now") throw new ApiError(409, "desk_invoice_no_such_invoice", {}, "number");
    if (facts.target <= 0) throw new ApiError(409, "desk_invoice_nothing_to_do");
    statements = [
      audit({ invoice: "none" }, { event: "open" }),
      ...enqueueInvoiceStatements(ctx.db, order.id),
      refuseUnless(ctx.db, `EXISTS (SELECT 1 FROM order_invoices WHERE order_id = ${Number(order.id)})`),
    ];
  } else {
    if (asked.action === "invoice_handled" && asked.resolution === "allowance_found" && !asked.allowance_number)
      throw new ApiError(400, "desk_invoice_allowance_number", {}, "allowance_number");
    const state = withFacts(row.parsed, facts, ctx.now);
    const decided = staffEvent(state, staffRequest(asked), ctx.now);
    if (!decided.ok) throw refusal(decided);
    // "Mark as handled" must match what is stuck: a lost allowance is resolved, a failure taken over.
    if (asked.action === "invoice_handled") {
      const lost = decided.event.type === "allowance_resolved";
      if (lost === (asked.resolution === "outside")) throw new ApiError(409, "desk_invoice_not_stuck");
    }
    const event: InvoiceEvent = decided.event;
    const next = applyEvent(state, event, ctx.now);
    const [update, ...rest] = saveStatements(ctx.db, row, next, [
      {
        kind: `staff:${event.type}`,
        outcome: "recorded",
        detail: JSON.stringify({ by: staff.email, action: asked.action, number: asked.number ?? "", note: asked.note ?? "" }),
      },
    ]);
    statements = [
      audit(
        { status: invoiceStatus(state), number: asked.number ?? "" },
        { event: event.type, ...(asked.note ? { note: asked.note } : {}) },
      ),
      update as D1PreparedStatement,
      refuseUnless(ctx.db, "changes() > 0"),
      ...rest,
      ...enqueueInvoiceStatements(ctx.db, order.id),
    ];
  }
  const results = await runAction(ctx.db, statements, async () => new ApiError(409, "desk_state_changed"));
  if (results === "already_done")
    return { outcome: "already_done", invoice_status: (await loadInvoice(ctx.db, order.id))?.status ?? "none" };
  // The calls the event leads to, now; cut short or failing, the queue carries on from the stored state.
  let status: string;
  try {
    status = (await runInvoice(requestEinvoiceDeps(ctx), order.id, () => ctx.now)) ?? "none";
  } catch (error) {
    ctx.log.error("e-invoice run after a desk action", order.order_doc, error);
    status = (await loadInvoice(ctx.db, order.id))?.status ?? "none";
  }
  return { outcome: "done", invoice_status: status };
}
