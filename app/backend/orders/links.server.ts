/**
 * Signed order links: `<order_doc>.<expires>.<HMAC-SHA256>`, the signature base64url over
 * `order-link:<hotel_id>:<order_doc>:<purpose>:<expires>`. Holding one is what lets a guest without
 * an account see (purpose "view") or cancel (purpose "cancel") an order of that hotel until
 * `expires` (Unix seconds). Verification is Web Crypto's HMAC verify, which compares in constant
 * time. Links of the first scheme (`<order_doc>.<signature>`, no hotel, no expiry) are refused
 * (docs/decisions/017).
 */
import { base64Url, fromBase64Url, hmacKey } from "~/lib/crypto";

export type LinkPurpose = "view" | "cancel";

export interface OrderLinkSubject {
  hotelId: number;
  orderDoc: string;
  /** The order's check-out day (YYYY-MM-DD): the links' lifetimes are counted from it. */
  checkOutDay: string;
}

const DAY_SECONDS = 24 * 60 * 60;
/** A view link outlives the stay by a year (receipts, expense claims); a cancel link ends with the stay. */
const LIFETIME_AFTER_CHECK_OUT: Record<LinkPurpose, number> = { view: 366 * DAY_SECONDS, cancel: DAY_SECONDS };

const signedText = (hotelId: number, orderDoc: string, purpose: LinkPurpose, expires: number) =>
  new TextEncoder().encode(`order-link:${hotelId}:${orderDoc}:${purpose}:${expires}`);

/** When a link for this order and purpose stops working (Unix seconds). */
export function orderLinkExpiry(checkOutDay: string, purpose: LinkPurpose): number {
  const checkOut = Date.parse(`${checkOutDay}T00:00:00Z`) / 1000;
  return Math.floor(checkOut) + LIFETIME_AFTER_CHECK_OUT[purpose];
}

export async function signOrderLink(secret: string, subject: OrderLinkSubject, purpose: LinkPurpose): Promise<string> {
  const expires = orderLinkExpiry(subject.checkOutDay, purpose);
  const signature = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(secret),
    signedText(subject.hotelId, subject.orderDoc, purpose, expires),
  );
  return `${subject.orderDoc}.${expires}.${base64Url(signature)}`;
}

/**
 * The order_doc a signed link is for, or null when the link is malformed, tampered, expired, of
 * another hotel or for another purpose.
 */
export async function verifyOrderLink(
  secret: string,
  link: string | null | undefined,
  purpose: LinkPurpose,
  hotelId: number,
  now: Date,
): Promise<string | null> {
  if (typeof link !== "string" || link.length > 200) return null;
  const match = /^([A-Z0-9-]{4,40})\.(\d{9,11})\.([A-Za-z0-9_-]{43})$/.exec(link);
  if (!match) return null;
  const [, orderDoc = "", expiresText = "", signatureText = ""] = match;
  const expires = Number(expiresText);
  if (expires * 1000 <= now.getTime()) return null;
  const signature = fromBase64Url(signatureText);
  if (!signature) return null;
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(secret), signature, signedText(hotelId, orderDoc, purpose, expires));
  return valid ? orderDoc : null;
}
