/**
 * The e-invoice queue's runner (decision 159): for one order, it reads what the order says the
 * hotel keeps, feeds it to the state machine, and makes the provider calls the machine asks for,
 * one at a time, writing the state before each call (so a call is never made twice unknowingly)
 * and after each answer. A failure leaves the order on the queue until its retry time (after a 403,
 * 30 minutes); a failure left to staff takes it off. Two runners on one order: the second loses
 * at its first write and stops. What the runner never does: lose the booking or the payment; an
 * invoice is a consequence of them, never a condition.
 */
import type { BuyerChoice } from "~/domain/einvoice/buyer";
import { invoiceItems, type InvoiceItemsError } from "~/domain/einvoice/items";
import {
  invoiceStatus,
  transition,
  type CallResult,
  type InvoiceEvent,
  type InvoiceState,
  type InvoiceStatus,
  type ProviderCall,
} from "~/domain/einvoice/machine";
import {
  consentReturnUrl,
  einvoiceProvider,
  hotelInvoicing,
  requestEinvoiceDeps,
  type EinvoiceDeps,
  type HotelInvoicing,
} from "~/backend/einvoice/registry.server";
import type { BackendContext } from "~/backend/route";
import { DUE_AT_ONCE, loadInvoice, orderFacts, saveInvoice, type OrderFacts } from "~/backend/einvoice/invoices.server";
import { failure, type EinvoiceProvider, type ProviderAnswer } from "~/backend/einvoice/provider";

/** A call recorded as out for longer than this is taken as lost (its runner stopped): it is looked up. */
export const STALE_CALL_MS = 5 * 60_000;
/** Calls one run makes at most for one order (an issue after a void after an allowance's void …). */
const MAX_CALLS = 12;

const asResult = <T>(
  answer: ProviderAnswer<T>,
  read: (value: T) => CallResult,
): { ok: true; result: CallResult } | (ProviderAnswer<T> & { ok: false }) =>
  answer.ok ? { ok: true, result: read(answer.value) } : answer;

/** Makes one call of the machine with the order's items and buyer (`returnUrl`: where the buyer's consent is posted). */
async function perform(
  provider: EinvoiceProvider,
  call: ProviderCall,
  facts: OrderFacts,
  buyer: BuyerChoice,
  returnUrl: string,
  invoices: InvoiceState["invoices"],
) {
  // What the order's records know of an invoice: its total and relate number (ezPay finds an invoice by both, decision 171).
  const invoiceOf = (seq: number) => invoices.find((invoice) => invoice.seq === seq);
  const known = (seq: number) => {
    const invoice = invoiceOf(seq);
    return invoice ? { amount: invoice.amount } : undefined;
  };
  const issueRequest = (amount: number, purpose: Parameters<typeof invoiceItems>[2], relateNumber: string) => ({
    relateNumber,
    buyer,
    customerName: facts.bookerName,
    amount,
    items: invoiceItems(facts.source, amount, purpose),
    remark: facts.orderDoc,
  });
  switch (call.op) {
    case "issue":
      return asResult(await provider.issue(issueRequest(call.amount, call.purpose, call.relateNumber)), (invoice) => ({ ...invoice }));
    case "delay_issue":
      return asResult(await provider.delayIssue(issueRequest(call.amount, call.purpose, call.relateNumber)), () => ({}));
    case "trigger_issue":
      return asResult(await provider.triggerIssue(call.relateNumber, known(call.seq)), (invoice) => ({ ...invoice }));
    case "cancel_delay":
      return asResult(await provider.cancelDelayIssue(call.relateNumber), () => ({}));
    case "lookup":
      return asResult(await provider.getIssue(call.relateNumber, known(call.seq)), (lookup) =>
        !lookup.found
          ? { found: false }
          : lookup.delayed
            ? { found: true, delayed: true }
            : { found: true, delayed: false, ...lookup.invoice },
      );
    case "invalid":
      return asResult(await provider.invalid({ number: call.number, issuedOn: call.issuedOn, reason: "訂房變更" }), () => ({}));
    case "allowance": {
      const request = {
        number: call.number,
        issuedOn: call.issuedOn,
        amount: call.amount,
        items: [{ name: "住宿費用退款折讓", count: 1, word: "式", price: call.amount, amount: call.amount }],
        customerName: buyer.kind === "company" ? buyer.companyName : facts.bookerName,
        email: buyer.email,
        relateNumber: invoiceOf(call.invoiceSeq)?.relateNumber,
      };
      // By the buyer's consent (decision 167): the provider emails them; the answer comes to returnUrl.
      const answer = call.consent ? await provider.allowanceByCollegiate({ ...request, returnUrl }) : await provider.allowance(request);
      return asResult(answer, (allowance) => ({
        allowanceNumber: allowance.allowanceNumber,
        ...(allowance.expiresAt ? { expiresAt: allowance.expiresAt } : {}),
      }));
    }
    case "allowance_invalid":
      return asResult(
        await provider.allowanceInvalid({ number: call.number, allowanceNumber: call.allowanceNumber, reason: "訂房變更" }),
        () => ({}),
      );
  }
}

