/**
 * The staff API's reads of bookings (decision 152; every role may read): the lists and search, a
 * booking's page, the month report and the exports' pages. The hotel comes from `domain`, the
 * staff member from the session; another hotel's booking is not found.
 */
import * as v from "valibot";
import { MONTH, monthSpan } from "~/domain/months";
import { ApiError, ok, parseInput } from "~/backend/http.server";
import type { BackendRoute } from "~/backend/route";
import { mainLanguage, requireHotel } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import { DocParam } from "~/backend/orders/schema";
import { MAY_READ, requireStaff } from "./staff.server";
import { BOOKING_LISTS, decodeCursor, encodeCursor, readBookingList, searchBookings } from "./booking-lists.server";
import { bookingPage } from "./booking-page.server";
import { bookingExportPage, monthReport, paymentExportPage } from "./reports.server";

const Domain = v.pipe(v.string(), v.maxLength(253));
const CursorText = v.pipe(v.string(), v.maxLength(200));

const ListQuery = v.object({
  domain: Domain,
  list: v.optional(v.picklist(BOOKING_LISTS), "arriving_today"),
  q: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
  cursor: v.optional(CursorText),
  since: v.optional(v.pipe(v.string(), v.isoTimestamp())),
});

const MonthQuery = v.object({ domain: Domain, month: v.pipe(v.string(), v.regex(MONTH)) });
const ExportQuery = v.object({ ...MonthQuery.entries, cursor: v.optional(CursorText) });

const query = (url: URL) => Object.fromEntries(url.searchParams);

export const deskBookingRoutes: BackendRoute[] = [
  {
    // x-desk-session, ?domain&list&cursor&since | ?domain&q → a page of a list, or the search's matches.
    method: "GET",
    path: "/api/desk/bookings",
    handler: async (ctx) => {
      const input = parseInput(ListQuery, query(ctx.url));
      const hotel = await requireHotel(ctx.db, input.domain);
      const staff = await requireStaff(ctx, hotel, MAY_READ);
      if (input.q !== undefined) {
        const found = await searchBookings(ctx.db, hotel, input.q);
        return ok({ list: null, q: input.q, kind: found.kind, rows: found.rows, next: null, since: null, truncated: found.truncated });
      }
      const page = await readBookingList(ctx.db, hotel, staff, input.list, {
        cursor: input.cursor ?? null,
        since: input.since,
        now: ctx.now,
      });
      return ok({ list: input.list, q: null, kind: null, rows: page.rows, next: page.next, since: page.since ?? null, truncated: false });
    },
  },
  {
    // x-desk-session, ?domain → the booking's page: the order, stay status, money and timeline.
    method: "GET",
    path: "/api/desk/bookings/:orderDoc",
    handler: async (ctx, params) => {
      const input = parseInput(v.object({ domain: Domain, orderDoc: DocParam }), { ...query(ctx.url), orderDoc: params.orderDoc });
      const hotel = await requireHotel(ctx.db, input.domain);
      await requireStaff(ctx, hotel, MAY_READ);
      return ok(await bookingPage(ctx, hotel, input.orderDoc));
    },
  },
  {
    // x-desk-session, ?domain&month=YYYY-MM → the month's report.
    method: "GET",
    path: "/api/desk/reports/month",
    handler: async (ctx) => {
      const input = parseInput(MonthQuery, query(ctx.url));
      const hotel = await requireHotel(ctx.db, input.domain);
      await requireStaff(ctx, hotel, MAY_READ);
      const report = await monthReport(ctx.db, hotel, input.month);
      const main = mainLanguage(hotel);
      return ok({
        ...report,
        occupancy: report.occupancy.map((row) => ({ ...row, name: pickText(parseJson<LocalizedText>(row.name, {}), ctx.lang, main) })),
      });
    },
  },
  {
    // x-desk-session, ?domain&month&cursor → a page of the month's bookings or payments, for the CSV.
    method: "GET",
    path: "/api/desk/exports/:kind",
    handler: async (ctx, params) => {
      const input = parseInput(ExportQuery, query(ctx.url));
      if (params.kind !== "bookings" && params.kind !== "payments") throw new ApiError(404, "route_not_found");
      const hotel = await requireHotel(ctx.db, input.domain);
      await requireStaff(ctx, hotel, MAY_READ);
      const span = monthSpan(input.month, hotel.time_zone);
      const after = input.cursor ? decodeCursor(input.cursor) : null;
      const page =
        params.kind === "bookings"
          ? await bookingExportPage(ctx.db, hotel, span, after)
          : await paymentExportPage(ctx.db, hotel, span, after);
      return ok({ kind: params.kind, rows: page.rows, next: page.next ? encodeCursor(page.next) : null });
    },
  },
];
