import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { useRef } from "react";
import { useTranslation } from "~/i18n/react";
import { focusFirstInvalid, useHydrated, useSubmissionDone } from "~/components/forms";
import { assertBookable, searchOf } from "~/booking-flow/booking-page.server";
import { defaultPaymentOption, paymentLabelKeys, paymentOptions } from "~/booking/payments";
import { checkPrice } from "~/booking/price-check.server";
import { MEMBER_PROMOTION_CODE, memberPromotionPercent } from "~/booking/pricing";
import { searchQuery } from "~/booking/search";
import { lodgingUnit, unitKey } from "~/booking/units";
import { cartCookie, csrfToken, lastOrderCookie, readCart, verifyCsrf } from "~/cookies.server";
import { readForm } from "~/forms.server";
import { hasControlCharacters, isPhoneNumber } from "~/booking/contact";
import type { HotelInfo, PriceDetail } from "~/hotel-api/schemas";
import { formatDate, formatPrice } from "~/i18n/format";
import { i18nServer } from "~/i18n/i18next.server";
import { localizePath } from "~/i18n/languages";
import { safeRedirect } from "~/redirects.server";
import { useSite } from "~/components/site-data";

export const handle = { hydrate: true, booking: true };

/** What the guest chose among the promotions: a coupon, or the members-only code (which replaces it). */
function promotionOf(values: Record<string, string | undefined>): string | undefined {
  if (values.member_promotion === "1") return MEMBER_PROMOTION_CODE;
  return values.coupon_code?.trim() || undefined;
}

/** Points to use: "" is none; anything but a whole number of 0 or more is refused. */
function pointsOf(values: Record<string, string | undefined>): number | null {
  const raw = (values.points ?? "").trim();
  if (raw === "") return 0;
  return /^\d{1,7}$/.test(raw) ? Number(raw) : null;
}

async function loadCheckout(args: LoaderFunctionArgs) {
  const { context, params, request } = args;
  assertBookable(context, params.product, request);
  const { app } = context;
  const hotel = app.hotel as HotelInfo;
  const { parsed } = searchOf(request, hotel.time_zone);
  const cart = await readCart(request, app.env, app.domain, parsed.search);
  const bookingPage = `${localizePath(`/${app.env.PRODUCT}/booking`, app.lang)}?${searchQuery(parsed.search)}`;
  // Spec §6: the member's profile is loaded before the price check; prices and the order go
  // through the client that carries their token only if the back end accepted it.
  const { profile, api } = await app.member();
  return { app, hotel, parsed, cart, bookingPage, profile, api };
}

