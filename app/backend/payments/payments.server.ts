/**
 * Payment calls of the built-in back end (docs/decisions/031, 033): start a payment for an order,
 * and the gateways' callbacks. Callback routes answer at exactly their registered address, take no
 * CSRF token (gateways post them server to server) and always verify: signature, then hotel,
 * vendor, trade number, amount and currency. Every refused or ignored callback is logged with why.
 */
import * as v from "valibot";
import { DEFAULT_PAYMENT_DEADLINES, isOfflineMethod, type PaymentDeadlines } from "~/domain/payments";
import { paymentGateway } from "~/backend/payments/gateways/gateway";
import { PaymentConfigError, PaymentNotImplementedError, type GatewayConfig, type PaymentGateway } from "~/backend/payments/gateways/types";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { HOTEL_COLUMNS, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson } from "~/backend/localize";
import { todayIn } from "~/domain/dates";
import { isLocalHost } from "~/lib/hosts";
import { isSafeLocalPath, safeLocalPath } from "~/lib/local-path";
import { verifyOrderLink } from "~/backend/orders/links.server";
import { applyNotice, findPayment, logPaymentEvent, markOrderPaid, printable } from "~/backend/payments/settle.server";
import { refundDueSql } from "~/backend/payments/refund-ledger.server";
import { runAfterPayment } from "~/backend/einvoice/runner.server";
import { requestEinvoiceDeps } from "~/backend/einvoice/registry.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import type { Logger } from "~/platform/log.server";

export { expireUnpaidOrders } from "~/backend/payments/expiry.server";
import { currentOrder } from "~/backend/payments/expiry.server";
export { markOrderPaid, prunePaymentEvents } from "~/backend/payments/settle.server";

export function hotelDeadlines(hotel: Pick<HotelRow, "payment_deadlines">): PaymentDeadlines {
  return { ...DEFAULT_PAYMENT_DEADLINES, ...parseJson<Partial<PaymentDeadlines>>(hotel.payment_deadlines, {}) };
}

async function findHotelById(db: D1Database, id: string): Promise<HotelRow | null> {
  if (!/^\d{1,9}$/.test(id)) return null;
  return db.prepare(`SELECT ${HOTEL_COLUMNS} FROM hotels h WHERE h.id = ?`).bind(Number(id)).first<HotelRow>();
}

/** The gateway of one vendor for one hotel; configuration problems become the §8 errors guests can read. */
export async function gatewayFor(ctx: BackendContext, hotel: HotelRow, vendorId: number, siteOrigin = ""): Promise<PaymentGateway> {
  const configs = parseJson<GatewayConfig[]>(hotel.payment_gateways, []);
  if (!ctx.testGateway && configs.some((config) => config.vendor_id === vendorId && config.provider === "sandbox")) {
    // The test gateway takes no money: never on a public host unless the deployment opted in (decision 047).
    ctx.log.error(
      "payment configuration",
      hotel.domain,
      `vendor ${vendorId}: the built-in test gateway is refused on a public host (set ALLOW_TEST_GATEWAY for a staging site)`,
    );
    throw new ApiError(422, "payment_not_configured", {}, "payment_vendor");
  }
  try {
    return await paymentGateway(vendorId, configs, {
      secrets: ctx.secret,
      signingSecret: ctx.signingSecret,
      siteOrigin,
      fetcher: ctx.fetcher,
    });
  } catch (error) {
    if (error instanceof PaymentNotImplementedError) throw new ApiError(422, "payment_not_implemented", {}, "payment_vendor");
    if (error instanceof PaymentConfigError) {
      ctx.log.error("payment configuration", hotel.domain, error.message);
      throw new ApiError(422, "payment_not_configured", {}, "payment_vendor");
    }
    throw error;
  }
}

interface PayableOrder {
  id: number;
  hotel_id: number;
  order_doc: string;
  pay_way: string;
  payment_vendor: number;
  pay_option: "all" | "part";
  pay_amount: number;
  total_price: number;
  paid_amount: number;
  payment_status: number;
  status: string;
  pay_deadline: string | null;
  booker_email: string;
  check_in_day: string;
  member_id: number | null;
  point_used: number;
}

