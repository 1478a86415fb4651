import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useRef, useState, type ChangeEvent } from "react";
import * as v from "valibot";
import { useTranslation } from "~/i18n/react";
import { LocaleLink } from "~/components/LocaleLink";
import { Picture } from "~/components/Picture";
import { focusFirstInvalid, useHydrated, useSubmissionDone } from "~/components/forms";
import { earliestCheckOut } from "~/booking/check-out";
import { MAX_CART_LINES, setCartLine, type CartLine } from "~/booking/cart";
import { assertBookable, filteredResults, findPlan, loadBookingState, presentCart } from "~/booking-flow/booking-page.server";
import { cartLineErrors } from "~/booking/order-lines";
import { searchQuery } from "~/booking/search";
import { partyShortfall } from "~/booking/sorting";
import { lodgingUnit, unitKey } from "~/booking/units";
import { MAX_ROOMS_PER_ORDER } from "~/booking/limits";
import { cartCookie, csrfToken, newCheckoutKey, verifyCsrf } from "~/cookies.server";
import { readForm } from "~/forms.server";
import { formatCapacity, formatDate, formatPrice } from "~/i18n/format";
import { i18nServer } from "~/i18n/i18next.server";
import { localizePath } from "~/i18n/languages";
import { safeRedirect } from "~/redirects.server";
import { useSite } from "~/components/site-data";

/** Booking pages hydrate: the same forms, enhanced with pending states and no reloads. */
export const handle = { hydrate: true, booking: true };


