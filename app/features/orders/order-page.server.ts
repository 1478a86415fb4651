/**
 * The order page's data (decision 044): the order with its proof of access, and the actions that
 * apply to it: pay the rest, download the confirmation, cancel.
 */
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { orderAccount, orderState } from "~/domain/order-view";
import { orderCancelPath, orderPdfPath } from "~/domain/order-paths";
import { localizePath } from "~/i18n/languages";
import { fixedT } from "~/i18n/i18next.server";
import { hashOf, orderForRequest } from "~/features/orders/access.server";
import { documentLanguage, docText } from "~/documents/labels";
import { cancellationLines, policyLines } from "~/documents/refund-text";
import { invoiceTextLines } from "~/documents/invoice-text";
import { offeredExtras } from "~/features/orders/extras.server";
import { railChangesView } from "~/features/orders/rail-changes.server";
import { csrfToken } from "~/platform/cookies.server";

export async function loadOrderPage(context: AppLoadContext, params: { product?: string; orderDoc?: string }, request: Request) {
  const { app } = context;
  const hash = hashOf(request);
  const { hotel, order, via } = await orderForRequest(context, params.product, params.orderDoc, hash);
  const product = app.env.PRODUCT;
  // A link holder's links carry the order's view hash; a member's need none.
  const withHash = (path: string, name: "valid_hash" | "cancel_hash", value: string) =>
    `${localizePath(path, app.lang)}${via === "link" ? `?${name}=${encodeURIComponent(value)}` : ""}`;
  const state = orderState(order);
  const onlinePay = order.pay_way !== "remittance" && order.pay_way !== "pay_arrival";
  const t = await fixedT(app.lang);
  // Extras the guest may still add (decision 126), behind this browser's CSRF token.
  const [extras, rail] = await Promise.all([offeredExtras(context, order), railChangesView(context, order, request)]);
  // What may be changed of its rail tickets (decision 140), behind the same token.
  const railForms = rail !== null && Object.values(rail.offers).some((offer) => offer.change || offer.passengers || offer.refund);
  const csrf = extras || railForms ? await csrfToken(request, app.env) : null;
  const page = {
    title: `${t("order_page.title", { number: order.order_doc })} | ${hotel.hotel_name}`,
    order,
    extras,
    rail,
    csrf: csrf?.token ?? "",
    justAdded: new URL(request.url).searchParams.get("added") === "1" && order.attachment_list.length > 0 && state !== "cancelled",
    justCancelled: new URL(request.url).searchParams.get("cancelled") === "1" && state === "cancelled",
    // The refund in the words of the email and the PDF (server-side: no locale catalogue reaches the browser).
    refund: order.cancellation
      ? {
          heading: docText(documentLanguage(app.lang), "refund.heading"),
          status: order.cancellation.refund_status,
          lines: cancellationLines(documentLanguage(app.lang), order.cancellation, orderAccount(order)),
        }
      : null,
    // While it can still be cancelled: the schedule that applies after the free window, as the cancel page and the PDF state it (issue 37).
    policy:
      state !== "cancelled" && order.refund_policy.length > 0
        ? {
            heading: docText(documentLanguage(app.lang), "refund.policy_heading"),
            lines: policyLines(documentLanguage(app.lang), order.refund_policy),
          }
        : null,
    // The e-invoice in the words of the email and the PDF (decision 159): its numbers, or when it is issued.
    invoice: {
      heading: docText(documentLanguage(app.lang), "invoice.heading"),
      lines: invoiceTextLines(documentLanguage(app.lang), order.invoice, order),
    },
    actions: {
      pay:
        onlinePay && (state === "unpaid" || state === "paid_in_part")
          ? `${localizePath(`/pay/${hotel.hotel_id}/${encodeURIComponent(order.order_doc)}`, app.lang)}?valid_hash=${encodeURIComponent(order.valid_hash)}`
          : null,
      pdf: withHash(orderPdfPath(product, order.order_doc), "valid_hash", order.valid_hash),
      // Only the owner or a cancel link's holder is offered the cancellation; a view link is not (decision 047).
      cancel:
        order.support_client_cancel && state !== "cancelled" && (via === "member" || order.cancel_hash !== "")
          ? withHash(orderCancelPath(product, order.order_doc), "cancel_hash", order.cancel_hash)
          : null,
      cancelByEmail: order.support_client_cancel && state !== "cancelled" && via === "link" && order.cancel_hash === "",
    },
  };
  return data(page, { headers: csrf?.setCookie ? { "set-cookie": csrf.setCookie } : {} });
}
