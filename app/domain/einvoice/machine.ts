/**
 * One order's e-invoices as a state machine (decision 159). Pure: `transition` takes the stored
 * state, one event and the instant, and answers the next state and the one provider call to make
 * (or none). The caller makes the call and feeds its answer back as the next event; while a call
 * is out, later events only update what the hotel keeps, and the machine reconciles once the answer
 * is in. So a cancellation racing the check-out trigger, a refund racing a retry, all end the same.
 *
 * What it keeps true:
 * - one issuer per stay: a hotel that issues with its own system gets no call, ever;
 * - invoices issued less allowances equal what the hotel keeps (its `target`), once settled;
 * - an invoice is voided only while its period allows (period.ts), otherwise reduced by an
 *   allowance (made at once, or asked by the buyer's emailed consent when the hotel's file says so:
 *   decision 167); an allowance is voided before its invoice is;
 * - an allowance awaiting the buyer's consent counts as asked (never asked twice) but not as made;
 *   refused or lapsed (72 hours), it waits for staff: never asked again by itself;
 * - nothing is issued twice: every invoice has a relate number derived from the order and a
 *   sequence, and an issue whose answer was lost is looked up by it before anything else.
 */
import { canVoid, lastVoidDay } from "./period";
import type { InvoicePurpose } from "./items";

export const ISSUERS = ["portico_at_payment", "portico_at_checkout", "hotel_system"] as const;
/** Who issues a stay's invoice: Portico when it is paid, Portico at check-out, or the hotel's own system. */
export type Issuer = (typeof ISSUERS)[number];

/** One invoice of the order. */
export interface InvoiceDoc {
  seq: number;
  relateNumber: string;
  amount: number;
  purpose: InvoicePurpose;
  /**
   * sent: asked, answer not (yet) known; delayed: held by the provider until triggered (issue at
   * check-out); issued; voided; cancelled: a delayed one withdrawn before it was issued; absent:
   * looked up after a lost answer and not found (never issued).
   */
  status: "sent" | "delayed" | "issued" | "voided" | "cancelled" | "absent";
  /** The invoice number (2 letters, 8 digits), its random number (4 digits) and its Taipei date, once issued. */
  number: string;
  randomNumber: string;
  issuedOn: string;
}

/**
 * How the hotel's allowances are made (the hotel file's `invoicing.allowance`, decision 167): at once
 * (ECPay `Allowance`: the hotel holds the buyer's consent), or by the buyer's consent to an emailed
 * link valid 72 hours (ECPay `AllowanceByCollegiate`).
 */
export const ALLOWANCE_MODES = ["immediate", "consent"] as const;
export type AllowanceMode = (typeof ALLOWANCE_MODES)[number];

/** How long the buyer's consent link is valid (ECPay: 72 hours). */
export const CONSENT_HOURS = 72;

/** An allowance (折讓) reducing an issued invoice. */
export interface AllowanceDoc {
  seq: number;
  invoiceSeq: number;
  amount: number;
  /**
   * sent: asked, answer not known; issued (made); voided; and for one asked by the buyer's consent:
   * awaiting (the provider emailed the link; counts as asked, not made), refused by the buyer, or
   * expired (72 hours without an answer). Refused and expired count for nothing.
   */
  status: "sent" | "issued" | "voided" | "awaiting" | "refused" | "expired";
  number: string;
  /** Asked by the buyer's emailed consent (AllowanceByCollegiate). */
  consent?: boolean;
  /** awaiting: when the consent link lapses (ISO). */
  expiresAt?: string;
  /** refused or expired: what staff did about it (asked again, or made it at once); absent: waiting for staff. */
  followedUp?: "again" | "now";
}

/** An allowance the buyer refused, or let lapse, that staff have not acted on yet. */
export function isLapsed(allowance: AllowanceDoc): boolean {
  return (allowance.status === "refused" || allowance.status === "expired") && !allowance.followedUp;
}

/** Whether an allowance counts against its invoice: made, or asked and not (yet) refused or lapsed. */
export function countsAsAsked(allowance: AllowanceDoc): boolean {
  return allowance.status === "sent" || allowance.status === "issued" || allowance.status === "awaiting";
}

