/**
 * Built confirmation PDFs kept in the edge cache (decision 113): an unchanged order's PDF is served
 * again without building it. The key is a SHA-256 of everything drawn — the document's content
 * (built from the order, the hotel and the language, so a cancellation, a payment or an import gives
 * a new key), the logo's path and the layout's version — under the hotel's domain and the order's
 * number. It is looked up only after the request proved it may see the order (the route's link or
 * member check, the download ticket), from that order's own content: a request can only meet the
 * PDF it would have built. Not kept in the isolate's memory (the heap budget is the fonts').
 */
import type { ConfirmationDocument } from "~/documents/confirmation-pdf";
import { sha256Hex } from "~/lib/crypto";
import type { Logger } from "~/platform/log.server";
import { openEdgeCache } from "~/platform/edge/policy";

/** Raised when the drawing changes, so PDFs stored by an older build are not served again. */
const LAYOUT_VERSION = 2;
/** How long a stored PDF is kept: a day (the key, not the age, is what follows the order). */
const KEEP_SECONDS = 86_400;
/** On each PDF response: HIT (served from the cache) or MISS (built now). */
export const PDF_CACHE_HEADER = "x-pdf-cache";

export async function pdfCacheKey(domain: string, orderDoc: string, content: ConfirmationDocument, logoPath: string): Promise<string> {
  const digest = await sha256Hex(JSON.stringify([LAYOUT_VERSION, content, logoPath]));
  return `https://pdf.edge-cache.portico/${encodeURIComponent(domain)}/${encodeURIComponent(orderDoc)}/${digest}.pdf`;
}

export class PdfCache {
  private constructor(private readonly cache: Cache) {}

  static async open(log: Pick<Logger, "warn">): Promise<PdfCache | null> {
    const cache = await openEdgeCache("confirmation-pdfs", log);
    return cache ? new PdfCache(cache) : null;
  }

  async lookup(key: string): Promise<Uint8Array | null> {
    const hit = await this.cache.match(key);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  }

  async store(key: string, pdf: Uint8Array, log: Pick<Logger, "error">): Promise<void> {
    try {
      await this.cache.put(
        key,
        new Response(pdf, { headers: { "content-type": "application/pdf", "cache-control": `max-age=${KEEP_SECONDS}` } }),
      );
    } catch (error) {
      log.error("confirmation PDF not cached", key, error);
    }
  }
}
