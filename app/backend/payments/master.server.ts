/**
 * The master system's calls (spec §7): GET /api/order/master/{id}, the master-system order of §3,
 * and POST {master}/payment, paying an unpaid or part-paid order (again) with the §9 payment ids —
 * only when FEATURE_REPAY is on (docs/decisions/034).
 */
import * as v from "valibot";
import { repayOptions, repayVendor, splitInvoiceNumber } from "~/domain/master-order";
import { isOfflineMethod } from "~/domain/payments";
import { invoiceNumberText } from "~/domain/einvoice/guest";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { findHotelByDomain, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import { HOTEL_COLUMNS, hotelNameIn, mainLanguage } from "~/backend/hotels/hotels.server";
import { verifyOrderLink } from "~/backend/orders/links.server";
import { hotelSiteOrigin, LocalPath, startPayment } from "~/backend/payments/payments.server";
import { currentOrder } from "~/backend/payments/expiry.server";
import type { BackendContext, BackendRoute } from "~/backend/route";

interface MasterOrderRow {
  id: number;
  hotel_id: number;
  order_doc: string;
  booker_name: string;
  booker_phone: string;
  booker_email: string;
  memo: string;
  pay_way: string;
  payment_vendor: number;
  pay_option: "all" | "part";
  pay_amount: number;
  paid_amount: number;
  total_price: number;
  payment_status: number;
  status: string;
  check_in_day: string;
  check_out_day: string;
  company_reg_number: string;
  adults_count: number;
  children_count: number;
  created_at: string;
  pay_deadline: string | null;
  booker_first_name: string;
  member_id: number | null;
  point_used: number;
}

async function presentMasterOrder(ctx: BackendContext, hotel: HotelRow, order: MasterOrderRow) {
  const main = mainLanguage(hotel);
  const [rooms, cancellation, invoices] = await ctx.db.batch([
    ctx.db
      .prepare(
        `SELECT rc.name AS room, rp.name AS plan, ol.num FROM order_lines ol JOIN room_classes rc ON rc.id = ol.room_class_id
         JOIN rate_plans rp ON rp.id = ol.rate_plan_id WHERE ol.order_id = ? ORDER BY ol.position`,
      )
      .bind(order.id),
    ctx.db.prepare("SELECT fee, refund FROM cancellations WHERE order_id = ?").bind(order.id),
    // The order's e-invoices Portico issued and that stand (decision 159): voided ones are no longer the stay's.
    ctx.db
      .prepare(
        `SELECT number, random_number, amount, issued_on FROM einvoice_documents
         WHERE order_id = ? AND status = 'issued' AND number != '' ORDER BY seq`,
      )
      .bind(order.id),
  ]);
  const cancelled = (cancellation?.results[0] as { fee: number; refund: number } | undefined) ?? null;
  const issued = (invoices?.results ?? []) as { number: string; random_number: string; amount: number; issued_on: string }[];
  // Spec §3: "number-random", split at the hyphen into the number and the random number.
  const invoiceNumbers = issued.map(invoiceNumberText);
  return {
    booking: {
      name: order.booker_name,
      phone: order.booker_phone,
      email: order.booker_email,
      comment: order.memo,
      payment_type: order.pay_way,
      paid: order.paid_amount,
      price: order.total_price,
      check_in: order.check_in_day,
      check_out: order.check_out_day,
      status: order.status,
      payment_status: order.payment_status,
      tax_id: order.company_reg_number,
      received_by: "",
      adults: order.adults_count,
      children: order.children_count,
      booking_number: order.order_doc,
      created_at: order.created_at,
      cancellation_fee: cancelled?.fee ?? 0,
      cancellation_refund: cancelled?.refund ?? 0,
      cancel_rule: pickText(parseJson<LocalizedText>(hotel.cancel_policy, {}), ctx.lang, main),
      invoice_numbers: invoiceNumbers.map(splitInvoiceNumber),
    },
    hotel: { hotelID: hotel.id, name: hotelNameIn(hotel, ctx.lang) },
    booking_rooms: ((rooms?.results ?? []) as { room: string; plan: string; num: number }[]).map((row) => ({
      room_type: pickText(parseJson<LocalizedText>(row.room, {}), ctx.lang, main),
      plan: pickText(parseJson<LocalizedText>(row.plan, {}), ctx.lang, main),
      count: row.num,
      extras: [],
      supplies: [],
    })),
    expired_ts: order.pay_deadline && order.payment_status === -1 ? Math.floor(Date.parse(order.pay_deadline) / 1000) : null,
    cancellation_policy: pickText(parseJson<LocalizedText>(hotel.cancel_policy, {}), ctx.lang, main),
    invoices: issued.map((invoice) => ({
      ...splitInvoiceNumber(invoiceNumberText(invoice)),
      amount: invoice.amount,
      date: invoice.issued_on,
    })),
  };
}

const RepayBody = v.object({
  payment_id: v.pipe(v.number(), v.integer()),
  type_id: v.optional(v.union([v.number(), v.string()])),
  booking_number: v.pipe(v.string(), v.regex(/^[A-Z0-9-]{4,40}$/)),
  email: v.pipe(v.string(), v.trim(), v.maxLength(254)),
  /** Pay the deposit (true) or everything still due (false). */
  deposit: v.optional(v.boolean(), false),
  return_url: v.pipe(v.string(), v.url(), v.maxLength(1000)),
  hotel_id: v.pipe(v.number(), v.integer()),
});

export const masterRoutes: BackendRoute[] = [
  {
    // The repay configuration (spec §7 "repay config", path and shape ours: docs/api.md): which hotel
    // of the master system a domain is, and the §9 payment ids it takes for the rest of a deposit.
    // A missing or unknown domain is spec §8's "the master hotel domain cannot be obtained".
    method: "GET",
    path: "/master/payment/config",
    handler: async (ctx) => {
      if (!ctx.featureRepay) throw new ApiError(403, "repay_disabled");
      const domain = (ctx.url.searchParams.get("domain") ?? "").trim().toLowerCase().slice(0, 253);
      if (domain === "") throw new ApiError(400, "master_domain_missing", {}, "domain");
      const hotel = await findHotelByDomain(ctx.db, domain);
      if (!hotel || hotel.status !== 1 || hotel.website_exist !== 1) throw new ApiError(404, "master_domain_missing", {}, "domain");
      const payments = repayOptions(parseJson<{ vendor_id: number; method: string }[]>(hotel.payment_list, []));
      return ok({ hotel_id: hotel.id, domain: hotel.domain, currency: "TWD", payments });
    },
  },
  {
    method: "GET",
    path: "/api/order/master/:id",
    handler: async (ctx, params) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const doc = await verifyOrderLink(ctx.signingSecret, ctx.url.searchParams.get("valid_hash"), "view", hotel.id, ctx.now);
      if (!doc || doc !== params.id) throw new ApiError(403, "hash_invalid", {}, "valid_hash");
      const order = await currentOrder(
        ctx.db,
        () => ctx.db.prepare("SELECT * FROM orders WHERE hotel_id = ? AND order_doc = ?").bind(hotel.id, doc).first<MasterOrderRow>(),
        ctx.now,
      );
      if (!order) throw new ApiError(404, "order_not_found");
      return ok(await presentMasterOrder(ctx, hotel, order));
    },
  },
  {
    method: "POST",
    path: "/master/payment",
    handler: async (ctx) => {
      if (!ctx.featureRepay) throw new ApiError(403, "repay_disabled");
      const body = parseInput(RepayBody, await readJsonBody(ctx.request));
      const hotel = await ctx.db.prepare(`SELECT ${HOTEL_COLUMNS} FROM hotels h WHERE h.id = ?`).bind(body.hotel_id).first<HotelRow>();
      if (!hotel || !hotel.domain) throw new ApiError(404, "master_domain_missing");
      const order = await currentOrder(
        ctx.db,
        () =>
          ctx.db
            .prepare("SELECT * FROM orders WHERE hotel_id = ? AND order_doc = ?")
            .bind(hotel.id, body.booking_number)
            .first<MasterOrderRow>(),
        ctx.now,
      );
      // The booking number and its email together name the order; either wrong is the same "not found".
      if (!order || order.booker_email.toLowerCase() !== body.email.toLowerCase()) throw new ApiError(404, "order_not_found");
      const offered = parseJson<{ vendor_id: number; method: string }[]>(hotel.payment_list, []).filter(
        (entry) => !isOfflineMethod(entry.method),
      );
      const cardVendor = offered.find((entry) => entry.method === "credit")?.vendor_id ?? null;
      const vendorId = repayVendor(body.payment_id, cardVendor);
      if (vendorId === null || !offered.some((entry) => entry.vendor_id === vendorId))
        throw new ApiError(400, "payment_not_available", {}, "payment_id");
      // Only a page of the hotel's own site: the gateway returns the guest there (decision 047).
      const target = new URL(body.return_url);
      const returnPath = `${target.pathname}${target.search}`;
      if (target.origin !== hotelSiteOrigin(ctx, hotel) || !v.is(LocalPath, returnPath))
        throw new ApiError(400, "invalid_field", { field: "return_url" }, "return_url");
      return ok(await startPayment(ctx, hotel, order, { returnPath, vendorId }));
    },
  },
];