/** Why the last call failed: a 403 (wait 30 minutes), the provider unreachable, or refused by it. */
export type FailureKind = "rate_limited" | "unavailable" | "refused";

export interface InvoiceFailure {
  kind: FailureKind;
  message: string;
  /** Failed calls in a row. */
  attempts: number;
  /** When to try again (ISO); null: not by itself, staff must retry. */
  retryAt: string | null;
}

export interface InvoiceState {
  issuer: Issuer;
  /** Letters and digits of the order number: every relate number starts with it. */
  orderRef: string;
  /** What the hotel keeps for its own sale: what its invoices less allowances must come to. */
  target: number;
  /** What the stay sold (rooms and add-ons less discounts): an invoice of this much lists them. */
  sale: number;
  cancelled: boolean;
  checkedOut: boolean;
  invoices: InvoiceDoc[];
  allowances: AllowanceDoc[];
  /** The call made and not yet answered. */
  inFlight: ProviderCall | null;
  failure: InvoiceFailure | null;
  /**
   * Invoices staff asked to withdraw and issue again (a correction at the desk): voided while the
   * period allows (`void`), or reduced by an allowance of what they still count for (`allowance`).
   * Once withdrawn, what the hotel keeps is issued anew. Absent in states stored before the desk.
   */
  withdraw?: { seq: number; how: "void" | "allowance" }[];
  /** Staff took the order's invoice over outside Portico (the provider's back office): nothing more is asked, ever. */
  handledOutside?: boolean;
  /** How allowances are asked: the hotel's choice, applied with what the hotel keeps ("immediate" when absent). */
  allowanceMode?: AllowanceMode;
  /** Staff made the next allowance at once (they hold the buyer's written consent): cleared when it is asked. */
  nextAllowance?: "immediate";
}

export type ProviderCall =
  | { op: "issue"; seq: number; relateNumber: string; amount: number; purpose: InvoicePurpose }
  | { op: "delay_issue"; seq: number; relateNumber: string; amount: number; purpose: InvoicePurpose }
  | { op: "cancel_delay"; seq: number; relateNumber: string }
  | { op: "trigger_issue"; seq: number; relateNumber: string }
  | { op: "lookup"; seq: number; relateNumber: string }
  | { op: "invalid"; seq: number; number: string; issuedOn: string }
  | { op: "allowance"; seq: number; invoiceSeq: number; number: string; issuedOn: string; amount: number; consent?: boolean }
  | { op: "allowance_invalid"; seq: number; invoiceSeq: number; number: string; allowanceNumber: string };

/** What a successful call answered. */
export interface CallResult {
  /** Invoice number, random number and Taipei date (issue, trigger, lookup when found). */
  number?: string;
  randomNumber?: string;
  issuedOn?: string;
  /** lookup: whether the provider has the invoice, and whether it is only held (delayed). */
  found?: boolean;
  delayed?: boolean;
  /** allowance: its number (IA_Allow_No). */
  allowanceNumber?: string;
  /** allowance by consent: when the buyer's link lapses (ISO; IA_TempExpireDate). */
  expiresAt?: string;
}

export type InvoiceEvent =
  /** What the hotel keeps changed (paid, refunded, cancelled with a fee), and what the stay sold; and how the hotel makes allowances. */
  | { type: "kept"; target: number; sale: number; cancelled?: boolean; allowanceMode?: AllowanceMode }
  /** The guest checked out: a held invoice is triggered. */
  | { type: "checked_out" }
  | { type: "answered"; call: ProviderCall; result: CallResult }
  | { type: "failed"; call: ProviderCall; kind: FailureKind; message: string }
  /**
   * Staff looked up an allowance whose answer was lost, in the provider's back office: it exists
   * (with its number) or it does not (null). ECPay has no key of ours to find one by.
   */
  | { type: "allowance_resolved"; seq: number; number: string | null }
  /** Try again now (staff), or just look whether anything is due (the queue runner). */
  | { type: "retry" }
  | { type: "tick" }
  /** Staff withdraw an issued invoice (void, or an allowance of all it still counts for); what is kept is issued again. */
  | { type: "withdraw"; seq: number; how: "void" | "allowance" }
  /** Staff took the invoice over outside Portico: the machine asks nothing more for this order. */
  | { type: "handled_outside" }
  /** The buyer's answer to an allowance asked by consent (the provider's signed callback). */
  | { type: "consent"; seq: number; consented: boolean }
  /** The consent link lapsed without an answer (the Cron, once). */
  | { type: "consent_expired"; seq: number }
  /** Staff acted on a refused or lapsed consent: ask again, or make it at once. */
  | { type: "consent_followed"; seq: number; how: "again" | "now" };

