/**
 * The checkout action's answer to a placed order: the cookies that end the checkout (the order made,
 * the cart and the draft cleared), then the pay page's data with JavaScript, or a 303 to it.
 */
import { data } from "@remix-run/cloudflare";
import { cartCookie, lastOrderCookie } from "~/platform/cookies.server";
import { localizePath } from "~/i18n/languages";
import { safeRedirect, sameOriginLocation } from "~/platform/redirects.server";
import { payPageAt } from "~/features/checkout/payment.server";
import { clearDraft } from "~/features/checkout/draft.server";
import type { CheckoutSubmission } from "./submission.server";
import type { ValidOrder } from "./validate-order.server";

export async function answerBooked({ app, args }: CheckoutSubmission, { input }: ValidOrder, redirectPath: string) {
  const { request } = args;
  const path = localizePath(redirectPath, app.lang);
  const headers = new Headers();
  headers.append("set-cookie", await lastOrderCookie(app.env).serialize({ key: input.checkout_key, path }));
  headers.append("set-cookie", await cartCookie(app.env).serialize("", { maxAge: 0 }));
  headers.append("set-cookie", await clearDraft(app.env));
  // With JavaScript the answer carries the pay page's data: the guest sees the pay page one round
  // trip sooner than after a redirect (decision 127). A document's form gets the 303 as ever.
  if (app.dataRequest) {
    const next = sameOriginLocation(path, request.url);
    const pay = await payPageAt(args.context, next, request);
    if (pay) {
      if (pay.setCookie) headers.append("set-cookie", pay.setCookie);
      return data({ handoff: { path: next, page: pay.page } }, { headers });
    }
  }
  throw safeRedirect(path, request, { status: 303, headers });
}
