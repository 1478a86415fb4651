/**
 * The /pay/{hotel_id}/{order_doc} page's server side (docs/decisions/033): the order's payment
 * state, and starting a payment attempt through the hotel's gateway.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { orderState } from "~/domain/order-view";
import { isOfflineMethod } from "~/domain/payments";
import { REPAY_PAYMENT_IDS, repayReturnPath } from "~/domain/master-order";
import { orderFromSignedLink, signedOrderPage } from "~/features/orders/order-link.server";
import { csrfToken, verifyCsrf } from "~/platform/cookies.server";
import { readForm } from "~/platform/forms.server";
import { HotelApiError } from "~/contract/client";
import type { Order } from "~/contract/schemas";
import { fixedT } from "~/i18n/i18next.server";
import { localizePath, stripLanguage } from "~/i18n/languages";
import { notFound } from "~/platform/not-found.server";

/**
 * What the page says about the order's payment now (decision 047): only what is true. An attempt
 * started without an answer is "not received yet" (the guest may have left the gateway without
 * paying): the page never refreshes by itself, it offers to check again or to pay.
 */
export type PaymentView = "paid" | "cancelled" | "expired" | "not_received" | "code_issued" | "declined" | "due" | "part_paid";

export function paymentView(order: Order, now: Date): PaymentView {
  const state = orderState(order);
  const last = order.payment_attempts[0];
  if (state === "cancelled")
    return order.pay_deadline && order.pay_deadline < now.toISOString() && order.payment_status === -1 ? "expired" : "cancelled";
  if (state === "paid") return "paid";
  if (last?.status === "code_issued") return "code_issued";
  if (state === "paid_in_part") return "part_paid";
  if (last?.status === "pending") return "not_received";
  if (last?.status === "failed") return "declined";
  return "due";
}

/**
 * What the guest can pay online now: the amount, or null. Not while an ATM account is open (it is
 * paid by transfer, and no second attempt may run beside it); the rest after a deposit only with
 * FEATURE_REPAY.
 */
export function payableNow(order: Order, view: PaymentView, repay: boolean): number | null {
  if (view === "paid" || view === "cancelled" || view === "expired" || view === "code_issued") return null;
  // Also when nothing was received: a guest who left the gateway without paying can start again.
  if (order.payment_status === -1) return order.pay_amount;
  if (order.payment_status === 1 && repay) return Math.max(0, order.final_amount - order.paid_amount) || null;
  return null;
}

/**
 * The requests whose action has just started an attempt: the page they answer is the way to the
 * gateway, before the guest has tried to pay, so it says the payment is due, not that it was not
 * received (issue 37 item 17d). "Pay now" is a document's form, with JavaScript too: the action and
 * then the loader run in one request, with one context.
 */
const startingPayment = new WeakSet<object>();

function receiptPath(order: Order, hash: string): string {
  return `/redirect/receipt/${encodeURIComponent(order.order_doc)}?valid_hash=${encodeURIComponent(hash)}`;
}

