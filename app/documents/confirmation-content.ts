/**
 * What the confirmation PDF says, from an order as returned (spec §3) and the hotel's info, in the
 * order's language. Pure: the same text whether the site (download) or the back end (email
 * attachment) builds the PDF.
 */
import { orderAccount, orderFreeCancelDate, type OrderMoney } from "~/domain/order-view";
import type { RefundPolicy } from "~/domain/refund";
import type { Language } from "~/i18n/languages";
import type { ConfirmationDocument } from "~/documents/confirmation-pdf";
import { docText, partyText } from "~/documents/labels";
import { lodgingUnit } from "~/domain/units";
import { cancellationLines, policyLines, type RefundFacts, type RefundStatus } from "~/documents/refund-text";
import { moneyTextLines } from "~/documents/money-text";
import { nameForDisplay } from "~/domain/contact";
import { formatDate, formatDateTime, formatPrice } from "~/i18n/format";
import { htmlToText } from "~/lib/sanitize";
import { bookerName } from "~/i18n/names";
import { railTextLines } from "~/documents/rail-text";
import { addonLines } from "~/documents/addon-text";
import { invoiceTextLines, type InvoiceFacts } from "~/documents/invoice-text";

/** An order as the confirmation prints it: its money (as the order page adds it up) and its stay. */
export interface ConfirmationOrder extends Omit<OrderMoney, "payment_status"> {
  order_doc: string;
  display_status: string;
  booker_name: string;
  booker_first_name?: string;
  booker_last_name?: string;
  booker_phone: string;
  booker_email: string;
  check_in_day: string;
  check_out_day: string;
  adults_count: number;
  children_count: number;
  orders: { num: number; room_class_name: string; rate_plan_name: string; occupant_name: string; amount: number }[];
  payment_status: number;
  /** For a bank transfer: where to and by when (issue 22 item 15). */
  pay_deadline?: string | null;
  remittance_info?: Record<string, string> | null;
  /** The add-ons booked with the order (issue 27), as the API lists them: printed as the order page lists them. */
  attachment_list?: readonly unknown[];
  /** The cancellation policy after the free window (refundPolicy), printed as the cancel page states it. */
  refund_policy?: readonly Pick<RefundPolicy, "kind" | "schedule" | "steps">[];
  /** The e-invoice (decision 159): its numbers, or when it is issued; and the company it is for. */
  invoice?: InvoiceFacts | null;
  company_reg_number?: string;
  company_name?: string;
  /** A cancelled booking's refund: printed in the same words as the order page and the email. */
  cancellation?: (RefundFacts & { refund_status: RefundStatus }) | null;
}

export interface ConfirmationHotel {
  hotel_name: string;
  address: string;
  phone: string;
  email: string;
  checkin_start_time: string;
  checkout_time: string;
  /** Hotel HTML; tags are dropped. */
  cancel_policy: string;
  booking_policy: string;
  /** Where the payment deadline is told in local time. */
  time_zone?: string;
  /** The hotel's kind (spec §3): a campsite's confirmation speaks of sites (decision 085). */
  kind?: number;
}

/**
 * A bank-transfer booking still unpaid: the hotel's account and the pay-by date, as the email and the
 * confirmation page give them; nothing for any other booking.
 */
function transferSection(order: ConfirmationOrder, hotel: ConfirmationHotel, lang: Language, due: number) {
  if (order.pay_way !== "remittance" || order.status === "cancelled" || order.payment_status !== -1 || due <= 0) return [];
  const t = (key: Parameters<typeof docText>[1], params?: Record<string, string | number>) => docText(lang, key, params);
  const info = order.remittance_info ?? {};
  const rows: [string, string][] = (
    [
      ["mail.bank", info.bank],
      ["mail.branch", info.branch],
      ["mail.account_name", info.account_name],
      ["mail.account_number", info.account_number],
    ] as const
  ).flatMap(([key, value]) => (value ? [[t(key), value] as [string, string]] : []));
  const deadline = order.pay_deadline ? formatDateTime(order.pay_deadline, lang, hotel.time_zone ?? "Asia/Taipei") : null;
  return [
    {
      heading: t("pdf.remittance"),
      rows,
      paragraphs: [
        t(deadline ? "mail.pay_remittance_by_deadline" : "mail.pay_remittance", { amount: formatPrice(due, lang) }),
        ...(deadline ? [t("mail.pay_by", { deadline })] : []),
      ],
    },
  ];
}