export async function loader(args: LoaderFunctionArgs) {
  const { app, hotel, cart, bookingPage, parsed, profile, api } = await loadCheckout(args);
  if (!cart || cart.lines.length === 0) throw safeRedirect(bookingPage, args.request, 303);
  const { token, setCookie } = await csrfToken(args.request, app.env);
  const t = await i18nServer.getFixedT(app.lang);
  const outcome = await checkPrice(api, hotel, app.env.FEATURE_PRICE_CHECK_V2, cart, { member: profile }, t("cart.error.unknown_plan"));
  return json(
    {
      title: `${t("checkout.title")} | ${hotel.hotel_name}`,
      csrf: token,
      checkoutKey: cart.checkoutKey,
      stay: { start: cart.start, end: cart.end, adults: parsed.search.adults, children: parsed.search.children },
      lines: cart.lines,
      price: outcome.price,
      priceError: outcome.error,
      bookingPage,
      payments: paymentOptions(hotel.payment_list),
      defaultPayment: defaultPaymentOption(paymentOptions(hotel.payment_list)),
      deposit: hotel.deposit_type === "deposit" ? hotel.deposit_percent : null,
      coupons: hotel.origin_pms === "MASTRI",
      // Spec §4: members may use points and the members-only code; their profile fills in the booker.
      member: profile ? { points: profile.points, promotionPercent: memberPromotionPercent(hotel.member_price_discount.discount) } : null,
      booker: profile
        ? { booker_last_name: profile.last_name, booker_first_name: profile.first_name, booker_phone: profile.phone, booker_email: profile.email }
        : {},
    },
    { headers: setCookie ? { "set-cookie": setCookie } : {} },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : []);

type Values = Record<string, string>;

export async function action(args: ActionFunctionArgs) {
  const { app, hotel, cart, bookingPage, parsed: search, profile, api } = await loadCheckout(args);
  const { request } = args;
  const form = await readForm(request);
  if (!form) return json({ values: {} as Values, fieldErrors: {}, formError: "form.error.expired", price: null, priceError: null }, { status: 400 });
  const values: Values = Object.fromEntries([...form.entries()].filter(([key]) => key !== "csrf").map(([key, value]) => [key, String(value)]));
  if (!(await verifyCsrf(request, app, form))) return json({ values, fieldErrors: {}, formError: "form.error.expired", price: null, priceError: null }, { status: 403 });

  // A resubmitted form (back button, double click without JavaScript) finds the order it already made.
  const last = await lastOrderCookie(app.env).parse(request.headers.get("cookie"));
  if (last && typeof last === "object" && last.key === values.checkout_key && typeof last.path === "string") {
    throw safeRedirect(last.path, request, 303);
  }
  if (!cart || cart.lines.length === 0) throw safeRedirect(bookingPage, request, 303);
  const intent = values.intent === "price" ? "price" : "order";
  const payOption = values.pay_option === "part" ? "part" : "all";
  const unknownPlan = (await i18nServer.getFixedT(app.lang))("cart.error.unknown_plan");
  const check = (coupon?: string, points = 0) => checkPrice(api, hotel, app.env.FEATURE_PRICE_CHECK_V2, cart, { coupon, points, payOption, member: profile }, unknownPlan);
  /** Points the guest cannot use: not a whole number of 0 or more, or more than the member holds. */
  const pointsError = (points: number | null) =>
    points === null ? "form.error.points" : points > 0 && profile && points > profile.points ? "form.error.points_balance" : null;
  // Spec §8: a failed price check clears the promotion (and the points) and shows the server's message.
  const dropPromotion = async (message: string, formError: string | null) => {
    const cleared = await check();
    const reset = { ...values, coupon_code: "", member_promotion: "", points: "" };
    // With JavaScript, React keeps what an uncontrolled field holds across re-renders: a new key for
    // each clearing makes the promotion fields start again from their (now empty) default values.
    const promotionReset = crypto.randomUUID();
    return json({ values: reset, fieldErrors: {}, formError, price: cleared.price, priceError: message, promotionReset }, { status: 400 });
  };

  if (intent === "price") {
    const points = pointsOf(values);
    const invalidPoints = pointsError(points);
    if (invalidPoints || points === null) {
      const current = await check(promotionOf(values));
      return json({ values, fieldErrors: { points: invalidPoints ?? "form.error.points" }, formError: null, price: current.price, priceError: current.error }, { status: 400 });
    }
    const outcome = await check(promotionOf(values), points);
    if (outcome.error) return dropPromotion(outcome.error, null);
    return json({ values, fieldErrors: {}, formError: null, price: outcome.price, priceError: null });
  }

  // Declared here, not at module level, so that valibot stays out of the page's JavaScript.
  const plain = v.check((text: string) => !hasControlCharacters(text), "form.error.control_characters");
  const required = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1, "form.error.required"), v.maxLength(max, "form.error.too_long"), plain);
  const optional = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, "form.error.too_long"), plain), "");
  const note = (max: number) =>
    v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, "form.error.too_long"), v.check((text: string) => !hasControlCharacters(text, { multiline: true }), "form.error.control_characters")), "");
  
  const CheckoutForm = v.object({
    booker_last_name: required(50),
    booker_first_name: required(50),
    booker_phone: v.pipe(v.string(), v.trim(), v.check(isPhoneNumber, "form.error.phone")),
    booker_email: v.pipe(v.string(), v.trim(), v.minLength(1, "form.error.required"), v.email("form.error.email"), v.maxLength(254, "form.error.too_long")),
    memo: note(500),
    company_name: optional(100),
    company_reg_number: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^(\d{8})?$/, "form.error.company_reg_number")), ""),
    payment: v.pipe(v.string("form.error.payment"), v.regex(/^\d{1,2}:(credit|cash|remittance|pay_arrival)$/, "form.error.payment")),
    pay_option: v.optional(v.picklist(["all", "part"], "form.error.pay_option"), "all"),
    coupon_code: optional(40),
    member_promotion: v.optional(v.picklist(["", "1"], "form.error.coupon"), ""),
    points: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^\d{0,7}$/, "form.error.points")), ""),
    checkout_key: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,64}$/, "form.error.expired")),
  });
  // The guest staying in each line's rooms (spec §3 order line): all optional, checked when given.
  const Occupant = v.object({
    occupant_name: optional(100),
    occupant_phone: v.optional(v.pipe(v.string(), v.trim(), v.check((text: string) => text === "" || isPhoneNumber(text), "form.error.phone")), ""),
    occupant_email: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.trim(), v.email("form.error.email"), v.maxLength(254, "form.error.too_long"))], "form.error.email"), ""),
  });
  const parsed = v.safeParse(CheckoutForm, values);
  const fieldErrors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const field = v.getDotPath(issue);
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
  }
  const occupants = cart.lines.map((_, index) => {
    const fields = ["occupant_name", "occupant_phone", "occupant_email"] as const;
    const occupant = v.safeParse(Occupant, Object.fromEntries(fields.map((name) => [name, (values[`${name}_${index}`] ?? "").trim()])));
    if (occupant.success) return occupant.output;
    for (const issue of occupant.issues) {
      const field = `${v.getDotPath(issue)}_${index}`;
      if (!fieldErrors[field]) fieldErrors[field] = issue.message;
    }
    return null;
  });
  const overBalance = pointsError(pointsOf(values));
  if (overBalance && !fieldErrors.points) fieldErrors.points = overBalance;
  if (!parsed.success || occupants.includes(null) || overBalance) {
    return json({ values, fieldErrors, formError: "form.error.fix_fields", price: null, priceError: null }, { status: 400 });
  }
  const input = parsed.output;
  // The promotion and points the order will carry are checked first, as "Apply" would: a coupon
  // typed but never applied that fails is cleared with the server's message (spec §8), and the
  // guest sees the new total before anything is booked.
  const promotion = promotionOf(input);
  const pointsUsed = Number(input.points || 0);
  if (promotion !== undefined || pointsUsed > 0) {
    const outcome = await check(promotion, pointsUsed);
    if (outcome.error) return dropPromotion(outcome.error, "checkout.error.promotion_dropped");
  }
  const [vendor, method] = input.payment.split(":") as [string, "credit" | "cash" | "remittance" | "pay_arrival"];
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
      // The party of the search, already checked against its limits (never the raw query).
      adults_count: search.search.adults,
      children_count: search.search.children,
    },
    input.checkout_key,
  );
  if (!result.ok) {
    // order_doc is "error-order" (spec §8): say why, keep everything the guest typed. The cart is
    // checked again so that a line the refusal is about (sold out meanwhile) is marked, and the
    // page shows the message once: at that line.
    const current = await check(promotion, pointsUsed);
    return json(
      { values, fieldErrors: result.error.field === "coupon_code" ? { coupon_code: "form.error.coupon" } : {}, formError: result.error.message || "checkout.error.failed", orderDoc: result.order_doc, price: current.price, priceError: null },
      { status: result.error.status === 409 ? 409 : 400 },
    );
  }
  const path = localizePath(result.redirect_path, app.lang);
  const headers = new Headers();
  headers.append("set-cookie", await lastOrderCookie(app.env).serialize({ key: input.checkout_key, path }));
  headers.append("set-cookie", await cartCookie(app.env).serialize("", { maxAge: 0 }));
  throw safeRedirect(path, request, { status: 303, headers });
}