/** Back-off after each failure in a row (minutes); then staff must retry. After a 403, never sooner than 30 minutes. */
export const RETRY_MINUTES = [1, 5, 15, 60, 180, 360, 720] as const;
export const RATE_LIMIT_MINUTES = 30;
/** A refusal is retried this many times (a void refused at the cut-off becomes an allowance), then waits for staff. */
export const REFUSED_ATTEMPTS = 3;

/** ECPay's RelateNumber: letters and digits, at most 30. */
export function relateNumber(orderRef: string, seq: number): string {
  const base = orderRef.replace(/[^A-Za-z0-9]/g, "").slice(0, 24);
  return `${base}E${seq}`;
}

export function initialState(issuer: Issuer, orderDoc: string): InvoiceState {
  return {
    issuer,
    orderRef: orderDoc.replace(/[^A-Za-z0-9]/g, ""),
    target: 0,
    sale: 0,
    cancelled: false,
    checkedOut: false,
    invoices: [],
    allowances: [],
    inFlight: null,
    failure: null,
  };
}

/** What an issued invoice still counts for: its amount less its allowances (made or asked for, awaiting consent included). */
export function remaining(state: InvoiceState, invoice: InvoiceDoc): number {
  const allowed = state.allowances
    .filter((allowance) => allowance.invoiceSeq === invoice.seq && countsAsAsked(allowance))
    .reduce((sum, allowance) => sum + allowance.amount, 0);
  return invoice.amount - allowed;
}

/** What the order's invoices come to once what is asked is made: issued ones less their allowances made or asked. */
export function netIssued(state: InvoiceState): number {
  return state.invoices.filter((invoice) => invoice.status === "issued").reduce((sum, invoice) => sum + remaining(state, invoice), 0);
}

/** What the order's invoices come to now: issued ones less the allowances made (one awaiting consent is not). */
export function netMade(state: InvoiceState): number {
  const issued = state.invoices.filter((invoice) => invoice.status === "issued");
  const seqs = new Set(issued.map((invoice) => invoice.seq));
  const made = state.allowances
    .filter((allowance) => allowance.status === "issued" && seqs.has(allowance.invoiceSeq))
    .reduce((sum, allowance) => sum + allowance.amount, 0);
  return issued.reduce((sum, invoice) => sum + invoice.amount, 0) - made;
}

/** Where the latest allowance asked by consent stands (null: none asked): for the order page and the desk. */
export function consentStatus(
  state: InvoiceState,
): { seq: number; status: "awaiting" | "issued" | "refused" | "expired"; amount: number; expiresAt: string; followedUp: boolean } | null {
  const latest = [...state.allowances]
    .reverse()
    .find((allowance) => allowance.consent && allowance.status !== "sent" && allowance.status !== "voided");
  if (!latest) return null;
  return {
    seq: latest.seq,
    status: latest.status as "awaiting" | "issued" | "refused" | "expired",
    amount: latest.amount,
    expiresAt: latest.expiresAt ?? "",
    followedUp: latest.followedUp !== undefined,
  };
}

/** One word for the desk and the order page. */
export type InvoiceStatus = "hotel_system" | "none" | "pending" | "delayed" | "issued" | "allowance" | "voided" | "retrying" | "failed";

export function invoiceStatus(state: InvoiceState): InvoiceStatus {
  // Handled outside Portico by staff: for this order, as for a hotel whose own system issues.
  if (state.issuer === "hotel_system" || state.handledOutside) return "hotel_system";
  if (state.failure) return state.failure.retryAt === null ? "failed" : "retrying";
  if (state.inFlight || state.invoices.some((invoice) => invoice.status === "sent")) return "pending";
  if (state.invoices.some((invoice) => invoice.status === "delayed")) return "delayed";
  const issued = state.invoices.filter((invoice) => invoice.status === "issued");
  if (issued.length > 0) {
    return state.allowances.some((allowance) => allowance.status === "issued") ? "allowance" : "issued";
  }
  if (state.invoices.some((invoice) => invoice.status === "voided")) return "voided";
  return "none";
}