export async function loader({ context, params, request }: LoaderFunctionArgs) {
  assertBookable(context, params.product, request);
  const state = await loadBookingState(context, request);
  const { token, setCookie } = await csrfToken(request, context.app.env);
  const t = await i18nServer.getFixedT(context.app.lang);
  const { rooms, complementary } = filteredResults(state);
  const invalid = Object.keys(state.parsed.errors).length > 0;
  const facilities = [...new Set(state.rooms.flatMap((room) => room.facilities_for_search))].sort();
  const planChoices = [...new Map(state.rooms.flatMap((room) => room.price_set.map((plan) => [plan.proposal_id, plan.proposal_name] as const))).entries()];
  return json(
    {
      title: `${t(unitKey("booking.title", lodgingUnit(context.app.hotel?.kind)))} | ${context.app.hotel?.hotel_name ?? ""}`,
      csrf: token,
      today: state.today,
      search: state.parsed.search,
      entered: state.parsed.entered,
      errors: state.parsed.errors,
      filters: state.parsed.filters,
      query: searchQuery(state.parsed.search).toString(),
      rooms,
      // Said above the results: the party cannot be housed as asked, though the rooms left are listed.
      shortfall: invalid ? null : partyShortfall(rooms, { adults: state.parsed.search.adults, children: state.parsed.search.children, rooms: state.parsed.search.room }),
      complementary: complementary.map(({ room, plan }) => ({ room: { room_class_id: room.room_class_id, room_class_name: room.room_class_name }, plan })),
      facilities,
      planChoices,
      roomChoices: state.rooms.map((room) => [room.room_class_id, room.room_class_name] as const),
      cart: presentCart(state),
      signedIn: state.signedIn,
    },
    { status: invalid ? 400 : 200, headers: setCookie ? { "set-cookie": setCookie } : {} },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : []);


export async function action({ context, params, request }: ActionFunctionArgs) {
  assertBookable(context, params.product, request);
  const { app } = context;
  const form = await readForm(request);
  if (!form) return json({ error: "form.error.expired" }, { status: 400 });
  if (!(await verifyCsrf(request, app, form))) return json({ error: "form.error.expired" }, { status: 403 });
  // Declared here, not at module level, so that valibot stays out of the page's JavaScript.
  const CartForm = v.object({
    intent: v.picklist(["add", "remove", "clear"]),
    room_class_id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))),
    proposal_id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))),
    num: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number), v.minValue(1), v.maxValue(MAX_ROOMS_PER_ORDER))),
  });
  const parsedForm = v.safeParse(CartForm, Object.fromEntries(form));
  if (!parsedForm.success) return json({ error: "cart.error.invalid" }, { status: 400 });
  const state = await loadBookingState(context, request);
  if (Object.keys(state.parsed.errors).length > 0) return json({ error: "cart.error.search_first" }, { status: 400 });
  const input = parsedForm.output;
  const lines = state.cart?.lines ?? [];
  let next: CartLine[] = lines;
  if (input.intent === "clear") next = [];
  else {
    if (input.room_class_id === undefined || input.proposal_id === undefined) return json({ error: "cart.error.invalid" }, { status: 400 });
    const line = { room_class_id: input.room_class_id, proposal_id: input.proposal_id, num: input.intent === "remove" ? 0 : (input.num ?? 1) };
    const found = findPlan(state.rooms, line);
    // Only a plan of this hotel, for this stay, with the rooms still there: never what the form says.
    if (!found) return json({ error: "cart.error.unknown_plan" }, { status: 400 });
    const result = setCartLine(lines, line, (candidate) => findPlan(state.rooms, candidate)?.plan.support_entire_rent ?? false);
    if (!result.ok) return json({ error: result.error, max: MAX_CART_LINES }, { status: 409 });
    if (input.intent === "add") {
      // The whole cart as it would be, checked as the order will be (spec §5): the guest hears now.
      const rooms = result.lines.reduce((sum, candidate) => sum + candidate.num, 0);
      if (rooms > MAX_ROOMS_PER_ORDER) return json({ error: "cart.error.too_many_rooms", max: MAX_ROOMS_PER_ORDER }, { status: 409 });
      const index = result.lines.findIndex((candidate) => candidate.room_class_id === line.room_class_id && candidate.proposal_id === line.proposal_id);
      const lineError = cartLineErrors(state.rooms, result.lines, state.signedIn)[index];
      if (lineError) return json({ error: `cart.error.${lineError}` }, { status: 409 });
    }
    next = result.lines;
  }
  const cookie = await cartCookie(app.env).serialize({
    domain: app.domain,
    start: state.parsed.search.start,
    end: state.parsed.search.end,
    lines: next,
    checkoutKey: newCheckoutKey(),
  });
  const url = new URL(request.url);
  // Without JavaScript the page comes back at the cart, where the next step is (decision 021).
  return safeRedirect(`${url.pathname}${url.search}#cart`, request, { status: 303, headers: { "set-cookie": cookie } });
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function SearchForm({ data }: { data: LoaderData }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const end = useRef<HTMLInputElement>(null);
  // Check-out is at least one night after check-in: in the HTML, and as check-in changes.
  const searched = `${data.entered.start} ${data.today}`;
  const [picked, setPicked] = useState<{ searched: string; min: string } | null>(null);
  const checkOutMin = picked?.searched === searched ? picked.min : earliestCheckOut(data.entered.start, data.today);
  const onStartChange = (event: ChangeEvent<HTMLInputElement>) => {
    const min = earliestCheckOut(event.currentTarget.value, data.today);
    setPicked({ searched, min });
    if (end.current && end.current.value < min) end.current.value = min;
  };
  const unit = lodgingUnit(useSite()?.hotel.kind);
  const field = (name: keyof LoaderData["entered"]) => ({
    name,
    id: `search-${name}`,
    defaultValue: data.entered[name],
    "aria-invalid": data.errors[name] ? true : undefined,
    "aria-describedby": data.errors[name] ? `search-${name}-error` : undefined,
  });
  const error = (name: keyof LoaderData["entered"]) =>
    data.errors[name] ? (
      <p className="field__error" id={`search-${name}-error`}>
        {t(data.errors[name] === "search.error.rooms" ? unitKey("search.error.rooms", unit) : (data.errors[name] ?? ""))}
      </p>
    ) : null;
  return (
    <Form method="get" className="booking-search" aria-label={t(unitKey("search.heading", unit))} noValidate={hydrated}>
      <div className="field">
        <label htmlFor="search-start">{t("search.start")}</label>
        <input type="date" min={data.today} required {...field("start")} onChange={onStartChange} />
        {error("start")}
      </div>
      <div className="field">
        <label htmlFor="search-end">{t("search.end")}</label>
        <input type="date" min={checkOutMin} required {...field("end")} ref={end} />
        {error("end")}
      </div>
      <div className="field field--small">
        <label htmlFor="search-room">{t(unitKey("search.rooms", unit))}</label>
        <input type="number" inputMode="numeric" min={1} max={MAX_ROOMS_PER_ORDER} {...field("room")} />
        {error("room")}
      </div>
      <div className="field field--small">
        <label htmlFor="search-adults">{t("search.adults")}</label>
        <input type="number" inputMode="numeric" min={1} max={100} {...field("adults")} />
        {error("adults")}
      </div>
      <div className="field field--small">
        <label htmlFor="search-children">{t("search.children")}</label>
        <input type="number" inputMode="numeric" min={0} max={100} {...field("children")} />
        {error("children")}
      </div>
      <button type="submit" className="button">
        {t("search.submit")}
      </button>
    </Form>
  );
}