function describe(call: ProviderCall): string {
  return JSON.stringify(call);
}

/** The history's line for an event: what the order said, or what a call answered. */
function historyLine(event: InvoiceEvent): { kind: string; outcome: "recorded" | "done" | "failed"; detail: string } {
  if (event.type === "answered") return { kind: `answered:${event.call.op}`, outcome: "done", detail: JSON.stringify(event.result) };
  if (event.type === "failed") return { kind: `failed:${event.call.op}`, outcome: "failed", detail: event.message };
  return { kind: event.type, outcome: "recorded", detail: JSON.stringify(event) };
}

/**
 * Brings one order's invoices up to date with the order, making the calls that takes. Answers the
 * status it ends in (null: the order has no invoice row: its hotel has no invoicing).
 */
export async function runInvoice(deps: EinvoiceDeps, orderId: number, now: () => Date = () => new Date()): Promise<InvoiceStatus | null> {
  // The run takes its order off "due at once" before it reads the order: a change that queues it
  // meanwhile (a cancellation during the run) puts it back to due at once, and the end of the run
  // leaves it so: what this run did not read is run next time, never dropped.
  await deps.db
    .prepare("UPDATE einvoice_queue SET next_attempt_at = ?1 WHERE order_id = ?2")
    .bind(new Date(now().getTime() + STALE_CALL_MS).toISOString(), orderId)
    .run();
  const row = await loadInvoice(deps.db, orderId);
  if (!row) return null;
  const facts = await orderFacts(deps.db, orderId);
  if (!facts) return null;
  let state: InvoiceState = row.parsed;
  let version = row.version;
  const version0 = { order_id: row.order_id, hotel_id: row.hotel_id };

  let provider: EinvoiceProvider | null = null;
  let configProblem = "";
  let config: HotelInvoicing | null = null;
  if (state.issuer !== "hotel_system") {
    try {
      config = await hotelInvoicing(deps.db, row.hotel_id);
      if (!config) configProblem = "the hotel file no longer has invoicing";
      else provider = einvoiceProvider(config, deps, now);
    } catch (error) {
      configProblem = error instanceof Error ? error.message : String(error);
    }
  }

  let event: InvoiceEvent = {
    type: "kept",
    target: facts.target,
    sale: facts.sale,
    cancelled: facts.cancelled,
    ...(config ? { allowanceMode: config.allowance_mode } : {}),
  };
  const later: InvoiceEvent[] = facts.checkedOut && !state.checkedOut ? [{ type: "checked_out" }] : [];
  // A consent link that lapsed without an answer is recorded as expired, once (decision 167): left to staff, never asked again by itself.
  for (const allowance of state.allowances)
    if (allowance.status === "awaiting" && allowance.expiresAt && Date.parse(allowance.expiresAt) <= now().getTime())
      later.push({ type: "consent_expired", seq: allowance.seq });
  if (state.inFlight) {
    // Another runner is at work on it, or stopped mid-call: a call out this long is taken as lost.
    if (now().getTime() - Date.parse(row.updated_at) < STALE_CALL_MS) return invoiceStatus(state);
    later.unshift(event);
    event = { type: "failed", call: state.inFlight, kind: "unavailable", message: "the runner stopped before the answer" };
  }
  const returnUrl = config ? consentReturnUrl(config) : "";
  const buyer = JSON.parse(row.buyer) as BuyerChoice;

  for (let calls = 0; ; ) {
    const step = transition(state, event, now());
    const history: { kind: string; outcome: "recorded" | "sent" | "done" | "failed"; detail: string }[] = [historyLine(event)];
    if (step.call) history.push({ kind: `call:${step.call.op}`, outcome: "sent", detail: describe(step.call) });
    if (!(await saveInvoice(deps.db, { ...version0, version }, step.state, history))) return invoiceStatus(step.state);
    version += 1;
    state = step.state;
    const call = step.call;
    if (!call) {
      const next = later.shift();
      if (next) {
        event = next;
        continue;
      }
      break;
    }
    // A bound, never reached by the machine's own steps (it settles in a few): the call stays
    // recorded as out, and the next pass after STALE_CALL_MS takes it as lost and looks it up.
    if (calls >= MAX_CALLS) break;
    calls += 1;
    let answer: Awaited<ReturnType<typeof perform>>;
    if (!provider) answer = failure("refused", "config", configProblem || "no provider");
    else {
      try {
        answer = await perform(provider, call, facts, buyer, returnUrl, state.invoices);
      } catch (error) {
        // Items that cannot add up, a provider that threw: refused, for staff to see.
        answer = failure("refused", "local", (error as InvoiceItemsError | Error).message ?? String(error));
      }
    }
    event = answer.ok
      ? { type: "answered", call, result: answer.result }
      : { type: "failed", call, kind: answer.kind, message: `${answer.code} ${answer.message}`.trim() };
  }
  await updateQueue(deps.db, row.order_id, row.hotel_id, state, now());
  return invoiceStatus(state);
}

