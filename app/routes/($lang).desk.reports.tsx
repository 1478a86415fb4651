import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ReportsPage } from "~/features/desk/ReportsPage";
import { loadReportsPage } from "~/features/desk/reports-page.server";
import { deskTitle } from "~/features/desk/words";
import bookingStyles from "~/features/desk/bookings.css";

/** /desk/reports?month=YYYY-MM: the month's figures and its CSV exports (features/desk/reports-page.server.ts). */
export const links: LinksFunction = () => [{ rel: "stylesheet", href: bookingStyles }];

export async function loader(args: LoaderFunctionArgs) {
  return { ...(await loadReportsPage(args)), lang: args.context.app.lang };
}

export const meta: MetaFunction = ({ params }) => [{ title: deskTitle(params.lang, "nav.reports") }];

export default function DeskReports() {
  const { month, report, error, lang } = useLoaderData<typeof loader>();
  return <ReportsPage month={month} report={report} error={error} lang={lang} />;
}
