import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { BookingsPage } from "~/features/desk/BookingsPage";
import { loadBookingsPage } from "~/features/desk/bookings-page.server";
import { deskTitle } from "~/features/desk/words";
import bookingStyles from "~/features/desk/bookings.css";

/** /desk/bookings: the lists, search and paging (features/desk/bookings-page.server.ts). */
export const links: LinksFunction = () => [{ rel: "stylesheet", href: bookingStyles }];

export async function loader(args: LoaderFunctionArgs) {
  return { page: await loadBookingsPage(args), lang: args.context.app.lang };
}

export const meta: MetaFunction = ({ params }) => [{ title: deskTitle(params.lang, "nav.bookings") }];

export default function DeskBookings() {
  const { page, lang } = useLoaderData<typeof loader>();
  return <BookingsPage page={page} lang={lang} />;
}
