/**
 * The addresses of an order's pages (decision 044), one place for the site's routes and the links
 * the back end writes into emails. Paths without the language prefix (localizePath adds it).
 */
export const CONFIRMATION_FILE_NAME = "BOOKING_CONFIRMATION.pdf";

/** The order page: the member who made it, or the holder of its view link (`?valid_hash=`). */
export function orderPagePath(product: string, orderDoc: string): string {
  return `/${product}/orders/${encodeURIComponent(orderDoc)}`;
}

/** The cancellation page: GET shows what is cancelled and the refund, POST cancels (`?cancel_hash=` for a guest). */
export function orderCancelPath(product: string, orderDoc: string): string {
  return `${orderPagePath(product, orderDoc)}/cancel`;
}

/** The confirmation PDF as a plain link (no JavaScript needed). */
export function orderPdfPath(product: string, orderDoc: string): string {
  return `${orderPagePath(product, orderDoc)}/confirmation.pdf`;
}

/** Spec §7's two-step download: GET gives iv and number, POST with them gives the PDF. */
export function proofTicketPath(product: string, orderDoc: string): string {
  return `/${product}/download/download-accommodation-proof/${encodeURIComponent(orderDoc)}`;
}

export function proofDownloadPath(product: string): string {
  return `/${product}/bookings/download-accommodation-proof`;
}
