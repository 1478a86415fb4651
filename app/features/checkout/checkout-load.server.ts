/** What the checkout page and its action read first: the hotel, the search, the cart, the pages around it and the member. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { assertBookable, searchOf } from "~/features/booking/booking-page.server";
import { searchQuery } from "~/domain/search";
import { readCart } from "~/platform/cookies.server";
import type { HotelInfo } from "~/contract/schemas";
import { localizePath } from "~/i18n/languages";

export async function loadCheckout({ context, params, request }: LoaderFunctionArgs) {
  assertBookable(context, params.product, request);
  const { app } = context;
  const hotel = app.hotel as HotelInfo;
  const { parsed } = searchOf(request, hotel.time_zone);
  const cart = await readCart(request, app.env, app.domain, parsed.search);
  const bookingPage = `${localizePath(`/${app.env.PRODUCT}/booking`, app.lang)}?${searchQuery(parsed.search)}`;
  // Rail tickets where the hotel sells them and the price check prices them (issue 27).
  const railPage =
    hotel.thsr_support_on === 1 && app.env.FEATURE_PRICE_CHECK_V2
      ? `${localizePath(`/${app.env.PRODUCT}/rail`, app.lang)}?${searchQuery(parsed.search)}`
      : null;
  // Spec §6: the member's profile is loaded before the price check; prices and the order go
  // through the client that carries their token only if the back end accepted it.
  const { profile, api } = await app.member();
  return { app, hotel, parsed, cart, bookingPage, railPage, profile, api };
}

export type LoadedCheckout = Awaited<ReturnType<typeof loadCheckout>>;
