import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { exportCsv } from "~/features/desk/exports.server";

/** /desk/exports/<bookings|payments>.csv?month=YYYY-MM: a month's CSV, as an attachment (features/desk/exports.server.ts). */
export async function loader(args: LoaderFunctionArgs) {
  return exportCsv(args);
}
