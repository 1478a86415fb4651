/**
 * LINE Pay v3: signed headers, request → confirm, refund. transactionId is a 19-digit JSON number:
 * every answer is parsed with lossless-json and the id kept as a string (JSON.parse corrupts it).
 * The body is serialized once, and those exact bytes are signed and sent.
 */
import { isLosslessNumber, parse } from "lossless-json";
import { hmacSha256Base64 } from "~/lib/crypto";
import type { Fetcher } from "~/backend/payments/gateways/types";

export const LINEPAY_HOST = { test: "https://sandbox-api-pay.line.me", production: "https://api-pay.line.me" } as const;

export interface LinepayKeys {
  channelId: string;
  channelSecret: string;
}

/** X-LINE-Authorization: Base64(HMAC-SHA256(secret, secret + path + body-or-query + nonce)). */
export async function linepaySignature(channelSecret: string, apiPath: string, bodyOrQuery: string, nonce: string): Promise<string> {
  return hmacSha256Base64(channelSecret, channelSecret + apiPath + bodyOrQuery + nonce);
}

export async function linepayHeaders(
  keys: LinepayKeys,
  apiPath: string,
  bodyOrQuery: string,
  nonce: string,
): Promise<Record<string, string>> {
  return {
    "content-type": "application/json",
    "X-LINE-ChannelId": keys.channelId,
    "X-LINE-Authorization-Nonce": nonce,
    "X-LINE-Authorization": await linepaySignature(keys.channelSecret, apiPath, bodyOrQuery, nonce),
  };
}

/** Parses a LINE Pay answer keeping every number that does not fit a double exactly as its text. */
export function parseLinepay(text: string): unknown {
  return parse(text, undefined, (value) => {
    if (!isLosslessNumber(value)) return value;
    return Number.isSafeInteger(Number(value.value)) || value.value.includes(".") ? Number(value.value) : value.value;
  });
}

interface LinepayAnswer {
  returnCode?: string;
  returnMessage?: string;
  info?: { transactionId?: unknown; paymentUrl?: { web?: string }; payInfo?: { amount?: number }[] };
}

async function call(fetcher: Fetcher, host: string, keys: LinepayKeys, apiPath: string, payload: unknown): Promise<LinepayAnswer> {
  const body = JSON.stringify(payload);
  const headers = await linepayHeaders(keys, apiPath, body, crypto.randomUUID());
  const response = await fetcher(new Request(`${host}${apiPath}`, { method: "POST", headers, body }));
  return parseLinepay(await response.text()) as LinepayAnswer;
}

export interface LinepayRequestInput {
  orderId: string;
  amount: number;
  productName: string;
  confirmUrl: string;
  cancelUrl: string;
}

/** POST /v3/payments/request: the page to send the browser to, and the transaction id (a string). */
export async function linepayRequest(
  fetcher: Fetcher,
  host: string,
  keys: LinepayKeys,
  input: LinepayRequestInput,
): Promise<{ ok: true; transactionId: string; paymentUrl: string } | { ok: false; reason: string }> {
  const answer = await call(fetcher, host, keys, "/v3/payments/request", {
    amount: input.amount,
    currency: "TWD",
    orderId: input.orderId,
    packages: [{ id: "rooms", amount: input.amount, products: [{ name: input.productName, quantity: 1, price: input.amount }] }],
    redirectUrls: { confirmUrl: input.confirmUrl, cancelUrl: input.cancelUrl },
  });
  const id = answer.info?.transactionId;
  const url = answer.info?.paymentUrl?.web;
  if (answer.returnCode !== "0000" || (typeof id !== "string" && typeof id !== "number") || !url)
    return { ok: false, reason: `returnCode ${answer.returnCode ?? "?"}` };
  return { ok: true, transactionId: String(id), paymentUrl: url };
}

/** POST /v3/payments/{transactionId}/confirm: paid when returnCode is 0000. */
export async function linepayConfirm(
  fetcher: Fetcher,
  host: string,
  keys: LinepayKeys,
  transactionId: string,
  amount: number,
): Promise<{ paid: boolean; returnCode: string }> {
  if (!/^\d{1,25}$/.test(transactionId)) return { paid: false, returnCode: "bad transactionId" };
  const answer = await call(fetcher, host, keys, `/v3/payments/${transactionId}/confirm`, { amount, currency: "TWD" });
  return { paid: answer.returnCode === "0000", returnCode: answer.returnCode ?? "" };
}

/** POST /v3/payments/{transactionId}/refund (amount omitted: the whole payment). */
export async function linepayRefund(
  fetcher: Fetcher,
  host: string,
  keys: LinepayKeys,
  transactionId: string,
  amount?: number,
): Promise<{ ok: boolean; returnCode: string }> {
  const answer = await call(
    fetcher,
    host,
    keys,
    `/v3/payments/${transactionId}/refund`,
    amount === undefined ? {} : { refundAmount: amount },
  );
  return { ok: answer.returnCode === "0000", returnCode: answer.returnCode ?? "" };
}
