/**
 * What an email about an order says, as HTML and plain text, in the order's language: the hotel's
 * name and contact, the order's summary and amounts, how to pay while something is unpaid, the
 * refund after a cancellation, and the signed view and cancel links (decision 041).
 */
import { orderMoneyLines } from "~/booking/order-view";
import { orderPaidWith } from "~/booking/payments";
import { isolatedName } from "~/booking/contact";
import type { Language } from "~/i18n/languages";
import { docText, paymentText, type DocumentKey } from "~/documents/labels";
import { formatDay, formatTwd } from "~/documents/confirmation-content";
import { cancellationLines, type RefundFacts, type RefundStatus } from "~/documents/refund-text";
import { formatDateTime } from "~/i18n/format";
import type { MailKind } from "~/backend/mail/outbox.server";
import type { presentOrder } from "~/backend/orders/orders.server";

export type PresentedOrder = Awaited<ReturnType<typeof presentOrder>>;

export interface MailLinks {
  view: string;
  cancel: string | null;
  pay: string | null;
  pdf: string;
}

export interface MailHotel {
  name: string;
  phone: string;
  email: string;
  address: string;
  /** Where the payment deadline is told in the hotel's local time. */
  timeZone: string;
}

/** A cancellation as the API presents it (app/backend/orders/orders.server.ts): the one refund wording needs its rule and parts. */
export type MailCancellation = RefundFacts & { refund_status: RefundStatus; points_returned: number };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** A payment the hotel must give back (decision 047). */
export interface OwedPayment {
  amount: number;
  status: "late" | "overpaid";
  trade_no: string;
}

