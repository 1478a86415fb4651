/**
 * Renders queued messages (subject, plain text, HTML) from their order, once: right after the
 * batch that queued them, or by the delivery step if that did not happen (decision 041). Also the
 * confirmation PDF's content for the attachment, built when the message is sent.
 */
import { orderCancelPath, orderPagePath, orderPdfPath } from "~/domain/order-paths";
import { localizePath } from "~/i18n/languages";
import { confirmationContent } from "~/documents/confirmation-content";
import type { ConfirmationDocument } from "~/documents/confirmation-pdf";
import { documentLanguage, paymentText } from "~/documents/labels";
import { orderPaidWith } from "~/domain/payments";
import { HOTEL_COLUMNS, presentHotelInfo, usesTestGateway, type HotelRow } from "~/backend/hotels/hotels.server";
import { signOrderLink } from "~/backend/orders/links.server";
import { linkSubject, presentCancellation, presentOrder } from "~/backend/orders/present.server";
import { loadOrderDetails, type OrderDetails, type OrderRow } from "~/backend/orders/store.server";
import { isGuestOrderMail, type OutboxRow } from "~/backend/mail/outbox.server";
import {
  renderConsentMail,
  renderHotelAlert,
  renderInvoiceMail,
  renderOrderMail,
  type OwedPayment,
  type RenderedMail,
} from "~/backend/mail/render.server";
import { isHotelOrderMail } from "~/backend/mail/hotel-outbox.server";
import { renderHotelOrderMail } from "~/backend/mail/render-hotel.server";
import { deskBookingPath } from "~/contract/desk";
import type { BackendContext } from "~/backend/route";
import type { Logger } from "~/platform/log.server";

export interface MailDeps {
  db: D1Database;
  signingSecret: string;
  now: Date;
  /** The logger of the request or cron run that renders the messages. */
  log: Logger;
  /** The site's static files, where an email's PNG logo is looked up (emailLogo); none in a bare back end. */
  assets: Fetcher | undefined;
}

interface MailSubject {
  row: OutboxRow;
  hotel: HotelRow;
  order: OrderRow;
}

async function loadSubject(db: D1Database, row: OutboxRow): Promise<MailSubject | null> {
  if (row.order_id === null) return null;
  const [hotel, order] = await Promise.all([
    db.prepare(`SELECT ${HOTEL_COLUMNS} FROM hotels h WHERE h.id = ?`).bind(row.hotel_id).first<HotelRow>(),
    db.prepare("SELECT * FROM orders WHERE id = ? AND hotel_id = ?").bind(row.order_id, row.hotel_id).first<OrderRow>(),
  ]);
  return hotel && order ? { row, hotel, order } : null;
}

function contextFor(deps: MailDeps, row: OutboxRow): BackendContext {
  const url = new URL(row.site_origin);
  return {
    request: new Request(url),
    url,
    db: deps.db,
    lang: documentLanguage(row.lang),
    signingSecret: deps.signingSecret,
    now: deps.now,
    site: { origin: row.site_origin, product: row.product },
    // Rendering a message reads; it never pays, refunds or calls a gateway.
    secret: () => undefined,
    clientIp: "",
    fetcher: () => Promise.reject(new Error("no gateway calls while rendering mail")),
    waitUntil: (promise) => void promise.catch((error: unknown) => deps.log.error("background work failed", error)),
    featureRepay: false,
    testGateway: false,
    log: deps.log,
  };
}

async function presented(deps: MailDeps, subject: MailSubject, preloaded?: OrderDetails) {
  const ctx = contextFor(deps, subject.row);
  const {
    lines,
    attempts,
    cancellation,
    rail = [],
    invoice,
  } = preloaded ??
    (await loadOrderDetails(deps.db, [subject.order.id])).get(subject.order.id) ?? {
      lines: [],
      attempts: [],
      cancellation: null,
    };
  const presentedCancellation =
    subject.order.status === "cancelled" && cancellation ? presentCancellation(subject.hotel, subject.order, lines, cancellation) : null;
  return {
    ctx,
    order: {
      ...(await presentOrder(ctx, subject.hotel, subject.order, lines, attempts, rail, invoice)),
      cancellation: presentedCancellation,
    },
    info: presentHotelInfo(subject.hotel, ctx.lang),
  };
}

/**
 * The logo an email shows, as an absolute URL on the site's origin (a mail client has no page to
 * resolve a path against), or "" for the hotel's name in text. Gmail and Outlook do not show SVG
 * images, so an SVG logo is replaced by the PNG beside it (logo-dark.svg → logo-dark.png) when the
 * site has one (decision 083); a logo that is not a path of the site is left off.
 */
export async function emailLogo(assets: Fetcher | undefined, origin: string, path: string): Promise<string> {
  if (!path.startsWith("/") || path.startsWith("//")) return "";
  if (/\.(png|jpe?g|gif)$/i.test(path)) return `${origin}${path}`;
  if (!assets || !/\.svg$/i.test(path)) return "";
  const png = path.replace(/\.svg$/i, ".png");
  // The site's static files change only with a deployment, which starts new isolates: asked once.
  let found = pngBesideSvg.get(png);
  if (found === undefined) {
    const response = await assets.fetch(new Request(`https://assets.invalid${png}`, { method: "HEAD" }));
    await response.body?.cancel();
    found = response.ok;
    pngBesideSvg.set(png, found);
  }
  return found ? `${origin}${png}` : "";
}

