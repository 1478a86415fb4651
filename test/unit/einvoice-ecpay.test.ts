import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  decryptData,
  ECPAY_EINVOICE_TEST_KEYS,
  ECPAY_CALL_TIMEOUT_MS,
  ecpayEinvoice,
  ecpayTaipeiInstant,
  einvoiceCheckMacValue,
  encryptData,
  readCollegiateCallback,
} from "~/backend/einvoice/ecpay.server";
import type { IssueRequest } from "~/backend/einvoice/provider";
import { md5Hex } from "~/lib/md5";

/**
 * ECPay's B2C e-invoice adapter (decision 159) against the published vectors (shared integrations
 * notes) and ECPay's documented request and answer shapes. The encryption is checked with Node's
 * own crypto as an independent oracle; the adapter's calls reach a stand-in for ECPay at its fetch
 * parameter, which answers as ECPay documents and keeps every request.
 */

const KEYS = ECPAY_EINVOICE_TEST_KEYS;
const VECTOR_JSON = '{"Name":"Test","ID":"A123456789"}';
const VECTOR_DATA = "uvI4yrErM37XNQkXGAgRgJAgHn2t72jahaMZzYhWL1HmvH4WV18VJDP2i9pTbC+tby5nxVExLLFyAkbjbS2Dvg==";

/** Node's AES-128-CBC, the oracle: encrypt a URL-encoded text, decrypt to one. */
const oracleEncrypt = (text: string, key: string = KEYS.hashKey) => {
  const cipher = createCipheriv("aes-128-cbc", key, KEYS.hashIv);
  return Buffer.concat([cipher.update(text, "utf8"), cipher.final()]).toString("base64");
};
const oracleDecrypt = (data: string) => {
  const decipher = createDecipheriv("aes-128-cbc", KEYS.hashKey, KEYS.hashIv);
  return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
};
const answerData = (value: unknown, key?: string) => oracleEncrypt(encodeURIComponent(JSON.stringify(value)), key);

describe("the published vectors", () => {
  it("the oracle reproduces ECPay's example", () => {
    expect(oracleEncrypt(encodeURIComponent(VECTOR_JSON))).toBe(VECTOR_DATA);
  });

  it("encrypts ECPay's example to its published Data", async () => {
    expect(await encryptData(JSON.parse(VECTOR_JSON), KEYS)).toBe(VECTOR_DATA);
  });

  it("decrypts it back, and decrypts the same text %-encoded in lowercase", async () => {
    expect(await decryptData(VECTOR_DATA, KEYS)).toEqual({ Name: "Test", ID: "A123456789" });
    const lower = encodeURIComponent(VECTOR_JSON).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
    expect(lower).toContain("%7b%22Name%22%3a");
    expect(await decryptData(oracleEncrypt(lower), KEYS)).toEqual({ Name: "Test", ID: "A123456789" });
  });

  it("reads a + as a space, as ECPay's .NET encoding writes one", async () => {
    expect(await decryptData(oracleEncrypt("%7B%22InvoiceDate%22%3A%222019-09-18+13%3A13%3A23%22%7D"), KEYS)).toEqual({
      InvoiceDate: "2019-09-18 13:13:23",
    });
  });

  it("refuses Data that is not base64, not whole blocks, or not ours", async () => {
    expect(await decryptData("not base64!", KEYS)).toBeNull();
    expect(await decryptData("AAAA", KEYS)).toBeNull();
    expect(await decryptData(answerData({ RtnCode: 1 }, "0123456789abcdef"), KEYS)).toBeNull();
  });

  it("signs a callback with the MD5 CheckMacValue of the notes' vector", () => {
    const fields = {
      RtnCode: "1",
      RtnMsg: "",
      IA_Allow_No: "1909181313013546",
      IA_Invoice_No: "UV11100019",
      IA_Date: "2019-09-18 13:13:23",
      IIS_Remain_Allowance_Amt: "0",
    };
    expect(einvoiceCheckMacValue(fields, KEYS)).toBe("50A276E71DAE26343013958B405EEEA0");
  });

  it("MD5 is RFC 1321's (its appendix A.5 suite) and Node's", () => {
    const suite: [string, string][] = [
      ["", "d41d8cd98f00b204e9800998ecf8427e"],
      ["a", "0cc175b9c0f1b6a831c399e269772661"],
      ["abc", "900150983cd24fb0d6963f7d28e17f72"],
      ["message digest", "f96b697d7cb7938d525a2f31aaf161d0"],
      ["abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"],
      ["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"],
      ["1234567890".repeat(8), "57edf4a22be3c955ac49da2e2107b67a"],
    ];
    for (const [text, digest] of suite) expect(md5Hex(text)).toBe(digest);
    for (const length of [55, 56, 63, 64, 65, 1000]) {
      const text = "電".repeat(length);
      expect(md5Hex(text)).toBe(createHash("md5").update(text).digest("hex"));
    }
  });
});