/** Whether nothing is left to do: no call out, no failure, what is issued equals what is kept. */
export function isSettled(state: InvoiceState, now: Date): boolean {
  const unknown =
    state.invoices.some((invoice) => invoice.status === "sent") ||
    state.allowances.some((allowance) => allowance.status === "sent" || allowance.status === "awaiting" || isLapsed(allowance));
  return state.inFlight === null && state.failure === null && !unknown && nextCall(state, now) === null;
}

/** What staff are told when an allowance's answer was lost. */
export const LOST_ALLOWANCE = "an allowance's answer was lost: look it up in the provider's back office and record whether it exists";

function purposeOf(state: InvoiceState, amount: number): InvoicePurpose {
  if (state.cancelled) return "cancellation_fee";
  // An invoice withdrawn by a full allowance counts for nothing: what follows it is the stay again.
  const anyIssued = state.invoices.some((invoice) => invoice.status === "issued" && remaining(state, invoice) > 0);
  if (anyIssued) return "balance";
  return amount === state.sale ? "stay" : "deposit";
}

function nextSeq(state: InvoiceState): number {
  return Math.max(0, ...state.invoices.map((invoice) => invoice.seq)) + 1;
}

function nextAllowanceSeq(state: InvoiceState): number {
  return Math.max(0, ...state.allowances.map((allowance) => allowance.seq)) + 1;
}

/**
 * The one call that brings the invoices closer to what the hotel keeps, or null when they match
 * (or when this hotel's own system issues). Decided at `now`: void or allowance depends on it.
 */
export function nextCall(state: InvoiceState, now: Date): ProviderCall | null {
  if (state.issuer === "hotel_system" || state.handledOutside) return null;
  // An answer lost: find out what became of it before anything else (idempotent on the relate number).
  const sent = state.invoices.find((invoice) => invoice.status === "sent");
  if (sent) return { op: "lookup", seq: sent.seq, relateNumber: sent.relateNumber };
  // An allowance whose answer was lost is not asked again (ECPay has no key to find it by): staff look.
  if (state.allowances.some((allowance) => allowance.status === "sent")) return null;
  // A consent refused or lapsed waits for staff (ask again, or make it at once): no allowance is asked by itself.
  const lapsed = state.allowances.some(isLapsed);
  const byConsent = state.allowanceMode === "consent" && state.nextAllowance !== "immediate";

  // Staff withdrew an invoice (a correction): voided while its period allows and staff asked for a
  // void (its allowances voided first), otherwise an allowance of all it still counts for. What the
  // hotel keeps is then issued again below.
  for (const asked of state.withdraw ?? []) {
    const invoice = state.invoices.find((candidate) => candidate.seq === asked.seq && candidate.status === "issued");
    if (!invoice || remaining(state, invoice) <= 0) continue;
    if (asked.how === "void" && canVoid(invoice.issuedOn, now)) return reduceByVoid(state, invoice);
    if (lapsed) return null;
    return {
      op: "allowance",
      seq: nextAllowanceSeq(state),
      invoiceSeq: invoice.seq,
      number: invoice.number,
      issuedOn: invoice.issuedOn,
      amount: remaining(state, invoice),
      ...(byConsent ? { consent: true } : {}),
    };
  }

  const delayed = state.invoices.filter((invoice) => invoice.status === "delayed");
  if (state.issuer === "portico_at_checkout") {
    // Lodging is invoiced at settlement: the guest's check-out, or the cancellation that ends the stay.
    const settled = state.checkedOut || state.cancelled;
    const owed = state.target - netIssued(state);
    // A held invoice of another amount (or a stay that keeps nothing now) is withdrawn first.
    const wrong = delayed.find((invoice) => invoice.amount !== owed);
    if (wrong) return { op: "cancel_delay", seq: wrong.seq, relateNumber: wrong.relateNumber };
    const held = delayed[0];
    if (settled && held) return { op: "trigger_issue", seq: held.seq, relateNumber: held.relateNumber };
    if (!settled) {
      if (!held && owed > 0) {
        const seq = nextSeq(state);
        return { op: "delay_issue", seq, relateNumber: relateNumber(state.orderRef, seq), amount: owed, purpose: purposeOf(state, owed) };
      }
      // Held for the right amount, or nothing owed; less kept than issued is reduced below.
      if (owed >= 0) return null;
    }
  }

  const net = netIssued(state);
  if (net > state.target) {
    // Too much issued: the latest invoice that still counts is reduced first.
    const issued = state.invoices.filter((invoice) => invoice.status === "issued" && remaining(state, invoice) > 0);
    const invoice = issued[issued.length - 1];
    if (!invoice) return null;
    if (canVoid(invoice.issuedOn, now)) return reduceByVoid(state, invoice);
    if (lapsed) return null;
    const amount = Math.min(net - state.target, remaining(state, invoice));
    return {
      op: "allowance",
      seq: nextAllowanceSeq(state),
      invoiceSeq: invoice.seq,
      number: invoice.number,
      issuedOn: invoice.issuedOn,
      amount,
      ...(byConsent ? { consent: true } : {}),
    };
  }
  if (net < state.target) {
    // At check-out mode, nothing is issued outright before the stay is settled (the held invoice waits).
    if (state.issuer === "portico_at_checkout" && !state.checkedOut && !state.cancelled) return null;
    const owed = state.target - net;
    const seq = nextSeq(state);
    return { op: "issue", seq, relateNumber: relateNumber(state.orderRef, seq), amount: owed, purpose: purposeOf(state, owed) };
  }
  return null;
}

