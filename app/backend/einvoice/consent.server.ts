/**
 * AllowanceByCollegiate's ReturnURL (decision 167): the provider posts here, server to server, when
 * the buyer answers the emailed consent link of an allowance. One address per hotel, on the back end
 * as the payment callbacks are. Anyone can post here: nothing is written until the MD5
 * CheckMacValue verifies with THAT hotel's keys (readCollegiateCallback) and IA_Allow_No with
 * IA_Invoice_No name an allowance of that hotel's orders on that invoice. Then the buyer's answer is
 * an event of the order's state machine (consent: made; refusal: recorded for staff), written by
 * the guarded write every writer uses: a replay, or a second callback racing the first, changes
 * nothing twice and gets the same answer. The answer is ECPay's `1|OK` (a refusal: `0|reason`, 400).
 */
import { applyEvent, nextCall, type InvoiceEvent } from "~/domain/einvoice/machine";
import { readCollegiateCallback, type EcpayEinvoiceKeys } from "~/backend/einvoice/ecpay.server";
import { enqueueInvoiceStatements, loadInvoice, saveInvoice } from "~/backend/einvoice/invoices.server";
import { hotelInvoicing, type HotelInvoicing } from "~/backend/einvoice/registry.server";
import { sandboxEinvoiceKeys } from "~/backend/einvoice/sandbox.server";
import { ECPAY_OK } from "~/backend/payments/gateways/ecpay";
import { printable } from "~/backend/payments/settle.server";
import { isLocalHost } from "~/lib/hosts";
import type { BackendContext, BackendRoute } from "~/backend/route";

/** A consent callback is a few short fields; anything longer is not one. */
const MAX_BODY = 4_096;
/** Writes lost to another writer (the Cron, a second callback) before the answer is given up on: each retry reads again. */
const WRITE_ATTEMPTS = 4;

function textAnswer(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

/** The keys a hotel's consent callbacks are signed with: ECPay's HashKey and HashIV (Worker secrets), or the sandbox's derived ones. */
async function callbackKeys(ctx: BackendContext, config: HotelInvoicing): Promise<Pick<EcpayEinvoiceKeys, "hashKey" | "hashIv"> | null> {
  if (config.provider === "sandbox") {
    // Where the sandbox may not run, it asked nothing: nothing it signs is taken.
    if (!ctx.testGateway && !isLocalHost(config.domain)) return null;
    return sandboxEinvoiceKeys(ctx.signingSecret, config.hotel_id);
  }
  const hashKey = config.secrets.hash_key ? ctx.secret(config.secrets.hash_key) : undefined;
  const hashIv = config.secrets.hash_iv ? ctx.secret(config.secrets.hash_iv) : undefined;
  return hashKey && hashIv ? { hashKey, hashIv } : null;
}

/** A callback that proved nothing, or named nothing of this hotel: logged, never written. */
function refuse(ctx: BackendContext, hotelId: string, reason: string, allowance = ""): Response {
  ctx.log.warn("e-invoice consent callback refused", printable(hotelId, 12), printable(allowance, 20) || "-", reason);
  return textAnswer(`0|${reason}`, 400);
}

export type ConsentOutcome = "changed" | "unchanged" | "unknown";

/**
 * Records the buyer's answer on the order's allowance `seq`: the machine's `consent` event in a
 * guarded write with its history line (the order queued when that calls for a call). A write lost to another writer
 * reads again; an answer that changes nothing (a replay, a refusal after a consent) writes nothing.
 */
export async function recordConsent(
  db: D1Database,
  orderId: number,
  seq: number,
  consented: boolean,
  detail: Record<string, string>,
  now: Date,
): Promise<ConsentOutcome> {
  const event: InvoiceEvent = { type: "consent", seq, consented };
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const row = await loadInvoice(db, orderId);
    if (!row) return "unknown";
    const next = applyEvent(row.parsed, event, now);
    if (next === row.parsed) return "unchanged";
    const line = { kind: consented ? "consent:agreed" : "consent:refused", outcome: "recorded" as const, detail: JSON.stringify(detail) };
    if (await saveInvoice(db, row, next, [line])) {
      // Queued only when the answer calls for more (a consent to an allowance staff had already
      // replaced: the hotel keeps more than is left issued): the Cron issues the difference.
      if (nextCall(next, now)) await db.batch(enqueueInvoiceStatements(db, orderId));
      return "changed";
    }
  }
  throw new Error(`the consent of allowance ${seq} of order ${orderId} lost ${WRITE_ATTEMPTS} writes in a row`);
}

async function handleConsentCallback(ctx: BackendContext, params: Record<string, string>): Promise<Response> {
  const claimed = params.hotelId ?? "";
  // Read as bytes: a form body read with .text() makes workerd warn on every callback.
  const bytes = await ctx.request.arrayBuffer();
  if (bytes.byteLength > MAX_BODY) return refuse(ctx, claimed, "body too large");
  const hotelId = /^\d{1,9}$/.test(claimed) ? Number(claimed) : NaN;
  const config = Number.isSafeInteger(hotelId) ? await hotelInvoicing(ctx.db, hotelId) : null;
  if (!config || config.issuer === "hotel_system") return refuse(ctx, claimed, "unknown callback address");
  const keys = await callbackKeys(ctx, config);
  if (!keys) return refuse(ctx, claimed, "no keys for this hotel's provider");
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return refuse(ctx, claimed, "not a form");
  }
  const verdict = readCollegiateCallback(form, keys);
  if (!verdict.ok) return refuse(ctx, claimed, verdict.reason, form.get("IA_Allow_No") ?? "");
  // Signed by this hotel's provider: from here on, what it names must be this hotel's.
  if (!/^\d{16}$/.test(verdict.allowanceNumber) || !/^[A-Z]{2}\d{8}$/.test(verdict.invoiceNumber))
    return refuse(ctx, claimed, "unknown allowance", verdict.allowanceNumber);
  const found = await ctx.db
    .prepare(
      `SELECT a.order_id, a.seq FROM einvoice_allowances a
       JOIN order_invoices oi ON oi.order_id = a.order_id
       JOIN einvoice_documents d ON d.order_id = a.order_id AND d.seq = a.invoice_seq
       WHERE a.number = ?1 AND oi.hotel_id = ?2 AND d.number = ?3`,
    )
    .bind(verdict.allowanceNumber, config.hotel_id, verdict.invoiceNumber)
    .first<{ order_id: number; seq: number }>();
  if (!found) return refuse(ctx, claimed, "unknown allowance", verdict.allowanceNumber);
  const outcome = await recordConsent(
    ctx.db,
    found.order_id,
    found.seq,
    verdict.consented,
    {
      allowance: verdict.allowanceNumber,
      invoice: verdict.invoiceNumber,
      rtn_code: printable(form.get("RtnCode") ?? "", 10),
      rtn_msg: printable(form.get("RtnMsg") ?? "", 100),
    },
    ctx.now,
  );
  if (outcome === "unknown") return refuse(ctx, claimed, "unknown allowance", verdict.allowanceNumber);
  ctx.log.info("e-invoice consent callback", config.hotel_id, verdict.allowanceNumber, verdict.consented ? "agreed" : "refused", outcome);
  return textAnswer(ECPAY_OK);
}

export const einvoiceRoutes: BackendRoute[] = [
  { method: "POST", path: "/api/einvoice/allowance-consent/:hotelId", handler: handleConsentCallback },
];
