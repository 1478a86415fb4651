import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { BookingPage } from "~/features/desk/BookingPage";
import { loadBookingPage } from "~/features/desk/booking-page.server";
import { deskTitle } from "~/features/desk/words";
import bookingStyles from "~/features/desk/bookings.css";

/** /desk/bookings/<order_doc>: one booking, its money and timeline (features/desk/booking-page.server.ts). */
export const links: LinksFunction = () => [{ rel: "stylesheet", href: bookingStyles }];

export async function loader(args: LoaderFunctionArgs) {
  return { page: await loadBookingPage(args), lang: args.context.app.lang };
}

export const meta: MetaFunction = ({ params }) => [{ title: `${params.orderDoc ?? ""} | ${deskTitle(params.lang, "nav.bookings")}` }];

export default function DeskBooking() {
  const { page, lang } = useLoaderData<typeof loader>();
  return <BookingPage page={page} lang={lang} />;
}