function Filters({ data }: { data: LoaderData }) {
  const { t } = useTranslation();
  const site = useSite();
  if (data.rooms.length === 0 && data.filters.plans.length + data.filters.rooms.length + data.filters.facilities.length === 0 && !data.filters.meals) return null;
  return (
    <Form method="get" className="booking-filters">
      <details open={data.filters.plans.length + data.filters.rooms.length + data.filters.facilities.length > 0 || data.filters.meals}>
        <summary>{t("filters.heading")}</summary>
        {Object.entries(data.search).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={String(value)} />
        ))}
        <fieldset>
          <legend>{t("filters.meals")}</legend>
          <label>
            <input type="checkbox" name="meals" value="1" defaultChecked={data.filters.meals} /> {t("filters.meals_only")}
          </label>
        </fieldset>
        <fieldset>
          <legend>{t("filters.plans")}</legend>
          {data.planChoices.map(([id, name]) => (
            <label key={id}>
              <input type="checkbox" name="plan" value={id} defaultChecked={data.filters.plans.includes(id)} /> {name}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{t(unitKey("filters.rooms", lodgingUnit(site?.hotel.kind)))}</legend>
          {data.roomChoices.map(([id, name]) => (
            <label key={id}>
              <input type="checkbox" name="room_id" value={id} defaultChecked={data.filters.rooms.includes(id)} /> {name}
            </label>
          ))}
        </fieldset>
        {data.facilities.length > 0 ? (
          <fieldset>
            <legend>{t("filters.facilities")}</legend>
            {data.facilities.map((key) => (
              <label key={key}>
                <input type="checkbox" name="facility" value={key} defaultChecked={data.filters.facilities.includes(key)} />{" "}
                {t(key, { ns: "facility", defaultValue: key.replace(/_/g, " ") })}
              </label>
            ))}
          </fieldset>
        ) : null}
        <button type="submit" className="button button--secondary">
          {t("filters.apply")}
        </button>
      </details>
    </Form>
  );
}

function AddForm({ data, roomId, plan }: { data: LoaderData; roomId: number; plan: LoaderData["rooms"][number]["price_set"][number] }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const location = useLocation();
  const disabled =
    plan.inventory <= 0 || (plan.support_entire_rent ? data.cart.flags.disableEntireRent : data.cart.flags.disableNormalPlans);
  const busy =
    navigation.state !== "idle" &&
    navigation.formData?.get("room_class_id") === String(roomId) &&
    navigation.formData?.get("proposal_id") === String(plan.proposal_id);
  const max = Math.max(1, Math.min(plan.inventory, 10));
  const unit = lodgingUnit(useSite()?.hotel.kind);
  return (
    <Form method="post" action={`${location.pathname}${location.search}`} className="add-form" preventScrollReset>
      <input type="hidden" name="csrf" value={data.csrf} />
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="room_class_id" value={roomId} />
      <input type="hidden" name="proposal_id" value={plan.proposal_id} />
      <label className="add-form__count">
        <span className="visually-hidden">{t(unitKey("cart.count", unit))}</span>
        <select name="num" defaultValue={String(Math.min(data.search.room, max))} disabled={disabled}>
          {Array.from({ length: max }, (_, index) => (
            <option key={index} value={index + 1}>
              {t(unitKey("cart.rooms", unit), { count: index + 1 })}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" disabled={disabled || busy} aria-busy={busy || undefined}>
        {busy ? t("loading") : t("cart.add")}
      </button>
      {disabled && plan.inventory > 0 ? (
        <p className="add-form__note">{plan.support_entire_rent ? t("cart.entire_rent_disabled") : t("cart.normal_disabled")}</p>
      ) : null}
    </Form>
  );
}

function PlanItem({
  data,
  roomId,
  roomName,
  plan,
}: {
  data: LoaderData;
  roomId: number;
  /** Set when the plan is listed apart from its room (the complementary list): the heading then names the room too. */
  roomName?: string;
  plan: LoaderData["rooms"][number]["price_set"][number];
}) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const unit = lodgingUnit(site?.hotel.kind);
  return (
    <li className="plan" id={`plan-${roomId}-${plan.proposal_id}`}>
      <div className="plan__info">
        {roomName ? <h3 className="plan__name">{t("booking.complementary_plan", { room: roomName, plan: plan.proposal_name })}</h3> : <h4 className="plan__name">{plan.proposal_name}</h4>}
        {plan.details.length > 0 ? (
          <ul className="plan__details">
            {plan.details.map((line) => (
              <li key={line.name}>
                {line.name} × {line.number} {line.unit}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="plan__meta">
          {plan.contain_meals ? t("room.meals_included") : t(unitKey("room.room_only", unit))}
          {plan.free_cancel_before_date ? ` · ${t("room.free_cancel_until", { date: formatDate(plan.free_cancel_before_date, lang) })}` : ""}
          {plan.refund_template_id === 0 ? ` · ${t("room.non_refundable")}` : ""}
          {plan.support_entire_rent ? ` · ${t("booking.entire_rent")}` : ""}
        </p>
        <p className={plan.inventory > 0 && plan.inventory <= 3 ? "plan__stock plan__stock--low" : "plan__stock"}>
          {plan.inventory > 0 ? t(unitKey("booking.rooms_left", unit), { count: plan.inventory }) : t("booking.sold_out")}
        </p>
      </div>
      <div className="plan__buy">
        {data.signedIn && plan.allow_member_price && plan.member_price !== null ? (
          // A signed-in member pays the member price (spec §5): it is the price, the usual one is struck through.
          <p className="plan__price plan__price--member">
            <s className="plan__was">{formatPrice(plan.price, lang)}</s> {formatPrice(plan.member_price, lang)}
            <span className="plan__nights">{t(unitKey("booking.for_stay", unit))}</span>
            <span className="plan__member">{t("booking.your_member_price")}</span>
          </p>
        ) : (
          <p className="plan__price">
            {formatPrice(plan.price, lang)}
            <span className="plan__nights">{t(unitKey("booking.for_stay", unit))}</span>
            {plan.member_price !== null ? <span className="plan__member">{t("room.member_price", { price: formatPrice(plan.member_price, lang) })}</span> : null}
          </p>
        )}
        <AddForm data={data} roomId={roomId} plan={plan} />
      </div>
    </li>
  );
}

function CartPanel({ data }: { data: LoaderData }) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const location = useLocation();
  const navigation = useNavigation();
  const unit = lodgingUnit(site?.hotel.kind);
  const checkout = `${localizePath(`/${site?.product ?? "hxa"}/checkout`, lang)}?${data.query}`;
  return (
    <aside className="booking-cart" id="cart" aria-labelledby="cart-heading" aria-busy={navigation.state !== "idle" || undefined}>
      <h2 id="cart-heading" tabIndex={-1}>
        {t("cart.heading")}
      </h2>
      <p className="booking-cart__stay">
        {formatDate(data.search.start, lang)} – {formatDate(data.search.end, lang)}
      </p>
      {data.cart.lines.length === 0 ? (
        <p className="booking-cart__empty">{t(unitKey("cart.empty", unit))}</p>
      ) : (
        <>
          <ul className="booking-cart__lines">
            {data.cart.lines.map((line) => (
              <li key={`${line.room_class_id}-${line.proposal_id}`} className={line.error ? "cart-line cart-line--stale" : "cart-line"}>
                <span className="cart-line__name">
                  {line.roomName} · {line.planName}
                </span>
                <span className="cart-line__count">{t(unitKey("cart.rooms", unit), { count: line.num })}</span>
                {line.unitPrice !== null ? <span className="cart-line__price">{formatPrice(line.unitPrice * line.num, lang)}</span> : null}
                {line.error ? (
                  <span className="cart-line__error" role="alert">
                    {t(`cart.error.${line.error}`)}
                  </span>
                ) : null}
                <Form method="post" action={`${location.pathname}${location.search}`} preventScrollReset>
                  <input type="hidden" name="csrf" value={data.csrf} />
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="room_class_id" value={line.room_class_id} />
                  <input type="hidden" name="proposal_id" value={line.proposal_id} />
                  <button type="submit" className="link-button">
                    {t("cart.remove")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
          <p className="booking-cart__total">
            <span>{t(unitKey("cart.total_rooms", unit), { count: data.cart.totals.rooms })}</span>
            <strong>{formatPrice(data.cart.totals.price, lang)}</strong>
          </p>
          <a className="button button--block" href={checkout} id="cart-checkout">
            {t("cart.checkout")}
          </a>
        </>
      )}
    </aside>
  );
}

export default function BookingPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const site = useSite();
  const { t } = useTranslation();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.formMethod === undefined;
  const lang = site?.lang ?? "zh-TW";
  const main = useRef<HTMLElement>(null);
  const [announcement, setAnnouncement] = useState("");
  const unit = lodgingUnit(site?.hotel.kind);
  // With JavaScript the page is not reloaded, so it says what changed and takes the guest on:
  // to the first field to fix, to the refusal, or to the cart's next step (decision 021).
  useSubmissionDone((submitted) => {
    const intent = submitted.get("intent");
    if (intent === null) {
      focusFirstInvalid(main.current?.querySelector<HTMLFormElement>(".booking-search"));
      return;
    }
    if (actionData && "error" in actionData) {
      setAnnouncement("");
      document.getElementById("booking-alert")?.focus();
      return;
    }
    const total = formatPrice(data.cart.totals.price, lang);
    const line = data.cart.lines.find(
      (candidate) => String(candidate.room_class_id) === submitted.get("room_class_id") && String(candidate.proposal_id) === submitted.get("proposal_id"),
    );
    if (data.cart.lines.length === 0) setAnnouncement(t("cart.announce.emptied"));
    else if (intent === "add" && line) {
      setAnnouncement(t("cart.announce.added", { item: `${line.roomName} · ${line.planName}`, rooms: t(unitKey("cart.rooms", unit), { count: line.num }), total }));
    } else setAnnouncement(t("cart.announce.removed", { total }));
    (document.getElementById(intent === "add" ? "cart-checkout" : "cart-heading") ?? document.getElementById("cart-heading"))?.focus();
  });
  return (
    <main id="main" ref={main} className={`page booking-page booking--${site?.layout.booking ?? "booking_100"}`}>
      <h1>{t(unitKey("booking.title", unit))}</h1>
      <SearchForm data={data} />
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {actionData && "error" in actionData ? (
        <p className="alert alert--danger" id="booking-alert" tabIndex={-1} role="alert">
          {t(actionData.error, "max" in actionData ? { max: actionData.max } : undefined)}
        </p>
      ) : null}
      <div className="booking-layout">
        <div className="booking-results" aria-busy={searching || undefined}>
          <Filters data={data} />
          <h2 className="booking-results__heading">{t(unitKey("booking.results_heading", unit))}</h2>
          {Object.keys(data.errors).length === 0 && data.rooms.length === 0 ? <p>{t(unitKey("booking.no_rooms", unit))}</p> : null}
          {data.shortfall === "rooms" ? (
            <p className="alert booking-results__notice" role="status">
              {t(unitKey("booking.short_rooms", unit), { count: data.search.room })}
            </p>
          ) : data.shortfall === "capacity" ? (
            <p className="alert booking-results__notice" role="status">
              {t(unitKey("booking.short_capacity", unit))}
            </p>
          ) : null}
          {data.rooms.map((room, index) => (
            <section key={room.room_class_id} className="booking-room" aria-labelledby={`room-${room.room_class_id}`}>
              <div className="booking-room__head">
                {room.photos[0] ? <Picture image={room.photos[0]} priority={index === 0} className="booking-room__photo" /> : null}
                <div>
                  <h3 id={`room-${room.room_class_id}`}>
                    <LocaleLink to={`/room/${room.room_class_id}`}>{room.room_class_name}</LocaleLink>
                  </h3>
                  <p className="booking-room__facts">
                    {formatCapacity(t, room.people, room.children)}
                    {room.description.square_meters ? ` · ${t("room.size", { size: room.description.square_meters })}` : ""}
                  </p>
                </div>
              </div>
              {room.price_set.length === 0 ? (
                <p className="booking-room__none">{t("booking.sold_out")}</p>
              ) : (
                <ul className="plan-list">
                  {room.price_set.map((plan) => (
                    <PlanItem key={plan.proposal_id} data={data} roomId={room.room_class_id} plan={plan} />
                  ))}
                </ul>
              )}
            </section>
          ))}
          {data.complementary.length > 0 ? (
            <section className="booking-complementary">
              <h2>{t("filters.complementary")}</h2>
              <ul className="plan-list">
                {data.complementary.map(({ room, plan }) => (
                  <PlanItem key={`${room.room_class_id}-${plan.proposal_id}`} data={data} roomId={room.room_class_id} roomName={room.room_class_name} plan={plan} />
                ))}
              </ul>
            </section>
          ) : null}
        </div>
        <CartPanel data={data} />
      </div>
    </main>
  );
}
