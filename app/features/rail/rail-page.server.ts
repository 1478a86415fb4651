/**
 * The rail tickets page (issue 27): `/{lang}/{product}/rail?{stay}` — between the cart and the
 * checkout, for a hotel with `thsr_support_on: 1`. Each step is a form that works without
 * JavaScript: a GET form asks for the trains of a day (direction, station, date, time, passengers),
 * each bookable train is a POST form that puts it in the stay's cart, and a chosen line has a POST
 * form that takes it out. Nothing the guest chose is lost: the rooms and the tickets are in the cart
 * cookie, the query in the address.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import { assertBookable, searchOf } from "~/features/booking/booking-page.server";
import type { CartRailLine } from "~/domain/cart";
import { searchQuery, type BookingSearch } from "~/domain/search";
import { HotelApiError } from "~/contract/client";
import type { RailAvailability, RailDirection, RailNextDate } from "~/contract/rail";
import type { HotelInfo } from "~/contract/schemas";
import { cartCookie, csrfToken, newCheckoutKey, readCart, verifyCsrf } from "~/platform/cookies.server";
import { readForm } from "~/platform/forms.server";
import { notFound } from "~/platform/not-found.server";
import { safeRedirect } from "~/platform/redirects.server";
import { fixedT } from "~/i18n/i18next.server";
import { localizePath } from "~/i18n/languages";
import { checkPrice } from "~/features/checkout/price-check.server";
import { railTravellers, withoutRailLine, withRailLine } from "~/features/rail/rail";

const COUNT = v.pipe(v.string(), v.trim(), v.regex(/^(?:\d|10)$/, "rail.error.count"), v.transform(Number));
const STATION = v.pipe(v.string(), v.regex(/^\d{4}$/, "rail.error.station"));
const DATE = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, "rail.error.date"));

/** The trains query of the page's GET form; a missing field takes the stay's default. */
const QuerySchema = v.object({
  direction: v.optional(v.picklist(["outbound", "return"], "rail.error.direction"), "outbound"),
  station: v.optional(STATION),
  date: v.optional(DATE),
  time: v.optional(v.pipe(v.string(), v.regex(/^(?:\d{2}:\d{2})?$/, "rail.error.time")), ""),
  adult: v.optional(COUNT),
  child: v.optional(COUNT),
  senior: v.optional(COUNT),
  disabled: v.optional(COUNT),
});

/** A train chosen: what the page showed, checked again against the back end before it is kept. */
const ChooseSchema = v.object({
  direction: v.picklist(["outbound", "return"], "rail.error.direction"),
  station: STATION,
  date: DATE,
  train_no: v.pipe(v.string(), v.regex(/^\d{1,6}$/, "rail.error.train_gone")),
  adult: COUNT,
  child: COUNT,
  senior: COUNT,
  disabled: COUNT,
});

export interface RailQueryView {
  direction: RailDirection;
  station: string;
  date: string;
  time: string;
  passengers: CartRailLine["passengers"];
  /** The guest asked for trains (the form was sent), as opposed to the page's first view. */
  asked: boolean;
}

/** What the action answers when the guest stays on the page. */
export interface RailReply {
  error: string;
}

type Values = Record<string, string | undefined>;

function stayParams(search: BookingSearch): [string, string][] {
  return [...searchQuery(search).entries()];
}

async function loadRail({ context, params, request }: LoaderFunctionArgs) {
  assertBookable(context, params.product, request);
  const { app } = context;
  const hotel = app.hotel as HotelInfo;
  // Rail tickets are offered where the hotel sells them and the price check can price them (v2).
  if (hotel.thsr_support_on !== 1 || !app.env.FEATURE_PRICE_CHECK_V2) throw notFound();
  const { parsed } = searchOf(request, hotel.time_zone);
  const cart = await readCart(request, app.env, app.domain, parsed.search);
  const query = searchQuery(parsed.search).toString();
  const bookingPage = `${localizePath(`/${app.env.PRODUCT}/booking`, app.lang)}?${query}`;
  const checkoutPage = `${localizePath(`/${app.env.PRODUCT}/checkout`, app.lang)}?${query}`;
  const railPage = `${localizePath(`/${app.env.PRODUCT}/rail`, app.lang)}?${query}`;
  // Tickets go with a booking: without rooms in the cart, the guest chooses rooms first.
  if (!cart || cart.lines.length === 0) throw safeRedirect(bookingPage, request, 303);
  // Spec §6: rail calls carry the member's token when there is one.
  const { api } = await app.member();
  return { app, hotel, parsed, cart, api, bookingPage, checkoutPage, railPage };
}

/** The query as asked, each missing field from the stay: to the hotel on the check-in day, back on the check-out day. */
function queryOf(url: URL, stay: { start: string; end: string; adults: number; children: number }, stations: RailNextDate) {
  const raw = Object.fromEntries([...url.searchParams.entries()].filter(([key]) => key in QuerySchema.entries));
  const parsed = v.safeParse(QuerySchema, raw);
  const fieldErrors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const field = v.getDotPath(issue);
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
  }
  const input = parsed.success ? parsed.output : v.parse(QuerySchema, {});
  const direction = input.direction;
  const others = stations.stations.filter((station) => station.station_id !== stations.hotel_station.station_id);
  const station =
    input.station && others.some((other) => other.station_id === input.station) ? input.station : (others[0]?.station_id ?? "");
  if (input.station && station !== input.station) fieldErrors.station ??= "rail.error.station";
  const query: RailQueryView = {
    direction,
    station,
    date: input.date ?? (direction === "outbound" ? stay.start : stay.end),
    time: input.time,
    passengers: {
      adult: input.adult ?? Math.min(stay.adults, 10),
      // The stay's children travel too (issue 37 item 12), within THSR's 10 tickets an order.
      child: input.child ?? Math.max(0, Math.min(stay.children, 10 - (input.adult ?? Math.min(stay.adults, 10)))),
      senior: input.senior ?? 0,
      disabled: input.disabled ?? 0,
    },
    asked: url.searchParams.has("station"),
  };
  if (query.asked && railTravellers(query.passengers) === 0) fieldErrors.adult ??= "rail.error.no_passengers";
  return { query, fieldErrors };
}