/**
 * On the queue while a retry is due (or a call is left out, or a consent link has yet to lapse:
 * looked at again when it does); off it when settled, waiting for a check-out, or left to staff,
 * unless a change queued it again during the run (then due at once).
 */
async function updateQueue(db: D1Database, orderId: number, hotelId: number, state: InvoiceState, at: Date): Promise<void> {
  const failure = state.failure;
  const lapses = state.allowances
    .filter((allowance) => allowance.status === "awaiting" && allowance.expiresAt)
    .map((allowance) => allowance.expiresAt ?? "")
    .sort()[0];
  const due = [failure?.retryAt ?? undefined, lapses].filter((when): when is string => !!when).sort()[0];
  const retryAt = state.inFlight ? new Date(at.getTime() + STALE_CALL_MS).toISOString() : due;
  if (retryAt) {
    await db
      .prepare(
        `INSERT INTO einvoice_queue (order_id, hotel_id, next_attempt_at, attempts, last_error) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (order_id) DO UPDATE SET
           next_attempt_at = CASE WHEN einvoice_queue.next_attempt_at = '${DUE_AT_ONCE}' THEN einvoice_queue.next_attempt_at ELSE excluded.next_attempt_at END,
           attempts = excluded.attempts, last_error = excluded.last_error`,
      )
      .bind(orderId, hotelId, retryAt, failure?.attempts ?? 0, (failure?.message ?? "").slice(0, 300))
      .run();
    return;
  }
  await db.prepare(`DELETE FROM einvoice_queue WHERE order_id = ? AND next_attempt_at != '${DUE_AT_ONCE}'`).bind(orderId).run();
}

/**
 * Runs the orders whose turn has come, oldest first, at most `limit` (the Cron's pass: a bounded
 * batch, the rest wait for the next pass). An order whose run throws (a database error, a bug) is
 * put back STALE_CALL_MS later with the error, and the pass goes on with the others.
 */
export async function runInvoiceQueue(
  deps: EinvoiceDeps,
  now: () => Date = () => new Date(),
  limit = 20,
): Promise<{ looked: number; errors: number }> {
  const due = await deps.db
    .prepare("SELECT order_id FROM einvoice_queue WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?")
    .bind(now().toISOString(), limit)
    .all<{ order_id: number }>();
  let errors = 0;
  for (const { order_id } of due.results) if (!(await runQueued(deps, order_id, now))) errors += 1;
  return { looked: due.results.length, errors };
}

/**
 * One queued order's run, as the Cron's pass and the run after a payment make it: whether it ran
 * without throwing. One that throws (a database error, a bug) is put back STALE_CALL_MS later with
 * the error, for the next pass.
 */
async function runQueued(deps: EinvoiceDeps, orderId: number, now: () => Date): Promise<boolean> {
  try {
    await runInvoice(deps, orderId, now);
    return true;
  } catch (error) {
    await deps.db
      .prepare("UPDATE einvoice_queue SET next_attempt_at = ?1, last_error = ?2 WHERE order_id = ?3")
      .bind(new Date(now().getTime() + STALE_CALL_MS).toISOString(), String(error).slice(0, 300), orderId)
      .run();
    return false;
  }
}

/**
 * Right after a payment settled (decision 163): the order's queue entry, which the settlement's own
 * batch made due at once, is run now rather than at the Cron's next pass, by the same run the Cron
 * makes (the lease, the guarded writes, the relate numbers, the back-off): so a Cron pass running the
 * same order meanwhile issues nothing twice (the second writer loses at its first write), and a
 * failure leaves the order on the queue for the Cron to retry. Nothing is run for an order that is
 * not due (another hotel's issuer, a replayed notice after the invoice was issued). Never throws.
 */
export async function runAfterPayment(deps: EinvoiceDeps, orderId: number, now: () => Date = () => new Date()): Promise<boolean> {
  try {
    const due = await deps.db
      .prepare("SELECT 1 AS due FROM einvoice_queue WHERE order_id = ? AND next_attempt_at <= ?")
      .bind(orderId, now().toISOString())
      .first<{ due: number }>();
    if (!due) return false;
    return await runQueued(deps, orderId, now);
  } catch {
    // The queue entry stays as the payment's batch left it: due, for the Cron.
    return false;
  }
}

/**
 * After the desk's payment or check-out queued the order's e-invoice: run now, before the desk's
 * answer, so the page staff land on shows the invoice (the guest is often at the desk asking for it),
 * where the Cron's next pass would take up to five minutes. The same guarded run as the Cron's and
 * the one after a gateway's payment; a failure leaves the order on the queue for the Cron's retry and
 * never fails the desk's action. Nothing runs when nothing is due (a hotel with its own system, say).
 */
export async function invoiceAtTheDesk(ctx: Pick<BackendContext, "db" | "secret" | "fetcher" | "testGateway" | "now">, orderId: number) {
  await runAfterPayment(requestEinvoiceDeps(ctx), orderId, () => ctx.now);
}