/** Voiding an invoice: its allowances are voided first (an allowance is voided before its invoice can be). */
function reduceByVoid(state: InvoiceState, invoice: InvoiceDoc): ProviderCall {
  const allowance = state.allowances.find((candidate) => candidate.invoiceSeq === invoice.seq && candidate.status === "issued");
  if (allowance) {
    return {
      op: "allowance_invalid",
      seq: allowance.seq,
      invoiceSeq: invoice.seq,
      number: invoice.number,
      allowanceNumber: allowance.number,
    };
  }
  return { op: "invalid", seq: invoice.seq, number: invoice.number, issuedOn: invoice.issuedOn };
}

function withInvoice(state: InvoiceState, seq: number, change: (invoice: InvoiceDoc) => InvoiceDoc): InvoiceState {
  return { ...state, invoices: state.invoices.map((invoice) => (invoice.seq === seq ? change(invoice) : invoice)) };
}

function withAllowance(state: InvoiceState, seq: number, change: (allowance: AllowanceDoc) => AllowanceDoc): InvoiceState {
  return { ...state, allowances: state.allowances.map((allowance) => (allowance.seq === seq ? change(allowance) : allowance)) };
}

/** The state once `call` is made: what it creates is recorded as sent before the provider is asked. */
function recordSent(state: InvoiceState, call: ProviderCall): InvoiceState {
  if (call.op === "issue" || call.op === "delay_issue") {
    const invoice: InvoiceDoc = {
      seq: call.seq,
      relateNumber: call.relateNumber,
      amount: call.amount,
      purpose: call.purpose,
      status: "sent",
      number: "",
      randomNumber: "",
      issuedOn: "",
    };
    return { ...state, invoices: [...state.invoices, invoice], inFlight: call };
  }
  if (call.op === "allowance") {
    const allowance: AllowanceDoc = {
      seq: call.seq,
      invoiceSeq: call.invoiceSeq,
      amount: call.amount,
      status: "sent",
      number: "",
      ...(call.consent ? { consent: true } : {}),
    };
    const { nextAllowance: _made, ...rest } = state;
    return { ...rest, allowances: [...state.allowances, allowance], inFlight: call };
  }
  return { ...state, inFlight: call };
}

