/** Member passwords: PBKDF2-SHA256 with a random salt, stored as "iterations$salt$hash" (base64). */
import { base64, safeEqual } from "~/lib/crypto";

/** Deployed Workers refuse PBKDF2 above 100,000 iterations (workerd issue 1346); `wrangler dev` does not, so a test holds us to it. */
export const MAX_PBKDF2_ITERATIONS = 100_000;
export const PBKDF2_ITERATIONS = 100_000;
const ITERATIONS = PBKDF2_ITERATIONS;

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `${ITERATIONS}$${base64(salt)}$${base64(await derive(password, salt, ITERATIONS))}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [iterations, salt, hash] = stored.split("$");
  if (!iterations || !salt || !hash) return false;
  const count = Number(iterations);
  // A hash that asks for more than Workers allow would throw in production: refuse it instead.
  if (!Number.isInteger(count) || count < 1 || count > MAX_PBKDF2_ITERATIONS) return false;
  const actual = await derive(password, fromBase64(salt), count);
  const expected = fromBase64(hash);
  return safeEqual(actual, expected);
}