describe("the allowance-consent callback", () => {
  const signed = (fields: Record<string, string>) => {
    const form = new URLSearchParams(fields);
    form.set("CheckMacValue", einvoiceCheckMacValue(fields, KEYS));
    return form;
  };
  const fields = {
    RtnCode: "1",
    RtnMsg: "",
    IA_Allow_No: "1909181313013546",
    IA_Invoice_No: "UV11100019",
    IA_Date: "2019-09-18 13:13:23",
    IIS_Remain_Allowance_Amt: "0",
  };

  it("is read when signed with our keys", () => {
    expect(readCollegiateCallback(signed(fields), KEYS)).toEqual({
      ok: true,
      consented: true,
      allowanceNumber: "1909181313013546",
      invoiceNumber: "UV11100019",
      remaining: 0,
    });
  });

  it("is refused when a field was changed, a field doubled, or the signature is missing", () => {
    const changed = signed(fields);
    changed.set("IIS_Remain_Allowance_Amt", "100");
    expect(readCollegiateCallback(changed, KEYS)).toEqual({ ok: false, reason: "CheckMacValue mismatch" });
    const doubled = signed(fields);
    doubled.append("RtnCode", "1");
    expect(readCollegiateCallback(doubled, KEYS).ok).toBe(false);
    expect(readCollegiateCallback(new URLSearchParams(fields), KEYS)).toEqual({ ok: false, reason: "no CheckMacValue" });
  });
});

// ---------------------------------------------------------------------------------------------
// A stand-in for ECPay at the adapter's fetch.

interface Sent {
  url: string;
  body: { MerchantID: string; RqHeader: { Timestamp: number; Revision: string }; Data: string };
  data: Record<string, unknown>;
}