/** Whether the site has a PNG beside an SVG logo, by the PNG's path (emailLogo). */
const pngBesideSvg = new Map<string, boolean>();

/** A message's subject and bodies; null: an "invoice issued" email whose number no longer stands (nothing to send). */
async function render(deps: MailDeps, subject: MailSubject, preloaded?: OrderDetails): Promise<RenderedMail | null> {
  const { ctx, order, info } = await presented(deps, subject, preloaded);
  const { row } = subject;
  const lang = ctx.lang;
  const link = async (path: string, purpose: "view" | "cancel") => {
    const hash = await signOrderLink(deps.signingSecret, linkSubject(subject.order), purpose);
    return `${row.site_origin}${localizePath(path, lang)}?${purpose === "view" ? "valid_hash" : "cancel_hash"}=${encodeURIComponent(hash)}`;
  };
  const view = await link(orderPagePath(row.product, order.order_doc), "view");
  const testMode = usesTestGateway(subject.hotel);
  const logo = await emailLogo(deps.assets, row.site_origin, info.logo_images.dark);
  const hotel = {
    name: info.hotel_name,
    phone: info.phone,
    email: info.email,
    address: info.address,
    timeZone: info.time_zone,
    kind: info.kind,
    logo,
  };
  if (row.kind === "hotel_payment_alert") {
    const { results: owed } = await deps.db
      .prepare("SELECT amount, status, trade_no FROM payments WHERE order_id = ? AND status IN ('late', 'overpaid') ORDER BY id")
      .bind(subject.order.id)
      .all<OwedPayment>();
    return renderHotelAlert({ lang, hotel, order, owed, view, testMode });
  }
  if (isHotelOrderMail(row.kind)) {
    const desk = `${row.site_origin}${localizePath(deskBookingPath(order.order_doc), lang)}`;
    return renderHotelOrderMail({ kind: row.kind, lang, hotel, order, cancellation: order.cancellation, about: row.about, desk, testMode });
  }
  if (row.kind === "invoice_issued") {
    // Only while the number it was queued for still stands (not voided meanwhile): else nothing to say.
    if (!order.invoice?.invoices.some((invoice) => invoice.number === row.about)) return null;
    return renderInvoiceMail({ lang, hotel, order, view, testMode });
  }
  if (row.kind === "einvoice_consent") {
    // The invoice sandbox's consent email (decision 167): only while the consent it asks is still awaited.
    const consent = await deps.db
      .prepare(
        "SELECT amount, invoice_number, expires_at FROM einvoice_sandbox_allowances WHERE token = ? AND hotel_id = ? AND status = 'awaiting'",
      )
      .bind(row.about, row.hotel_id)
      .first<{ amount: number; invoice_number: string; expires_at: string }>();
    if (!consent) return null;
    return renderConsentMail({
      lang,
      hotel,
      order,
      link: `${row.site_origin}/sandbox-einvoice/consent?t=${encodeURIComponent(row.about)}`,
      invoiceNumber: consent.invoice_number,
      amount: consent.amount,
      expiresAt: consent.expires_at,
    });
  }
  // Sign-up, sign-in link, invitation and morning emails are written whole when they are queued: they never reach here.
  if (!isGuestOrderMail(row.kind)) throw new Error(`${row.kind} mail is not rendered from its order here`);
  const payable = order.pay_way !== "remittance" && order.pay_way !== "pay_arrival";
  const viewHash = new URL(view).searchParams.get("valid_hash") ?? "";
  const cancellation = row.kind === "order_cancellation" ? order.cancellation : null;
  return renderOrderMail({
    kind: row.kind,
    lang,
    hotel,
    order,
    testMode,
    cancellation,
    links: {
      view,
      cancel: await link(orderCancelPath(row.product, order.order_doc), "cancel"),
      pay: payable
        ? `${row.site_origin}${localizePath(`/pay/${subject.hotel.id}/${order.order_doc}`, lang)}?valid_hash=${encodeURIComponent(viewHash)}`
        : null,
      pdf: `${row.site_origin}${localizePath(orderPdfPath(row.product, order.order_doc), lang)}?valid_hash=${encodeURIComponent(viewHash)}`,
    },
  });
}

/**
 * Renders every queued message that has no text yet; returns how many were rendered. The messages
 * of one pass share their reads (their hotels and orders in one batch, the orders' details in
 * another) and their writes (one batch): composing runs after each order, beside the requests of
 * other guests, so its round trips are counted (issue 26: under load it held the tail up). A message
 * that cannot be rendered is marked failed with its reason, and the others still go out.
 */