export async function loadPayPage({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  if (!app.hotel || String(app.hotel.hotel_id) !== params.hotelId) throw notFound();
  const order = await orderFromSignedLink(context, params.orderDoc, request);
  const hash = new URL(request.url).searchParams.get("valid_hash") ?? "";
  // Nothing to pay online (bank transfer, pay at arrival, or nothing due): the confirmation is the
  // page for it, with the transfer details and the pay-by date.
  if (isOfflineMethod(order.pay_way) || order.pay_amount === 0) throw redirect(localizePath(receiptPath(order, hash), app.lang), 303);
  const now = new Date();
  const view = startingPayment.has(app) ? "due" : paymentView(order, now);
  const repay = order.payment_status === 1 && app.env.FEATURE_REPAY;
  const [{ token, setCookie }, t, config] = await Promise.all([
    csrfToken(request, app.env),
    fixedT(app.lang),
    // The ways to pay the rest, as the master system's repay configuration gives them (spec §7).
    // A back end that cannot answer it (a refusal, not an outage) leaves the card, which repay refuses in words if it must.
    repay
      ? app.api.repayConfig().catch((error: unknown) => {
          if (error instanceof HotelApiError && error.status < 500) return null;
          throw error;
        })
      : null,
  ]);
  return data(
    {
      // The title says the payment's state, as the heading does (issue 25 item 20).
      title: `${t(`pay.heading.${view}`)} | ${app.hotel.hotel_name}`,
      order,
      view,
      payable: payableNow(order, view, app.env.FEATURE_REPAY),
      repayChoices: (config?.payments ?? []).map(repayChoice),
      csrf: token,
      timeZone: app.hotel.time_zone,
      phone: app.hotel.phone,
      orderPage: signedOrderPage(context, order),
    },
    { headers: { "cache-control": "no-store", ...(setCookie ? { "set-cookie": setCookie } : {}) } },
  );
}

/** /pay/{hotel_id}/{order_doc}, once the language in front (if any) is taken off. */
const PAY_PATH = /^\/pay\/([^/]+)\/([^/]+)$/;

/**
 * The pay page's data for a same-origin address the checkout leads to, as its loader answers this
 * guest, to hand over with the action's answer (decision 127, `app/ui/handoff.ts`); null when the
 * address is not the pay page or the page would send the guest on (an offline method).
 */
export async function payPageAt(context: LoaderFunctionArgs["context"], path: string, request: Request) {
  const url = new URL(path, request.url);
  const match = PAY_PATH.exec(stripLanguage(url.pathname));
  if (!match || url.origin !== new URL(request.url).origin) return null;
  const [, hotelId, orderDoc] = match;
  const page = await loadPayPage({
    context,
    params: { hotelId, orderDoc },
    request: new Request(url, { headers: request.headers }),
  }).catch((thrown: unknown) => {
    if (thrown instanceof Response) return null;
    throw thrown;
  });
  if (!page) return null;
  return { page: page.data, setCookie: new Headers(page.init?.headers).get("set-cookie") };
}

export type PayActionData = { gateway: { action: string; fields: Record<string, string> } } | { error: string };

export interface RepayChoice {
  /** Spec §9's payment id (2 card, 35 JKOS). */
  id: number;
  /** The hotel's vendor behind it, for its name. */
  vendor: number;
}

const repayChoice = (option: { payment_id: number; vendor_id: number }): RepayChoice => ({
  id: option.payment_id,
  vendor: option.vendor_id,
});

/** "Pay now": a new attempt at the hotel's gateway; a form to post there, or a redirect. */
export async function startPayPage({ context, params, request }: ActionFunctionArgs) {
  const { app } = context;
  if (!app.hotel || String(app.hotel.hotel_id) !== params.hotelId) throw notFound();
  const form = await readForm(request);
  const t = await fixedT(app.lang);
  if (!form || !(await verifyCsrf(request, app, form))) return data<PayActionData>({ error: t("form.error.expired") }, { status: 403 });
  const order = await orderFromSignedLink(context, params.orderDoc, request);
  const url = new URL(request.url);
  const hash = url.searchParams.get("valid_hash") ?? "";
  const returnPath = `${localizePath(`/pay/${params.hotelId}/${encodeURIComponent(order.order_doc)}`, app.lang)}?valid_hash=${encodeURIComponent(hash)}`;
  // The way to pay the rest the guest chose; any §9 id goes to the back end, which refuses what it cannot take.
  const asked = Number(form.get("repay_method") ?? REPAY_PAYMENT_IDS.card);
  const paymentId = (Object.values(REPAY_PAYMENT_IDS) as number[]).includes(asked) ? asked : REPAY_PAYMENT_IDS.card;
  try {
    // The rest after a deposit goes through the master system's repay (spec §7, §9), when it is on.
    // The master system's hotel id comes from its repay configuration (spec §7), which needs the
    // hotel's domain (spec §8: MasterDomainMissingError without it).
    const started =
      order.payment_status === 1 && app.env.FEATURE_REPAY
        ? await app.api.repay({
            payment_id: paymentId,
            booking_number: order.order_doc,
            email: order.booker_email,
            deposit: false,
            return_url: `${url.origin}${localizePath(repayReturnPath(paymentId, app.hotel.hotel_id, order.order_doc, hash), app.lang)}`,
            hotel_id: (await app.api.repayConfig()).hotel_id,
          })
        : await app.api.startPayment({ order_doc: order.order_doc, valid_hash: hash, return_path: returnPath });
    if (started.start.kind === "redirect") throw redirect(started.start.url, 303);
    startingPayment.add(app);
    return data<PayActionData>({ gateway: { action: started.start.action, fields: started.start.fields } });
  } catch (error) {
    // Refusals (nothing due, expired, a vendor without a protocol, a gateway that did not answer) are
    // the back end's translated message; an unreachable back end stays the 503 page (decision 024).
    if (error instanceof HotelApiError && error.status < 500)
      return data<PayActionData>({ error: error.message }, { status: error.status });
    throw error;
  }
}
