/**
 * NewebPay MPG: TradeInfo (AES-256-CBC of the query string, lowercase hex) and TradeSha, and a
 * tolerant reader of callbacks: NewebPay's own sample pads to 32 bytes, which Web Crypto's AES-CBC
 * refuses; callbacks are decrypted without padding and 1–32 pad bytes stripped here.
 */
import { fromHex, safeEqual, sha256Hex, toHex } from "~/lib/crypto";

export const NEWEBPAY_MPG_URL = {
  test: "https://ccore.newebpay.com/MPG/mpg_gateway",
  production: "https://core.newebpay.com/MPG/mpg_gateway",
} as const;

export interface NewebpayKeys {
  merchantId: string;
  hashKey: string;
  hashIv: string;
}

const encoder = new TextEncoder();

async function aesKey(hashKey: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(hashKey), { name: "AES-CBC" }, false, ["encrypt", "decrypt"]);
}

export async function encryptTradeInfo(plaintext: string, keys: Pick<NewebpayKeys, "hashKey" | "hashIv">): Promise<string> {
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-CBC", iv: encoder.encode(keys.hashIv) },
    await aesKey(keys.hashKey),
    encoder.encode(plaintext),
  );
  return toHex(sealed);
}

export async function tradeSha(tradeInfo: string, keys: Pick<NewebpayKeys, "hashKey" | "hashIv">): Promise<string> {
  return (await sha256Hex(`HashKey=${keys.hashKey}&${tradeInfo}&HashIV=${keys.hashIv}`)).toUpperCase();
}

/**
 * AES-CBC decryption without padding, with Web Crypto only: a block that decrypts to a full
 * PKCS#7 pad block is appended (the encryption of sixteen 0x10 bytes chained on the last block),
 * so Web Crypto strips exactly that block and hands back the raw plaintext, pad bytes and all.
 */
export async function decryptRaw(cipher: Uint8Array, keys: Pick<NewebpayKeys, "hashKey" | "hashIv">): Promise<Uint8Array | null> {
  if (cipher.length === 0 || cipher.length % 16 !== 0) return null;
  const key = await aesKey(keys.hashKey);
  const last = cipher.slice(cipher.length - 16);
  const padBlock = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: last }, key, new Uint8Array(0)));
  const extended = new Uint8Array(cipher.length + 16);
  extended.set(cipher);
  extended.set(padBlock.slice(0, 16), cipher.length);
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv: encoder.encode(keys.hashIv) }, key, extended));
  } catch {
    return null;
  }
}

/** Strips 1–32 pad bytes (PKCS#7 to a 16- or a 32-byte boundary); null when the tail is no padding. */
export function stripPadding(raw: Uint8Array): Uint8Array | null {
  const count = raw[raw.length - 1] ?? 0;
  if (count < 1 || count > 32 || count > raw.length) return null;
  for (let i = raw.length - count; i < raw.length; i++) if (raw[i] !== count) return null;
  return raw.slice(0, raw.length - count);
}

export async function decryptTradeInfo(tradeInfo: string, keys: Pick<NewebpayKeys, "hashKey" | "hashIv">): Promise<string | null> {
  const cipher = fromHex(tradeInfo);
  if (!cipher) return null;
  const raw = await decryptRaw(cipher, keys);
  const plain = raw ? stripPadding(raw) : null;
  if (!plain) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(plain);
  } catch {
    return null;
  }
}

export interface NewebpayCheckoutInput {
  tradeNo: string;
  timeStamp: number;
  amount: number;
  itemDesc: string;
  email: string;
  returnUrl: string;
  notifyUrl: string;
  browserReturnUrl: string;
}

/** The fields of the form that takes the browser to NewebPay MPG. */
export async function newebpayCheckoutFields(input: NewebpayCheckoutInput, keys: NewebpayKeys): Promise<Record<string, string>> {
  const query = new URLSearchParams({
    MerchantID: keys.merchantId,
    RespondType: "JSON",
    TimeStamp: String(input.timeStamp),
    Version: "2.0",
    MerchantOrderNo: input.tradeNo,
    Amt: String(input.amount),
    ItemDesc: input.itemDesc.slice(0, 50),
    Email: input.email,
    ReturnURL: input.returnUrl,
    NotifyURL: input.notifyUrl,
    ClientBackURL: input.browserReturnUrl,
  }).toString();
  const info = await encryptTradeInfo(query, keys);
  return { MerchantID: keys.merchantId, TradeInfo: info, TradeSha: await tradeSha(info, keys), Version: "2.0" };
}

export type NewebpayNotice = {
  kind: "paid" | "failed";
  tradeNo: string;
  amount: number;
  gatewayTradeNo: string;
  status: string;
  paymentType: string;
};
export type NewebpayVerdict = { ok: true; notice: NewebpayNotice } | { ok: false; reason: string };

/** Verifies TradeSha, then decrypts and reads a NotifyURL callback (JSON respond type). */
export async function readNewebpayCallback(form: URLSearchParams, keys: NewebpayKeys): Promise<NewebpayVerdict> {
  const info = form.get("TradeInfo") ?? "";
  const sha = form.get("TradeSha") ?? "";
  if (!info || !sha) return { ok: false, reason: "no TradeInfo or TradeSha" };
  if (!safeEqual(sha.toUpperCase(), await tradeSha(info, keys))) return { ok: false, reason: "TradeSha mismatch" };
  const plain = await decryptTradeInfo(info, keys);
  if (plain === null) return { ok: false, reason: "TradeInfo does not decrypt" };
  let body: {
    Status?: string;
    Result?: { MerchantID?: string; MerchantOrderNo?: string; Amt?: number | string; TradeNo?: string; PaymentType?: string };
  };
  try {
    body = JSON.parse(plain) as typeof body;
  } catch {
    return { ok: false, reason: "TradeInfo is not JSON" };
  }
  const result = body.Result ?? {};
  if (result.MerchantID !== keys.merchantId) return { ok: false, reason: "another merchant" };
  const amount = Number(result.Amt);
  if (!Number.isInteger(amount) || amount <= 0) return { ok: false, reason: "bad Amt" };
  return {
    ok: true,
    notice: {
      kind: body.Status === "SUCCESS" ? "paid" : "failed",
      tradeNo: String(result.MerchantOrderNo ?? ""),
      amount,
      gatewayTradeNo: String(result.TradeNo ?? ""),
      status: String(body.Status ?? ""),
      paymentType: String(result.PaymentType ?? ""),
    },
  };
}
