import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { BookingPage } from "~/features/desk/BookingPage";
import { BookingActions } from "~/features/desk/BookingActions";
import { InvoicePanel } from "~/features/desk/InvoicePanel";
import { loadBookingPage } from "~/features/desk/booking-page.server";
import { deskTitle } from "~/features/desk/words";
import bookingStyles from "~/features/desk/bookings.css";

/** /desk/bookings/<order_doc>: one booking, its money and timeline (features/desk/booking-page.server.ts). */
export const links: LinksFunction = () => [{ rel: "stylesheet", href: bookingStyles }];

export async function loader(args: LoaderFunctionArgs) {
  const { page, actions, setCookie } = await loadBookingPage(args);
  const headers = new Headers();
  for (const cookie of setCookie) headers.append("set-cookie", cookie);
  return json({ page, actions, lang: args.context.app.lang }, { headers });
}

export const meta: MetaFunction = ({ params }) => [{ title: `${params.orderDoc ?? ""} | ${deskTitle(params.lang, "nav.bookings")}` }];

export default function DeskBooking() {
  const { page, actions, lang } = useLoaderData<typeof loader>();
  return (
    <BookingPage
      page={page}
      lang={lang}
      actions={<BookingActions {...actions} />}
      invoice={
        <InvoicePanel
          invoice={page.invoice ?? null}
          order_doc={page.booking.order_doc}
          role={actions.role}
          csrf={actions.csrf}
          formKeys={actions.formKeys}
          notice={actions.notice?.action.startsWith("invoice_") ? actions.notice : null}
        />
      }
    />
  );
}
