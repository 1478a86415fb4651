/**
 * What an email about an order says, as HTML and plain text, in the order's language: the hotel's
 * name and contact, the order's summary and amounts, how to pay while something is unpaid, the
 * refund after a cancellation, and the signed view and cancel links (decision 041).
 */
import { invoiceTextLines } from "~/documents/invoice-text";
import { orderPaidWith } from "~/domain/payments";
import { lodgingUnit, type LodgingUnit } from "~/domain/units";
import { isolatedName } from "~/domain/contact";
import type { Language } from "~/i18n/languages";
import { docText, paymentText, type DocumentKey } from "~/documents/labels";
import { formatDate, formatDateTime, formatPrice } from "~/i18n/format";
import { cancellationLines, policyLines, type RefundFacts, type RefundStatus } from "~/documents/refund-text";
import { moneyTextLines } from "~/documents/money-text";
import { orderAccount, type MoneyLabel } from "~/domain/order-view";
import { bookerName } from "~/i18n/names";
import { resources } from "~/i18n/resources";
import type { GuestOrderMailKind } from "~/backend/mail/outbox.server";
import type { presentOrder } from "~/backend/orders/present.server";
import { escapeHtml } from "~/lib/html";
import { railTextLines } from "~/documents/rail-text";
import { addonLines } from "~/documents/addon-text";

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
  /** The hotel's kind (spec §3): a campsite's mail speaks of sites (decision 085). */
  kind?: number;
  /** The hotel's logo as an absolute URL on the site's origin, or "" (decision 083). */
  logo?: string;
}

/** A cancellation as the API presents it (app/backend/orders/orders.server.ts): the one refund wording needs its rule and parts. */
export type MailCancellation = RefundFacts & { refund_status: RefundStatus; points_returned: number };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/*
 * The HTML part's layout (decision 083). Email clients drop <style> and external CSS, and many
 * ignore max-width on <body> and <div>: so every style is inline, the column is a table 600 px at
 * most and 100 % of a phone's width, each action is a button (a link styled as one, in a table
 * cell, as clients render), and no URL is printed in the HTML (a ~150-character link made the
 * message 600+ px wide on a phone); the plain-text part keeps every URL.
 */
const FONT =
  "font-family:system-ui,-apple-system,'Segoe UI',Roboto,'PingFang TC','Microsoft JhengHei','Hiragino Sans','Apple SD Gothic Neo',sans-serif";
const TEXT = `${FONT};font-size:16px;line-height:1.5;color:#222222;word-break:break-word;overflow-wrap:anywhere`;

export function mailButton(text: string, link: string, primary: boolean): string {
  const colors = primary
    ? "background:#1f2328;color:#ffffff;border:2px solid #1f2328"
    : "background:#ffffff;color:#1f2328;border:2px solid #1f2328";
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 12px"><tr><td style="border-radius:6px;${colors.split(";")[0]}"><a href="${escapeHtml(link)}" style="display:inline-block;min-height:24px;padding:12px 20px;border-radius:6px;${colors};${FONT};font-size:16px;font-weight:600;line-height:1.25;text-decoration:none">${escapeHtml(text)}</a></td></tr></table>`;
}

/**
 * The hotel's contact at a message's foot: its name, then its phone (a `tel:` link), its email (a
 * `mailto:` link) and its address, each on a line, under the sentence that says how to reach it.
 */
function mailContact(sentence: string, hotel: Pick<MailHotel, "name" | "phone" | "email" | "address">): string {
  const lines = [
    escapeHtml(hotel.name),
    hotel.phone ? mailPhone(hotel.phone) : "",
    hotel.email ? `<a href="mailto:${escapeHtml(hotel.email)}" style="color:#1f2328">${escapeHtml(hotel.email)}</a>` : "",
    escapeHtml(hotel.address),
  ].filter(Boolean);
  return `<p style="margin:0;font-size:14px;color:#575d65">${escapeHtml(sentence)}<br>${lines.join("<br>")}</p>`;
}

/** A fact of a message: its label sits above its value (side by side, labels wrapped inside words on a phone: "訂單編/號"). */
export function mailFact([label, value]: [string, string]): string {
  return `<p style="margin:0 0 10px"><span style="display:block;font-size:13px;color:#575d65">${escapeHtml(label)}</span>${escapeHtml(value)}</p>`;
}