function applyAnswer(state: InvoiceState, call: ProviderCall, result: CallResult, now: Date): InvoiceState {
  const issued = (invoice: InvoiceDoc): InvoiceDoc => ({
    ...invoice,
    status: "issued",
    number: result.number ?? invoice.number,
    randomNumber: result.randomNumber ?? invoice.randomNumber,
    issuedOn: result.issuedOn ?? invoice.issuedOn,
  });
  switch (call.op) {
    case "issue":
    case "trigger_issue":
      return withInvoice(state, call.seq, issued);
    case "delay_issue":
      return withInvoice(state, call.seq, (invoice) => ({ ...invoice, status: "delayed" }));
    case "cancel_delay":
      return withInvoice(state, call.seq, (invoice) => ({ ...invoice, status: "cancelled" }));
    case "lookup":
      if (!result.found) return withInvoice(state, call.seq, (invoice) => ({ ...invoice, status: "absent" }));
      return withInvoice(state, call.seq, (invoice) => (result.delayed ? { ...invoice, status: "delayed" } : issued(invoice)));
    case "invalid":
      return withInvoice(state, call.seq, (invoice) => ({ ...invoice, status: "voided" }));
    case "allowance":
      // Asked by consent: the provider emailed the buyer; it is made only when they agree (the callback).
      if (call.consent) {
        const expiresAt = result.expiresAt ?? new Date(now.getTime() + CONSENT_HOURS * 3_600_000).toISOString();
        return withAllowance(state, call.seq, (allowance) => ({
          ...allowance,
          status: "awaiting",
          number: result.allowanceNumber ?? "",
          expiresAt,
        }));
      }
      return withAllowance(state, call.seq, (allowance) => ({ ...allowance, status: "issued", number: result.allowanceNumber ?? "" }));
    case "allowance_invalid":
      return withAllowance(state, call.seq, (allowance) => ({ ...allowance, status: "voided" }));
  }
}

function backoff(kind: FailureKind, attempts: number, now: Date): string | null {
  if (kind === "refused" && attempts >= REFUSED_ATTEMPTS) return null;
  const steps = RETRY_MINUTES[attempts - 1];
  if (steps === undefined) return null;
  const minutes = kind === "rate_limited" ? Math.max(RATE_LIMIT_MINUTES, steps) : steps;
  return new Date(now.getTime() + minutes * 60_000).toISOString();
}

/**
 * The state after `event`, no call decided (the desk records a staff event this way, in the batch
 * of its audit entry; the runner then decides the calls). An answer or failure of a call that is
 * not the one out changes nothing (the same state is answered).
 */
