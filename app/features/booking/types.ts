/** The booking page's data, as its components receive it. */
import type { useLoaderData } from "@remix-run/react";
import type { bookingResultsPage } from "~/features/booking/booking-results.server";

export type BookingData = ReturnType<typeof useLoaderData<typeof bookingResultsPage>>;
export type BookingPlan = BookingData["rooms"][number]["price_set"][number];
