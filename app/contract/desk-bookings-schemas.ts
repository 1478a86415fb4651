/** Answers of the staff API's bookings part (decision 152): lists and search, a booking's page, the month report, export pages. */
import * as v from "valibot";
import { INVOICE_ACTIONS } from "./desk-actions-schemas";
import { OrderSchema } from "./schemas";

export const DESK_BOOKING_LISTS = [
  "arriving_today",
  "arriving_tomorrow",
  "departing_today",
  "in_house",
  "new",
  "awaiting_payment",
  "refund_due",
  "cancelled",
] as const;
export type DeskBookingList = (typeof DESK_BOOKING_LISTS)[number];

export const DeskBookingRowSchema = v.object({
  order_doc: v.string(),
  booker_name: v.string(),
  booker_phone: v.string(),
  booker_email: v.string(),
  check_in_day: v.string(),
  check_out_day: v.string(),
  adults_count: v.number(),
  children_count: v.number(),
  rooms: v.number(),
  status: v.string(),
  payment_status: v.number(),
  stay_status: v.string(),
  total_price: v.number(),
  paid_amount: v.number(),
  pay_deadline: v.nullable(v.string()),
  created_at: v.string(),
  refund: v.number(),
});
export type DeskBookingRow = v.InferOutput<typeof DeskBookingRowSchema>;

export const DeskBookingListSchema = v.object({
  list: v.nullable(v.picklist(DESK_BOOKING_LISTS)),
  q: v.nullable(v.string()),
  kind: v.nullable(v.picklist(["order_doc", "email", "phone", "name"])),
  rows: v.array(DeskBookingRowSchema),
  next: v.nullable(v.string()),
  since: v.nullable(v.string()),
  truncated: v.boolean(),
});
export type DeskBookingListAnswer = v.InferOutput<typeof DeskBookingListSchema>;

const MoneyLineSchema = v.object({
  label: v.string(),
  amount: v.number(),
  sign: v.picklist(["+", "-", "=", "part"]),
});

export const DeskTimelineEntrySchema = v.object({
  at: v.string(),
  kind: v.picklist(["created", "payment", "payment_paid", "callback", "email", "cancelled", "staff"]),
  detail: v.record(v.string(), v.union([v.string(), v.number()])),
  who: v.string(),
});
export type DeskTimelineEntry = v.InferOutput<typeof DeskTimelineEntrySchema>;

/** The booking's e-invoice as the desk shows it (decision 159, the hotel's side). */
export const DeskInvoiceSchema = v.object({
  issuer: v.nullable(v.picklist(["portico_at_payment", "portico_at_checkout", "hotel_system"])),
  provider: v.string(),
  status: v.string(),
  amount: v.number(),
  kept: v.number(),
  number: v.string(),
  random_number: v.string(),
  issued_on: v.string(),
  handled_outside: v.boolean(),
  invoices: v.array(
    v.object({
      number: v.string(),
      random_number: v.string(),
      amount: v.number(),
      remaining: v.number(),
      purpose: v.string(),
      status: v.string(),
      issued_on: v.string(),
      last_void_day: v.string(),
      can_void: v.boolean(),
      can_allowance: v.boolean(),
    }),
  ),
  allowances: v.array(
    v.object({
      number: v.string(),
      invoice_number: v.string(),
      amount: v.number(),
      status: v.string(),
      /** Asked by the buyer's emailed consent (decision 167); awaiting: until when (ISO, "" otherwise). */
      consent: v.optional(v.boolean(), false),
      expires_at: v.optional(v.string(), ""),
    }),
  ),
  /** An allowance the buyer refused or let lapse waits for staff: ask again, or make it at once (decision 167). */
  lapsed_consent: v.optional(v.nullable(v.object({ status: v.picklist(["refused", "expired"]), amount: v.number() })), null),
  failure: v.nullable(v.object({ kind: v.string(), message: v.string(), attempts: v.number(), retry_at: v.nullable(v.string()) })),
  actions: v.array(v.picklist(INVOICE_ACTIONS)),
  lost_allowance: v.boolean(),
  history: v.array(v.object({ at: v.string(), kind: v.string(), outcome: v.string(), detail: v.string() })),
});
export type DeskInvoice = v.InferOutput<typeof DeskInvoiceSchema>;

export const DeskBookingPageSchema = v.object({
  booking: v.omit(OrderSchema, ["valid_hash", "cancel_hash"]),
  stay_status: v.picklist(["expected", "in_house", "checked_out", "no_show"]),
  money: v.object({
    total: v.number(),
    charged: v.number(),
    refunded: v.number(),
    to_be_refunded: v.number(),
    kept_hotel: v.number(),
    owed: v.number(),
  }),
  money_lines: v.array(MoneyLineSchema),
  timeline: v.array(DeskTimelineEntrySchema),
  /** null: the hotel has no e-invoicing and the booking no invoice. */
  invoice: v.optional(v.nullable(DeskInvoiceSchema), null),
});
export type DeskBookingPage = v.InferOutput<typeof DeskBookingPageSchema>;

export const DeskMonthReportSchema = v.object({
  month: v.string(),
  bookings: v.number(),
  booked_value: v.number(),
  room_nights: v.number(),
  received: v.number(),
  payments: v.number(),
  cancellations: v.number(),
  refunded: v.number(),
  refund_due: v.number(),
  occupancy: v.array(v.object({ room_class_id: v.number(), name: v.string(), sold: v.number(), to_sell: v.number() })),
});
export type DeskMonthReport = v.InferOutput<typeof DeskMonthReportSchema>;

const Cell = v.union([v.string(), v.number(), v.null()]);
export const DeskExportPageSchema = v.object({
  kind: v.picklist(["bookings", "payments"]),
  rows: v.array(v.record(v.string(), Cell)),
  next: v.nullable(v.string()),
});
export type DeskExportPage = v.InferOutput<typeof DeskExportPageSchema>;