const route = (direction: RailDirection, station: string, hotelStation: string) =>
  direction === "outbound" ? { origin: station, destination: hotelStation } : { origin: hotelStation, destination: station };

export async function railPage(args: LoaderFunctionArgs) {
  const { app, hotel, parsed, cart, api, checkoutPage, railPage } = await loadRail(args);
  const t = await fixedT(app.lang);
  const { token, setCookie } = await csrfToken(args.request, app.env);
  const stations = await api.railNextAvailBookingDate({ date: cart.start });
  const { query, fieldErrors } = queryOf(
    new URL(args.request.url),
    { ...cart, adults: parsed.search.adults, children: parsed.search.children },
    stations,
  );
  let trains: RailAvailability | null = null;
  let queryError: string | null = null;
  if (query.asked && Object.keys(fieldErrors).length === 0) {
    try {
      trains = await api.railTrainAvailability({
        ...route(query.direction, query.station, stations.hotel_station.station_id),
        date: query.date,
        time: query.time || undefined,
        passengers: query.passengers,
      });
    } catch (error) {
      if (!(error instanceof HotelApiError)) throw error;
      queryError = error.message || error.code;
    }
  }
  return data(
    {
      title: `${t("rail.title")} | ${hotel.hotel_name}`,
      csrf: token,
      stay: { start: cart.start, end: cart.end },
      stayParams: stayParams(parsed.search),
      hotelStation: stations.hotel_station,
      stations: stations.stations.filter((station) => station.station_id !== stations.hotel_station.station_id),
      window: { first: stations.first_date, last: stations.last_date },
      query,
      fieldErrors,
      queryError,
      trains,
      chosen: cart.rail ?? [],
      checkoutPage,
      railPage,
    },
    { headers: setCookie ? { "set-cookie": setCookie } : {} },
  );
}

export async function railAction(args: ActionFunctionArgs) {
  const { app, hotel, parsed, cart, api, checkoutPage, railPage } = await loadRail(args);
  const { request } = args;
  const form = await readForm(request);
  const refuse = (error: string, status: number) => data<RailReply>({ error }, { status });
  if (!form) return refuse("form.error.expired", 400);
  if (!(await verifyCsrf(request, app, form))) return refuse("form.error.expired", 403);
  const values: Values = Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)]));
  const lines = cart.rail ?? [];
  const save = async (rail: CartRailLine[], to: string) => {
    const cookie = await cartCookie(app.env).serialize({ ...cart, rail, checkoutKey: newCheckoutKey() });
    return safeRedirect(to, request, { status: 303, headers: { "set-cookie": cookie } });
  };

  if (values.intent === "remove") {
    const direction = values.direction === "return" ? "return" : values.direction === "outbound" ? "outbound" : null;
    if (!direction) return refuse("rail.error.direction", 400);
    return save(withoutRailLine(lines, direction), values.back === "checkout" ? checkoutPage : `${railPage}#rail-chosen`);
  }
  if (values.intent !== "choose") return refuse("form.error.expired", 400);

  const chosen = v.safeParse(ChooseSchema, values);
  if (!chosen.success) return refuse(chosen.issues[0].message, 400);
  const input = chosen.output;
  const passengers = { adult: input.adult, child: input.child, senior: input.senior, disabled: input.disabled };
  // The train as the back end has it now: the page may be old, the train gone or sold out since.
  const stations = await api.railNextAvailBookingDate({ date: cart.start });
  const hotelStation = stations.hotel_station.station_id;
  let train: RailAvailability["trains"][number] | undefined;
  try {
    const answer = await api.railTrainAvailability({
      ...route(input.direction, input.station, hotelStation),
      date: input.date,
      passengers,
    });
    train = answer.trains.find((candidate) => candidate.train_no === input.train_no);
  } catch (error) {
    if (!(error instanceof HotelApiError)) throw error;
    return refuse(error.message || error.code, 400);
  }
  if (!train) return refuse("rail.error.train_gone", 409);
  if (!train.bookable) return refuse(`rail.unavailable.${train.unavailable ?? "closed"}`, 409);
  const line: CartRailLine = {
    direction: input.direction,
    date: input.date,
    train_no: train.train_no,
    ...route(input.direction, input.station, hotelStation),
    passengers,
    amount: train.amount,
    departure_time: train.departure_time,
    arrival_time: train.arrival_time,
  };
  const next = withRailLine(lines, line);
  // Checked as the order will be (THSR's rules, the payment deadline, the party): the guest hears
  // now, and nothing is kept that the order would refuse.
  const t = await fixedT(app.lang);
  const party = { adults: parsed.search.adults, children: parsed.search.children };
  const check = await checkPrice(api, hotel, true, { ...cart, rail: next }, { party }, t("cart.error.unknown_plan"));
  if (check.error) return refuse(check.error, 409);
  // The other way next, until both are chosen; then on to the checkout.
  const other = input.direction === "outbound" ? "return" : "outbound";
  if (next.some((candidate) => candidate.direction === other)) return save(next, checkoutPage);
  const ask = new URLSearchParams(new URL(railPage, "http://x").search);
  ask.set("direction", other);
  return save(next, `${railPage.split("?")[0]}?${ask.toString()}#rail-chosen`);
}
