import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CalendarPage } from "~/features/desk/CalendarPage";
import { calendarPageAction, loadCalendarPage } from "~/features/desk/calendar-page.server";
import { deskTitle } from "~/features/desk/words";
import bookingStyles from "~/features/desk/bookings.css";
import calendarStyles from "~/features/desk/calendar.css";

/** /desk/calendar?month=YYYY-MM&room=<id>: the month's grid and the bulk change (features/desk/calendar-page.server.ts). */
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: bookingStyles },
  { rel: "stylesheet", href: calendarStyles },
];

export const meta: MetaFunction = ({ params }) => [{ title: deskTitle(params.lang, "nav.calendar") }];

export async function loader(args: LoaderFunctionArgs) {
  return loadCalendarPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return calendarPageAction(args);
}

export default function DeskCalendar() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  return <CalendarPage view={acted ?? loaded} />;
}
