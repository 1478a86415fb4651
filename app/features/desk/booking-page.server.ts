/** A booking's page at the desk (decision 152): the back end's booking, money and timeline; another hotel's booking or none is a 404 page. */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import { todayIn } from "~/domain/dates";
import { csrfToken } from "~/platform/cookies.server";
import { requireDeskStaff } from "./guard.server";
import type { BookingForActions } from "./booking-actions";
import { newFormKeys, takeDeskNotice } from "./action-notice.server";

export async function loadBookingPage(args: { request: Request; context: AppLoadContext; params: { orderDoc?: string } }) {
  const access = await requireDeskStaff(args);
  const orderDoc = args.params.orderDoc ?? "";
  try {
    const { app } = args.context;
    const page = await app.api.deskBooking(access.session, orderDoc);
    const [csrf, taken] = await Promise.all([
      csrfToken(args.request, app.env),
      takeDeskNotice(args.request, app.env, page.booking.order_doc),
    ]);
    // The action forms (decision 151) read the booking as the staff API gave it.
    const forActions: BookingForActions = {
      order_doc: page.booking.order_doc,
      status: page.booking.status as BookingForActions["status"],
      stay_status: page.stay_status,
      check_in_day: page.booking.check_in_day,
      check_out_day: page.booking.check_out_day,
      pay_deadline: page.booking.pay_deadline ?? null,
      owed: page.money.owed,
      due_back: page.money.to_be_refunded,
      reinstatable:
        page.booking.status === "cancelled" &&
        page.money.charged === 0 &&
        page.timeline.some((entry) => entry.kind === "cancelled" && entry.detail.reason === "payment_expired"),
    };
    const actions = {
      booking: forActions,
      role: access.staff.role,
      today: todayIn(app.hotel?.time_zone ?? "Asia/Taipei"),
      csrf: csrf.token,
      formKeys: newFormKeys(),
      notice: taken.notice,
    };
    const setCookie = [csrf.setCookie, taken.setCookie].filter((value): value is string => value !== null);
    return { page: { ...page, role: access.staff.role }, actions, setCookie };
  } catch (error) {
    // A booking number that is not this hotel's, or not a booking number at all: not found.
    if (error instanceof HotelApiError && (error.status === 404 || error.status === 400)) {
      throw new Response("Not Found", { status: 404, statusText: "Not Found" });
    }
    throw error;
  }
}