function ecpay(answer: (path: string, data: Record<string, unknown>) => Response | Record<string, unknown>) {
  const sent: Sent[] = [];
  const fetcher = async (request: Request) => {
    const body = (await request.json()) as Sent["body"];
    const data = JSON.parse(decodeURIComponent(oracleDecrypt(body.Data))) as Record<string, unknown>;
    sent.push({ url: request.url, body, data });
    const path = new URL(request.url).pathname.replace("/B2CInvoice/", "");
    const result = answer(path, data);
    if (result instanceof Response) return result;
    return Response.json({
      PlatformID: "",
      MerchantID: KEYS.merchantId,
      RpHeader: { Timestamp: 1_700_000_000 },
      TransCode: 1,
      TransMsg: "Success",
      Data: answerData(result),
    });
  };
  const now = new Date("2026-11-29T04:00:00Z");
  return { sent, provider: ecpayEinvoice({ keys: { ...KEYS }, mode: "test", fetcher, now: () => now }) };
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

describe("the adapter's calls", () => {
  it("issues: a JSON body with RqHeader (Timestamp, Revision 3.0.0), Data as ECPay documents, and reads the number back", async () => {
    const { sent, provider } = ecpay(() => ({
      RtnCode: 1,
      RtnMsg: "開立發票成功",
      InvoiceNo: "UV11100019",
      InvoiceDate: "2026-11-29+12:00:00",
      RandomNumber: "6868",
    }));
    expect(await provider.issue(request)).toEqual({
      ok: true,
      value: { number: "UV11100019", randomNumber: "6868", issuedOn: "2026-11-29" },
    });
    const [call] = sent;
    expect(call?.url).toBe("https://einvoice-stage.ecpay.com.tw/B2CInvoice/Issue");
    expect(call?.body.MerchantID).toBe("2000132");
    expect(call?.body.RqHeader).toEqual({ Timestamp: Date.parse("2026-11-29T04:00:00Z") / 1000, Revision: "3.0.0" });
    expect(call?.data).toMatchObject({
      MerchantID: "2000132",
      RelateNumber: "PT261129ABCDEFE1",
      CustomerIdentifier: "",
      CustomerEmail: "guest@example.com",
      Print: "0",
      Donation: "0",
      CarrierType: "3",
      CarrierNum: "/ABC+123",
      TaxType: "1",
      SalesAmount: 6_600,
      InvType: "07",
      vat: "1",
    });
    expect(call?.data.Items).toEqual([
      { ItemSeq: 1, ItemName: "雙人房 - 含早方案", ItemCount: 2, ItemWord: "間夜", ItemPrice: 3_000, ItemTaxType: "1", ItemAmount: 6_000 },
      { ItemSeq: 2, ItemName: "接駁車", ItemCount: 2, ItemWord: "份", ItemPrice: 300, ItemTaxType: "1", ItemAmount: 600 },
    ]);
  });

  it("sends a company invoice printed with its 統一編號, name and address, and a donation with its code", async () => {
    const { sent, provider } = ecpay(() => ({
      RtnCode: 1,
      RtnMsg: "",
      InvoiceNo: "UV11100020",
      InvoiceDate: "2026-11-29 12:00:00",
      RandomNumber: "0001",
    }));
    await provider.issue({
      ...request,
      buyer: { kind: "company", taxId: "04595257", companyName: "波提科股份有限公司", companyAddress: "臺北市", email: "ap@example.com" },
    });
    expect(sent[0]?.data).toMatchObject({
      CustomerIdentifier: "04595257",
      CustomerName: "波提科股份有限公司",
      CustomerAddr: "臺北市",
      Print: "1",
      Donation: "0",
      CarrierType: "",
    });
    await provider.issue({ ...request, buyer: { kind: "donation", loveCode: "168", email: "guest@example.com" } });
    expect(sent[1]?.data).toMatchObject({ CustomerIdentifier: "", Print: "0", Donation: "1", LoveCode: "168", CarrierType: "" });
  });

  it("refuses, without asking, items that do not add up to the amount (ECPay's 1200031)", async () => {
    const { sent, provider } = ecpay(() => ({ RtnCode: 1 }));
    const answer = await provider.issue({ ...request, amount: 6_601 });
    expect(answer).toMatchObject({ ok: false, kind: "refused", code: "1200031" });
    expect(sent).toEqual([]);
  });

  it("reads ECPay's refusal 1200031 as refused, with its code and message", async () => {
    const { provider } = ecpay(() => ({ RtnCode: 1200031, RtnMsg: "發票金額與商品合計金額不符" }));
    const answer = await provider.issue(request);
    expect(answer).toMatchObject({ ok: false, kind: "refused", code: "1200031" });
    if (!answer.ok) expect(answer.message).toContain("發票金額與商品合計金額不符");
  });

  it("reads HTTP 403 as rate limited (wait 30 minutes), other statuses and network failures as unavailable", async () => {
    expect(await ecpay(() => new Response("Forbidden", { status: 403 })).provider.issue(request)).toMatchObject({
      ok: false,
      kind: "rate_limited",
      code: "403",
    });
    expect(await ecpay(() => new Response("", { status: 502 })).provider.issue(request)).toMatchObject({
      ok: false,
      kind: "unavailable",
      code: "502",
    });
    const down = ecpayEinvoice({ keys: { ...KEYS }, mode: "test", fetcher: () => Promise.reject(new Error("connect ECONNREFUSED")) });
    expect(await down.issue(request)).toMatchObject({ ok: false, kind: "unavailable" });
  });

  it("gives up a call that does not answer within its deadline, as unavailable", async () => {
    expect(ECPAY_CALL_TIMEOUT_MS).toBe(10_000);
    // A provider that never answers: only the request's own deadline ends the wait.
    const silent = ecpayEinvoice({
      keys: { ...KEYS },
      mode: "test",
      callTimeoutMs: 50,
      fetcher: (asked) =>
        new Promise<Response>((_, reject) => asked.signal.addEventListener("abort", () => reject(asked.signal.reason as Error))),
    });
    expect(await silent.issue(request)).toMatchObject({ ok: false, kind: "unavailable", message: expect.stringMatching(/^Issue: /) });
  });

  it("believes no answer it cannot verify: TransCode not 1, another merchant, Data not under our key, no invoice number", async () => {
    const transport = ecpay(() => Response.json({ MerchantID: KEYS.merchantId, TransCode: 999, TransMsg: "解密失敗", Data: "" }));
    expect(await transport.provider.issue(request)).toMatchObject({ ok: false, kind: "refused", code: "999" });
    const other = ecpay(() =>
      Response.json({
        MerchantID: "3002607",
        TransCode: 1,
        Data: answerData({ RtnCode: 1, InvoiceNo: "UV11100019", RandomNumber: "6868", InvoiceDate: "2026-11-29" }),
      }),
    );
    expect(await other.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable" });
    const forged = ecpay(() =>
      Response.json({
        MerchantID: KEYS.merchantId,
        TransCode: 1,
        Data: answerData({ RtnCode: 1, InvoiceNo: "UV11100019" }, "0123456789abcdef"),
      }),
    );
    expect(await forged.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable" });
    const bare = ecpay(() => ({ RtnCode: 1, RtnMsg: "OK" }));
    expect(await bare.provider.issue(request)).toMatchObject({ ok: false, kind: "unavailable" });
  });

  it("holds with DelayIssue (DelayFlag 2) and triggers with TriggerIssue, reading the number back by GetIssue", async () => {
    const { sent, provider } = ecpay((path) =>
      path === "GetIssue"
        ? {
            RtnCode: 1,
            IIS_Number: "UV11100021",
            IIS_Random_Number: "4321",
            IIS_Create_Date: "2026-12-02 11:00:00",
            IIS_Sales_Amount: 6_600,
            IIS_Invalid_Status: "0",
          }
        : { RtnCode: 1, RtnMsg: "OK", OrderNumber: "PT261129ABCDEFE1" },
    );
    expect(await provider.delayIssue(request)).toEqual({ ok: true, value: { held: true } });
    expect(sent[0]?.data).toMatchObject({ DelayFlag: "2", Tsr: "PT261129ABCDEFE1", SalesAmount: 6_600 });
    expect(await provider.triggerIssue("PT261129ABCDEFE1")).toEqual({
      ok: true,
      value: { number: "UV11100021", randomNumber: "4321", issuedOn: "2026-12-02" },
    });
    expect(sent.map((call) => new URL(call.url).pathname)).toEqual([
      "/B2CInvoice/DelayIssue",
      "/B2CInvoice/TriggerIssue",
      "/B2CInvoice/GetIssue",
    ]);
  });

  it("voids an allowance at AllowanceInvalid, never at the allowance endpoint (a known mistake)", async () => {
    const { sent, provider } = ecpay(() => ({ RtnCode: 1, RtnMsg: "作廢折讓成功", IA_Invoice_No: "UV11100019" }));
    await provider.allowanceInvalid({ number: "UV11100019", allowanceNumber: "1909181313013546", reason: "取消" });
    expect(new URL(sent[0]?.url ?? "").pathname).toBe("/B2CInvoice/AllowanceInvalid");
    expect(sent[0]?.data).toEqual({ MerchantID: "2000132", InvoiceNo: "UV11100019", AllowanceNo: "1909181313013546", Reason: "取消" });
  });

  it("makes an allowance and reads its number and what remains", async () => {
    const { sent, provider } = ecpay(() => ({
      RtnCode: 1,
      RtnMsg: "成功",
      IA_Allow_No: "1909181313013546",
      IA_Invoice_No: "UV11100019",
      IA_Date: "2019-09-18 13:13:23",
      IA_Remain_Allowance_Amt: 1_000,
    }));
    const answer = await provider.allowance({
      number: "UV11100019",
      issuedOn: "2026-09-18",
      amount: 600,
      customerName: "王小明",
      email: "guest@example.com",
      items: [{ name: "取消訂房退款", count: 1, word: "式", price: 600, amount: 600 }],
    });
    expect(answer).toEqual({ ok: true, value: { allowanceNumber: "1909181313013546", remaining: 1_000 } });
    expect(sent[0]?.data).toMatchObject({
      InvoiceNo: "UV11100019",
      InvoiceDate: "2026-09-18",
      AllowanceAmount: 600,
      AllowanceNotify: "E",
      NotifyMail: "guest@example.com",
    });
  });

  it("asks an allowance by the buyer's consent at AllowanceByCollegiate with the ReturnURL, and reads until when the buyer may agree (Taipei time)", async () => {
    // The answer as ECPay's SDK (AllowanceByCollegiateResult) and O'Pay's i100 document give it (decision 167).
    const { sent, provider } = ecpay(() => ({
      RtnCode: 1,
      RtnMsg: "折讓單資料新增成功",
      IA_Allow_No: "1909181313013546",
      IA_Invoice_No: "UV11100019",
      IA_TempDate: "2019-09-18 13:13:23",
      IA_TempExpireDate: "2019-09-21 13:13:23",
      IA_Remain_Allowance_Amt: 0,
    }));
    const answer = await provider.allowanceByCollegiate({
      number: "UV11100019",
      issuedOn: "2019-09-17",
      amount: 600,
      customerName: "王小明",
      email: "guest@example.com",
      items: [{ name: "取消訂房退款", count: 1, word: "式", price: 600, amount: 600 }],
      returnUrl: "https://lakeside.example/api/einvoice/allowance-consent/7",
    });
    expect(answer).toEqual({
      ok: true,
      value: { allowanceNumber: "1909181313013546", remaining: 0, expiresAt: "2019-09-21T05:13:23.000Z" },
    });
    expect(new URL(sent[0]?.url ?? "").pathname).toBe("/B2CInvoice/AllowanceByCollegiate");
    expect(sent[0]?.data).toMatchObject({
      AllowanceNotify: "E",
      NotifyMail: "guest@example.com",
      ReturnURL: "https://lakeside.example/api/einvoice/allowance-consent/7",
    });
    expect(ecpayTaipeiInstant("2019/09/21 13:13:23")).toBe("2019-09-21T05:13:23.000Z");
    expect(ecpayTaipeiInstant("21/09/2019")).toBe("");
  });

  it("voids an invoice with its date and reason", async () => {
    const { sent, provider } = ecpay(() => ({ RtnCode: 1, RtnMsg: "作廢發票成功", InvoiceNo: "UV11100019" }));
    expect(await provider.invalid({ number: "UV11100019", issuedOn: "2026-11-29", reason: "訂房取消" })).toEqual({
      ok: true,
      value: { number: "UV11100019" },
    });
    expect(sent[0]?.data).toEqual({ MerchantID: "2000132", InvoiceNo: "UV11100019", InvoiceDate: "2026-11-29", Reason: "訂房取消" });
  });

  it("looks an invoice up by relate number; 1600003 is 'none'", async () => {
    const none = ecpay(() => ({ RtnCode: 1600003, RtnMsg: "查無發票資料" }));
    expect(await none.provider.getIssue("PT261129ABCDEFE9")).toEqual({ ok: true, value: { found: false } });
    const voided = ecpay(() => ({
      RtnCode: 1,
      IIS_Number: "UV11100019",
      IIS_Random_Number: "6868",
      IIS_Create_Date: "2026-11-29 12:00:00",
      IIS_Sales_Amount: 6_600,
      IIS_Invalid_Status: "1",
    }));
    expect(await voided.provider.getIssue("PT261129ABCDEFE1")).toEqual({
      ok: true,
      value: {
        found: true,
        delayed: false,
        invoice: { number: "UV11100019", randomNumber: "6868", issuedOn: "2026-11-29" },
        amount: 6_600,
        voided: true,
      },
    });
  });

  it("checks a barcode and a donation code (advice only)", async () => {
    const { sent, provider } = ecpay((path) => ({ RtnCode: 1, RtnMsg: "", IsExist: path === "CheckBarcode" ? "Y" : "N" }));
    expect(await provider.checkBarcode("/ABC+123")).toEqual({ ok: true, value: { exists: true } });
    expect(await provider.checkLoveCode("168")).toEqual({ ok: true, value: { exists: false } });
    expect(sent.map((call) => call.data)).toEqual([
      { MerchantID: "2000132", BarCode: "/ABC+123" },
      { MerchantID: "2000132", LoveCode: "168" },
    ]);
  });

  it("takes a check's answer without IsExist Y or N (no data) as a failure, never as 'does not exist'", async () => {
    for (const said of [{}, { IsExist: "" }, { IsExist: "?" }]) {
      const { provider } = ecpay(() => ({ RtnCode: 1, RtnMsg: "", ...said }));
      const barcode = await provider.checkBarcode("/ABC+123");
      expect(barcode.ok).toBe(false);
      if (!barcode.ok) expect([barcode.kind, barcode.code]).toEqual(["unavailable", "no_data"]);
      expect((await provider.checkLoveCode("168")).ok).toBe(false);
    }
    // ECPay's refusal of the check itself (RtnCode not 1) is a failure too: advice only.
    const { provider } = ecpay(() => ({ RtnCode: 9000001, RtnMsg: "查無資料" }));
    const refused = await provider.checkBarcode("/ABC+123");
    expect(refused.ok ? "ok" : refused.kind).toBe("refused");
  });

  it("asks GetCompanyNameByTaxID for a 統一編號's registered name, in the envelope and under the key of every call", async () => {
    const { sent, provider } = ecpay(() => ({ RtnCode: 1, RtnMsg: "查詢成功", CompanyName: " 範例旅行社股份有限公司 " }));
    expect(await provider.companyName("04595257")).toEqual({ ok: true, value: { name: "範例旅行社股份有限公司" } });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe("https://einvoice-stage.ecpay.com.tw/B2CInvoice/GetCompanyNameByTaxID");
    expect(sent[0]?.body.MerchantID).toBe("2000132");
    expect(sent[0]?.body.RqHeader).toEqual({ Timestamp: Math.floor(Date.parse("2026-11-29T04:00:00Z") / 1000), Revision: "3.0.0" });
    // Data decrypted by Node's own AES (the oracle): the merchant and the number, nothing else.
    expect(sent[0]?.data).toEqual({ MerchantID: "2000132", UnifiedBusinessNo: "04595257" });
  });

  it("reads RtnCode 7 (查無資料) as no data, never as a refusal nor as another name", async () => {
    const { provider } = ecpay(() => ({ RtnCode: 7, RtnMsg: "查無資料" }));
    expect(await provider.companyName("10458575")).toEqual({ ok: true, value: { name: null } });
    // Success with an empty name says nothing either.
    const empty = ecpay(() => ({ RtnCode: 1, RtnMsg: "", CompanyName: "  " })).provider;
    expect(await empty.companyName("10458575")).toEqual({ ok: true, value: { name: null } });
  });

  it("takes the ministry's API down (9000001), a checksum refusal (1200125), a 403 and an unreadable answer as failures", async () => {
    const down = await ecpay(() => ({ RtnCode: 9000001, RtnMsg: "呼叫財政部API失敗" })).provider.companyName("04595257");
    expect(down).toMatchObject({ ok: false, kind: "unavailable", code: "9000001" });
    const checksum = await ecpay(() => ({ RtnCode: 1200125, RtnMsg: "統一編號檢查碼驗證失敗" })).provider.companyName("04595257");
    expect(checksum).toMatchObject({ ok: false, kind: "refused", code: "1200125" });
    const tooFast = await ecpay(() => new Response("Forbidden", { status: 403 })).provider.companyName("04595257");
    expect(tooFast).toMatchObject({ ok: false, kind: "rate_limited", code: "403" });
    // A TransCode 7 is the envelope's refusal, not the answer's "no data".
    const envelope = await ecpay(() =>
      Response.json({ MerchantID: KEYS.merchantId, RpHeader: {}, TransCode: 7, TransMsg: "Error", Data: "" }),
    ).provider.companyName("04595257");
    expect(envelope).toMatchObject({ ok: false, kind: "refused", code: "7" });
    // Data under another key, and Data that is no JSON: not believed.
    const foreign = await ecpay(() =>
      Response.json({
        MerchantID: KEYS.merchantId,
        RpHeader: {},
        TransCode: 1,
        TransMsg: "",
        Data: answerData({ RtnCode: 1, CompanyName: "X" }, "0123456789abcdef"),
      }),
    ).provider.companyName("04595257");
    expect(foreign).toMatchObject({ ok: false, kind: "unavailable" });
    const garbled = await ecpay(() =>
      Response.json({ MerchantID: KEYS.merchantId, RpHeader: {}, TransCode: 1, TransMsg: "", Data: oracleEncrypt("not json") }),
    ).provider.companyName("04595257");
    expect(garbled).toMatchObject({ ok: false, kind: "unavailable" });
  });
});
