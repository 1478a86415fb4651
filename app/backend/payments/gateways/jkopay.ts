/**
 * JKOPay online payment: DIGEST over the exact request body, entry, and the inquiry that confirms a
 * result before it is trusted (a result_url POST alone never marks an order paid).
 */
import { hmacSha256Hex, safeEqual } from "~/lib/crypto";
import type { Fetcher } from "~/backend/payments/gateways/types";

export interface JkopayKeys {
  storeId: string;
  apiKey: string;
  secretKey: string;
}

export const JKOPAY_HOST = { test: "https://uat-onlinepay.jkopay.app", production: "https://onlinepay.jkopay.com" } as const;

/** DIGEST: lowercase hex HMAC-SHA256(secret, exact body). */
export function jkopayDigest(secret: string, body: string): Promise<string> {
  return hmacSha256Hex(secret, body);
}

export async function jkopayVerifyDigest(secret: string, body: string, digest: string | null): Promise<boolean> {
  return digest !== null && safeEqual(digest.toLowerCase(), await jkopayDigest(secret, body));
}

async function post(
  fetcher: Fetcher,
  url: string,
  keys: JkopayKeys,
  body: string,
): Promise<{ result?: string; result_object?: Record<string, unknown> }> {
  const response = await fetcher(
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "API-KEY": keys.apiKey, DIGEST: await jkopayDigest(keys.secretKey, body) },
      body,
    }),
  );
  return (await response.json()) as { result?: string; result_object?: Record<string, unknown> };
}

export interface JkopayEntryInput {
  orderId: string;
  amount: number;
  displayUrl: string;
  resultUrl: string;
}

/** POST /platform/entry → payment_url. */
export async function jkopayEntry(
  fetcher: Fetcher,
  host: string,
  keys: JkopayKeys,
  input: JkopayEntryInput,
): Promise<{ ok: true; paymentUrl: string } | { ok: false; reason: string }> {
  const body = JSON.stringify({
    platform_order_id: input.orderId,
    store_id: keys.storeId,
    currency: "TWD",
    total_price: input.amount,
    final_price: input.amount,
    unredeem: input.amount,
    result_display_url: input.displayUrl,
    result_url: input.resultUrl,
  });
  const answer = await post(fetcher, `${host}/platform/entry`, keys, body);
  const url = answer.result_object?.payment_url;
  if (answer.result !== "000" || typeof url !== "string") return { ok: false, reason: `result ${answer.result ?? "?"}` };
  return { ok: true, paymentUrl: url };
}

/** GET /platform/inquiry: whether the order is paid, and for how much. */
export async function jkopayInquiry(
  fetcher: Fetcher,
  host: string,
  keys: JkopayKeys,
  orderId: string,
): Promise<{ paid: boolean; amount: number }> {
  const query = `platform_order_ids=${encodeURIComponent(orderId)}`;
  const response = await fetcher(
    new Request(`${host}/platform/inquiry?${query}`, {
      headers: { "API-KEY": keys.apiKey, DIGEST: await jkopayDigest(keys.secretKey, query) },
    }),
  );
  const answer = (await response.json()) as {
    result?: string;
    result_object?: { transactions?: { status?: number; final_price?: number; platform_order_id?: string }[] };
  };
  const transaction = answer.result_object?.transactions?.find((t) => t.platform_order_id === orderId);
  return { paid: answer.result === "000" && transaction?.status === 0, amount: transaction?.final_price ?? 0 };
}