/** What the guest owes online now, and why; a §8-style error when nothing can be paid. */
export function amountDue(order: PayableOrder, now: Date): { amount: number; purpose: "full" | "deposit" | "balance" } {
  if (order.status === "cancelled") {
    const expired = order.payment_status === -1 && order.pay_deadline !== null && order.pay_deadline < now.toISOString();
    throw new ApiError(409, expired ? "payment_expired" : "already_cancelled");
  }
  if (order.payment_status === -1) {
    if (order.pay_deadline && order.pay_deadline < now.toISOString()) throw new ApiError(409, "payment_expired");
    if (order.pay_amount <= 0) throw new ApiError(409, "nothing_to_pay");
    return { amount: order.pay_amount, purpose: order.pay_option === "part" ? "deposit" : "full" };
  }
  const rest = order.total_price - order.paid_amount;
  if (order.payment_status === 1 && rest > 0) return { amount: rest, purpose: "balance" };
  throw new ApiError(409, "nothing_to_pay");
}

const TRADE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A trade number: the order number's letters and digits, then random ones, 20 in all (ECPay's limit). */
export function newTradeNo(orderDoc: string): string {
  const base = orderDoc.replace(/[^A-Za-z0-9]/g, "").slice(0, 14);
  const bytes = crypto.getRandomValues(new Uint8Array(20 - base.length));
  return base + [...bytes].map((byte) => TRADE_ALPHABET[byte % TRADE_ALPHABET.length]).join("");
}

/**
 * A path on the hotel's own site (~/lib/local-path): one leading slash, no spaces, backslashes,
 * control, bidi or zero-width characters, in any encoding.
 */
export const LocalPath = v.pipe(v.string(), v.maxLength(1000), v.check(isSafeLocalPath));

const StartBody = v.object({
  domain: v.string(),
  order_doc: v.pipe(v.string(), v.regex(/^[A-Z0-9-]{4,40}$/)),
  valid_hash: v.pipe(v.string(), v.maxLength(200)),
  /** The page the browser returns to (the order's /pay page): a path on the hotel's site. */
  return_path: LocalPath,
  /** Another vendor of the hotel's list than the order's own (repay with another card or wallet). */
  payment_vendor: v.optional(v.pipe(v.number(), v.integer())),
});

export function callbackPath(hotelId: number, vendorId: number, kind: "return" | "info"): string {
  return `/api/payment/callback/${hotelId}/${vendorId}/${kind}`;
}

/**
 * The hotel's own site, where every address handed to a gateway points (decision 047): its domain
 * over HTTPS. Only on this machine (development, tests), where no gateway can reach anyway, is it the
 * local site the request came through. Never an origin a caller names.
 */
export function hotelSiteOrigin(ctx: Pick<BackendContext, "site">, hotel: Pick<HotelRow, "domain">): string {
  const here = new URL(ctx.site.origin);
  return isLocalHost(here.hostname) ? here.origin : `https://${hotel.domain}`;
}

/** Whole days from today (in the hotel's time zone) to check-in: an ATM account never outlives the stay's start. */
function daysToCheckIn(hotel: Pick<HotelRow, "time_zone">, order: Pick<PayableOrder, "check_in_day">, now: Date): number {
  return Math.round(
    (Date.parse(`${order.check_in_day}T00:00:00Z`) - Date.parse(`${todayIn(hotel.time_zone, now)}T00:00:00Z`)) / 86_400_000,
  );
}

/**
 * Starts a payment attempt for what the order owes now; answers where to send the browser. One open
 * attempt per order (decision 047): the new one supersedes any attempt still waiting at a gateway,
 * and an issued ATM account, which no gateway can withdraw, is paid to or left to expire first.
 */
