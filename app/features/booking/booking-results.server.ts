/**
 * The booking page's server side: the results of a search with their filters and the cart, and the
 * cart's form (add, remove, clear). The route module only hands its loader and action here.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import { assertBookable, filteredResults, findPlan, loadBookingState, presentCart, searchOf } from "~/features/booking/booking-page.server";
import { loadCalendar } from "~/features/booking/calendar.server";
import { MAX_CART_LINES, setCartLine, type CartLine } from "~/domain/cart";
import { MAX_ROOMS_PER_ORDER } from "~/domain/limits";
import { cartLineErrors } from "~/domain/order-lines";
import { searchQuery } from "~/domain/search";
import { partyShortfall } from "~/domain/sorting";
import { lodgingUnit, unitKey } from "~/domain/units";
import { cartCookie, csrfToken, newCheckoutKey, verifyCsrf } from "~/platform/cookies.server";
import { readForm } from "~/platform/forms.server";
import { fixedT } from "~/i18n/i18next.server";
import { safeRedirect } from "~/platform/redirects.server";
import type { PriceSetItem, SearchRow } from "~/contract/schemas";

/**
 * What the page shows of a plan and of a room: the fields its components read. The loader's data
 * is written into the page for hydration, so every field more is bytes for the guest and work for
 * the server (decision 046).
 */
function planView(plan: PriceSetItem) {
  return {
    proposal_id: plan.proposal_id,
    proposal_name: plan.proposal_name,
    price: plan.price,
    member_price: plan.member_price,
    inventory: plan.inventory,
    refund_template_id: plan.refund_template_id,
    free_cancel_before_date: plan.free_cancel_before_date,
    allow_member_price: plan.allow_member_price,
    members_only: plan.members_only,
    contain_meals: plan.contain_meals,
    support_entire_rent: plan.support_entire_rent,
    details: plan.details,
  };
}

function roomView(room: SearchRow) {
  return {
    room_class_id: room.room_class_id,
    room_class_name: room.room_class_name,
    photo: room.photos[0] ?? null,
    people: room.people,
    children: room.children,
    square_meters: room.description.square_meters,
    price_set: room.price_set.map(planView),
    stay_rule: room.stay_rule,
  };
}

export async function bookingResultsPage({ context, params, request }: LoaderFunctionArgs) {
  assertBookable(context, params.product, request);
  const { today, parsed } = searchOf(request, context.app.hotel?.time_zone ?? "Asia/Taipei");
  const [state, { view: calendar }] = await Promise.all([
    loadBookingState(context, request),
    loadCalendar(context, request, today, {
      party: parsed.search,
      from: parsed.search.start,
      // The results' room and plan filters narrow the calendar as they narrow the results.
      roomClassIds: parsed.filters.rooms,
      ratePlanIds: parsed.filters.plans,
      picks: true,
    }),
  ]);
  const { token, setCookie } = await csrfToken(request, context.app.env);
  const t = await fixedT(context.app.lang);
  const { rooms, complementary } = filteredResults(state);
  const invalid = Object.keys(state.parsed.errors).length > 0;
  const facilities = [...new Set(state.rooms.flatMap((room) => room.facilities_for_search))].sort();
  const planChoices = [
    ...new Map(state.rooms.flatMap((room) => room.price_set.map((plan) => [plan.proposal_id, plan.proposal_name] as const))).entries(),
  ];
  const party = { adults: state.parsed.search.adults, children: state.parsed.search.children, rooms: state.parsed.search.room };
  return data(
    {
      title: `${t(unitKey("booking.title", lodgingUnit(context.app.hotel?.kind)))} | ${context.app.hotel?.hotel_name ?? ""}`,
      csrf: token,
      today: state.today,
      search: state.parsed.search,
      entered: state.parsed.entered,
      errors: state.parsed.errors,
      filters: state.parsed.filters,
      query: searchQuery(state.parsed.search).toString(),
      rooms: rooms.map(roomView),
      // Said above the results: the party cannot be housed as asked, though the rooms left are listed.
      shortfall: invalid ? null : partyShortfall(rooms, party),
      // Nothing at all to sell, and a stay rule is why (decision 154): the page says which.
      stayRule: invalid ? null : state.stayRule,
      complementary: complementary.map(({ room, plan }) => ({
        room: { room_class_id: room.room_class_id, room_class_name: room.room_class_name },
        plan: planView(plan),
      })),
      facilities,
      planChoices,
      roomChoices: state.rooms.map((room) => [room.room_class_id, room.room_class_name] as const),
      cart: presentCart(state),
      signedIn: state.signedIn,
      calendar,
    },
    { status: invalid ? 400 : 200, headers: setCookie ? { "set-cookie": setCookie } : {} },
  );
}

