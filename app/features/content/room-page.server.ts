/** A room's page data: the room, tonight's plans, its "from" price and a two-month price calendar. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { bookingTarget } from "~/domain/booking-links";
import { addDays, addMonths, todayIn } from "~/domain/dates";
import { partyForRoom } from "~/domain/limits";
import { sortPlans } from "~/domain/sorting";
import { loadFromPrices } from "~/features/content/from-prices.server";
import { fallbackOnError } from "~/platform/log.server";
import { roomJsonLd } from "./json-ld.server";
import { notFound } from "~/platform/not-found.server";

/** Months the price calendar shows; it is requested for one month more (spec §7). */
export const CALENDAR_MONTHS = 2;

export async function roomPage({ context, params, request }: LoaderFunctionArgs) {
  const { app } = context;
  const hotel = app.hotel;
  if (!hotel || !/^\d{1,9}$/.test(params.roomClassId ?? "")) throw notFound();
  const roomClassId = Number(params.roomClassId);
  const url = new URL(request.url);
  const today = todayIn(hotel.time_zone);
  const thisMonth = `${today.slice(0, 7)}-01`;
  const asked = /^\d{4}-\d{2}$/.exec(url.searchParams.get("month") ?? "")?.[0];
  const lastMonth = addMonths(thisMonth, 17);
  const firstMonth = asked && `${asked}-01` >= thisMonth && `${asked}-01` <= lastMonth ? `${asked}-01` : thisMonth;
  const calendarEnd = addMonths(firstMonth, CALENDAR_MONTHS + 1);
  // Everything at once after the hotel info (issue 26): the room list says whether the room exists,
  // so the calendar's answer is kept as it came until then (an unknown room is a 404, not its error).
  const [rooms, calendarAnswer, tonight, fromPrices] = await Promise.all([
    app.api.rooms(),
    app.api.roomCalendar(firstMonth, calendarEnd, [roomClassId]).then(
      (days) => ({ ok: true as const, days }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    app.api.search(today, addDays(today, 1)).catch(fallbackOnError(app.log, "tonight's plans", () => null)),
    loadFromPrices(app.api, today, [roomClassId]).catch(fallbackOnError(app.log, "from price", () => new Map<number, number | null>())),
  ]);
  const room = rooms.find((candidate) => candidate.room_class_id === roomClassId);
  if (!room) throw notFound();
  if (!calendarAnswer.ok) throw calendarAnswer.error;
  const calendar = calendarAnswer.days;
  // Content pages are for guests who are not signed in: normal prices order the plans (spec §5).
  const plans = sortPlans(tonight?.rooms.find((row) => row.room_class_id === roomClassId)?.price_set ?? [], false);
  const fromPrice = fromPrices.get(roomClassId) ?? null;
  const booking = (start: string) =>
    bookingTarget(hotel, app.env.PRODUCT, app.lang, { start, end: addDays(start, 1), ...partyForRoom(room) }).href;
  const pageUrl = `${url.origin}${url.pathname}`;
  return {
    url: pageUrl,
    hotelName: hotel.hotel_name,
    room,
    fromPrice,
    plans,
    today,
    firstMonth,
    previousMonth: firstMonth > thisMonth ? addMonths(firstMonth, -1).slice(0, 7) : null,
    nextMonth: addMonths(firstMonth, 1) <= lastMonth ? addMonths(firstMonth, 1).slice(0, 7) : null,
    calendar: calendar.map((day) => ({ ...day, href: day.available && day.date >= today ? booking(day.date) : null })),
    jsonLd: roomJsonLd(room, url.origin, pageUrl, fromPrice),
  };
}