export async function startPayment(
  ctx: BackendContext,
  hotel: HotelRow,
  order: PayableOrder,
  input: { returnPath: string; vendorId: number },
) {
  if (isOfflineMethod(order.pay_way) && input.vendorId === order.payment_vendor) throw new ApiError(409, "nothing_to_pay");
  const due = amountDue(order, ctx.now);
  const origin = hotelSiteOrigin(ctx, hotel);
  const gateway = await gatewayFor(ctx, hotel, input.vendorId, origin);
  const tradeNo = newTradeNo(order.order_doc);
  const [, inserted] = await ctx.db.batch([
    ctx.db
      .prepare(
        `UPDATE payments SET status = 'superseded', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE order_id = ? AND status = 'pending'`,
      )
      .bind(order.id),
    ctx.db
      .prepare(
        `INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) SELECT ?, ?, ?, ?, ?, ?
         WHERE NOT EXISTS (SELECT 1 FROM payments WHERE order_id = ? AND status = 'code_issued')`,
      )
      .bind(order.id, input.vendorId, gateway.provider, tradeNo, due.amount, due.purpose, order.id),
  ]);
  if ((inserted?.meta.changes ?? 0) === 0) throw new ApiError(409, "payment_code_open");
  const browserReturn = `${origin}${input.returnPath}`;
  let start;
  try {
    start = await gateway.start({
      tradeNo,
      amount: due.amount,
      itemName: `${order.order_doc}`,
      email: order.booker_email,
      now: ctx.now,
      lang: ctx.lang,
      atmDays: Math.max(1, Math.min(hotelDeadlines(hotel).atm_days, daysToCheckIn(hotel, order, ctx.now))),
      urls: {
        notify: `${origin}${callbackPath(hotel.id, input.vendorId, "return")}`,
        paymentInfo: `${origin}${callbackPath(hotel.id, input.vendorId, "info")}`,
        browserReturn,
        confirm: `${origin}/api/payment/linepay/confirm/${hotel.id}/${input.vendorId}?back=${encodeURIComponent(input.returnPath)}`,
      },
    });
  } catch (error) {
    ctx.log.error("payment start failed", hotel.domain, order.order_doc, error);
    await ctx.db.prepare("UPDATE payments SET status = 'failed', message = 'start failed' WHERE trade_no = ?").bind(tradeNo).run();
    throw new ApiError(424, "payment_gateway_error");
  }
  return { trade_no: tradeNo, amount: due.amount, purpose: due.purpose, vendor_id: input.vendorId, provider: gateway.provider, start };
}

/**
 * Gives money back for an order (cancellation, issue 15): refunds its paid attempts newest first
 * through their gateways until `amount` is covered. A fully refunded attempt is marked `refunded`;
 * the order's own amounts are the caller's to change. Answers what was refunded and any failures.
 */