export async function composePending(deps: MailDeps, limit = 20): Promise<number> {
  const { results: rows } = await deps.db
    // Only the rows not yet rendered are read, however much mail the outbox holds (migration 0012).
    .prepare("SELECT * FROM mail_outbox INDEXED BY mail_outbox_uncomposed WHERE subject IS NULL AND status = 'queued' ORDER BY id LIMIT ?")
    .bind(limit)
    .all<OutboxRow>();
  if (rows.length === 0) return 0;
  const orderIds = [...new Set(rows.flatMap((row) => (row.order_id === null ? [] : [row.order_id])))];
  const hotelIds = [...new Set(rows.map((row) => row.hotel_id))];
  const [hotels, orders] = await deps.db.batch<HotelRow | OrderRow>([
    deps.db.prepare(`SELECT ${HOTEL_COLUMNS} FROM hotels h WHERE h.id IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(hotelIds)),
    deps.db.prepare("SELECT * FROM orders WHERE id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(orderIds)),
  ]);
  const hotelById = new Map((hotels?.results as HotelRow[]).map((hotel) => [hotel.id, hotel]));
  const orderById = new Map((orders?.results as OrderRow[]).map((order) => [order.id, order]));
  const details = await loadOrderDetails(deps.db, orderIds);
  let rendered = 0;
  const failed = (row: OutboxRow, reason: string) =>
    deps.db.prepare("UPDATE mail_outbox SET status = 'failed', last_error = ? WHERE id = ? AND subject IS NULL").bind(reason, row.id);
  const skipped = (row: OutboxRow, reason: string) =>
    deps.db
      .prepare("UPDATE mail_outbox SET status = 'skipped', last_error = ? WHERE id = ? AND subject IS NULL AND status = 'queued'")
      .bind(reason, row.id);
  const renderAll = async (batch: OutboxRow[], writes: D1PreparedStatement[]) => {
    for (const row of batch) {
      const hotel = hotelById.get(row.hotel_id);
      const order = row.order_id === null ? undefined : orderById.get(row.order_id);
      if (!hotel || !order || order.hotel_id !== row.hotel_id) {
        writes.push(failed(row, "order not found"));
        continue;
      }
      try {
        const mail = await render(deps, { row, hotel, order }, details.get(order.id));
        if (!mail) {
          writes.push(
            skipped(row, row.kind === "einvoice_consent" ? "the consent is no longer awaited" : "the invoice number no longer stands"),
          );
          continue;
        }
        writes.push(
          deps.db
            .prepare("UPDATE mail_outbox SET subject = ?, text_body = ?, html_body = ? WHERE id = ? AND subject IS NULL")
            .bind(mail.subject, mail.text, mail.html, row.id),
        );
        rendered += 1;
      } catch (error) {
        deps.log.error("mail could not be rendered", row.id, error);
        writes.push(failed(row, (error instanceof Error ? error.message : String(error)).slice(0, 500)));
      }
    }
  };
  // The "invoice issued" emails after the others: whether one is needed is read from what the
  // order's other emails say once written (the same pass's included, or a concurrent pass's that
  // won the write), never guessed from a message still being rendered (decision 163).
  const invoiceRows = rows.filter((row) => row.kind === "invoice_issued");
  const first: D1PreparedStatement[] = [];
  await renderAll(
    rows.filter((row) => row.kind !== "invoice_issued"),
    first,
  );
  if (first.length > 0) await deps.db.batch(first);
  if (invoiceRows.length === 0) return rendered;
  const { results: said } = await deps.db
    .prepare(
      `SELECT id, order_id, text_body FROM mail_outbox
       WHERE order_id IN (SELECT value FROM json_each(?)) AND kind IN ('order_confirmation', 'paid_receipt', 'order_cancellation', 'invoice_issued')
         AND status IN ('queued', 'sent') AND text_body IS NOT NULL`,
    )
    .bind(JSON.stringify([...new Set(invoiceRows.map((row) => row.order_id))]))
    .all<{ id: number; order_id: number; text_body: string }>();
  const second: D1PreparedStatement[] = [];
  const toRender: OutboxRow[] = [];
  for (const row of invoiceRows) {
    const carried = said.some((mail) => mail.order_id === row.order_id && mail.id !== row.id && mail.text_body.includes(row.about));
    if (!/^[A-Z]{2}\d{8}$/.test(row.about)) second.push(failed(row, "no invoice number"));
    else if (carried) second.push(skipped(row, "an email of the order already said the invoice number"));
    else toRender.push(row);
  }
  await renderAll(toRender, second);
  if (second.length > 0) await deps.db.batch(second);
  return rendered;
}

/** The confirmation PDF's content for a message's order, in the message's language, and the hotel's logo path. */
export async function confirmationFor(deps: MailDeps, row: OutboxRow): Promise<{ content: ConfirmationDocument; logo: string } | null> {
  const subject = await loadSubject(deps.db, row);
  if (!subject) return null;
  const { ctx, order, info } = await presented(deps, subject);
  return {
    content: confirmationContent(order, info, ctx.lang, paymentText(ctx.lang, order.pay_way, order.payment_vendor, orderPaidWith(order))),
    logo: info.logo_images.dark,
  };
}