const CartForm = v.object({
  intent: v.picklist(["add", "remove", "clear"]),
  room_class_id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))),
  proposal_id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))),
  num: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number), v.minValue(1), v.maxValue(MAX_ROOMS_PER_ORDER))),
});

type CartView = ReturnType<typeof presentCart>;

/**
 * A refusal: the translation key, the limit it names when it names one, and the cart as the server
 * holds it when the refusal is about the cart. A refused action does not reload the page's data
 * (Remix skips revalidation after a 4xx), so a stale tab would show "Your booking has a
 * whole-property plan" beside the empty cart it loaded earlier; the page shows this cart instead
 * (issue 25 item 18).
 */
const refuse = (error: string, status: number, max?: number, cart?: CartView) =>
  data({ error, ...(max === undefined ? {} : { max }), ...(cart ? { cart } : {}) } as { error: string; max?: number; cart?: CartView }, {
    status,
  });

export async function cartAction({ context, params, request }: ActionFunctionArgs) {
  assertBookable(context, params.product, request);
  const { app } = context;
  const form = await readForm(request);
  if (!form) return refuse("form.error.expired", 400);
  if (!(await verifyCsrf(request, app, form))) return refuse("form.error.expired", 403);
  const parsedForm = v.safeParse(CartForm, Object.fromEntries(form));
  if (!parsedForm.success) return refuse("cart.error.invalid", 400);
  const state = await loadBookingState(context, request);
  if (Object.keys(state.parsed.errors).length > 0) return refuse("cart.error.search_first", 400);
  const input = parsedForm.output;
  const lines = state.cart?.lines ?? [];
  let next: CartLine[] = lines;
  if (input.intent === "clear") next = [];
  else {
    if (input.room_class_id === undefined || input.proposal_id === undefined) return refuse("cart.error.invalid", 400);
    const line = {
      room_class_id: input.room_class_id,
      proposal_id: input.proposal_id,
      num: input.intent === "remove" ? 0 : (input.num ?? 1),
    };
    // Only a plan of this hotel, for this stay, with the rooms still there: never what the form says.
    if (!findPlan(state.rooms, line)) return refuse("cart.error.unknown_plan", 400, undefined, presentCart(state));
    const result = setCartLine(lines, line, (candidate) => findPlan(state.rooms, candidate)?.plan.support_entire_rent ?? false);
    if (!result.ok) return refuse(result.error, 409, MAX_CART_LINES, presentCart(state));
    if (input.intent === "add") {
      // The whole cart as it would be, checked as the order will be (spec §5): the guest hears now.
      const rooms = result.lines.reduce((sum, candidate) => sum + candidate.num, 0);
      if (rooms > MAX_ROOMS_PER_ORDER) return refuse("cart.error.too_many_rooms", 409, MAX_ROOMS_PER_ORDER, presentCart(state));
      const index = result.lines.findIndex(
        (candidate) => candidate.room_class_id === line.room_class_id && candidate.proposal_id === line.proposal_id,
      );
      const lineError = cartLineErrors(state.rooms, result.lines, state.signedIn)[index];
      if (lineError) return refuse(`cart.error.${lineError}`, 409, undefined, presentCart(state));
    }
    next = result.lines;
  }
  const cookie = await cartCookie(app.env).serialize({
    domain: app.domain,
    start: state.parsed.search.start,
    end: state.parsed.search.end,
    lines: next,
    checkoutKey: newCheckoutKey(),
    // Rail tickets stay with the stay's cart while rooms change; clearing the booking clears them.
    ...(input.intent === "clear" || !state.cart?.rail?.length ? {} : { rail: state.cart.rail }),
  });
  const url = new URL(request.url);
  // Without JavaScript the page comes back at the cart, where the next step is (decision 021).
  return safeRedirect(`${url.pathname}${url.search}#cart`, request, { status: 303, headers: { "set-cookie": cookie } });
}