export function applyEvent(state: InvoiceState, event: InvoiceEvent, now: Date): InvoiceState {
  let next: InvoiceState = state;
  switch (event.type) {
    case "kept":
      next = {
        ...state,
        target: Math.max(0, event.target),
        sale: event.sale,
        cancelled: event.cancelled ?? state.cancelled,
        ...(event.allowanceMode ? { allowanceMode: event.allowanceMode } : {}),
      };
      break;
    case "checked_out":
      next = { ...state, checkedOut: true };
      break;
    case "answered":
      if (!sameCall(state.inFlight, event.call)) return state;
      next = { ...applyAnswer(state, event.call, event.result, now), inFlight: null, failure: null };
      break;
    case "failed": {
      if (!sameCall(state.inFlight, event.call)) return state;
      const attempts = (state.failure?.attempts ?? 0) + 1;
      next = {
        ...(event.kind === "unavailable" ? state : withdrawn(state, event.call)),
        inFlight: null,
        failure: { kind: event.kind, message: event.message.slice(0, 300), attempts, retryAt: backoff(event.kind, attempts, now) },
      };
      break;
    }
    case "allowance_resolved":
      next = {
        ...state,
        failure: null,
        allowances: event.number
          ? state.allowances.map((allowance) =>
              allowance.seq === event.seq && allowance.status === "sent"
                ? // One asked by consent and found exists as asked: it awaits the buyer (its link's 72 hours counted from now, at the latest).
                  allowance.consent
                  ? {
                      ...allowance,
                      status: "awaiting",
                      number: event.number ?? "",
                      expiresAt: new Date(now.getTime() + CONSENT_HOURS * 3_600_000).toISOString(),
                    }
                  : { ...allowance, status: "issued", number: event.number ?? "" }
                : allowance,
            )
          : state.allowances.filter((allowance) => !(allowance.seq === event.seq && allowance.status === "sent")),
      };
      break;
    case "retry":
      // Staff (or a test) ask again now: the failure's wait is over, its count kept.
      next = state.failure ? { ...state, failure: { ...state.failure, retryAt: now.toISOString() } } : state;
      break;
    case "tick":
      break;
    case "withdraw":
      next = {
        ...state,
        withdraw: [...(state.withdraw ?? []).filter((asked) => asked.seq !== event.seq), { seq: event.seq, how: event.how }],
        failure: null,
      };
      break;
    case "handled_outside":
      next = { ...state, handledOutside: true, failure: null };
      break;
    case "consent": {
      // The provider's word is the truth: consent makes the allowance whatever we thought of it
      // (awaiting, or lapsed here a moment before); a refusal only ends one still awaiting. A replay changes nothing.
      const allowance = state.allowances.find((candidate) => candidate.seq === event.seq && candidate.consent);
      if (!allowance) return state;
      if (event.consented && (allowance.status === "awaiting" || allowance.status === "refused" || allowance.status === "expired")) {
        next = withAllowance(state, event.seq, (found) => ({ ...found, status: "issued" }));
      } else if (!event.consented && allowance.status === "awaiting") {
        next = withAllowance(state, event.seq, (found) => ({ ...found, status: "refused" }));
      } else return state;
      break;
    }
    case "consent_expired": {
      const allowance = state.allowances.find((candidate) => candidate.seq === event.seq);
      if (allowance?.status !== "awaiting" || !allowance.expiresAt || Date.parse(allowance.expiresAt) > now.getTime()) return state;
      next = withAllowance(state, event.seq, (found) => ({ ...found, status: "expired" }));
      break;
    }
    case "consent_followed": {
      const allowance = state.allowances.find((candidate) => candidate.seq === event.seq);
      if (!allowance || !isLapsed(allowance)) return state;
      next = withAllowance(state, event.seq, (found) => ({ ...found, followedUp: event.how }));
      if (event.how === "now") next = { ...next, nextAllowance: "immediate" };
      break;
    }
  }
  return next;
}

/**
 * The next state after `event` at `now`, and the provider call to make (at most one, recorded in
 * `inFlight`): the caller makes it and answers with an `answered` or `failed` event.
 */
export function transition(state: InvoiceState, event: InvoiceEvent, now: Date): { state: InvoiceState; call: ProviderCall | null } {
  const next = applyEvent(state, event, now);
  // An answer or failure of a call that is not the one out changes nothing.
  if (
    next === state &&
    (event.type === "answered" ||
      event.type === "failed" ||
      event.type === "consent" ||
      event.type === "consent_expired" ||
      event.type === "consent_followed")
  )
    return { state, call: null };
  if (next.issuer === "hotel_system" || next.handledOutside || next.inFlight) return { state: next, call: null };
  if (next.failure && (next.failure.retryAt === null || Date.parse(next.failure.retryAt) > now.getTime()))
    return { state: next, call: null };
  const call = nextCall(next, now);
  if (!call) {
    // Nothing can be done until staff say what became of a lost allowance.
    if (next.allowances.some((allowance) => allowance.status === "sent")) {
      const attempts = next.failure?.attempts ?? 1;
      return { state: { ...next, failure: { kind: "unavailable", message: LOST_ALLOWANCE, attempts, retryAt: null } }, call: null };
    }
    return { state: next.failure ? { ...next, failure: null } : next, call: null };
  }
  return { state: recordSent(next, call), call };
}

/**
 * A call the provider refused or never took (a 403, an error answer) created nothing: what it would
 * have created is forgotten. Only when the answer was lost ("unavailable") may it exist, and an
 * invoice is then looked up by its relate number.
 */
function withdrawn(state: InvoiceState, call: ProviderCall): InvoiceState {
  if (call.op === "issue" || call.op === "delay_issue")
    return { ...state, invoices: state.invoices.filter((invoice) => invoice.seq !== call.seq) };
  if (call.op === "allowance") return { ...state, allowances: state.allowances.filter((allowance) => allowance.seq !== call.seq) };
  return state;
}

function sameCall(a: ProviderCall | null, b: ProviderCall): boolean {
  return a !== null && a.op === b.op && a.seq === b.seq;
}