function mailPhone(phone: string): string {
  return `<a href="tel:${escapeHtml(phone.replace(/[^+\d]/g, ""))}" style="color:#1f2328;white-space:nowrap">${escapeHtml(phone)}</a>`;
}

/** "Label: value" in a plain-text line, with the full-width colon Chinese and Japanese write (issue 37 item 17f). */
export const labelled = (lang: Language, label: string, value: string): string =>
  `${label}${lang.startsWith("zh") || lang === "ja-JP" ? "：" : ": "}${value}`;

/** The shell: a full-width table, a column of 600 px at most, the hotel's logo (or name) at its top. */
export function mailShell(input: { lang: Language; subject: string; hotel: MailHotel; body: string }): string {
  const { lang, subject, hotel, body } = input;
  const brand = hotel.logo
    ? `<img src="${escapeHtml(hotel.logo)}" alt="${escapeHtml(hotel.name)}" height="48" style="display:block;height:48px;width:auto;max-width:100%;border:0;${FONT};font-size:20px;font-weight:600;color:#222222">`
    : `<p style="margin:0;${FONT};font-size:20px;font-weight:600;color:#222222">${escapeHtml(hotel.name)}</p>`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f2efe9">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;background:#f2efe9"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:8px">
<tr><td style="padding:20px 20px 8px">${brand}</td></tr>
<tr><td style="padding:8px 20px 20px;${TEXT}">
${body}
</td></tr>
</table>
</td></tr></table>
</body></html>
`;
}

/** A payment the hotel must give back (decision 047). */
export interface OwedPayment {
  amount: number;
  status: "late" | "overpaid";
  trade_no: string;
}

/** The hotel's alert: money arrived that its booking does not owe (late or overpaid), to refund. */
export function renderHotelAlert(input: {
  lang: Language;
  hotel: MailHotel;
  order: PresentedOrder;
  owed: OwedPayment[];
  view: string;
  testMode: boolean;
}): RenderedMail {
  const { lang, hotel, order, owed, view, testMode } = input;
  const t = (key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params);
  const subject = `${testMode ? "[TEST] " : ""}${t("mail.subject.hotel_payment_alert", { hotel: hotel.name, number: order.order_doc })}`;
  const lines = [
    ...(testMode ? [t("mail.test_mode")] : []),
    t("mail.intro.hotel_payment_alert", { number: order.order_doc }),
    ...owed.map((payment) => t(`mail.alert.${payment.status}`, { amount: formatPrice(payment.amount, lang), trade: payment.trade_no })),
    labelled(lang, t("mail.alert.guest"), `${isolatedName(bookerName(order, lang))} · ${order.booker_email} · ${order.booker_phone}`),
    labelled(lang, t("mail.number"), order.order_doc),
  ];
  const text = [...lines, "", labelled(lang, t("mail.view_link"), view), ""].join("\n");
  const html = mailShell({
    lang,
    subject,
    hotel,
    body: `${lines.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`).join("\n")}
${mailButton(t("mail.view_link"), view, true)}`,
  });
  return { subject, text, html };
}

/** The money lines after the total that the email lists (what is still due is said in the notes). */
const PAID_LABELS: ReadonlySet<MoneyLabel> = new Set<MoneyLabel>([
  "paid",
  "charged",
  "refunded",
  "to_be_refunded",
  "kept_hotel",
  "kept_rail_fee",
]);

/**
 * An order's facts as an email lists them, [label, value]: its number, stay, rooms, add-ons and
 * tickets one by one, what is taken off, the total, what was paid (and once money came back, what
 * was charged, refunded or still to be, and who keeps the rest), and how it is paid. The guest's
 * emails and the hotel's say the same lines, so their amounts add up alike (issue 37, decision 150).
 */