export async function refundOrderPayments(
  ctx: BackendContext,
  hotel: HotelRow,
  orderId: number,
  amount: number,
  /** A cancellation's refund: claimed only within what the ledger says is still due (decision 151). */
  onlyWhatIsDue = false,
): Promise<{ refunded: number; failures: string[] }> {
  const { results } = await ctx.db
    .prepare(
      // Money recorded at the desk (a transfer, cash) was not taken by a gateway: the hotel pays it back by hand.
      "SELECT id, vendor_id, trade_no, gateway_trade_no, amount FROM payments WHERE order_id = ? AND status = 'paid' AND provider != 'desk' ORDER BY id DESC",
    )
    .bind(orderId)
    .all<{ id: number; vendor_id: number; trade_no: string; gateway_trade_no: string; amount: number }>();
  let refunded = 0;
  const failures: string[] = [];
  const now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
  for (const payment of results) {
    const part = Math.min(payment.amount, amount - refunded);
    if (part <= 0) break;
    // Claimed in the refunds ledger before the gateway is asked (decision 151); for a cancellation,
    // within what is still due: money a member of staff paid back meanwhile is never asked again.
    const claim = await ctx.db
      .prepare(
        `INSERT INTO refunds (hotel_id, order_id, payment_id, amount, method, status)
         SELECT ?1, ?2, ?3, ?4, 'gateway', 'pending' WHERE ${onlyWhatIsDue ? `${refundDueSql(orderId)} >= ?4` : "1"} RETURNING id`,
      )
      .bind(hotel.id, orderId, payment.id, part)
      .first<{ id: number }>();
    if (!claim) {
      failures.push(`${payment.trade_no}: no longer due (paid back meanwhile)`);
      break;
    }
    // A gateway not configured or not reached refuses as one that says no: the claim is freed and
    // the money stays due, for the desk (a claim left pending would hide it from "due" for ever).
    let answer: { ok: boolean; reason: string };
    try {
      const gateway = await gatewayFor(ctx, hotel, payment.vendor_id);
      answer = await gateway.refund({ tradeNo: payment.trade_no, gatewayTradeNo: payment.gateway_trade_no, amount: payment.amount }, part);
    } catch (error) {
      answer = { ok: false, reason: error instanceof ApiError ? error.code : "gateway not reached" };
    }
    if (!answer.ok) {
      await ctx.db
        .prepare(`UPDATE refunds SET status = 'failed', message = ?, updated_at = ${now} WHERE id = ?`)
        .bind(answer.reason.slice(0, 200), claim.id)
        .run();
      failures.push(`${payment.trade_no}: ${answer.reason}`);
      continue;
    }
    refunded += part;
    await ctx.db.batch([
      ctx.db.prepare(`UPDATE refunds SET status = 'done', updated_at = ${now} WHERE id = ? AND status = 'pending'`).bind(claim.id),
      ctx.db
        .prepare(`UPDATE payments SET status = 'refunded', updated_at = ${now} WHERE id = ? AND status = 'paid' AND amount = ?`)
        .bind(payment.id, part),
    ]);
  }
  return { refunded, failures };
}

