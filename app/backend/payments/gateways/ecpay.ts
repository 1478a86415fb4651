/**
 * ECPay AIO (all-in-one checkout): CheckMacValue, the checkout form, and the callbacks (ReturnURL
 * and PaymentInfoURL). Protocol facts: shared integrations notes; docs/decisions/031.
 */
import { safeEqual, sha256Hex } from "~/lib/crypto";

export const ECPAY_AIO_URL = {
  test: "https://payment-stage.ecpay.com.tw/Cashier/AioCheckOut/V5",
  production: "https://payment.ecpay.com.tw/Cashier/AioCheckOut/V5",
} as const;

/** What ECPay expects as the answer to ReturnURL and PaymentInfoURL; anything else makes it retry. */
export const ECPAY_OK = "1|OK";

export interface EcpayKeys {
  merchantId: string;
  hashKey: string;
  hashIv: string;
}

/** URL-encodes the .NET way ECPay does: space → +, `- _ . ! * ( )` literal, the rest %XX, lowercase. */
export function ecpayUrlEncode(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, "+").replace(/~/g, "%7e").replace(/'/g, "%27").toLowerCase();
}

/**
 * What ECPay's CheckMacValue hashes: every parameter but CheckMacValue itself (empty values
 * included), sorted A→Z case-insensitively, between HashKey and HashIV, then .NET URL-encoded and
 * lowercased. AIO hashes it with SHA256; the e-invoice callbacks with MD5.
 */
export function checkMacSource(params: Readonly<Record<string, string>>, keys: { hashKey: string; hashIv: string }): string {
  const names = Object.keys(params)
    .filter((name) => name !== "CheckMacValue")
    .sort((a, b) => {
      const x = a.toLowerCase();
      const y = b.toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    });
  return ecpayUrlEncode(`HashKey=${keys.hashKey}&${names.map((name) => `${name}=${params[name]}`).join("&")}&HashIV=${keys.hashIv}`);
}

/** CheckMacValue (SHA256) over every parameter but CheckMacValue itself, empty values included. */
export async function checkMacValue(
  params: Readonly<Record<string, string>>,
  keys: Pick<EcpayKeys, "hashKey" | "hashIv">,
): Promise<string> {
  return (await sha256Hex(checkMacSource(params, keys))).toUpperCase();
}

/** ECPay's date format, yyyy/MM/dd HH:mm:ss, in Taiwan time. */
export function ecpayDate(at: Date): string {
  const taipei = new Date(at.getTime() + 8 * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${taipei.getUTCFullYear()}/${pad(taipei.getUTCMonth() + 1)}/${pad(taipei.getUTCDate())} ${pad(taipei.getUTCHours())}:${pad(taipei.getUTCMinutes())}:${pad(taipei.getUTCSeconds())}`;
}

export interface EcpayCheckoutInput {
  tradeNo: string;
  tradeDate: Date;
  amount: number;
  itemName: string;
  tradeDesc: string;
  returnUrl: string;
  paymentInfoUrl: string;
  /** Where the browser comes back (ClientBackURL). */
  browserReturnUrl: string;
  /** Days an ATM account stays payable. */
  atmDays: number;
  /** ECPay's page language (ENG, JPN, KOR, CHI; empty: Traditional Chinese). */
  language?: string;
}

/** The fields of the auto-submitted form that takes the browser to the gateway. */
export async function ecpayCheckoutFields(input: EcpayCheckoutInput, keys: EcpayKeys): Promise<Record<string, string>> {
  if (!/^[A-Za-z0-9]{1,20}$/.test(input.tradeNo)) throw new Error("MerchantTradeNo must be 1-20 letters and digits");
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw new Error("TotalAmount must be a whole TWD amount above 0");
  const fields: Record<string, string> = {
    MerchantID: keys.merchantId,
    MerchantTradeNo: input.tradeNo,
    MerchantTradeDate: ecpayDate(input.tradeDate),
    PaymentType: "aio",
    TotalAmount: String(input.amount),
    TradeDesc: input.tradeDesc.slice(0, 200),
    ItemName: input.itemName.replace(/#/g, " ").slice(0, 400),
    ReturnURL: input.returnUrl,
    ChoosePayment: "ALL",
    EncryptType: "1",
    PaymentInfoURL: input.paymentInfoUrl,
    // The browser comes back by a plain link (GET); OrderResultURL (a browser POST) is not used.
    ClientBackURL: input.browserReturnUrl,
    ExpireDate: String(input.atmDays),
  };
  if (input.language) fields.Language = input.language;
  fields.CheckMacValue = await checkMacValue(fields, keys);
  return fields;
}

export type EcpayNotice =
  | { kind: "paid"; tradeNo: string; amount: number; gatewayTradeNo: string; paymentType: string; simulated: boolean }
  | { kind: "failed"; tradeNo: string; amount: number; gatewayTradeNo: string; message: string }
  | {
      kind: "code_issued";
      tradeNo: string;
      amount: number;
      gatewayTradeNo: string;
      paymentType: string;
      bankCode: string;
      account: string;
      expireDate: string;
    };

export type EcpayVerdict = { ok: true; notice: EcpayNotice; fields: Record<string, string> } | { ok: false; reason: string };

/**
 * Verifies and reads a ReturnURL or PaymentInfoURL callback (a form POST). The signature is
 * checked before anything else is read; the merchant must be ours.
 */
export async function readEcpayCallback(form: URLSearchParams, keys: EcpayKeys, which: "return" | "payment_info"): Promise<EcpayVerdict> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (name in fields) return { ok: false, reason: `duplicate field ${name}` };
    fields[name] = value;
  }
  const given = fields.CheckMacValue;
  if (!given) return { ok: false, reason: "no CheckMacValue" };
  const expected = await checkMacValue(fields, keys);
  if (!safeEqual(given.toUpperCase(), expected)) return { ok: false, reason: "CheckMacValue mismatch" };
  if (fields.MerchantID !== keys.merchantId) return { ok: false, reason: "another merchant" };
  const tradeNo = fields.MerchantTradeNo ?? "";
  const amount = Number(fields.TradeAmt);
  if (!/^[A-Za-z0-9]{1,20}$/.test(tradeNo)) return { ok: false, reason: "bad MerchantTradeNo" };
  if (!Number.isInteger(amount) || amount <= 0) return { ok: false, reason: "bad TradeAmt" };
  const gatewayTradeNo = fields.TradeNo ?? "";
  const paymentType = fields.PaymentType ?? "";
  const code = fields.RtnCode ?? "";
  if (which === "payment_info") {
    // RtnCode 2: ATM account issued; 10100073: convenience-store code or barcode issued.
    if (code === "2" || code === "10100073") {
      return {
        ok: true,
        fields,
        notice: {
          kind: "code_issued",
          tradeNo,
          amount,
          gatewayTradeNo,
          paymentType,
          bankCode: fields.BankCode ?? "",
          account: fields.vAccount ?? fields.PaymentNo ?? "",
          expireDate: fields.ExpireDate ?? "",
        },
      };
    }
    return { ok: true, fields, notice: { kind: "failed", tradeNo, amount, gatewayTradeNo, message: fields.RtnMsg ?? "" } };
  }
  if (code === "1") {
    return {
      ok: true,
      fields,
      notice: { kind: "paid", tradeNo, amount, gatewayTradeNo, paymentType, simulated: fields.SimulatePaid === "1" },
    };
  }
  return { ok: true, fields, notice: { kind: "failed", tradeNo, amount, gatewayTradeNo, message: fields.RtnMsg ?? "" } };
}
