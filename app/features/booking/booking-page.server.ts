/** Server side of the booking pages: the search, its results and the cart, for loaders and actions. */
import { type AppLoadContext } from "@remix-run/cloudflare";
import { bookingTarget } from "~/domain/booking-links";
import { cartFlags, cartTotals, type Cart, type CartLine } from "~/domain/cart";
import { todayIn } from "~/domain/dates";
import { parseBookingSearch, type ParsedSearch } from "~/domain/search";
import { cartLineErrors } from "~/domain/order-lines";
import { effectivePrice } from "~/domain/pricing";
import { filterAndRank, sortRoomsBySuitability } from "~/domain/sorting";
import { readCart } from "~/platform/cookies.server";
import type { SearchRow, StayRuleAnswer } from "~/contract/schemas";
import { externalRedirect, safeRedirect } from "~/platform/redirects.server";
import { notFound, requireProduct } from "~/platform/not-found.server";

export interface BookingState {
  parsed: ParsedSearch;
  today: string;
  /** All rooms of the stay, sorted (spec §5); empty when the search is invalid. */
  rooms: SearchRow[];
  cart: Cart | null;
  /** A member is signed in: plans sort and total by member price where allowed (spec §5). */
  signedIn: boolean;
  /** Why nothing at all can be booked for the stay, when a stay rule is why (decision 154). */
  stayRule: StayRuleAnswer | null;
}

/** The stay the request asks for, checked against today in the hotel's time zone. */
export function searchOf(request: Request, timeZone: string): { today: string; parsed: ParsedSearch } {
  const today = todayIn(timeZone);
  return { today, parsed: parseBookingSearch(new URL(request.url).searchParams, today) };
}

export async function loadBookingState(context: AppLoadContext, request: Request): Promise<BookingState> {
  const { app } = context;
  const hotel = app.hotel;
  if (!hotel) throw notFound();
  const { today, parsed } = searchOf(request, hotel.time_zone);
  const valid = Object.keys(parsed.errors).length === 0;
  // Member prices only for a member the back end accepts, as the checkout will price them.
  const [session, result] = await Promise.all([app.member(), valid ? app.api.search(parsed.search.start, parsed.search.end) : null]);
  const signedIn = session.profile !== null;
  const rooms = result
    ? sortRoomsBySuitability(
        result.rooms,
        { adults: parsed.search.adults, children: parsed.search.children, rooms: parsed.search.room },
        signedIn,
      )
    : [];
  const cart = valid ? await readCart(request, app.env, app.domain, parsed.search) : null;
  return { parsed, today, rooms, cart, signedIn, stayRule: result?.stay_rule ?? null };
}

export function findPlan(rooms: SearchRow[], line: Pick<CartLine, "room_class_id" | "proposal_id">) {
  const room = rooms.find((candidate) => candidate.room_class_id === line.room_class_id);
  const plan = room?.price_set.find((candidate) => candidate.proposal_id === line.proposal_id);
  return room && plan ? { room, plan } : null;
}

/** The cart as the page shows it: each line with names, current prices and its error, totals and flags. */
export function presentCart(state: BookingState) {
  const lines = state.cart?.lines ?? [];
  const errors = cartLineErrors(state.rooms, lines, state.signedIn);
  const supportsEntireRent = (line: CartLine) => findPlan(state.rooms, line)?.plan.support_entire_rent ?? false;
  const unitPrice = (line: CartLine) => {
    const plan = findPlan(state.rooms, line)?.plan;
    return plan ? effectivePrice(plan, state.signedIn) : null;
  };
  const totals = cartTotals(lines, unitPrice);
  return {
    lines: lines.map((line, index) => {
      const found = findPlan(state.rooms, line);
      return {
        ...line,
        roomName: found?.room.room_class_name ?? "",
        planName: found?.plan.proposal_name ?? "",
        unitPrice: unitPrice(line),
        error: errors[index] ?? null,
      };
    }),
    totals,
    flags: cartFlags(lines, supportsEntireRent),
  };
}

export function filteredResults(state: BookingState) {
  const { adults, children, room } = state.parsed.search;
  return filterAndRank(state.rooms, state.parsed.filters, { adults, children, rooms: room }, state.signedIn);
}

/**
 * The booking pages exist only at /{product}/… of a hotel taking online bookings. A closed one
 * sends the guest to its maintain page, or to its official engine with the stay they asked for
 * in that engine's format (spec §2).
 */
export function assertBookable(context: AppLoadContext, product: string | undefined, request: Request) {
  const { app } = context;
  const hotel = requireProduct({ product }, context);
  const { search } = searchOf(request, hotel.time_zone).parsed;
  const target = bookingTarget(hotel, app.env.PRODUCT, app.lang, search);
  if (target.kind === "external") throw externalRedirect(target.href, request, 303);
  if (target.kind !== "internal") throw safeRedirect(target.href, request, 303);
}
