/**
 * The month's CSV exports (decision 152): bookings arriving in the month and payments made in it,
 * as spreadsheets open them (lib/csv.ts: BOM, CRLF, RFC 4180 quoting, formulas neutralized). The
 * file is streamed page by page from the staff API, so a busy month is never held whole.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { CSV_BOM, csvRow } from "~/lib/csv";
import { MONTH } from "~/domain/months";
import type { Language } from "~/i18n/languages";
import { requireDeskStaff } from "./guard.server";
import { bookingWord } from "./bookings-words";

type Kind = "bookings" | "payments";

/** Each export's columns: the header's word and the back end's field. */
const COLUMNS: Record<Kind, readonly (readonly [Parameters<typeof bookingWord>[1], string])[]> = {
  bookings: [
    ["csv.booking", "order_doc"],
    ["csv.created", "created_at"],
    ["csv.status", "status"],
    ["csv.payment_status", "payment_status"],
    ["csv.stay_status", "stay_status"],
    ["csv.name", "booker_name"],
    ["csv.phone", "booker_phone"],
    ["csv.email", "booker_email"],
    ["csv.check_in", "check_in_day"],
    ["csv.check_out", "check_out_day"],
    ["csv.adults", "adults_count"],
    ["csv.children", "children_count"],
    ["csv.rooms", "rooms"],
    ["csv.total", "total_price"],
    ["csv.paid", "paid_amount"],
  ],
  payments: [
    ["csv.trade_no", "trade_no"],
    ["csv.booking", "order_doc"],
    ["csv.created", "created_at"],
    ["csv.paid_at", "paid_at"],
    ["csv.provider", "provider"],
    ["csv.purpose", "purpose"],
    ["csv.status", "status"],
    ["csv.amount", "amount"],
    ["csv.paid_with", "paid_with"],
  ],
};

export async function exportCsv(args: { request: Request; context: AppLoadContext; params: { kind?: string } }): Promise<Response> {
  const access = await requireDeskStaff(args);
  const kind = args.params.kind;
  if (kind !== "bookings" && kind !== "payments") throw new Response("Not Found", { status: 404 });
  const { app } = args.context;
  const lang: Language = app.lang;
  const month = new URL(args.request.url).searchParams.get("month") ?? "";
  if (!MONTH.test(month)) {
    return new Response(bookingWord(lang, "csv.bad_month"), { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  // The first page is read before answering: a failure is an error page, not a half-written file.
  const first = await app.api.deskExportPage(access.session, kind, month, null);
  const columns = COLUMNS[kind];
  const encoder = new TextEncoder();
  let page: typeof first | null = first;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRow(columns.map(([word]) => bookingWord(lang, word)))));
    },
    async pull(controller) {
      if (!page) {
        controller.close();
        return;
      }
      const text = page.rows.map((row) => csvRow(columns.map(([, field]) => row[field] ?? null))).join("");
      controller.enqueue(encoder.encode(text));
      page = page.next ? await app.api.deskExportPage(access.session, kind, month, page.next) : null;
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${kind}-${month}.csv"`,
    },
  });
}