export function orderFacts(lang: Language, order: PresentedOrder, cancellation: MailCancellation | null, unit: LodgingUnit) {
  const t = (key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params, unit);
  const money = (amount: number) => formatPrice(amount, lang);
  // With the cancellation when there is one: what came back and who keeps what are lines of the same account (issue 37).
  const orderMoney = { ...order, payment_status: order.payment_status as -1 | 1 | 2, cancellation };
  const moneyLines = moneyTextLines(lang, orderMoney, unit);
  // Blocks of [text, link?]: the plain-text and HTML bodies say the same. The rooms, add-ons and
  // tickets are listed one by one; what is taken off them (a coupon, the members-only discount,
  // points) has a line of its own before the total, so the lines a guest reads add up to it (issue 37).
  const facts: [string, string][] = [
    [t("mail.number"), order.order_doc],
    [t("mail.stay"), `${formatDate(order.check_in_day, lang)} – ${formatDate(order.check_out_day, lang)}`],
    ...order.orders.map((line): [string, string] => [
      t("mail.rooms"),
      `${line.room_class_name} · ${line.rate_plan_name} × ${line.num}${line.occupant_name ? ` · ${isolatedName(line.occupant_name)}` : ""} · ${money(line.amount)}`,
    ]),
    ...addonLines(lang, order.attachment_list).map((line): [string, string] => [
      t("mail.addons"),
      [line.item, line.amount].filter(Boolean).join(" · "),
    ]),
    ...railTextLines(lang, order.rail_item_list).map((line): [string, string] => [t("rail.title"), `${line.what} · ${line.detail}`]),
    ...moneyLines.filter((line) => line.sign === "-").map((line): [string, string] => [line.text, line.shown]),
    [t("mail.total"), money(order.final_amount)],
  ];
  // What was paid, and once money came back: what was charged, refunded or still to be, and who keeps the rest.
  for (const line of moneyLines.filter((entry) => PAID_LABELS.has(entry.label))) facts.push([line.text, line.shown]);
  facts.push([t("pdf.payment"), paymentText(lang, order.pay_way, order.payment_vendor, orderPaidWith(order))]);
  // The e-invoice's number, or when it is issued (decision 159), as the order page and the PDF say it.
  facts.push(...invoiceTextLines(lang, order.invoice, order));
  return { facts, moneyLines, orderMoney };
}

