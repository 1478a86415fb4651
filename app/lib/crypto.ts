/**
 * The one set of Web Crypto helpers of the site and the back end (issue 24): hex, base64 and base64url,
 * SHA-256, HMAC-SHA256, random tokens and the constant-time compare. They work in workerd and in
 * Node alike; no Remix, no bindings.
 */

const encoder = new TextEncoder();

const bytesOf = (data: ArrayBuffer | Uint8Array | string): Uint8Array =>
  typeof data === "string" ? encoder.encode(data) : data instanceof Uint8Array ? data : new Uint8Array(data);

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return [...bytesOf(bytes)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function fromHex(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * Bytes as a binary string (one char per byte) for `btoa`, 32 KB at a time: one `String.fromCharCode`
 * call with every byte as an argument overflows the stack past about 120 KB (a PDF attachment).
 * `apply` takes the typed array as it is; spreading it runs the iterator and is three times slower.
 */
function binaryString(bytes: Uint8Array): string {
  let binary = "";
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode.apply(null, bytes.subarray(index, index + 0x8000) as unknown as number[]);
  return binary;
}

/** Standard base64 with padding (RFC 4648 §4) of bytes, or of a text's UTF-8; any size (a PDF attachment). */
export function base64(data: ArrayBuffer | Uint8Array | string): string {
  return btoa(binaryString(bytesOf(data)));
}

/** base64url without padding (RFC 4648 §5) of bytes, or of a text's UTF-8. */
export function base64Url(data: ArrayBuffer | Uint8Array | string): string {
  return base64(data).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of a base64url text (padding optional), or null when it is not one. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text) || text.replace(/=+$/, "").length % 4 === 1) return null;
  const bare = text.replace(/=+$/, "");
  let binary: string;
  try {
    binary = atob(bare.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((bare.length + 3) % 4));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** 32 random bytes, base64url: 43 characters, also a valid PKCE code_verifier. */
export function randomToken(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

export async function sha256(data: ArrayBuffer | Uint8Array | string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytesOf(data)));
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await sha256(text));
}

/** The HMAC-SHA256 key of a secret, for signing and verifying (crypto.subtle.verify compares in constant time). */
export function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

export async function hmacSha256(secret: string, text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(text)));
}

export async function hmacSha256Hex(secret: string, text: string): Promise<string> {
  return toHex(await hmacSha256(secret, text));
}

export async function hmacSha256Base64(secret: string, text: string): Promise<string> {
  return base64(await hmacSha256(secret, text));
}

export async function hmacSha256Base64Url(secret: string, text: string): Promise<string> {
  return base64Url(await hmacSha256(secret, text));
}

/**
 * Compares two texts (by their UTF-8) or two byte strings in time independent of where they differ;
 * different lengths are unequal, compared in full all the same.
 */
export function safeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const left = bytesOf(a);
  const right = bytesOf(b);
  let diff = left.length ^ right.length;
  for (let i = 0; i < Math.max(left.length, right.length); i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return diff === 0;
}
