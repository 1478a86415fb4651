/**
 * The checkout page's server side: the page's data, and the action as a pipeline of steps, each in
 * a file of its own (submission, validate-order, checkout-price, book, booked). The route module
 * only hands its loader and action here.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { checkPrice, type PriceOutcome } from "~/features/checkout/price-check.server";
import { depositPercentOf, memberPromotionPercent } from "~/domain/pricing";
import { csrfToken } from "~/platform/cookies.server";
import { fixedT } from "~/i18n/i18next.server";
import { safeRedirect } from "~/platform/redirects.server";
import { addonChoicesOf } from "~/features/addons/addons";
import { offeredAddons } from "~/features/addons/offered.server";
import { readDraft } from "~/features/checkout/draft.server";
import { addonErrorsOf, addonMessageOf, type Values } from "./checkout-form";
import { loadCheckout } from "./checkout-load.server";
import { paymentChoicesFor } from "./checkout-reply.server";
import { refusedBeforeBooking, answerPriceCheck } from "./checkout-price.server";
import { answerNewChallenge, bookOrder } from "./book.server";
import { answerBooked } from "./booked.server";
import { readSubmission } from "./submission.server";
import { asksInvoice, validateOrder } from "./validate-order.server";
import { formValuesOfRemembered, withRegisteredCompanyName } from "~/domain/einvoice/guest";

export async function checkoutPage(args: LoaderFunctionArgs) {
  const { app, hotel, cart, bookingPage, railPage, parsed, profile, api } = await loadCheckout(args);
  if (!cart || cart.lines.length === 0) throw safeRedirect(bookingPage, args.request, 303);
  const { token, setCookie } = await csrfToken(args.request, app.env);
  const t = await fixedT(app.lang);
  // What the guest typed and chose before going to the rail page (issue 37 item 12): the form starts
  // from it, and the price is checked for the extras and pay option it holds, as placing would.
  const draft = await readDraft(args.request, app.env, { domain: app.domain, start: cart.start, end: cart.end });
  // Add-ons only where the price check prices them (v2; decision 117).
  const addons = app.env.FEATURE_PRICE_CHECK_V2 ? await offeredAddons(api, cart) : [];
  const { payments, paymentsNote, defaultPayment } = paymentChoicesFor(hotel, cart);
  // The e-invoice section, only where Portico issues the invoice (decision 159).
  const invoiceIssuer = asksInvoice(hotel) ? (hotel.invoice_issuer as "portico_at_payment" | "portico_at_checkout") : null;
  const addonErrors = addonErrorsOf(draft, addons, t);
  const outcome: PriceOutcome =
    Object.keys(addonErrors).length > 0
      ? { price: null, error: addonMessageOf(addonErrors) }
      : await checkPrice(
          api,
          hotel,
          app.env.FEATURE_PRICE_CHECK_V2,
          cart,
          {
            member: profile,
            addons: addonChoicesOf(draft, addons).choices,
            payOption: draft.pay_option === "part" ? "part" : "all",
            party: { adults: parsed.search.adults, children: parsed.search.children },
          },
          t("cart.error.unknown_plan"),
        );
  return data(
    {
      title: `${t("checkout.title")} | ${hotel.hotel_name}`,
      csrf: token,
      checkoutKey: cart.checkoutKey,
      stay: { start: cart.start, end: cart.end, adults: parsed.search.adults, children: parsed.search.children },
      lines: cart.lines,
      addons,
      draft,
      fieldErrors: addonErrors,
      // "Add/Change rail tickets" is a button of the form (it keeps the draft), shown where the hotel sells them.
      rail: railPage ? { chosen: cart.rail?.length ?? 0 } : null,
      price: outcome.price,
      priceError: outcome.error,
      bookingPage,
      payments,
      paymentsNote,
      defaultPayment,
      deposit: hotel.deposit_type === "deposit" ? depositPercentOf(hotel.deposit_percent) : null,
      coupons: hotel.origin_pms === "MASTRI",
      // Spec §4: members may use points and the members-only code; their profile fills in the booker.
      member: profile ? { points: profile.points, promotionPercent: memberPromotionPercent(hotel.member_price_discount.discount) } : null,
      booker: (profile
        ? {
            booker_last_name: profile.last_name,
            booker_first_name: profile.first_name,
            booker_phone: profile.phone,
            booker_email: profile.email,
            // A member's e-invoice choice of last time, offered again (decision 159).
            ...(profile.invoice_choice && invoiceIssuer ? formValuesOfRemembered(profile.invoice_choice) : {}),
          }
        : {}) as Values,
      invoiceIssuer,
    },
    { headers: setCookie ? { "set-cookie": setCookie } : {} },
  );
}

/**
 * The checkout form posted: read and proven the guest's own, then "Check the price", another
 * challenge, or the booking placed step by step (checked, priced as shown, booked, answered).
 */
export async function checkoutAction(args: ActionFunctionArgs) {
  const read = await readSubmission(args);
  if (!read.ok) return read.answer;
  // "Use this name and place the booking" beside a company name advice: placed with the registered name.
  const submission = { ...read.submission, values: withRegisteredCompanyName(read.submission.values) };
  if (submission.values.intent === "price") return answerPriceCheck(submission);
  if (submission.values.intent === "captcha_new") return answerNewChallenge(submission);
  const valid = await validateOrder(submission);
  if (!valid.ok) return valid.answer;
  const refused = await refusedBeforeBooking(submission, valid.order);
  if (refused) return refused;
  const booked = await bookOrder(submission, valid.order);
  if (!booked.ok) return booked.answer;
  return answerBooked(submission, valid.order, booked.redirectPath);
}
