/**
 * The cancellation page (design: "the GET shows a confirmation form; the POST cancels"): the loader
 * only reads; the action, behind the CSRF token, cancels through the member's cancel_apply or the
 * link's cancel-via-hash, then sends the guest to the order page (303).
 */
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { CANCEL_REASON_MAX_LENGTH, hasControlCharacters } from "~/domain/contact";
import { todayIn } from "~/domain/dates";
import { accountIfCancelled, orderState } from "~/domain/order-view";
import { orderPagePath } from "~/domain/order-paths";
import { csrfToken, verifyCsrf } from "~/platform/cookies.server";
import { readForm } from "~/platform/forms.server";
import { HotelApiError } from "~/contract/client";
import type { HotelInfo, Order } from "~/contract/schemas";
import { fixedT } from "~/i18n/i18next.server";
import { localizePath } from "~/i18n/languages";
import { safeRedirect } from "~/platform/redirects.server";
import { cancelHashOf, orderForRequest } from "~/features/orders/access.server";
import { signedOrderPage } from "~/features/orders/order-link.server";
import { documentLanguage, docText } from "~/documents/labels";
import { quoteLines } from "~/documents/refund-text";
import { notFound } from "~/platform/not-found.server";

type Params = { product?: string; orderDoc?: string };

/** Why an order cannot be cancelled here, or null when it can. */
export type CancelBlock = "cancel_page.already" | "cancel_page.too_late" | "cancel_page.not_allowed";

function blockOf(order: Order, hotel: HotelInfo): CancelBlock | null {
  if (orderState(order) === "cancelled") return "cancel_page.already";
  if (order.support_client_cancel) return null;
  return order.check_in_day <= todayIn(hotel.time_zone) ? "cancel_page.too_late" : "cancel_page.not_allowed";
}

/**
 * The order and how the request may cancel it: its cancel link (`?cancel_hash=`, which the back end
 * confirms by answering the order's cancel_hash) or the signed-in owner. A view link is a 404 here.
 */
async function cancellableOrder(context: AppLoadContext, params: Params, request: Request) {
  const hash = cancelHashOf(request);
  const access = await orderForRequest(context, params.product, params.orderDoc, hash);
  if (access.via === "link" && (!hash || access.order.cancel_hash === "")) throw notFound();
  return { ...access, hash };
}

export async function loadCancelPage(context: AppLoadContext, params: Params, request: Request) {
  const { app } = context;
  const { hotel, order } = await cancellableOrder(context, params, request);
  const { token, setCookie } = await csrfToken(request, app.env);
  const t = await fixedT(app.lang);
  return data(
    {
      title: `${t("cancel_page.title", { number: order.order_doc })} | ${hotel.hotel_name}`,
      order,
      // What cancelling now gives back, in the words of the emails and the PDF (server-side only).
      refund: order.refund_quote
        ? {
            heading: docText(documentLanguage(app.lang), "refund.heading"),
            lines: quoteLines(documentLanguage(app.lang), order.refund_quote, accountIfCancelled(order, order.refund_quote)),
          }
        : null,
      csrf: token,
      block: blockOf(order, hotel),
      error: null as CancelBlock | "form.error.expired" | null,
    },
    { headers: setCookie ? { "set-cookie": setCookie } : {} },
  );
}

/** The reason's limits are the API's: a note (line breaks and tabs allowed, other control characters not) of CANCEL_REASON_MAX_LENGTH. */
export type ReasonError = "form.error.too_long" | "form.error.control_characters";

/** What is wrong with a typed reason, checked here so the guest gets the field's message rather than the API's refusal. */
function reasonError(reason: string): ReasonError | null {
  if (reason.length > CANCEL_REASON_MAX_LENGTH) return "form.error.too_long";
  if (hasControlCharacters(reason, { multiline: true })) return "form.error.control_characters";
  return null;
}

/** API refusals a guest understands, as the page's messages. */
const REFUSALS: Record<string, CancelBlock> = {
  already_cancelled: "cancel_page.already",
  stay_started: "cancel_page.too_late",
  cancel_not_allowed: "cancel_page.not_allowed",
};

export async function cancelAction(context: AppLoadContext, params: Params, request: Request) {
  const { app } = context;
  const { order, via, hotel, hash } = await cancellableOrder(context, params, request);
  const form = await readForm(request);
  const answer = (error: CancelBlock | "form.error.expired", status: number) =>
    data(
      {
        title: "",
        order,
        csrf: String(form?.get("csrf") ?? ""),
        block: error === "form.error.expired" ? blockOf(order, hotel) : error,
        error,
      },
      { status },
    );
  if (!form || !(await verifyCsrf(request, app, form))) return answer("form.error.expired", 403);
  const typed = form.get("reason");
  const reason = typeof typed === "string" ? typed.trim() : "";
  const invalid = reasonError(reason);
  if (invalid) {
    // Nothing is cancelled: the form again with why not, and what was typed when it can be shown
    // (cut to the field's size; text with control characters is typed again, as the message asks).
    const shown = invalid === "form.error.too_long" ? reason.slice(0, CANCEL_REASON_MAX_LENGTH) : "";
    return data(
      { title: "", order, csrf: String(form.get("csrf") ?? ""), block: null, error: null, reasonError: invalid, reason: shown },
      { status: 400 },
    );
  }
  try {
    const cancelled =
      via === "link"
        ? await app.api.cancelOrderViaHash(order.order_doc, hash ?? "", reason)
        : await (await app.member()).api.cancelOrder(order.order_doc, reason);
    const page =
      via === "link"
        ? `${signedOrderPage(context, cancelled)}&cancelled=1`
        : `${localizePath(orderPagePath(app.env.PRODUCT, cancelled.order_doc), app.lang)}?cancelled=1`;
    return safeRedirect(page, request, 303);
  } catch (error) {
    if (error instanceof HotelApiError && REFUSALS[error.code]) return answer(REFUSALS[error.code] as CancelBlock, 409);
    throw error;
  }
}
