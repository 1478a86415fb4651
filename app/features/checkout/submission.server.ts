/**
 * The checkout action's first step: the posted form read and proven the guest's own, the answers
 * that leave the page at once (a resubmitted order, an empty cart, the rail page), and what the
 * later steps share: the values, the extras offered and refused, the ways of paying, the price check.
 */
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import type { Cart } from "~/domain/cart";
import { paidAtTheHotel, PAYMENT_CHOICE_PATTERN } from "~/domain/payments";
import { checkPrice, type PriceOutcome } from "~/features/checkout/price-check.server";
import { lastOrderCookie, verifyCsrf } from "~/platform/cookies.server";
import { readForm } from "~/platform/forms.server";
import { fixedT } from "~/i18n/i18next.server";
import { serverText } from "~/i18n/server-text";
import { safeRedirect } from "~/platform/redirects.server";
import { addonChoicesOf, type AddonChoiceInput, type AddonGroup } from "~/features/addons/addons";
import { offeredAddons } from "~/features/addons/offered.server";
import { saveDraft } from "~/features/checkout/draft.server";
import { addonErrorsOf, addonMessageOf, type Values } from "./checkout-form";
import { loadCheckout, type LoadedCheckout } from "./checkout-load.server";
import { hasTickets, paymentChoicesFor, reply, type CheckoutAnswer, type PaymentChoices } from "./checkout-reply.server";

/** A checkout form posted with a cart: what every later step of the action reads. */
export interface CheckoutSubmission extends LoadedCheckout {
  args: ActionFunctionArgs;
  cart: Cart;
  values: Values;
  t: Awaited<ReturnType<typeof fixedT>>;
  /** The extras offered for the stay, and those the form chose among them. */
  offered: AddonGroup[];
  addons: AddonChoiceInput[];
  /** The extras fields that cannot be priced as typed, and the message above the form for them. */
  addonErrors: Record<string, string>;
  addonMessage: string;
  paymentChoices: PaymentChoices;
  /** The payment field's refusal: a way of paying at the hotel with rail tickets in the cart. */
  paymentRefusal: string | null;
  /** The price check of what the form holds, with this promotion and these points. */
  check: (coupon?: string, points?: number) => Promise<PriceOutcome>;
}

export async function readSubmission(
  args: ActionFunctionArgs,
): Promise<{ ok: true; submission: CheckoutSubmission } | { ok: false; answer: CheckoutAnswer }> {
  const loaded = await loadCheckout(args);
  const { app, hotel, cart, bookingPage, railPage, parsed: search, profile, api } = loaded;
  const { request } = args;
  const form = await readForm(request);
  const refused = { fieldErrors: {}, formError: "form.error.expired", priceError: null };
  if (!form) return { ok: false, answer: reply({ values: {}, ...refused }, 400) };
  const values: Values = Object.fromEntries(
    [...form.entries()].filter(([key]) => key !== "csrf").map(([key, value]) => [key, String(value)]),
  );
  if (!(await verifyCsrf(request, app, form))) return { ok: false, answer: reply({ values, ...refused }, 403) };

  // A resubmitted form (back button, double click without JavaScript) finds the order it already made.
  const last = await lastOrderCookie(app.env).parse(request.headers.get("cookie"));
  if (last && typeof last === "object" && last.key === values.checkout_key && typeof last.path === "string") {
    throw safeRedirect(last.path, request, 303);
  }
  if (!cart || cart.lines.length === 0) throw safeRedirect(bookingPage, request, 303);
  // "Add/Change rail tickets": the form as typed is kept as the draft the checkout comes back to,
  // then the rail page (issue 37 item 12). Nothing is checked: the guest has not finished.
  if (values.intent === "rail" && railPage) {
    const cookie = await saveDraft(app.env, { domain: app.domain, start: cart.start, end: cart.end }, values);
    throw safeRedirect(railPage, request, { status: 303, headers: { "set-cookie": cookie } });
  }
  const payOption = values.pay_option === "part" ? "part" : "all";
  const t = await fixedT(app.lang);
  const unknownPlan = t("cart.error.unknown_plan");
  // The add-ons chosen, priced with every check and sent with the order (decision 117).
  const offered = app.env.FEATURE_PRICE_CHECK_V2 ? await offeredAddons(api, cart) : [];
  const { choices: addons } = addonChoicesOf(values, offered);
  // Counts that cannot be priced as typed (not a number, more than are left) are refused on their
  // field and no price is shown: one without them would not be what placing the booking charges
  // (issue 37 item 11). The form keeps what was typed.
  const addonErrors = addonErrorsOf(values, offered, t);
  const addonMessage = addonMessageOf(addonErrors);
  const party = { adults: search.search.adults, children: search.search.children };
  const check = (coupon?: string, points = 0) =>
    checkPrice(
      api,
      hotel,
      app.env.FEATURE_PRICE_CHECK_V2,
      cart,
      { coupon, points, payOption, member: profile, addons, party },
      unknownPlan,
    );

  // Rail tickets are paid when booking (decision 123). A form that still names paying at the hotel
  // (a page from before the tickets were chosen, or forged) is refused at its payment field in the
  // order's own words, whether it checks the price or places the booking: a price the page accepts
  // is one the order takes (issue 37 item 13). The page then has the first way allowed chosen.
  const paymentChoices = paymentChoicesFor(hotel, cart);
  const chosenMethod = PAYMENT_CHOICE_PATTERN.test(values.payment ?? "") ? (values.payment?.split(":")[1] ?? "") : "";
  const paymentRefusal = hasTickets(cart) && paidAtTheHotel(chosenMethod) ? serverText(app.lang, "api", "rail_needs_payment") : null;
  return {
    ok: true,
    submission: {
      ...loaded,
      args,
      cart,
      values,
      t,
      offered,
      addons,
      addonErrors,
      addonMessage,
      paymentChoices,
      paymentRefusal,
      check,
    },
  };
}
