import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ECPAY_CALL_TIMEOUT_MS } from "~/backend/einvoice/ecpay.server";
import {
  decryptPostData,
  encryptPostData,
  EZPAY_VERSIONS,
  ezpayCheckCode,
  ezpayEinvoice,
  type EzpayEinvoiceKeys,
} from "~/backend/einvoice/ezpay.server";
import type { AllowanceRequest, IssueRequest } from "~/backend/einvoice/provider";
import { EinvoiceConfigError, einvoiceProvider, type HotelInvoicing } from "~/backend/einvoice/registry.server";
import { decryptTradeInfo, encryptTradeInfo } from "~/backend/payments/gateways/newebpay";

/**
 * ezPay's e-invoice adapter (decision 171) against the NewebPay vector (the same AES-256-CBC hex
 * scheme, shared integrations notes) and ezPay's request and answer shapes as the open
 * implementations use them. Node's own crypto is the independent oracle: the stand-in for ezPay at
 * the adapter's fetch decrypts every PostData_ with it, and signs its answers' CheckCode with it.
 */

const VECTOR_KEYS = { hashKey: "12345678901234567890123456789012", hashIv: "1234567890123456" };
const VECTOR_PLAIN =
  "MerchantID=3430112&RespondType=JSON&TimeStamp=1485232229&Version=1.4&MerchantOrderNo=S_1485232229&Amt=40&ItemDesc=UnitTest";
const VECTOR_TRADE_INFO =
  "ff91c8aa01379e4de621a44e5f11f72e4d25bdb1a18242db6cef9ef07d80b0165e476fd1d9acaa53170272c82d122961e1a0700a7427cfa1cf90db7f6d6593bbc93102a4d4b9b66d9974c13c31a7ab4bba1d4e0790f0cbbbd7ad64c6d3c8012a601ceaa808bff70f94a8efa5a4f984b9d41304ffd879612177c622f75f4214fa";

const KEYS: EzpayEinvoiceKeys = { merchantId: "34818970", hashKey: "yoRs5AfTfAWe9HI4DlEYKRorr9YvV3Kr", hashIv: "CrJMQLwDF6zKOeaP" };

const oracleDecrypt = (hex: string, keys: { hashKey: string; hashIv: string } = KEYS) => {
  const decipher = createDecipheriv("aes-256-cbc", keys.hashKey, keys.hashIv);
  return Buffer.concat([decipher.update(Buffer.from(hex, "hex")), decipher.final()]).toString("utf8");
};
const oracleCheckCode = (fields: Record<string, string | number>, keys = KEYS) => {
  const sorted = Object.keys(fields)
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join("&");
  return createHash("sha256").update(`HashIV=${keys.hashIv}&${sorted}&HashKey=${keys.hashKey}`).digest("hex").toUpperCase();
};

