/**
 * A room's page data: the room, tonight's plans, its "from" price and the guest's price calendar for
 * this room class (decision 157), each day a link into the booking page for that stay.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { bookingTarget } from "~/domain/booking-links";
import { addDays, todayIn } from "~/domain/dates";
import { partyForRoom } from "~/domain/limits";
import { parseBookingSearch } from "~/domain/search";
import { loadCalendar } from "~/features/booking/calendar.server";
import { sortPlans } from "~/domain/sorting";
import { loadFromPrices } from "~/features/content/from-prices.server";
import { fallbackOnError } from "~/platform/log.server";
import { roomJsonLd } from "./json-ld.server";
import { notFound } from "~/platform/not-found.server";

export async function roomPage({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = app.hotel;
  if (!hotel || !/^\d{1,9}$/.test(params.roomClassId ?? "")) throw notFound();
  const roomClassId = Number(params.roomClassId);
  const url = new URL(request.url);
  const today = todayIn(hotel.time_zone);
  // The party of the address (a link from the booking page), else one any room class takes: a room
  // class's price does not depend on the party it takes, and its links ask for the room's own (spec §9).
  const asked = parseBookingSearch(url.searchParams, today);
  const partyAsked =
    ["adults", "children", "room"].some((name) => url.searchParams.has(name)) &&
    !asked.errors.adults &&
    !asked.errors.children &&
    !asked.errors.room;
  // Everything at once after the hotel info (issue 26): the room list says whether the room exists,
  // so an unknown room is a 404 whatever the calendar answered.
  const [rooms, { view: calendar, calendar: days }, tonight, fromPrices] = await Promise.all([
    app.api.rooms(),
    loadCalendar(context, request, today, {
      party: partyAsked ? asked.search : { room: 1, adults: 1, children: 0 },
      from: today,
      roomClassIds: [roomClassId],
      picks: false,
    }),
    app.api.search(today, addDays(today, 1)).catch(fallbackOnError(app.log, "tonight's plans", () => null)),
    loadFromPrices(app.api, today, [roomClassId]).catch(fallbackOnError(app.log, "from price", () => new Map<number, number | null>())),
  ]);
  const room = rooms.find((candidate) => candidate.room_class_id === roomClassId);
  if (!room) throw notFound();
  // Content pages are for guests who are not signed in: normal prices order the plans (spec §5).
  const plans = sortPlans(tonight?.rooms.find((row) => row.room_class_id === roomClassId)?.price_set ?? [], false);
  const fromPrice = fromPrices.get(roomClassId) ?? null;
  const party = partyAsked ? asked.search : partyForRoom(room);
  // A day opens the booking page on its shortest stay for this room, with that check-in picked on
  // the booking page's calendar: its check-outs' totals are one tap further (or the hotel's engine).
  const booking = (start: string, nights: number) => {
    const target = bookingTarget(hotel, app.env.PRODUCT, app.lang, { start, end: addDays(start, nights), ...party });
    return target.kind === "internal" ? `${target.href}&room_id=${roomClassId}&pick=${start}` : target.href;
  };
  const pageUrl = `${url.origin}${url.pathname}`;
  return {
    url: pageUrl,
    hotelName: hotel.hotel_name,
    room,
    fromPrice,
    plans,
    today,
    calendar,
    partyQuery: partyAsked ? `room=${party.room}&adults=${party.adults}&children=${party.children}&` : "",
    dayLinks: Object.fromEntries(
      (days?.days ?? []).flatMap((day) => (day.price === undefined ? [] : [[day.date, booking(day.date, day.nights ?? 1)]])),
    ),
    jsonLd: roomJsonLd(room, url.origin, pageUrl, fromPrice),
  };
}