export function renderOrderMail(input: {
  kind: GuestOrderMailKind;
  lang: Language;
  hotel: MailHotel;
  order: PresentedOrder;
  links: MailLinks;
  cancellation: MailCancellation | null;
  /** The hotel's payments go through the built-in test gateway: the message says so first. */
  testMode?: boolean;
}): RenderedMail {
  const { kind, lang, hotel, order, links, cancellation } = input;
  const unit = lodgingUnit(hotel.kind);
  const t = (key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params, unit);
  const money = (amount: number) => formatPrice(amount, lang);
  const subject = `${input.testMode ? "[TEST] " : ""}${t(`mail.subject.${kind}`, { hotel: hotel.name, number: order.order_doc })}`;
  const { facts, moneyLines, orderMoney } = orderFacts(lang, order, cancellation, unit);

  const notes: { text: string; link?: string }[] = input.testMode ? [{ text: t("mail.test_mode") }] : [];
  const unpaid = kind !== "order_cancellation" && order.status !== "cancelled" && order.remain_total_amount > 0;
  const dueNow = moneyLines.find((line) => line.label === "due_now" || line.label === "due_at_hotel" || line.label === "remaining");
  // Nothing paid yet and a deadline: the booking is cancelled if it passes (docs/decisions/032), so the mail says when.
  const deadline =
    unpaid && order.pay_deadline && order.payment_status === -1 && order.pay_way !== "pay_arrival"
      ? formatDateTime(order.pay_deadline, lang, hotel.timeZone)
      : null;
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
      for (const [key, value] of rows) if (value) notes.push({ text: labelled(lang, t(key), value) });
    } else if (order.pay_way === "pay_arrival") {
      notes.push({ text: t("mail.pay_at_hotel", { amount: money(dueNow.amount) }) });
    } else if (links.pay) {
      notes.push({ text: t("mail.pay_online", { amount: money(dueNow.amount) }), link: links.pay });
    }
    if (deadline) notes.push({ text: t("mail.pay_by", { deadline }) });
    // A deposit asked now: say what it is of the total and what remains (issue 37 item 17).
    if (
      order.pay_option === "part" &&
      order.payment_status === -1 &&
      order.deposit_amount > 0 &&
      order.deposit_amount < order.final_amount
    ) {
      notes.push({
        text: t("mail.deposit_rest", {
          deposit: money(order.deposit_amount),
          percent: Math.round((order.deposit_amount / order.final_amount) * 100),
          total: money(order.final_amount),
          rest: money(order.final_amount - order.deposit_amount),
        }),
      });
    }
  }
  if (kind === "order_cancellation" && cancellation) {
    for (const line of cancellationLines(lang, cancellation, orderAccount(orderMoney))) notes.push({ text: line });
    if (cancellation.points_returned > 0) notes.push({ text: t("mail.points_back", { points: cancellation.points_returned }) });
  }
  if (kind !== "order_cancellation" && order.free_cancel_before_date) {
    notes.push({ text: t("mail.free_cancel", { date: formatDate(order.free_cancel_before_date, lang) }) });
  }
  // The schedule after the free window, as the cancel page and the PDF state it (issue 37).
  if (kind !== "order_cancellation" && order.status !== "cancelled") {
    for (const line of policyLines(lang, order.refund_policy ?? [])) notes.push({ text: line });
  }
  const actions: { text: string; link: string }[] = [{ text: t("mail.view_link"), link: links.view }];
  if (kind !== "order_cancellation" && links.cancel && order.support_client_cancel)
    actions.push({ text: t("mail.cancel_link"), link: links.cancel });
  const contact = [hotel.phone, hotel.email, hotel.address].filter(Boolean);
  // The pay button says what the pay page's button says.
  const payButton = (amount: number) => (resources[lang].common["pay.button"] ?? "{{amount}}").replace("{{amount}}", money(amount));

  const text = [
    t("mail.greeting", { name: isolatedName(bookerName(order, lang)) }),
    "",
    t(`mail.intro.${kind}`, { hotel: hotel.name, number: order.order_doc }),
    "",
    ...facts.map(([label, value]) => labelled(lang, label, value)),
    "",
    ...notes.map((note) => (note.link ? `${note.text}\n${note.link}` : note.text)),
    ...(notes.length > 0 ? [""] : []),
    ...actions.map((action) => labelled(lang, action.text, action.link)),
    ...(kind === "order_confirmation" ? ["", t("mail.attachment")] : []),
    "",
    t("mail.contact", { hotel: hotel.name }),
    hotel.name,
    ...contact,
    "",
  ].join("\n");

  const html = mailShell({
    lang,
    subject,
    hotel,
    body: `<p style="margin:0 0 12px">${escapeHtml(t("mail.greeting", { name: isolatedName(bookerName(order, lang)) }))}</p>
<p style="margin:0 0 16px">${escapeHtml(t(`mail.intro.${kind}`, { hotel: hotel.name, number: order.order_doc }))}</p>
${facts.map(mailFact).join("\n")}
${notes.map((note) => `<p style="margin:16px 0 8px">${escapeHtml(note.text)}</p>${note.link ? `\n${mailButton(payButton(dueNow?.amount ?? 0), note.link, true)}` : ""}`).join("\n")}
<div style="margin-top:20px">${actions.map((action, index) => mailButton(action.text, action.link, index === 0 && !links.pay)).join("\n")}</div>
${kind === "order_confirmation" ? `<p style="margin:12px 0">${escapeHtml(t("mail.attachment"))}</p>` : ""}
<hr style="border:0;border-top:1px solid #e2ddd4;margin:20px 0">
${mailContact(t("mail.contact", { hotel: hotel.name }), hotel)}`,
  });
  return { subject, text, html };
}

/**
 * A short message about one booking (the invoice issued, the sandbox's consent request): a line
 * above it when it is a test, the greeting and the intro, the facts label above value, one button
 * (its URL kept in the plain text), and the hotel's contact when given.
 */