function textAnswer(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

/**
 * Refuses a callback that proved nothing (no hotel at that address, no gateway, a bad signature):
 * logged, never written — anyone can post these (decision 047). The claimed trade, unverified, only
 * in the log, cleaned of control characters.
 */
function refuseUnverified(log: Logger, route: string, reason: string, body: string): Response {
  const claimed = (() => {
    try {
      return new URLSearchParams(body).get("MerchantTradeNo") ?? "";
    } catch {
      return "";
    }
  })();
  log.warn("payment callback refused", printable(route, 40), printable(claimed, 40) || "-", reason);
  return textAnswer(`0|${reason}`, 400);
}

async function handleCallback(ctx: BackendContext, params: Record<string, string>): Promise<Response> {
  const route = `${params.vendorId}/${params.kind}`;
  const hotel = await findHotelById(ctx.db, params.hotelId ?? "");
  const vendorId = Number(params.vendorId);
  const kind = params.kind === "info" ? "payment_info" : params.kind === "return" ? "return" : null;
  // Read as bytes: a form body read with .text() makes workerd warn on every callback.
  const body = new TextDecoder().decode(await ctx.request.arrayBuffer());
  if (!hotel || !kind || !Number.isInteger(vendorId)) return refuseUnverified(ctx.log, route, "unknown callback address", body);
  if (body.length > 16_384) return refuseUnverified(ctx.log, route, "body too large", "");
  let gateway: PaymentGateway;
  try {
    gateway = await gatewayFor(ctx, hotel, vendorId);
  } catch {
    return refuseUnverified(ctx.log, route, "no gateway for this vendor", body);
  }
  const verdict = await gateway.verifyCallback(kind, body, ctx.request.headers);
  if (!verdict.ok) return refuseUnverified(ctx.log, route, verdict.reason, body);
  // From here the gateway signed what it says: what it changes, or why not, is kept (for a while).
  const outcome = await applyNotice(ctx.db, ctx.log, hotel.id, vendorId, verdict.notice, ctx.site);
  await logPaymentEvent(ctx.db, ctx.log, {
    hotelId: hotel.id,
    route,
    outcome: outcome.outcome,
    reason: outcome.reason,
    tradeNo: verdict.notice.tradeNo,
  });
  if (outcome.paid && outcome.orderId !== undefined) invoiceAfterPayment(ctx, outcome.orderId);
  if (outcome.outcome === "refused") return textAnswer(`0|${outcome.reason}`, 400);
  return textAnswer(gateway.acknowledgement || "OK");
}

/**
 * The order's e-invoice, issued after the answer (decision 163): the settlement's batch queued it;
 * it is run now in the request's background work, the Cron's pass being the retry. Whatever
 * becomes of it, the callback has already answered and the payment stands.
 */
function invoiceAfterPayment(ctx: BackendContext, orderId: number): void {
  ctx.waitUntil(runAfterPayment(requestEinvoiceDeps(ctx), orderId, () => ctx.now));
}

/** LINE Pay sends the browser back to confirmUrl; confirming there is what makes the payment. */
async function handleLinepayConfirm(ctx: BackendContext, params: Record<string, string>): Promise<Response> {
  const hotel = await findHotelById(ctx.db, params.hotelId ?? "");
  // The address LINE Pay hands back is anyone's to edit: only a safe path of the site is followed.
  const location = safeLocalPath(ctx.url.searchParams.get("back")) ?? "/";
  const redirect = () => new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
  const tradeNo = ctx.url.searchParams.get("orderId") ?? "";
  const transactionId = ctx.url.searchParams.get("transactionId") ?? "";
  const payment = await findPayment(ctx.db, tradeNo);
  const vendorId = Number(params.vendorId);
  if (!hotel || !payment || payment.hotel_id !== hotel.id || payment.vendor_id !== vendorId || !/^\d{1,25}$/.test(transactionId)) {
    // Anyone can open this address: nothing is written until LINE Pay confirms.
    ctx.log.warn("payment callback refused", "linepay/confirm", printable(tradeNo, 40) || "-", "unknown or foreign trade");
    return redirect();
  }
  const gateway = await gatewayFor(ctx, hotel, vendorId);
  const answer = await gateway.query(tradeNo, transactionId, payment.amount);
  if (answer?.paid && answer.amount === payment.amount) {
    const { changed, owed } = await markOrderPaid(ctx.db, ctx.log, payment, transactionId, ctx.site, "wallet");
    if (changed) invoiceAfterPayment(ctx, payment.order_id);
    const outcome = changed || owed ? "applied" : "ignored";
    await logPaymentEvent(ctx.db, ctx.log, {
      hotelId: hotel.id,
      route: "linepay/confirm",
      outcome,
      reason: changed ? "paid" : owed ? `kept as ${owed}, to refund` : "replay",
      tradeNo,
    });
  } else {
    ctx.log.warn("payment callback refused", "linepay/confirm", tradeNo, "confirm not 0000");
  }
  return redirect();
}

export const paymentRoutes: BackendRoute[] = [
  {
    method: "POST",
    path: "/api/payment/start",
    handler: async (ctx) => {
      const body = parseInput(StartBody, await readJsonBody(ctx.request));
      const hotel = await requireHotel(ctx.db, body.domain);
      const orderDoc = await verifyOrderLink(ctx.signingSecret, body.valid_hash, "view", hotel.id, ctx.now);
      if (!orderDoc || orderDoc !== body.order_doc) throw new ApiError(403, "hash_invalid", {}, "valid_hash");
      const order = await currentOrder(
        ctx.db,
        () => ctx.db.prepare("SELECT * FROM orders WHERE hotel_id = ? AND order_doc = ?").bind(hotel.id, orderDoc).first<PayableOrder>(),
        ctx.now,
      );
      if (!order) throw new ApiError(404, "order_not_found");
      const vendorId = body.payment_vendor ?? order.payment_vendor;
      const offered = parseJson<{ vendor_id: number; method: string }[]>(hotel.payment_list, []);
      if (!offered.some((entry) => entry.vendor_id === vendorId && !isOfflineMethod(entry.method)))
        throw new ApiError(400, "payment_not_available", {}, "payment_vendor");
      return ok(await startPayment(ctx, hotel, order, { returnPath: body.return_path, vendorId }));
    },
  },
  { method: "POST", path: "/api/payment/callback/:hotelId/:vendorId/:kind", handler: handleCallback },
  { method: "GET", path: "/api/payment/linepay/confirm/:hotelId/:vendorId", handler: handleLinepayConfirm },
];
