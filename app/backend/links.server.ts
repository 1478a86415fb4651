/**
 * Signed order links: `<order_doc>.<HMAC-SHA256(order_doc:purpose)>`, base64url. Holding one is
 * what lets a guest without an account see (purpose "view") or cancel (purpose "cancel") an order.
 * Verification is Web Crypto's HMAC verify, which compares in constant time.
 */
export type LinkPurpose = "view" | "cancel";

async function key(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

function toBase64Url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=";
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

export async function signOrderLink(secret: string, orderDoc: string, purpose: LinkPurpose): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await key(secret), new TextEncoder().encode(`${orderDoc}:${purpose}`));
  return `${orderDoc}.${toBase64Url(signature)}`;
}

/** The order_doc a signed link is for, or null when the link is malformed, tampered or for another purpose. */
export async function verifyOrderLink(secret: string, link: string | null | undefined, purpose: LinkPurpose): Promise<string | null> {
  if (typeof link !== "string" || link.length > 200) return null;
  const dot = link.lastIndexOf(".");
  if (dot <= 0) return null;
  const orderDoc = link.slice(0, dot);
  const signature = fromBase64Url(link.slice(dot + 1));
  if (!signature || !/^[A-Z0-9-]{4,40}$/.test(orderDoc)) return null;
  const valid = await crypto.subtle.verify("HMAC", await key(secret), signature, new TextEncoder().encode(`${orderDoc}:${purpose}`));
  return valid ? orderDoc : null;
}
