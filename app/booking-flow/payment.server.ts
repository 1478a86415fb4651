/**
 * The /pay/{hotel_id}/{order_doc} page's server side (docs/decisions/033): the order's payment
 * state, and starting a payment attempt through the hotel's gateway.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { orderState } from "~/booking/order-view";
import { isOfflineMethod } from "~/booking/payments";
import { REPAY_PAYMENT_IDS, repayConfig, repayReturnPath } from "~/booking/master-order";
import { orderFromSignedLink, signedOrderPage } from "~/booking-flow/order-link.server";
import { csrfToken, verifyCsrf } from "~/session/cookies.server";
import { readForm } from "~/server/forms.server";
import { HotelApiError } from "~/hotel-api/client";
import type { Order } from "~/hotel-api/schemas";
import { fixedT } from "~/i18n/i18next.server";
import { localizePath } from "~/i18n/languages";

/** How long a started attempt without an answer counts as "waiting for the gateway" (the page refreshes meanwhile). */
const PENDING_WINDOW_MS = 15 * 60_000;

export type PaymentView = "paid" | "cancelled" | "expired" | "waiting" | "code_issued" | "declined" | "due" | "part_paid";

/** What the page says about the order's payment now. */
export function paymentView(order: Order, now: Date): PaymentView {
  const state = orderState(order);
  const last = order.payment_attempts[0];
  if (state === "cancelled") return order.pay_deadline && order.pay_deadline < now.toISOString() && order.payment_status === -1 ? "expired" : "cancelled";
  if (state === "paid") return "paid";
  if (last?.status === "pending" && now.getTime() - Date.parse(last.created_at) < PENDING_WINDOW_MS) return "waiting";
  if (last?.status === "code_issued") return "code_issued";
  if (state === "paid_in_part") return "part_paid";
  if (last?.status === "failed") return "declined";
  return "due";
}

/** What the guest can pay online now: the amount, or null. The rest after a deposit only with FEATURE_REPAY. */
export function payableNow(order: Order, view: PaymentView, repay: boolean): number | null {
  if (view === "paid" || view === "cancelled" || view === "expired") return null;
  // Also while waiting: a guest who left the gateway without paying can start again.
  if (order.payment_status === -1) return order.pay_amount;
  if (order.payment_status === 1 && repay) return Math.max(0, order.final_amount - order.paid_amount) || null;
  return null;
}

function receiptPath(order: Order, hash: string): string {
  return `/redirect/receipt/${encodeURIComponent(order.order_doc)}?valid_hash=${encodeURIComponent(hash)}`;
}

export async function loadPayPage({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (!app.hotel || String(app.hotel.hotel_id) !== params.hotelId) throw new Response(null, { status: 404 });
  const order = await orderFromSignedLink(context, params.orderDoc, request);
  const hash = new URL(request.url).searchParams.get("valid_hash") ?? "";
  // Nothing to pay online (bank transfer, pay at arrival, or nothing due): the confirmation is the
  // page for it, with the transfer details and the pay-by date.
  if (isOfflineMethod(order.pay_way) || order.pay_amount === 0) throw redirect(localizePath(receiptPath(order, hash), app.lang), 303);
  const now = new Date();
  const view = paymentView(order, now);
  const { token, setCookie } = await csrfToken(request, app.env);
  const t = await fixedT(app.lang);
  return data(
    {
      title: `${t("pay.title")} | ${app.hotel.hotel_name}`,
      order,
      view,
      payable: payableNow(order, view, app.env.FEATURE_REPAY),
      csrf: token,
      timeZone: app.hotel.time_zone,
      phone: app.hotel.phone,
      orderPage: signedOrderPage(context, order),
    },
    { headers: { "cache-control": "no-store", ...(setCookie ? { "set-cookie": setCookie } : {}) } },
  );
}

/** The master system's hotel for repay: its domain must be known (spec §8), else MasterDomainMissingError. */
function repayHotelId(hotel: { hotel_id: number; domain: string }): number {
  repayConfig(hotel.domain);
  return hotel.hotel_id;
}

export type PayActionData = { gateway: { action: string; fields: Record<string, string> } } | { error: string };

/** "Pay now": a new attempt at the hotel's gateway; a form to post there, or a redirect. */
export async function startPayPage({ context, params, request }: ActionFunctionArgs) {
  const { app } = context;
  if (!app.hotel || String(app.hotel.hotel_id) !== params.hotelId) throw new Response(null, { status: 404 });
  const form = await readForm(request);
  const t = await fixedT(app.lang);
  if (!form || !(await verifyCsrf(request, app, form))) return data<PayActionData>({ error: t("form.error.expired") }, { status: 403 });
  const order = await orderFromSignedLink(context, params.orderDoc, request);
  const url = new URL(request.url);
  const hash = url.searchParams.get("valid_hash") ?? "";
  const returnPath = `${localizePath(`/pay/${params.hotelId}/${encodeURIComponent(order.order_doc)}`, app.lang)}?valid_hash=${encodeURIComponent(hash)}`;
  try {
    // The rest after a deposit goes through the master system's repay (spec §7, §9), when it is on.
    const started =
      order.payment_status === 1 && app.env.FEATURE_REPAY
        ? await app.api.repay({
            payment_id: REPAY_PAYMENT_IDS.card,
            booking_number: order.order_doc,
            email: order.booker_email,
            deposit: false,
            return_url: `${url.origin}${localizePath(repayReturnPath(REPAY_PAYMENT_IDS.card, app.hotel.hotel_id, order.order_doc, hash), app.lang)}`,
            hotel_id: repayHotelId(app.hotel),
          })
        : await app.api.startPayment({ order_doc: order.order_doc, valid_hash: hash, return_path: returnPath });
    if (started.start.kind === "redirect") throw redirect(started.start.url, 303);
    return data<PayActionData>({ gateway: { action: started.start.action, fields: started.start.fields } });
  } catch (error) {
    // Refusals (nothing due, expired, a vendor without a protocol, a gateway that did not answer) are
    // the back end's translated message; an unreachable back end stays the 503 page (decision 024).
    if (error instanceof HotelApiError && error.status < 500) return data<PayActionData>({ error: error.message }, { status: error.status });
    throw error;
  }
}