/**
 * A booking that can still be cancelled: until when for free, and after it the one schedule that
 * applies (issue 37), in the cancel page's words; the hotel's own text follows under the policies.
 */
function cancelPolicySection(order: ConfirmationOrder, lang: Language) {
  const policy = policyLines(lang, order.refund_policy ?? []);
  if (order.status === "cancelled" || order.status === "cancel_requested" || policy.length === 0) return [];
  const freeUntil = orderFreeCancelDate({ ...order, payment_status: order.payment_status as -1 | 1 | 2 });
  return [
    {
      heading: docText(lang, "refund.policy_heading"),
      rows: [],
      paragraphs: [...(freeUntil ? [docText(lang, "mail.free_cancel", { date: formatDate(freeUntil, lang) })] : []), ...policy],
    },
  ];
}

/** The e-invoice, in the order page's and the email's words; nothing where Portico issues none. */
function invoiceSection(order: ConfirmationOrder, lang: Language) {
  const rows = invoiceTextLines(lang, order.invoice, order);
  return rows.length > 0 ? [{ heading: docText(lang, "invoice.heading"), rows }] : [];
}

export function confirmationContent(
  order: ConfirmationOrder,
  hotel: ConfirmationHotel,
  lang: Language,
  paymentLabel: string,
): ConfirmationDocument {
  const unit = lodgingUnit(hotel.kind);
  const t = (key: Parameters<typeof docText>[1], params?: Record<string, string | number>) => docText(lang, key, params, unit);
  const money = moneyTextLines(lang, { ...order, payment_status: order.payment_status as -1 | 1 | 2 }, unit);
  const account = orderAccount({ ...order, payment_status: order.payment_status as -1 | 1 | 2 });
  const addons = addonLines(lang, order.attachment_list);
  const rail = railTextLines(lang, order.rail_item_list);
  const policies = [
    t("pdf.check_in_times", { start: hotel.checkin_start_time, end: hotel.checkout_time }),
    htmlToText(hotel.booking_policy, { lines: true }),
    htmlToText(hotel.cancel_policy, { lines: true }),
  ]
    .flatMap((text) => text.split("\n"))
    .filter(Boolean);
  return {
    title: t("pdf.title"),
    hotel: { name: hotel.hotel_name, lines: [hotel.address, [hotel.phone, hotel.email].filter(Boolean).join(" · ")].filter(Boolean) },
    sections: [
      {
        heading: `${t("pdf.number")} ${order.order_doc}`,
        rows: [
          [t("pdf.status"), order.display_status],
          // pdf-lib lays glyphs out as stored, without the bidirectional algorithm: a direction
          // control stored before names refused them (decision 052) is dropped, not drawn.
          [t("pdf.booker"), [nameForDisplay(bookerName(order, lang)), order.booker_phone, order.booker_email].filter(Boolean).join(" · ")],
          [t("pdf.check_in"), formatDate(order.check_in_day, lang)],
          [t("pdf.check_out"), formatDate(order.check_out_day, lang)],
          [t("pdf.guests"), partyText(lang, order.adults_count, order.children_count)],
        ],
      },
      {
        heading: t("pdf.rooms"),
        rows: order.orders.flatMap((line): [string, string][] => [
          [`${line.room_class_name} × ${line.num}`, `${line.rate_plan_name} · ${formatPrice(line.amount, lang)}`],
          ...(nameForDisplay(line.occupant_name) ? [[t("pdf.occupant"), nameForDisplay(line.occupant_name)] as [string, string]] : []),
        ]),
      },
      ...(addons.length > 0 ? [{ heading: t("pdf.addons"), rows: addons.map((line): [string, string] => [line.item, line.amount]) }] : []),
      ...(rail.length > 0 ? [{ heading: t("rail.title"), rows: rail.map((line): [string, string] => [line.what, line.detail]) }] : []),
      {
        heading: t("pdf.amounts"),
        rows: [...money.map((line): [string, string] => [line.text, line.shown]), [t("pdf.payment"), paymentLabel]],
      },
      ...invoiceSection(order, lang),
      ...transferSection(order, hotel, lang, money.find((line) => line.label === "due_now" || line.label === "remaining")?.amount ?? 0),
      ...(order.cancellation
        ? [{ heading: t("refund.heading"), rows: [], paragraphs: cancellationLines(lang, order.cancellation, account) }]
        : []),
      ...cancelPolicySection(order, lang),
      { heading: t("pdf.policies"), rows: [], paragraphs: policies },
    ],
  };
}
