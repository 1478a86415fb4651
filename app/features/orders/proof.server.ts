/**
 * The booking confirmation PDF (spec §2: BOOKING_CONFIRMATION.pdf) for whoever may see the order:
 * by a plain link on the order page (works without JavaScript), and by spec §7's two steps: GET
 * /{product}/download/download-accommodation-proof/{id} answers `iv` and `number`; POST
 * /{product}/bookings/download-accommodation-proof with body `number` and header `X-IV` answers the
 * PDF. `number` is the order's view link and this hotel's domain, AES-GCM-encrypted under a key
 * derived from SESSION_SECRET with that `iv`, valid for ten minutes (decision 043). Either step
 * refuses in the request's language, with spec §8's `success` and `msg` as the API answers them.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { CONFIRMATION_FILE_NAME } from "~/domain/order-paths";
import { confirmationContent } from "~/documents/confirmation-content";
import { buildConfirmationPdf, documentTexts } from "~/documents/confirmation-pdf";
import { loadFontsFor, loadLogo } from "~/documents/fonts.server";
import { PDF_CACHE_HEADER, PdfCache, pdfCacheKey } from "~/features/orders/pdf-cache.server";
import { docText, paymentText, type DocumentKey } from "~/documents/labels";
import { orderPaidWith } from "~/domain/payments";
import { HotelApiError } from "~/contract/client";
import type { HotelInfo, Order } from "~/contract/schemas";
import { readForm } from "~/platform/forms.server";
import { base64Url, fromBase64Url, sha256 } from "~/lib/crypto";
import { requireProduct } from "~/platform/not-found.server";
import { hashOf, orderForRequest } from "~/features/orders/access.server";
import type { Language } from "~/i18n/languages";

const TICKET_SECONDS = 10 * 60;

const fromTicketText = (text: string): Uint8Array | null => (/^[A-Za-z0-9_-]{1,2000}$/.test(text) ? fromBase64Url(text) : null);

async function ticketKey(secret: string): Promise<CryptoKey> {
  const material = await sha256(`accommodation-proof:${secret}`);
  return crypto.subtle.importKey("raw", material, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

const Ticket = v.object({ doc: v.string(), hash: v.string(), domain: v.string(), exp: v.number() });

/** Step one: the `iv` and `number` that fetch this order's PDF. */
export async function proofTicket(secret: string, order: Order, domain: string, now = Date.now()): Promise<{ iv: string; number: string }> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = JSON.stringify({ doc: order.order_doc, hash: order.valid_hash, domain, exp: Math.floor(now / 1000) + TICKET_SECONDS });
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await ticketKey(secret), new TextEncoder().encode(plain));
  return { iv: base64Url(iv), number: base64Url(new Uint8Array(sealed)) };
}

/** Step two: the order's view link from a ticket, or null when forged, tampered, expired or another hotel's. */
export async function openProofTicket(secret: string, iv: string | null, number: string | null, domain: string, now = Date.now()) {
  const ivBytes = iv ? fromTicketText(iv) : null;
  const sealed = number ? fromTicketText(number) : null;
  if (!ivBytes || ivBytes.length !== 12 || !sealed) return null;
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: ivBytes }, await ticketKey(secret), sealed);
    const ticket = v.safeParse(Ticket, JSON.parse(new TextDecoder().decode(plain)));
    if (!ticket.success || ticket.output.domain !== domain || ticket.output.exp * 1000 <= now) return null;
    return ticket.output;
  } catch {
    return null;
  }
}

/**
 * The PDF of an order whose access the caller has checked: from the edge cache when this very content
 * was built before (decision 113), else built (fonts by what the text needs, decision 112) and stored.
 */
export async function confirmationPdfResponse(context: AppLoadContext, hotel: HotelInfo, order: Order): Promise<Response> {
  const { app } = context;
  const assets = app.env.ASSETS;
  if (!assets) throw new Error("the ASSETS binding is missing: the PDF's fonts are served from it");
  const content = confirmationContent(
    order,
    hotel,
    app.lang,
    paymentText(app.lang, order.pay_way, order.payment_vendor, orderPaidWith(order)),
  );
  const cache = await PdfCache.open(app.log);
  const key = cache ? await pdfCacheKey(app.domain, order.order_doc, content, hotel.logo_images.dark) : null;
  let pdf = cache && key ? await cache.lookup(key) : null;
  const cached = pdf !== null;
  if (!pdf) {
    const logo = await loadLogo(assets, hotel.logo_images.dark, app.log);
    const fonts = await loadFontsFor(assets, documentTexts(content, logo));
    pdf = await buildConfirmationPdf(content, fonts, logo);
    if (cache && key) await cache.store(key, pdf, app.log);
  }
  return new Response(pdf, {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${CONFIRMATION_FILE_NAME}"`,
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex",
      [PDF_CACHE_HEADER]: cached ? "HIT" : "MISS",
    },
  });
}

const REFUSALS = {
  403: { code: "forbidden", key: "proof.error.forbidden" },
  404: { code: "order_not_found", key: "proof.error.not_found" },
  405: { code: "method_not_allowed", key: "proof.error.method" },
} as const satisfies Record<number, { code: string; key: DocumentKey }>;

/**
 * A refusal of either step: the same status as ever, its words in the guest's language (issue 37).
 * A 405 names the one method the step takes (`allow`).
 */
export function proofRefusal(lang: Language, status: keyof typeof REFUSALS, allow?: "GET" | "POST"): Response {
  const { code, key } = REFUSALS[status];
  const message = docText(lang, key);
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (allow) headers.allow = allow;
  return Response.json({ success: false, msg: { code, message, extrainfo: { message } } }, { status, headers });
}

/** Step one as a route: `iv` and `number` for the order's owner or link holder; anyone else a 404. */
export async function proofTicketAnswer(
  context: AppLoadContext,
  product: string | undefined,
  orderDoc: string | undefined,
  request: Request,
): Promise<Response> {
  requireProduct({ product }, context);
  const { app } = context;
  let order: Order;
  try {
    ({ order } = await orderForRequest(context, product, orderDoc, hashOf(request)));
  } catch (error) {
    // The product is this site's (checked above): a 404 here is an order this request may not see.
    if (error instanceof Response && error.status === 404) return proofRefusal(app.lang, 404);
    throw error;
  }
  const ticket = await proofTicket(app.env.SESSION_SECRET, order, app.domain);
  return Response.json({ success: true, msg: "", data: ticket }, { headers: { "cache-control": "no-store" } });
}

/** Step two as a route: the PDF, or a 403 for a ticket that does not open. */
export async function proofDownload(context: AppLoadContext, product: string | undefined, request: Request): Promise<Response> {
  const hotel = requireProduct({ product }, context);
  const { app } = context;
  const type = request.headers.get("content-type") ?? "";
  let number: string | null = null;
  try {
    if (type.includes("application/json")) {
      const body = (await request.json()) as { number?: unknown };
      number = typeof body.number === "string" ? body.number : null;
    } else {
      const value = (await readForm(request))?.get("number");
      number = typeof value === "string" ? value : null;
    }
  } catch {
    number = null;
  }
  const ticket = await openProofTicket(app.env.SESSION_SECRET, request.headers.get("x-iv"), number, app.domain);
  if (!ticket) return proofRefusal(app.lang, 403);
  const order = await app.api.orderViaHash(ticket.hash).catch((error: unknown) => {
    if (error instanceof HotelApiError && error.status < 500) return null;
    throw error;
  });
  if (!order || order.order_doc !== ticket.doc) return proofRefusal(app.lang, 403);
  return confirmationPdfResponse(context, hotel, order);
}