/** The hotel's alert: money arrived that its booking does not owe (late or overpaid), to refund. */
export function renderHotelAlert(input: { lang: Language; hotel: MailHotel; order: PresentedOrder; owed: OwedPayment[]; view: string; testMode: boolean }): RenderedMail {
  const { lang, hotel, order, owed, view, testMode } = input;
  const t = (key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params);
  const subject = `${testMode ? "[TEST] " : ""}${t("mail.subject.hotel_payment_alert", { hotel: hotel.name, number: order.order_doc })}`;
  const lines = [
    ...(testMode ? [t("mail.test_mode")] : []),
    t("mail.intro.hotel_payment_alert", { number: order.order_doc }),
    ...owed.map((payment) => t(`mail.alert.${payment.status}`, { amount: formatTwd(payment.amount, lang), trade: payment.trade_no })),
    `${t("mail.alert.guest")}: ${isolatedName(order.booker_name)} · ${order.booker_email} · ${order.booker_phone}`,
    `${t("mail.number")}: ${order.order_doc}`,
  ];
  const text = [...lines, "", `${t("mail.view_link")}: ${view}`, ""].join("\n");
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#222;line-height:1.5;max-width:40rem">
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}
<p><a href="${escapeHtml(view)}">${escapeHtml(t("mail.view_link"))}</a></p>
</body></html>
`;
  return { subject, text, html };
}

export function renderOrderMail(input: {
  kind: Exclude<MailKind, "hotel_payment_alert" | "account_signup">;
  lang: Language;
  hotel: MailHotel;
  order: PresentedOrder;
  links: MailLinks;
  cancellation: MailCancellation | null;
  /** The hotel's payments go through the built-in test gateway: the message says so first. */
  testMode?: boolean;
}): RenderedMail {
  const { kind, lang, hotel, order, links, cancellation } = input;
  const t = (key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params);
  const money = (amount: number) => formatTwd(amount, lang);
  const subject = `${input.testMode ? "[TEST] " : ""}${t(`mail.subject.${kind}`, { hotel: hotel.name, number: order.order_doc })}`;

  // Blocks of [text, link?]: the plain-text and HTML bodies say the same.
  const facts: [string, string][] = [
    [t("mail.number"), order.order_doc],
    [t("mail.stay"), `${formatDay(order.check_in_day, lang)} – ${formatDay(order.check_out_day, lang)}`],
    ...order.orders.map((line): [string, string] => [
      t("mail.rooms"),
      `${line.room_class_name} · ${line.rate_plan_name} × ${line.num}${line.occupant_name ? ` · ${isolatedName(line.occupant_name)}` : ""} · ${money(line.amount)}`,
    ]),
    [t("mail.total"), money(order.final_amount)],
  ];
  if (order.paid_amount > 0) facts.push([t("mail.paid"), money(Math.min(order.paid_amount, order.final_amount))]);
  facts.push([t("pdf.payment"), paymentText(lang, order.pay_way, order.payment_vendor, orderPaidWith(order))]);

  const notes: { text: string; link?: string }[] = input.testMode ? [{ text: t("mail.test_mode") }] : [];
  const unpaid = kind !== "order_cancellation" && order.status !== "cancelled" && order.remain_total_amount > 0;
  const dueNow = orderMoneyLines({ ...order, payment_status: order.payment_status as -1 | 1 | 2 }).find(
    (line) => line.label === "due_now" || line.label === "due_at_hotel" || line.label === "remaining",
  );
  // Nothing paid yet and a deadline: the booking is cancelled if it passes (docs/decisions/032), so the mail says when.
  const deadline = unpaid && order.pay_deadline && order.payment_status === -1 && order.pay_way !== "pay_arrival" ? formatDateTime(order.pay_deadline, lang, hotel.timeZone) : null;
  if (unpaid && dueNow) {
    if (order.pay_way === "remittance") {
      notes.push({ text: t(deadline ? "mail.pay_remittance_by_deadline" : "mail.pay_remittance", { amount: money(dueNow.amount) }) });
      const info = order.remittance_info ?? {};
      const rows: [DocumentKey, string | undefined][] = [
        ["mail.bank", info.bank],
        ["mail.branch", info.branch],
        ["mail.account_name", info.account_name],
        ["mail.account_number", info.account_number],
      ];
      for (const [key, value] of rows) if (value) notes.push({ text: `${t(key)}: ${value}` });
    } else if (order.pay_way === "pay_arrival") {
      notes.push({ text: t("mail.pay_at_hotel", { amount: money(dueNow.amount) }) });
    } else if (links.pay) {
      notes.push({ text: t("mail.pay_online", { amount: money(dueNow.amount) }), link: links.pay });
    }
    if (deadline) notes.push({ text: t("mail.pay_by", { deadline }) });
  }
  if (kind === "order_cancellation" && cancellation) {
    for (const line of cancellationLines(lang, cancellation)) notes.push({ text: line });
    if (cancellation.points_returned > 0) notes.push({ text: t("mail.points_back", { points: cancellation.points_returned }) });
  }
  if (kind !== "order_cancellation" && order.free_cancel_before_date) {
    notes.push({ text: t("mail.free_cancel", { date: formatDay(order.free_cancel_before_date, lang) }) });
  }
  const actions: { text: string; link: string }[] = [{ text: t("mail.view_link"), link: links.view }];
  if (kind !== "order_cancellation" && links.cancel && order.support_client_cancel) actions.push({ text: t("mail.cancel_link"), link: links.cancel });
  const contact = [hotel.phone, hotel.email, hotel.address].filter(Boolean);

  const text = [
    t("mail.greeting", { name: isolatedName(order.booker_name) }),
    "",
    t(`mail.intro.${kind}`, { hotel: hotel.name, number: order.order_doc }),
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    ...notes.map((note) => (note.link ? `${note.text}\n${note.link}` : note.text)),
    ...(notes.length > 0 ? [""] : []),
    ...actions.map((action) => `${action.text}: ${action.link}`),
    ...(kind === "order_confirmation" ? ["", t("mail.attachment")] : []),
    "",
    t("mail.contact", { hotel: hotel.name }),
    hotel.name,
    ...contact,
    "",
  ].join("\n");

  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#222;line-height:1.5;max-width:40rem">
<h1 style="font-size:1.25rem">${escapeHtml(hotel.name)}</h1>
<p>${escapeHtml(t("mail.greeting", { name: isolatedName(order.booker_name) }))}</p>
<p>${escapeHtml(t(`mail.intro.${kind}`, { hotel: hotel.name, number: order.order_doc }))}</p>
<table role="presentation" style="border-collapse:collapse">
${facts.map(([label, value]) => `<tr><th scope="row" style="text-align:start;padding:2px 12px 2px 0;color:#555">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join("\n")}
</table>
${notes.map((note) => `<p>${escapeHtml(note.text)}${note.link ? ` <a href="${escapeHtml(note.link)}">${escapeHtml(note.link)}</a>` : ""}</p>`).join("\n")}
<p>${actions.map((action) => `<a href="${escapeHtml(action.link)}" style="margin-inline-end:1rem">${escapeHtml(action.text)}</a>`).join(" ")}</p>
${kind === "order_confirmation" ? `<p>${escapeHtml(t("mail.attachment"))}</p>` : ""}
<hr>
<p>${escapeHtml(t("mail.contact", { hotel: hotel.name }))}<br>${[hotel.name, ...contact].map(escapeHtml).join("<br>")}</p>
</body></html>
`;
  return { subject, text, html };
}