function shortMail(
  lang: Language,
  hotel: MailHotel,
  subject: string,
  parts: {
    lead: string;
    greeting: string;
    intro: string;
    facts: [string, string][];
    action: { text: string; link: string };
    contact?: string;
  },
): RenderedMail {
  const { lead, greeting, intro, facts, action, contact } = parts;
  const text = [
    ...(lead ? [lead, ""] : []),
    greeting,
    "",
    intro,
    "",
    ...facts.map(([label, value]) => labelled(lang, label, value)),
    "",
    labelled(lang, action.text, action.link),
    "",
    ...(contact ? [contact, hotel.name, ...[hotel.phone, hotel.email, hotel.address].filter(Boolean), ""] : []),
  ].join("\n");
  const html = mailShell({
    lang,
    subject,
    hotel,
    body: `${lead ? `<p style="margin:0 0 12px">${escapeHtml(lead)}</p>\n` : ""}<p style="margin:0 0 12px">${escapeHtml(greeting)}</p>
<p style="margin:0 0 16px">${escapeHtml(intro)}</p>
${facts.map(mailFact).join("\n")}
<div style="margin-top:20px">${mailButton(action.text, action.link, true)}</div>${
      contact ? `\n<hr style="border:0;border-top:1px solid #e2ddd4;margin:20px 0">\n${mailContact(contact, hotel)}` : ""
    }`,
  });
  return { subject, text, html };
}

/**
 * The guest's short email when the e-invoice is issued after the emails before it were composed
 * (by the queue's retry, at check-out, or by staff; decision 163): the booking, the invoice's
 * number with its random number, amount and date, how it is received, and the booking page.
 */
export function renderInvoiceMail(input: {
  lang: Language;
  hotel: MailHotel;
  order: PresentedOrder;
  view: string;
  testMode?: boolean;
}): RenderedMail {
  const { lang, hotel, order, view } = input;
  const unit = lodgingUnit(hotel.kind);
  const t = (key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params, unit);
  const subject = `${input.testMode ? "[TEST] " : ""}${t("mail.subject.invoice_issued", { hotel: hotel.name, number: order.order_doc })}`;
  const facts: [string, string][] = [
    [t("mail.number"), order.order_doc],
    [t("mail.stay"), `${formatDate(order.check_in_day, lang)} – ${formatDate(order.check_out_day, lang)}`],
    ...invoiceTextLines(lang, order.invoice, order),
  ];
  return shortMail(lang, hotel, subject, {
    lead: input.testMode ? t("mail.test_mode") : "",
    greeting: t("mail.greeting", { name: isolatedName(bookerName(order, lang)) }),
    intro: t("mail.intro.invoice_issued", { hotel: hotel.name, number: order.order_doc }),
    facts,
    action: { text: t("mail.view_link"), link: view },
    contact: t("mail.contact", { hotel: hotel.name }),
  });
}

/**
 * The built-in invoice sandbox's consent email (decision 167), standing in for the one ECPay sends
 * for AllowanceByCollegiate: the booking, the invoice, the allowance's amount, until when to
 * answer (Taipei time), and the link to the sandbox's consent page. Always marked as a test.
 */
export function renderConsentMail(input: {
  lang: Language;
  hotel: MailHotel;
  order: PresentedOrder;
  link: string;
  invoiceNumber: string;
  amount: number;
  /** ISO instant the link lapses. */
  expiresAt: string;
}): RenderedMail {
  const { lang, hotel, order, link } = input;
  const unit = lodgingUnit(hotel.kind);
  const t = (key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params, unit);
  const subject = `[TEST] ${t("mail.subject.einvoice_consent", { hotel: hotel.name, number: order.order_doc })}`;
  const until = new Date(Date.parse(input.expiresAt) + 8 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");
  const facts: [string, string][] = [
    [t("mail.number"), order.order_doc],
    [t("mail.consent.invoice"), input.invoiceNumber],
    [t("mail.consent.amount"), formatPrice(input.amount, lang)],
    [t("mail.consent.until"), until],
  ];
  return shortMail(lang, hotel, subject, {
    lead: t("mail.consent.test"),
    greeting: t("mail.greeting", { name: isolatedName(bookerName(order, lang)) }),
    intro: t("mail.intro.einvoice_consent", { hotel: hotel.name, number: order.order_doc }),
    facts,
    action: { text: t("mail.consent.link"), link },
  });
}