describe("the codec: NewebPay's AES-256-CBC hex, shared", () => {
  it("encrypts NewebPay's vector to its published TradeInfo, and decrypts it back", async () => {
    expect(await encryptTradeInfo(VECTOR_PLAIN, VECTOR_KEYS)).toBe(VECTOR_TRADE_INFO);
    expect(await decryptTradeInfo(VECTOR_TRADE_INFO, VECTOR_KEYS)).toBe(VECTOR_PLAIN);
  });

  it("PostData_ is the same scheme over the form-encoded fields: the vector's fields give the vector", async () => {
    const fields = Object.fromEntries(new URLSearchParams(VECTOR_PLAIN));
    expect(await encryptPostData(fields, VECTOR_KEYS)).toBe(VECTOR_TRADE_INFO);
    expect(await decryptPostData(VECTOR_TRADE_INFO, VECTOR_KEYS)).toEqual(fields);
    expect(oracleDecrypt(VECTOR_TRADE_INFO, VECTOR_KEYS)).toBe(VECTOR_PLAIN);
  });

  it("decrypts what PHP's implementations send, padded to 32 bytes, and refuses what is not ours", async () => {
    const plain = Buffer.from("MerchantOrderNo=PT1E1&TotalAmt=100");
    const pad = 32 - (plain.length % 32);
    const cipher = createCipheriv("aes-256-cbc", KEYS.hashKey, KEYS.hashIv).setAutoPadding(false);
    const padded = Buffer.concat([plain, Buffer.alloc(pad, pad)]);
    const hex = Buffer.concat([cipher.update(padded), cipher.final()]).toString("hex");
    expect(await decryptPostData(hex, KEYS)).toEqual({ MerchantOrderNo: "PT1E1", TotalAmt: "100" });
    expect(await decryptPostData(hex, VECTOR_KEYS)).toBeNull();
    expect(await decryptPostData("not hex", KEYS)).toBeNull();
  });

  it("the CheckCode is the sorted fields between HashIV and HashKey, SHA-256, uppercase (as the oracle computes it)", async () => {
    const fields = {
      MerchantID: "34818970",
      MerchantOrderNo: "PT1E1",
      InvoiceTransNo: "25072515224376654",
      TotalAmt: 6600,
      RandomNum: "6868",
    };
    const code = await ezpayCheckCode(fields, KEYS);
    expect(code).toMatch(/^[0-9A-F]{64}$/);
    expect(code).toBe(oracleCheckCode(fields));
    expect(await ezpayCheckCode({ ...fields, TotalAmt: 6601 }, KEYS)).not.toBe(code);
  });
});

interface Sent {
  url: string;
  form: Record<string, string>;
  post: Record<string, string>;
}
type Answer = Response | Record<string, unknown>;

/** A stand-in for ezPay: decrypts each PostData_ with Node's crypto, keeps it, and answers as told. */
function ezpay(answer: (sent: Sent) => Answer) {
  const sent: Sent[] = [];
  const now = new Date("2026-11-29T04:00:00Z");
  const fetcher = async (request: Request) => {
    const form = Object.fromEntries(new URLSearchParams(await request.text()));
    const post = Object.fromEntries(new URLSearchParams(oracleDecrypt(form.PostData_ ?? "")));
    const call = { url: request.url, form, post };
    sent.push(call);
    const said = answer(call);
    return said instanceof Response ? said : Response.json(said);
  };
  return { sent, provider: ezpayEinvoice({ keys: KEYS, mode: "test", fetcher, now: () => now }) };
}

/** ezPay's success: Status SUCCESS and Result a JSON string, signed with the CheckCode (or a given one). */
function success(result: Record<string, string | number>, checkCode?: string) {
  const signed = {
    MerchantID: KEYS.merchantId,
    ...result,
    CheckCode:
      checkCode ??
      oracleCheckCode({
        InvoiceTransNo: result.InvoiceTransNo ?? "",
        MerchantID: KEYS.merchantId,
        MerchantOrderNo: result.MerchantOrderNo ?? "",
        RandomNum: result.RandomNum ?? "",
        TotalAmt: result.TotalAmt ?? "",
      }),
  };
  return { Status: "SUCCESS", Message: "", Result: JSON.stringify(signed) };
}

const request: IssueRequest = {
  relateNumber: "PT261129ABCDEFE1",
  buyer: { kind: "carrier", carrier: "mobile", code: "/ABC+123", email: "guest@example.com" },
  customerName: "王小明",
  amount: 6_600,
  items: [
    { name: "雙人房 - 含早方案", count: 2, word: "間夜", price: 3_000, amount: 6_000 },
    { name: "接駁車", count: 2, word: "份", price: 300, amount: 600 },
  ],
};

/** The issue's answer for a relate number and total. */
const issuedResult = (relateNumber = request.relateNumber, total = request.amount) => ({
  InvoiceTransNo: "25112912000012345",
  MerchantOrderNo: relateNumber,
  TotalAmt: total,
  InvoiceNumber: "AB12345678",
  RandomNum: "6868",
  CreateTime: "2026-11-29 12:00:00",
});

const sum = (joined: string | undefined) => (joined ?? "").split("|").reduce((total, value) => total + Number(value), 0);

