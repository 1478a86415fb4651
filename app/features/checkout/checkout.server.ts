/**
 * The checkout page's server side: the form's schema, the price check with promotions and points,
 * and placing the order. The route module only hands its loader and action here.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { paidAtTheHotel, PAYMENT_CHOICE_PATTERN, type PaymentMethod } from "~/domain/payments";
import { checkPrice, type PriceOutcome } from "~/features/checkout/price-check.server";
import { depositPercentOf, MEMBER_PROMOTION_CODE, memberPromotionPercent } from "~/domain/pricing";
import { cartCookie, csrfToken, lastOrderCookie, verifyCsrf } from "~/platform/cookies.server";
import { readForm } from "~/platform/forms.server";
import { fixedT } from "~/i18n/i18next.server";
import { serverText } from "~/i18n/server-text";
import { localizePath } from "~/i18n/languages";
import { safeRedirect, sameOriginLocation } from "~/platform/redirects.server";
import { payPageAt } from "~/features/checkout/payment.server";
import { challengeOf, freshOrderChallenge, orderCaptchaStep } from "~/features/captcha/order-captcha.server";
import { addonChoicesOf } from "~/features/addons/addons";
import { offeredAddons } from "~/features/addons/offered.server";
import { railItemsOf } from "~/features/rail/rail";
import { clearDraft, readDraft, saveDraft } from "~/features/checkout/draft.server";
import { addonErrorsOf, addonLeftErrors, addonMessageOf, pointsOf, promotionOf, validateCheckout, type Values } from "./checkout-form";
import { loadCheckout } from "./checkout-load.server";
import { hasTickets, paymentChoicesFor, reply } from "./checkout-reply.server";

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
          }
        : {}) as Values,
    },
    { headers: setCookie ? { "set-cookie": setCookie } : {} },
  );
}

export async function checkoutAction(args: ActionFunctionArgs) {
  const { app, hotel, cart, bookingPage, railPage, parsed: search, profile, api } = await loadCheckout(args);
  const { request } = args;
  const form = await readForm(request);
  const refused = { fieldErrors: {}, formError: "form.error.expired", priceError: null };
  if (!form) return reply({ values: {}, ...refused }, 400);
  const values: Values = Object.fromEntries(
    [...form.entries()].filter(([key]) => key !== "csrf").map(([key, value]) => [key, String(value)]),
  );
  if (!(await verifyCsrf(request, app, form))) return reply({ values, ...refused }, 403);

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
  /** Points the guest cannot use: not a whole number of 0 or more, or more than the member holds. */
  const pointsError = (points: number | null) =>
    points === null ? "form.error.points" : points > 0 && profile && points > profile.points ? "form.error.points_balance" : null;
  // Spec §8: a failed price check clears the promotion and shows the server's message. What was
  // valid on its own is kept (issue 25 item 17): the points when only the coupon or the
  // members-only discount was refused, the promotion when only the points were.
  const dropPromotion = async (message: string, placing: boolean) => {
    const promotion = promotionOf(values);
    const points = pointsOf(values) ?? 0;
    let kept: { promotion: boolean; points: boolean } = { promotion: false, points: false };
    let cleared: PriceOutcome | null = null;
    if (promotion !== undefined && points > 0) {
      const pointsOnly = await check(undefined, points);
      if (!pointsOnly.error) [kept, cleared] = [{ promotion: false, points: true }, pointsOnly];
      else {
        const promotionOnly = await check(promotion, 0);
        if (!promotionOnly.error) [kept, cleared] = [{ promotion: true, points: false }, promotionOnly];
      }
    }
    cleared ??= await check();
    const droppedPromotion = promotion !== undefined && !kept.promotion;
    const droppedPoints = points > 0 && !kept.points;
    const dropped =
      droppedPromotion && droppedPoints
        ? "checkout.error.promotion_dropped"
        : droppedPoints
          ? "checkout.error.points_dropped"
          : promotion === MEMBER_PROMOTION_CODE
            ? "checkout.error.member_discount_dropped"
            : "checkout.error.coupon_dropped";
    const formError = placing ? dropped : null;
    // With JavaScript, React keeps what an uncontrolled field holds across re-renders: a new key for
    // each clearing makes the promotion fields start again from their values, the kept ones only.
    const keptValues = {
      ...values,
      ...(kept.promotion ? {} : { coupon_code: "", member_promotion: "" }),
      ...(kept.points ? {} : { points: "" }),
    };
    return reply(
      { values: keptValues, fieldErrors: {}, formError, price: cleared.price, priceError: message, promotionReset: crypto.randomUUID() },
      400,
    );
  };

  // Rail tickets are paid when booking (decision 123). A form that still names paying at the hotel
  // (a page from before the tickets were chosen, or forged) is refused at its payment field in the
  // order's own words, whether it checks the price or places the booking: a price the page accepts
  // is one the order takes (issue 37 item 13). The page then has the first way allowed chosen.
  const paymentChoices = paymentChoicesFor(hotel, cart);
  const chosenMethod = PAYMENT_CHOICE_PATTERN.test(values.payment ?? "") ? (values.payment?.split(":")[1] ?? "") : "";
  const paymentRefusal = hasTickets(cart) && paidAtTheHotel(chosenMethod) ? serverText(app.lang, "api", "rail_needs_payment") : null;
  if (paymentRefusal && values.intent === "price") {
    const current = await check(promotionOf(values), pointsOf(values) ?? 0);
    return reply(
      {
        values: { ...values, payment: paymentChoices.defaultPayment ?? "" },
        fieldErrors: { payment: paymentRefusal },
        formError: null,
        price: current.price,
        priceError: current.error,
        paymentChoices,
        paymentReset: crypto.randomUUID(),
      },
      400,
    );
  }

  if (values.intent === "price") {
    if (Object.keys(addonErrors).length > 0)
      return reply({ values, fieldErrors: addonErrors, formError: addonMessage, price: null, priceError: null }, 400);
    const points = pointsOf(values);
    const invalidPoints = pointsError(points);
    if (invalidPoints || points === null) {
      const current = await check(promotionOf(values));
      return reply(
        {
          values,
          fieldErrors: { points: invalidPoints ?? "form.error.points" },
          formError: null,
          price: current.price,
          priceError: current.error,
        },
        400,
      );
    }
    const outcome = await check(promotionOf(values), points);
    if (outcome.error) return dropPromotion(outcome.error, false);
    return reply({ values, fieldErrors: {}, formError: null, price: outcome.price, priceError: null });
  }

  if (values.intent === "captcha_new")
    return reply({
      values,
      fieldErrors: {},
      formError: null,
      priceError: null,
      captcha: await freshOrderChallenge(api, values),
    });

  const checked = validateCheckout(values, cart.lines.length);
  for (const [field, message] of Object.entries(addonErrors)) checked.fieldErrors[field] ??= message;
  const overBalance = pointsError(pointsOf(values));
  if (overBalance && !checked.fieldErrors.points) checked.fieldErrors.points = overBalance;
  if (paymentRefusal) checked.fieldErrors.payment = paymentRefusal;
  const addonRefused = Object.keys(addonErrors).length > 0;
  if (!checked.ok || overBalance || addonRefused || paymentRefusal) {
    // The page keeps showing the price of what is chosen (the pay option, the promotion), not the
    // first visit's: the guest fixes the fields and places the booking at the amount in view. None
    // while an extra cannot be priced as asked.
    const current = addonRefused ? null : await check(promotionOf(values), overBalance ? 0 : (pointsOf(values) ?? 0));
    return reply(
      {
        values: paymentRefusal ? { ...values, payment: paymentChoices.defaultPayment ?? "" } : values,
        fieldErrors: checked.fieldErrors,
        formError: addonRefused ? addonMessage : "form.error.fix_fields",
        price: current?.price ?? null,
        priceError: null,
        ...(paymentRefusal ? { paymentChoices, paymentReset: crypto.randomUUID() } : {}),
      },
      400,
    );
  }
  const { input, occupants } = checked;
  // The order is priced as "Check the price" would price it, for exactly what the form carries. A
  // coupon typed but never applied that fails is cleared with the server's message (spec §8). And
  // the order is placed only at the amount the page showed as due now (decision 065): a pay option
  // changed since the last price check (or a price changed meanwhile) shows the new amount first.
  const promotion = promotionOf(input);
  const pointsUsed = Number(input.points || 0);
  const current = await check(promotion, pointsUsed);
  if (current.error && (promotion !== undefined || pointsUsed > 0)) return dropPromotion(current.error, true);
  if (!current.error && current.price && String(current.price.pay_amount) !== input.due_now) {
    return reply({ values, fieldErrors: {}, formError: "checkout.error.due_now_changed", price: current.price, priceError: null }, 409);
  }
  // The challenge the form carries, when the order API asked for one: verified before the order.
  const captcha = await orderCaptchaStep(api, values);
  if (!captcha.ok) return reply({ values, fieldErrors: {}, formError: captcha.formError, priceError: null, captcha: captcha.captcha }, 400);
  const [vendor, method] = input.payment.split(":") as [string, PaymentMethod];
  const result = await api.createOrder(
    {
      booker_first_name: input.booker_first_name,
      booker_last_name: input.booker_last_name,
      booker_phone: input.booker_phone,
      booker_email: input.booker_email,
      check_in_day: cart.start,
      check_out_day: cart.end,
      pay_way: method,
      payment_vendor: Number(vendor),
      pay_option: input.pay_option,
      memo: input.memo,
      company_name: input.company_name,
      company_reg_number: input.company_reg_number,
      coupon_array: promotion === undefined ? [] : [promotion],
      point_used: pointsUsed,
      orders: cart.lines.map((line, index) => ({ ...line, ...occupants[index] })),
      ...(addons.length > 0 ? { room_attachment_detail: addons, room_attachment_exist: true } : {}),
      ...(cart.rail && cart.rail.length > 0 ? { rail_item_list: railItemsOf(cart) } : {}),
      // The party of the search, already checked against its limits (never the raw query).
      adults_count: search.search.adults,
      children_count: search.search.children,
      ...(captcha.pass ? { captcha_pass: captcha.pass } : {}),
    },
    input.checkout_key,
  );
  if (!result.ok) {
    // An extra taken by another booking since the page read what is left: the guest is told which
    // and how many are left now, on its field, with no price until the count fits.
    if (result.error.code === "addon_sold_out") {
      const now = addonLeftErrors(values, await offeredAddons(api, cart), t);
      const message = Object.values(now)[0];
      if (message)
        return reply({ values, fieldErrors: now, formError: message, orderDoc: result.order_doc, price: null, priceError: null }, 409);
    }
    // order_doc is "error-order" (spec §8): say why, keep everything the guest typed. The cart is
    // checked again so that a line the refusal is about (sold out meanwhile) is marked, and the
    // page shows the message once: at that line.
    const after = await check(promotion, pointsUsed);
    return reply(
      {
        values,
        fieldErrors: result.error.field === "coupon_code" ? { coupon_code: "form.error.coupon" } : {},
        formError: result.error.message || "checkout.error.failed",
        orderDoc: result.order_doc,
        price: after.price,
        priceError: null,
        captcha: challengeOf(result.error),
      },
      result.error.status === 409 ? 409 : 400,
    );
  }
  const path = localizePath(result.redirect_path, app.lang);
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