/** What staff may ask of an order's invoice at the desk (decision 159, the hotel's side). */
export type StaffRequest =
  | { action: "issue_now" }
  | { action: "void"; number: string }
  | { action: "allowance"; number: string }
  /** A lost allowance found in the provider's back office (its number) or not (null); otherwise a failure taken over outside Portico. */
  | { action: "handled"; allowanceNumber?: string | null }
  /** A consent the buyer refused or let lapse: ask for it again (a new email), or make the allowance at once (staff hold the buyer's written consent). */
  | { action: "consent_again" }
  | { action: "allowance_now" };

/** Why the desk refuses a request; `lastVoidDay` for `void_closed` (the Taipei date the period closed). */
export type StaffRefusal =
  | { reason: "hotel_system" | "handled_outside" | "busy" | "lost_allowance" | "awaits_checkout" | "nothing_to_do" }
  | { reason: "no_such_invoice" | "already_withdrawn" | "not_stuck" | "no_lapsed_consent" }
  | { reason: "void_closed"; lastVoidDay: string }
  /** After an HTTP 403 the provider is not asked again before the wait is over, not even by staff. */
  | { reason: "rate_limited"; retryAt: string };

/**
 * A staff request as the event it becomes, checked against the state (with the order's facts
 * already applied): the event to record with the desk's audit entry, or why it cannot be done now.
 * Nothing here calls the provider: the runner makes the calls the event leads to.
 */
export function staffEvent(
  state: InvoiceState,
  request: StaffRequest,
  now: Date,
): { ok: true; event: InvoiceEvent } | ({ ok: false } & StaffRefusal) {
  if (state.issuer === "hotel_system") return { ok: false, reason: "hotel_system" };
  if (state.handledOutside) return { ok: false, reason: "handled_outside" };
  const lost = state.allowances.find((allowance) => allowance.status === "sent");
  if (request.action === "handled") {
    if (lost) return { ok: true, event: { type: "allowance_resolved", seq: lost.seq, number: request.allowanceNumber ?? null } };
    if (state.failure && state.failure.retryAt === null && !state.inFlight) return { ok: true, event: { type: "handled_outside" } };
    return { ok: false, reason: "not_stuck" };
  }
  // A call out (its answer not in yet): the runner finishes it first; a stale one is looked up by "issue now".
  if (state.inFlight && request.action !== "issue_now") return { ok: false, reason: "busy" };
  if (lost) return { ok: false, reason: "lost_allowance" };
  if (request.action === "consent_again" || request.action === "allowance_now") {
    const lapsed = [...state.allowances].reverse().find(isLapsed);
    if (!lapsed) return { ok: false, reason: "no_lapsed_consent" };
    return { ok: true, event: { type: "consent_followed", seq: lapsed.seq, how: request.action === "consent_again" ? "again" : "now" } };
  }
  if (request.action === "issue_now") {
    const failure = state.failure;
    if (failure?.kind === "rate_limited" && failure.retryAt !== null && Date.parse(failure.retryAt) > now.getTime())
      return { ok: false, reason: "rate_limited", retryAt: failure.retryAt };
    if (failure || state.inFlight) return { ok: true, event: { type: "retry" } };
    if (nextCall(state, now)) return { ok: true, event: { type: "tick" } };
    const held = state.invoices.some((invoice) => invoice.status === "delayed");
    if (state.issuer === "portico_at_checkout" && !state.checkedOut && !state.cancelled && (held || state.target > 0))
      return { ok: false, reason: "awaits_checkout" };
    return { ok: false, reason: "nothing_to_do" };
  }
  const invoice = state.invoices.find((candidate) => candidate.number === request.number && candidate.status === "issued");
  if (!invoice || remaining(state, invoice) <= 0) return { ok: false, reason: "no_such_invoice" };
  if ((state.withdraw ?? []).some((asked) => asked.seq === invoice.seq)) return { ok: false, reason: "already_withdrawn" };
  if (request.action === "void" && !canVoid(invoice.issuedOn, now))
    return { ok: false, reason: "void_closed", lastVoidDay: lastVoidDay(invoice.issuedOn) };
  return { ok: true, event: { type: "withdraw", seq: invoice.seq, how: request.action } };
}
