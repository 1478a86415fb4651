/**
 * The bookings page (decision 152): one list at a time (the tab in `?list=`), or a search (`?q=`),
 * a page after `?cursor=` ("new" keeps its start in `?since=`). A forged or stale cursor, or a
 * search too long, shows the back end's message in the page's language, never an error page.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import { DESK_BOOKING_LISTS, type DeskBookingList, type DeskBookingListAnswer } from "~/contract/desk-bookings-schemas";
import { requireDeskStaff } from "./guard.server";

const isList = (value: string | null): value is DeskBookingList => (DESK_BOOKING_LISTS as readonly string[]).includes(value ?? "");

export interface BookingsPageData {
  list: DeskBookingList;
  q: string;
  answer: DeskBookingListAnswer | null;
  error: string | null;
  /** Whether this is a later page (a link back to the first is shown). */
  paged: boolean;
}

export async function loadBookingsPage(args: { request: Request; context: AppLoadContext }): Promise<BookingsPageData> {
  const access = await requireDeskStaff(args);
  const params = new URL(args.request.url).searchParams;
  const requested = params.get("list");
  const list: DeskBookingList = isList(requested) ? requested : "arriving_today";
  const q = (params.get("q") ?? "").trim();
  const cursor = params.get("cursor");
  const api = args.context.app.api;
  try {
    const answer = q
      ? await api.deskBookingSearch(access.session, q)
      : await api.deskBookingList(access.session, { list, cursor, since: params.get("since") });
    return { list, q, answer, error: null, paged: Boolean(cursor) };
  } catch (error) {
    if (error instanceof HotelApiError && error.status === 400)
      return { list, q, answer: null, error: error.message, paged: Boolean(cursor) };
    throw error;
  }
}