describe("the adapter's calls", () => {
  it("issues a B2C mobile-barcode invoice: MerchantID_ and PostData_ to invoice_issue, and believes the verified answer", async () => {
    const { sent, provider } = ezpay(() => success(issuedResult()));
    expect(await provider.issue(request)).toEqual({
      ok: true,
      value: { number: "AB12345678", randomNumber: "6868", issuedOn: "2026-11-29" },
    });
    const [call] = sent;
    expect(call?.url).toBe("https://cinv.ezpay.com.tw/Api/invoice_issue");
    expect(Object.keys(call?.form ?? {}).sort()).toEqual(["MerchantID_", "PostData_"]);
    expect(call?.form.MerchantID_).toBe("34818970");
    expect(call?.post).toMatchObject({
      RespondType: "JSON",
      Version: EZPAY_VERSIONS.invoice_issue,
      TimeStamp: String(Date.parse("2026-11-29T04:00:00Z") / 1000),
      MerchantOrderNo: "PT261129ABCDEFE1",
      Status: "1",
      Category: "B2C",
      BuyerName: "王小明",
      BuyerUBN: "",
      BuyerEmail: "guest@example.com",
      CarrierType: "0",
      CarrierNum: "/ABC+123",
      LoveCode: "",
      PrintFlag: "N",
      TaxType: "1",
      TaxRate: "5",
      Amt: "6286",
      TaxAmt: "314",
      TotalAmt: "6600",
      ItemName: "雙人房 - 含早方案|接駁車",
      ItemCount: "2|2",
      ItemUnit: "間夜|份",
      ItemPrice: "3000|300",
      ItemAmt: "6000|600",
    });
    // B2C: the items are priced with tax, and add up to the total; Amt + TaxAmt is the total.
    expect(sum(call?.post.ItemAmt)).toBe(6_600);
    expect(Number(call?.post.Amt) + Number(call?.post.TaxAmt)).toBe(6_600);
  });

  it("sends a donation with its LoveCode, unprinted, and a citizen certificate and ezPay's member carrier by their types", async () => {
    const { sent, provider } = ezpay(() => success(issuedResult()));
    await provider.issue({ ...request, buyer: { kind: "donation", loveCode: "168", email: "guest@example.com" } });
    expect(sent[0]?.post).toMatchObject({
      Category: "B2C",
      LoveCode: "168",
      CarrierType: "",
      CarrierNum: "",
      PrintFlag: "N",
      BuyerUBN: "",
    });
    await provider.issue({ ...request, buyer: { kind: "carrier", carrier: "citizen", code: "AB12345678901234", email: "g@example.com" } });
    expect(sent[1]?.post).toMatchObject({ CarrierType: "1", CarrierNum: "AB12345678901234", PrintFlag: "N" });
    await provider.issue({ ...request, buyer: { kind: "carrier", carrier: "member", code: "", email: "g@example.com" } });
    expect(sent[2]?.post).toMatchObject({ CarrierType: "2", CarrierNum: "g@example.com", BuyerEmail: "g@example.com", PrintFlag: "N" });
  });

  it("sends a company invoice as B2B, printed, with its 統一編號, name and address, and the 5 % split out of untaxed prices", async () => {
    const { sent, provider } = ezpay(() => success(issuedResult("PT261129ABCDEFE1", 10_001)));
    const answer = await provider.issue({
      ...request,
      amount: 10_001,
      items: [
        { name: "雙人房", count: 3, word: "間夜", price: 3_000, amount: 9_000 },
        { name: "晚餐", count: 1, word: "份", price: 1_001, amount: 1_001 },
      ],
      buyer: {
        kind: "company",
        taxId: "04595257",
        companyName: "波提科股份有限公司",
        companyAddress: "臺北市信義區",
        email: "ap@example.com",
      },
    });
    expect(answer.ok).toBe(true);
    const post = sent[0]?.post ?? {};
    expect(post).toMatchObject({
      Category: "B2B",
      BuyerName: "波提科股份有限公司",
      BuyerUBN: "04595257",
      BuyerAddress: "臺北市信義區",
      PrintFlag: "Y",
      CarrierType: "",
      LoveCode: "",
      TaxType: "1",
      TaxRate: "5",
      // 10001 / 1.05 = 9524.76…: 9525 untaxed, 476 tax.
      Amt: "9525",
      TaxAmt: "476",
      TotalAmt: "10001",
    });
    // B2B: untaxed items adding up to Amt exactly; each price × count is its amount (a count that does not divide is one lot).
    expect(sum(post.ItemAmt)).toBe(9_525);
    const counts = (post.ItemCount ?? "").split("|").map(Number);
    const prices = (post.ItemPrice ?? "").split("|").map(Number);
    const amounts = (post.ItemAmt ?? "").split("|").map(Number);
    expect(amounts.map((amount, index) => (prices[index] ?? 0) * (counts[index] ?? 0) === amount)).toEqual([true, true]);
    expect(post.ItemName).toBe("雙人房|晚餐");
  });

  it("refuses, without asking, items that do not add up to the amount", async () => {
    const { sent, provider } = ezpay(() => success(issuedResult()));
    expect(await provider.issue({ ...request, amount: 6_601 })).toMatchObject({ ok: false, kind: "refused" });
    expect(sent).toEqual([]);
  });

  it("reads an error Status as refused, with its code and message", async () => {
    const { provider } = ezpay(() => ({ Status: "INV10003", Message: "商品資訊格式錯誤或缺少資料", Result: "" }));
    const answer = await provider.issue(request);
    expect(answer).toMatchObject({ ok: false, kind: "refused", code: "INV10003" });
    if (!answer.ok) expect(answer.message).toContain("商品資訊格式錯誤或缺少資料");
  });

  it("believes no answer it cannot verify: a CheckCode that does not verify, another merchant, order or amount, no number", async () => {
    const forged = ezpay(() => success(issuedResult(), "0".repeat(64)));
    expect(await forged.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable", code: "check_code" });
    // Signed with another merchant's keys.
    const otherKeys = { ...KEYS, hashKey: "abcdefghijabcdefghijabcdefghij12" };
    const result = issuedResult();
    const wrongKey = ezpay(() =>
      success(
        result,
        oracleCheckCode(
          {
            InvoiceTransNo: result.InvoiceTransNo,
            MerchantID: KEYS.merchantId,
            MerchantOrderNo: result.MerchantOrderNo,
            RandomNum: result.RandomNum,
            TotalAmt: result.TotalAmt,
          },
          otherKeys,
        ),
      ),
    );
    expect(await wrongKey.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable", code: "check_code" });
    const otherMerchant = ezpay(() => ({
      Status: "SUCCESS",
      Message: "",
      Result: JSON.stringify({ ...issuedResult(), MerchantID: "3430112" }),
    }));
    expect(await otherMerchant.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable" });
    const otherOrder = ezpay(() => success(issuedResult("PT261129ZZZZZZE1")));
    expect(await otherOrder.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable" });
    const otherAmount = ezpay(() => success(issuedResult(request.relateNumber, 6_000)));
    expect(await otherAmount.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable" });
    const noNumber = ezpay(() => success({ ...issuedResult(), InvoiceNumber: "" }));
    expect(await noNumber.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable" });
    const notJson = ezpay(() => new Response("<html>維護中</html>", { status: 200 }));
    expect(await notJson.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable" });
  });

  it("reads HTTP 5xx, a 403 (ezPay documents no 'too fast') and network failures as unavailable", async () => {
    expect(await ezpay(() => new Response("", { status: 502 })).provider.issue(request)).toMatchObject({
      ok: false,
      kind: "unavailable",
      code: "502",
    });
    expect(await ezpay(() => new Response("Forbidden", { status: 403 })).provider.issue(request)).toMatchObject({
      ok: false,
      kind: "unavailable",
      code: "403",
    });
    const down = ezpayEinvoice({ keys: KEYS, mode: "test", fetcher: () => Promise.reject(new Error("connect ECONNREFUSED")) });
    expect(await down.issue(request)).toMatchObject({ ok: false, kind: "unavailable", message: expect.stringContaining("ECONNREFUSED") });
  });

  it("gives up a call that does not answer within ECPay's deadline, as unavailable", async () => {
    expect(ECPAY_CALL_TIMEOUT_MS).toBe(10_000);
    const silent = ezpayEinvoice({
      keys: KEYS,
      mode: "test",
      callTimeoutMs: 50,
      fetcher: (asked) =>
        new Promise<Response>((_, reject) => asked.signal.addEventListener("abort", () => reject(asked.signal.reason as Error))),
    });
    expect(await silent.issue(request)).toMatchObject({
      ok: false,
      kind: "unavailable",
      message: expect.stringMatching(/^invoice_issue: /),
    });
  });

  it("uses the production host in production mode", async () => {
    const urls: string[] = [];
    const live = ezpayEinvoice({
      keys: KEYS,
      mode: "production",
      fetcher: async (asked) => {
        urls.push(asked.url);
        return Response.json(success(issuedResult()));
      },
    });
    await live.issue(request);
    expect(urls).toEqual(["https://inv.ezpay.com.tw/Api/invoice_issue"]);
  });

  it("holds with Status 0, then triggers at invoice_touch_issue with the InvoiceTransNo read back by invoice_search", async () => {
    const held = {
      InvoiceTransNo: "25112912000099999",
      MerchantOrderNo: request.relateNumber,
      TotalAmt: request.amount,
      RandomNum: "",
      InvoiceNumber: "",
    };
    const { sent, provider } = ezpay((call) => {
      if (call.url.endsWith("/invoice_issue")) return success(held);
      if (call.url.endsWith("/invoice_search")) return success({ ...held, CreateTime: "" });
      return success({ ...issuedResult(), InvoiceTransNo: held.InvoiceTransNo });
    });
    expect(await provider.delayIssue(request)).toEqual({ ok: true, value: { held: true } });
    expect(sent[0]?.post).toMatchObject({ Status: "0", MerchantOrderNo: request.relateNumber, TotalAmt: "6600" });
    expect(await provider.getIssue(request.relateNumber, { amount: 6_600 })).toEqual({ ok: true, value: { found: true, delayed: true } });
    expect(sent[1]?.post).toMatchObject({ SearchType: "1", MerchantOrderNo: request.relateNumber, TotalAmt: "6600", Version: "1.3" });
    expect(await provider.triggerIssue(request.relateNumber, { amount: 6_600 })).toEqual({
      ok: true,
      value: { number: "AB12345678", randomNumber: "6868", issuedOn: "2026-11-29" },
    });
    expect(sent.map((call) => call.url.replace("https://cinv.ezpay.com.tw/Api/", ""))).toEqual([
      "invoice_issue",
      "invoice_search",
      "invoice_search",
      "invoice_touch_issue",
    ]);
    expect(sent[3]?.post).toMatchObject({
      InvoiceTransNo: "25112912000099999",
      MerchantOrderNo: request.relateNumber,
      TotalAmt: "6600",
      Version: "1.0",
    });
  });

  it("refuses, without asking, to look up or trigger by relate number without the invoice's total", async () => {
    const { sent, provider } = ezpay(() => success(issuedResult()));
    expect(await provider.getIssue(request.relateNumber)).toMatchObject({ ok: false, kind: "refused", code: "local" });
    expect(await provider.triggerIssue(request.relateNumber)).toMatchObject({ ok: false, kind: "refused", code: "local" });
    expect(sent).toEqual([]);
  });

  it("looks an issued invoice up, verified, and reads a voided one (InvoiceStatus 2)", async () => {
    const { provider } = ezpay(() => success({ ...issuedResult(), InvoiceStatus: "2" }));
    expect(await provider.getIssue(request.relateNumber, { amount: 6_600 })).toEqual({
      ok: true,
      value: {
        found: true,
        delayed: false,
        invoice: { number: "AB12345678", randomNumber: "6868", issuedOn: "2026-11-29" },
        amount: 6_600,
        voided: true,
      },
    });
    const forged = ezpay(() => success({ ...issuedResult(), InvoiceStatus: "1" }, "F".repeat(64)));
    expect(await forged.provider.getIssue(request.relateNumber, { amount: 6_600 })).toMatchObject({ ok: false, kind: "unavailable" });
  });

  it("voids at invoice_invalid with the number and reason, and believes only an answer naming that invoice", async () => {
    const { sent, provider } = ezpay(() => success({ InvoiceNumber: "AB12345678", CreateTime: "2026-11-29 13:00:00" }));
    expect(await provider.invalid({ number: "AB12345678", issuedOn: "2026-11-29", reason: "訂房變更" })).toEqual({
      ok: true,
      value: { number: "AB12345678" },
    });
    expect(sent[0]?.url).toBe("https://cinv.ezpay.com.tw/Api/invoice_invalid");
    expect(sent[0]?.post).toMatchObject({ InvoiceNumber: "AB12345678", InvalidReason: "訂房變更", Version: "1.0" });
    const other = ezpay(() => success({ InvoiceNumber: "AB00000000" }));
    expect(await other.provider.invalid({ number: "AB12345678", issuedOn: "2026-11-29", reason: "x" })).toMatchObject({
      ok: false,
      kind: "unavailable",
    });
  });

  const allowanceRequest: AllowanceRequest = {
    number: "AB12345678",
    issuedOn: "2026-09-01",
    amount: 1_000,
    items: [{ name: "住宿費用退款折讓", count: 1, word: "式", price: 1_000, amount: 1_000 }],
    customerName: "王小明",
    email: "guest@example.com",
    relateNumber: "PT261129ABCDEFE1",
  };

  it("makes an allowance at allowance_issue, confirmed at once (Status 1), items untaxed with their tax beside, and reads what remains", async () => {
    const { sent, provider } = ezpay(() =>
      success({
        AllowanceNo: "A251129120000123",
        InvoiceNumber: "AB12345678",
        MerchantOrderNo: "PT261129ABCDEFE1",
        AllowanceAmt: 1_000,
        RemainAmt: 5_600,
      }),
    );
    expect(await provider.allowance(allowanceRequest)).toEqual({
      ok: true,
      value: { allowanceNumber: "A251129120000123", remaining: 5_600 },
    });
    expect(sent[0]?.url).toBe("https://cinv.ezpay.com.tw/Api/allowance_issue");
    expect(sent[0]?.post).toMatchObject({
      Version: "1.3",
      InvoiceNo: "AB12345678",
      MerchantOrderNo: "PT261129ABCDEFE1",
      ItemName: "住宿費用退款折讓",
      ItemCount: "1",
      ItemUnit: "式",
      ItemPrice: "952",
      ItemAmt: "952",
      ItemTaxAmt: "48",
      TotalAmt: "1000",
      BuyerEmail: "guest@example.com",
      Status: "1",
    });
    expect(sum(sent[0]?.post.ItemAmt) + sum(sent[0]?.post.ItemTaxAmt)).toBe(1_000);
  });

  it("believes no allowance answer without its number or for another invoice, and asks nothing without the relate number", async () => {
    const bare = ezpay(() => success({ InvoiceNumber: "AB12345678" }));
    expect(await bare.provider.allowance(allowanceRequest)).toMatchObject({ ok: false, kind: "unavailable" });
    const other = ezpay(() => success({ AllowanceNo: "A251129120000123", InvoiceNumber: "ZZ00000000" }));
    expect(await other.provider.allowance(allowanceRequest)).toMatchObject({ ok: false, kind: "unavailable" });
    const { sent, provider } = ezpay(() => success({}));
    expect(await provider.allowance({ ...allowanceRequest, relateNumber: undefined })).toMatchObject({ ok: false, kind: "refused" });
    expect(sent).toEqual([]);
  });

  it("voids an allowance at allowanceInvalid, never at the allowance endpoint (a known mistake)", async () => {
    const { sent, provider } = ezpay(() => success({ AllowanceNo: "A251129120000123", CreateTime: "2026-11-29 13:00:00" }));
    expect(await provider.allowanceInvalid({ number: "AB12345678", allowanceNumber: "A251129120000123", reason: "訂房變更" })).toEqual({
      ok: true,
      value: { number: "AB12345678" },
    });
    expect(sent.map((call) => call.url)).toEqual(["https://cinv.ezpay.com.tw/Api/allowanceInvalid"]);
    expect(sent[0]?.post).toMatchObject({ AllowanceNo: "A251129120000123", InvalidReason: "訂房變更", Version: "1.0" });
  });

  it("answers what ezPay does not offer as unavailable ('unsupported'), without asking: so a remote check says nothing and the booking goes on", async () => {
    const { sent, provider } = ezpay(() => success({}));
    for (const answer of [
      await provider.checkBarcode("/ABC+123"),
      await provider.checkLoveCode("168"),
      await provider.companyName("04595257"),
      await provider.cancelDelayIssue(request.relateNumber),
      await provider.allowanceByCollegiate({
        ...allowanceRequest,
        returnUrl: "https://hotel.example.com/api/einvoice/allowance-consent/1",
      }),
    ])
      expect(answer).toMatchObject({ ok: false, kind: "unavailable", code: "unsupported" });
    expect(sent).toEqual([]);
  });
});

describe("the hotel's provider", () => {
  const config: HotelInvoicing = {
    hotel_id: 7,
    domain: "hotel.example.com",
    issuer: "portico_at_payment",
    provider: "ezpay",
    mode: "test",
    seller_tax_id: "04595257",
    merchant_id: KEYS.merchantId,
    secrets: { hash_key: "EZPAY_EINVOICE_HOTEL_HASHKEY", hash_iv: "EZPAY_EINVOICE_HOTEL_HASHIV" },
    allowance_mode: "immediate",
    provider_rest_until: null,
  };
  const secrets: Record<string, string> = { EZPAY_EINVOICE_HOTEL_HASHKEY: KEYS.hashKey, EZPAY_EINVOICE_HOTEL_HASHIV: KEYS.hashIv };

  it("is ezPay's adapter, with the hotel's merchant id and the keys from the Worker secrets its file names, at the host of its mode", async () => {
    for (const mode of ["test", "production"] as const) {
      const asked: { url: string; body: string }[] = [];
      const provider = einvoiceProvider(
        { ...config, mode },
        {
          // Never reached: the database is written only after an HTTP 403, which ezPay's adapter never reports as one.
          db: undefined as unknown as D1Database,
          secret: (name) => secrets[name],
          fetcher: async (request) => {
            asked.push({ url: request.url, body: await request.text() });
            return Response.json(success(issuedResult()));
          },
          testGateway: false,
        },
      );
      expect(await provider.issue(request)).toMatchObject({ ok: true, value: { number: "AB12345678" } });
      const form = new URLSearchParams(asked[0]?.body);
      expect(asked[0]?.url).toBe(
        mode === "test" ? "https://cinv.ezpay.com.tw/Api/invoice_issue" : "https://inv.ezpay.com.tw/Api/invoice_issue",
      );
      expect(form.get("MerchantID_")).toBe(KEYS.merchantId);
      expect(new URLSearchParams(oracleDecrypt(form.get("PostData_") ?? "")).get("MerchantOrderNo")).toBe(request.relateNumber);
    }
  });

  it("is a clear configuration error when a named secret is not set", () => {
    expect(() =>
      einvoiceProvider(config, { db: undefined as unknown as D1Database, secret: () => undefined, fetcher: fetch, testGateway: false }),
    ).toThrow(new EinvoiceConfigError("e-invoice: the Worker secret for hash_key (EZPAY_EINVOICE_HOTEL_HASHKEY) is not set"));
  });
});
