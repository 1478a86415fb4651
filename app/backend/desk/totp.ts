/**
 * The desk's second factor: TOTP as RFC 6238 describes it and authenticator apps use it (HMAC-SHA1,
 * 30-second steps, 6 digits), on Web Crypto, about forty lines instead of a library. A code is
 * accepted for the current step and one step either side (clock drift), and only for a step later
 * than the last one accepted, so that no code is ever accepted twice.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now. */
export const TOTP_DRIFT_STEPS = 1;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, as otpauth URIs carry secrets. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Base32 as people type it (any case, spaces, padding); null when it is not base32. */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), in base32. */
export function newTotpSecret(): string {
  return base32Encode(crypto.getRandomValues(new Uint8Array(20)));
}

/** The time step of a moment. */
export const totpStep = (now: Date): number => Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS);

/** RFC 4226's HOTP of one counter, `digits` long (RFC 6238's vectors are 8 digits). */
export async function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): Promise<string> {
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, BigInt(counter));
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = new DataView(mac.buffer).getUint32(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The code an authenticator app shows for `secret` (base32) at `now`. */
export async function totpCode(secret: string, now: Date): Promise<string> {
  const key = base32Decode(secret);
  if (!key) throw new Error("TOTP secret is not base32");
  return hotp(key, totpStep(now));
}

/**
 * The step a right code was made for, or null: wrong, malformed, outside the drift, or for a step
 * not later than `lastStep` (a code already used, or an older one).
 */
export async function matchTotp(secret: string, code: string, now: Date, lastStep: number): Promise<number | null> {
  const key = base32Decode(secret);
  const typed = code.replace(/\s/g, "");
  if (!key || key.length === 0 || !new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(typed)) return null;
  const current = totpStep(now);
  for (let step = current - TOTP_DRIFT_STEPS; step <= current + TOTP_DRIFT_STEPS; step++) {
    if (step <= lastStep) continue;
    if ((await hotp(key, step)) === typed) return step;
  }
  return null;
}

/** The enrolment URI authenticator apps read from the QR code (Google's Key Uri Format). */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}`;
}
