/**
 * What the hotel's own emails about an order say (issue 39, decision 150), in the hotel's main
 * language: what happened (a new booking, a cancellation and by whom, money received, a refund to
 * pay by hand), the guest and party, the order's facts with the same lines and amounts as the
 * guest's email (orderFacts), and a button to the booking in the desk.
 */
import { isolatedName } from "~/domain/contact";
import { lodgingUnit } from "~/domain/units";
import type { Language } from "~/i18n/languages";
import { formatDateTime, formatPrice } from "~/i18n/format";
import { bookerName } from "~/i18n/names";
import { docText, partyText, type DocumentKey } from "~/documents/labels";
import { escapeHtml } from "~/lib/html";
import type { CancelledBy, HotelOrderMailKind } from "~/backend/mail/hotel-outbox.server";
import {
  labelled,
  mailButton,
  mailFact,
  mailShell,
  orderFacts,
  type MailCancellation,
  type MailHotel,
  type PresentedOrder,
  type RenderedMail,
} from "~/backend/mail/render.server";

const CANCELLED_BY: readonly CancelledBy[] = ["guest", "sweep", "staff"];

export function renderHotelOrderMail(input: {
  kind: HotelOrderMailKind;
  lang: Language;
  hotel: MailHotel;
  order: PresentedOrder;
  cancellation: MailCancellation | null;
  /** Who cancelled, as the outbox row says (`about`). */
  about: string;
  /** The booking's page in the desk. */
  desk: string;
  testMode: boolean;
}): RenderedMail {
  const { kind, lang, hotel, order, cancellation, desk } = input;
  const unit = lodgingUnit(hotel.kind);
  const t = (key: DocumentKey, params?: Record<string, string | number>) => docText(lang, key, params, unit);
  const money = (amount: number) => formatPrice(amount, lang);
  const subject = `${input.testMode ? "[TEST] " : ""}${t(`mail.subject.${kind}`, { hotel: hotel.name, number: order.order_doc })}`;
  const { facts, moneyLines } = orderFacts(lang, order, cancellation, unit);

  const head: [string, string][] = [
    [t("mail.alert.guest"), `${isolatedName(bookerName(order, lang))} · ${order.booker_email} · ${order.booker_phone}`],
    [t("mail.hotel.party"), partyText(lang, order.adults_count, order.children_count)],
  ];
  const tail: [string, string][] = [];
  if (order.status !== "cancelled" && order.remain_total_amount > 0) {
    // What is still owed, in the words of the guest's email (due now, at the hotel, or the rest), and by when.
    const due = moneyLines.find((line) => line.label === "due_now" || line.label === "due_at_hotel" || line.label === "remaining");
    if (due) tail.push([due.text, due.shown]);
    if (order.pay_deadline && order.payment_status === -1 && order.pay_way !== "pay_arrival") {
      tail.push([t("mail.hotel.deadline"), formatDateTime(order.pay_deadline, lang, hotel.timeZone)]);
    }
  }
  if (cancellation && (kind === "hotel_cancellation" || kind === "hotel_refund_due")) {
    const by = CANCELLED_BY.find((who) => who === input.about);
    if (by) head.unshift([t("mail.hotel.cancelled_by"), t(`mail.hotel.by.${by}`)]);
    tail.push(
      [t("mail.hotel.fee"), money(cancellation.fee)],
      [t("mail.hotel.refund"), money(cancellation.refund)],
      [t("mail.hotel.refund_status"), t(`mail.hotel.refund.${cancellation.refund_status}`)],
    );
  }
  const intro = t(`mail.intro.${kind}`, { number: order.order_doc, amount: money(cancellation?.refund ?? 0) });
  const lines = [...head, ...facts, ...tail];
  const testNote = input.testMode ? [t("mail.test_mode")] : [];
  const text = [
    ...testNote,
    intro,
    "",
    ...lines.map(([label, value]) => labelled(lang, label, value)),
    "",
    labelled(lang, t("mail.hotel.desk_link"), desk),
    "",
  ].join("\n");
  const html = mailShell({
    lang,
    subject,
    hotel,
    body: `${[...testNote, intro].map((line) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`).join("\n")}
${lines.map(mailFact).join("\n")}
<div style="margin-top:20px">${mailButton(t("mail.hotel.desk_link"), desk, true)}</div>`,
  });
  return { subject, text, html };
}
