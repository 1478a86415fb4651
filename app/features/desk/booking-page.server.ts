/** A booking's page at the desk (decision 152): the back end's booking, money and timeline; another hotel's booking or none is a 404 page. */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import { requireDeskStaff } from "./guard.server";

export async function loadBookingPage(args: { request: Request; context: AppLoadContext; params: { orderDoc?: string } }) {
  const access = await requireDeskStaff(args);
  const orderDoc = args.params.orderDoc ?? "";
  try {
    const page = await args.context.app.api.deskBooking(access.session, orderDoc);
    return { ...page, role: access.staff.role };
  } catch (error) {
    // A booking number that is not this hotel's, or not a booking number at all: not found.
    if (error instanceof HotelApiError && (error.status === 404 || error.status === 400)) {
      throw new Response("Not Found", { status: 404, statusText: "Not Found" });
    }
    throw error;
  }
}