function FieldError({ errors, name, params }: { errors: Record<string, string> | undefined; name: string; params?: Record<string, string | number> }) {
  const { t } = useTranslation();
  const error = errors?.[name];
  return error ? (
    <p className="field__error" id={`${name}-error`}>
      {t(error, params)}
    </p>
  ) : null;
}

function PriceSummary({ price }: { price: PriceDetail }) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  return (
    <dl className="price-summary">
      <div>
        <dt>{t(unitKey("checkout.room_price", lodgingUnit(site?.hotel.kind)))}</dt>
        <dd>{formatPrice(price.room_price, lang)}</dd>
      </div>
      {price.promotion_discount > 0 ? (
        <div>
          <dt>{price.coupon_code === MEMBER_PROMOTION_CODE ? t("checkout.member_discount") : t("checkout.discount", { code: price.coupon_code })}</dt>
          <dd>−{formatPrice(price.promotion_discount, lang)}</dd>
        </div>
      ) : null}
      {price.point_used > 0 ? (
        <div>
          <dt>{t("checkout.points")}</dt>
          <dd>−{formatPrice(price.point_used, lang)}</dd>
        </div>
      ) : null}
      <div className="price-summary__total">
        <dt>{t("checkout.total")}</dt>
        <dd>{formatPrice(price.total_price, lang)}</dd>
      </div>
      {price.deposit_amount > 0 ? (
        <div>
          <dt>{t("checkout.deposit", { percent: price.deposit_percent })}</dt>
          <dd>{formatPrice(price.deposit_amount, lang)}</dd>
        </div>
      ) : null}
      <div className="price-summary__due">
        <dt>{t("checkout.pay_now")}</dt>
        <dd>{formatPrice(price.pay_amount, lang)}</dd>
      </div>
    </dl>
  );
}

