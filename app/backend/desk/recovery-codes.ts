/**
 * One-time recovery codes for a lost authenticator: ten, shown once at enrolment, only their
 * SHA-256 kept. A code is ten characters of an alphabet without look-alikes (no 0/O, 1/I/L), shown
 * as two groups of five; it is read back whatever its case, spaces or dash.
 */
import { sha256Hex } from "~/lib/crypto";

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const LENGTH = 10;

function oneCode(): string {
  // 31 symbols: rejection sampling keeps every symbol equally likely.
  let out = "";
  while (out.length < LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < 248 && out.length < LENGTH) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** Ten new codes, as shown to the staff member (all different). */
export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(oneCode());
  return [...codes];
}

/** A typed code as stored: upper case, without spaces and dashes; null when it cannot be one. */
export function normalizedRecoveryCode(typed: string): string | null {
  const clean = typed.replace(/[\s-]/g, "").toUpperCase();
  return clean.length === LENGTH && [...clean].every((char) => ALPHABET.includes(char)) ? clean : null;
}

/** What is kept of a code. */
export function recoveryCodeHash(code: string): Promise<string> {
  return sha256Hex(normalizedRecoveryCode(code) ?? "");
}
