/**
 * The staff API's booking reads (decision 152): the lists and search, a booking's page, the month
 * report and the exports' pages. Each call takes the desk session's token first and sends it in the
 * `x-desk-session` header, never a member's token.
 */
import { DESK_SESSION_HEADER } from "../desk";
import {
  DeskBookingListSchema,
  DeskBookingPageSchema,
  DeskExportPageSchema,
  DeskMonthReportSchema,
  type DeskBookingList,
} from "../desk-bookings-schemas";
import type { ClientClass } from "./core";

export function withDeskBookingCalls<TBase extends ClientClass>(Base: TBase) {
  return class DeskBookingCalls extends Base {
    private deskReader(session: string) {
      return { client: this.withMemberToken(null), headers: { [DESK_SESSION_HEADER]: session } };
    }

    /** GET /api/desk/bookings: a page of a list (after `cursor`; "new" keeps its `since` across pages). */
    deskBookingList(session: string, input: { list: DeskBookingList; cursor?: string | null; since?: string | null }) {
      const { client, headers } = this.deskReader(session);
      return client.call(DeskBookingListSchema, "GET", "/api/desk/bookings", { query: { ...this.hotel, ...input }, headers });
    }

    /** GET /api/desk/bookings?q: bookings by number, name prefix, phone or email, newest first. */
    deskBookingSearch(session: string, q: string) {
      const { client, headers } = this.deskReader(session);
      return client.call(DeskBookingListSchema, "GET", "/api/desk/bookings", { query: { ...this.hotel, q }, headers });
    }

    /** GET /api/desk/bookings/:orderDoc: the booking, its money and its timeline. */
    deskBooking(session: string, orderDoc: string) {
      const { client, headers } = this.deskReader(session);
      return client.call(DeskBookingPageSchema, "GET", `/api/desk/bookings/${encodeURIComponent(orderDoc)}`, {
        query: this.hotel,
        headers,
      });
    }

    /** GET /api/desk/reports/month: a month's bookings, room-nights, money and occupancy. */
    deskMonthReport(session: string, month: string) {
      const { client, headers } = this.deskReader(session);
      return client.call(DeskMonthReportSchema, "GET", "/api/desk/reports/month", { query: { ...this.hotel, month }, headers });
    }

    /** GET /api/desk/exports/:kind: a page of a month's bookings or payments, for the CSV. */
    deskExportPage(session: string, kind: "bookings" | "payments", month: string, cursor: string | null) {
      const { client, headers } = this.deskReader(session);
      return client.call(DeskExportPageSchema, "GET", `/api/desk/exports/${kind}`, { query: { ...this.hotel, month, cursor }, headers });
    }
  };
}