export default function CheckoutPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const site = useSite();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const lang = site?.lang ?? "zh-TW";
  const values: Values = actionData?.values ?? {};
  const fieldErrors: Record<string, string> = actionData?.fieldErrors ?? {};
  const price = actionData?.price ?? data.price;
  const priceError = actionData ? actionData.priceError : data.priceError;
  const busy = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  // Until the guest sends the form, the booker fields start from the member's profile (spec §6).
  const prefill: Record<string, string> = actionData ? {} : (data.booker as Record<string, string>);
  // Each message is shown once: one the price check marks a line with stays at that line, and
  // the top of the page points there instead of repeating it.
  const lineMessages = new Set((price?.lines ?? []).flatMap((line) => (line.error ? [line.error.message] : [])));
  const pageMessages = [...new Set([actionData?.formError ? t(actionData.formError) : null, priceError].filter((message): message is string => Boolean(message)).map((message) => (lineMessages.has(message) ? t("checkout.error.see_lines") : message)))];
  const promotionKey = actionData && "promotionReset" in actionData ? actionData.promotionReset : "entered";
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  // With JavaScript the page is not reloaded: take the guest to the first field to fix, or to the message (decision 021).
  useSubmissionDone(() => {
    if (!focusFirstInvalid(form.current)) document.querySelector<HTMLElement>(".checkout-page .alert")?.focus();
  });
  const field = (name: string) => ({
    name,
    id: name,
    defaultValue: values[name] ?? prefill[name] ?? "",
    "aria-invalid": fieldErrors[name] ? true : undefined,
    "aria-describedby": fieldErrors[name] ? `${name}-error` : undefined,
  });
  return (
    <main id="main" className={`page checkout-page booking--${site?.layout.booking ?? "booking_100"}`}>
      <p className="breadcrumb">
        <a href={data.bookingPage}>← {t(unitKey("checkout.back", lodgingUnit(site?.hotel.kind)))}</a>
      </p>
      <h1>{t("checkout.title")}</h1>
      <p className="checkout-page__stay">
        {formatDate(data.stay.start, lang)} – {formatDate(data.stay.end, lang)}
      </p>
      {pageMessages.map((message) => (
        <p key={message} className="alert alert--danger" tabIndex={-1} role="alert">
          {message}
        </p>
      ))}
      <Form method="post" className="checkout-form" aria-busy={busy ? true : undefined} noValidate={hydrated} ref={form}>
        <input type="hidden" name="csrf" value={data.csrf} />
        <input type="hidden" name="checkout_key" value={data.checkoutKey} />
        <div className="checkout-layout">
          <div className="checkout-main">
            <fieldset>
              <legend>{t("checkout.booker")}</legend>
              <div className="field-row">
                <div className="field">
                  <label htmlFor="booker_last_name">{t("checkout.last_name")}</label>
                  <input autoComplete="family-name" required maxLength={50} {...field("booker_last_name")} />
                  <FieldError errors={fieldErrors} name="booker_last_name" />
                </div>
                <div className="field">
                  <label htmlFor="booker_first_name">{t("checkout.first_name")}</label>
                  <input autoComplete="given-name" required maxLength={50} {...field("booker_first_name")} />
                  <FieldError errors={fieldErrors} name="booker_first_name" />
                </div>
              </div>
              <div className="field-row">
                <div className="field">
                  <label htmlFor="booker_phone">{t("checkout.phone")}</label>
                  <input type="tel" autoComplete="tel" required {...field("booker_phone")} />
                  <FieldError errors={fieldErrors} name="booker_phone" />
                </div>
                <div className="field">
                  <label htmlFor="booker_email">{t("checkout.email")}</label>
                  <input type="email" autoComplete="email" required {...field("booker_email")} />
                  <FieldError errors={fieldErrors} name="booker_email" />
                </div>
              </div>
              <div className="field-row">
                <div className="field">
                  <label htmlFor="company_name">{t("checkout.company_name")}</label>
                  <input autoComplete="organization" {...field("company_name")} />
                  <FieldError errors={fieldErrors} name="company_name" />
                </div>
                <div className="field">
                  <label htmlFor="company_reg_number">{t("checkout.company_reg_number")}</label>
                  <input inputMode="numeric" maxLength={8} {...field("company_reg_number")} />
                  <FieldError errors={fieldErrors} name="company_reg_number" />
                </div>
              </div>
              <div className="field">
                <label htmlFor="memo">{t("checkout.memo")}</label>
                <textarea rows={3} maxLength={500} {...field("memo")} />
                <FieldError errors={fieldErrors} name="memo" />
              </div>
            </fieldset>
            <fieldset>
              <legend>{t(unitKey("checkout.rooms", lodgingUnit(site?.hotel.kind)))}</legend>
              <ol className="checkout-lines">
                {data.lines.map((cartLine, index) => {
                  // Names and amounts come from the price check; the line and its guest fields stay even when it failed.
                  const line = price?.lines.find((candidate) => candidate.room_class_id === cartLine.room_class_id && candidate.proposal_id === cartLine.proposal_id);
                  return (
                    <li key={`${cartLine.room_class_id}-${cartLine.proposal_id}`} className="checkout-line">
                      <p className="checkout-line__name">
                        {line ? `${line.room_class_name} · ${line.proposal_name} · ` : ""}
                        {t(unitKey("cart.rooms", lodgingUnit(site?.hotel.kind)), { count: cartLine.num })}
                        {line ? <span className="checkout-line__amount">{formatPrice(line.amount, lang)}</span> : null}
                      </p>
                      {line?.error ? (
                        <p className="field__error" role="alert">
                          {line.error.message}
                        </p>
                      ) : null}
                      <div className="field">
                        <label htmlFor={`occupant_name_${index}`}>{t(unitKey("checkout.occupant", lodgingUnit(site?.hotel.kind)))}</label>
                        <input autoComplete="name" maxLength={100} {...field(`occupant_name_${index}`)} />
                        <FieldError errors={fieldErrors} name={`occupant_name_${index}`} />
                      </div>
                      <div className="field-row">
                        <div className="field">
                          <label htmlFor={`occupant_phone_${index}`}>{t("checkout.occupant_phone")}</label>
                          <input type="tel" autoComplete="off" maxLength={25} {...field(`occupant_phone_${index}`)} />
                          <FieldError errors={fieldErrors} name={`occupant_phone_${index}`} />
                        </div>
                        <div className="field">
                          <label htmlFor={`occupant_email_${index}`}>{t("checkout.occupant_email")}</label>
                          <input type="email" autoComplete="off" maxLength={254} {...field(`occupant_email_${index}`)} />
                          <FieldError errors={fieldErrors} name={`occupant_email_${index}`} />
                        </div>
                      </div>
                    </li>
                  );
                })}
              </ol>
            </fieldset>
            <fieldset>
              <legend>{t("checkout.payment")}</legend>
              {data.payments.map((option) => (
                <label key={option.value} className="choice">
                  <input type="radio" name="payment" value={option.value} defaultChecked={(values.payment || data.defaultPayment) === option.value} required />{" "}
                  {paymentLabelKeys(option.method, option.vendor)
                    .map((key) => t(key))
                    .join(" · ")}
                </label>
              ))}
              <FieldError errors={fieldErrors} name="payment" />
              {data.deposit !== null ? (
                <div className="field">
                  <p>{t("checkout.pay_option")}</p>
                  <label className="choice">
                    <input type="radio" name="pay_option" value="all" defaultChecked={values.pay_option !== "part"} /> {t("checkout.pay_all")}
                  </label>
                  <label className="choice">
                    <input type="radio" name="pay_option" value="part" defaultChecked={values.pay_option === "part"} /> {t("checkout.pay_part", { percent: data.deposit })}
                  </label>
                </div>
              ) : null}
            </fieldset>
          </div>
          <aside className="checkout-summary">
            <h2>{t("checkout.summary")}</h2>
            {data.member ? (
              <fieldset className="member-benefits">
                <legend>{t("checkout.member_benefits")}</legend>
                {data.member.promotionPercent > 0 ? (
                  <label className="choice">
                    <input key={promotionKey} type="checkbox" name="member_promotion" value="1" defaultChecked={values.member_promotion === "1"} />{" "}
                    {t("checkout.member_promotion", { percent: data.member.promotionPercent })}
                  </label>
                ) : null}
                {data.member.points > 0 ? (
                  <div className="field">
                    <label htmlFor="points">{t("checkout.points_use")}</label>
                    <input
                      key={promotionKey}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={data.member.points}
                      step={1}
                      {...field("points")}
                      aria-describedby={fieldErrors.points ? "points-help points-error" : "points-help"}
                    />
                    <p className="field__help" id="points-help">
                      {t("checkout.points_have", { points: data.member.points })}
                    </p>
                    <FieldError errors={fieldErrors} name="points" params={{ points: data.member.points }} />
                  </div>
                ) : null}
              </fieldset>
            ) : null}
            {data.coupons ? (
              <div className="field coupon-field">
                <label htmlFor="coupon_code">{t("checkout.coupon")}</label>
                <div className="coupon-field__row">
                  <input key={promotionKey} autoComplete="off" maxLength={40} {...field("coupon_code")} />
                  <button type="submit" name="intent" value="price" className="button button--secondary" formNoValidate disabled={busy === "price"}>
                    {busy === "price" ? t("loading") : t("checkout.apply")}
                  </button>
                </div>
                <FieldError errors={fieldErrors} name="coupon_code" />
              </div>
            ) : (
              <button type="submit" name="intent" value="price" className="button button--secondary" formNoValidate>
                {t("checkout.check_price")}
              </button>
            )}
            {price ? <PriceSummary price={price} /> : null}
            <button type="submit" name="intent" value="order" className="button button--block button--primary" disabled={busy === "order"}>
              {busy === "order" ? t("loading") : t("checkout.place_order")}
            </button>
            <p className="checkout-summary__note">{t("checkout.note")}</p>
          </aside>
        </div>
      </Form>
    </main>
  );
}
