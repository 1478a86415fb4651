import { createCipheriv, createDecipheriv, createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { paymentGateway } from "~/backend/payments/gateways/gateway";
import {
  PaymentConfigError,
  type Fetcher,
  type GatewayConfig,
  type PaymentGateway,
  type PaymentRequest,
} from "~/backend/payments/gateways/types";
import { PAYMENT_VENDORS } from "~/domain/payments";

/**
 * The four real payment adapters, called through the registry the back end uses (gateway.ts), each
 * against its provider's documented facts and published vectors (shared integrations notes,
 * decision 146). The signatures are checked with an implementation of this file's own on Node's
 * crypto, itself first checked against the published vector, never with the adapter's helpers.
 * Outgoing calls reach a stand-in at the adapter's own fetch parameter, which answers in the
 * documented shapes and keeps every request it was sent.
 */

// ---------------------------------------------------------------------------------------------
// Independent oracles (Node's crypto), each pinned to its published vector below.

/** ECPay's CheckMacValue as the notes spell it: sorted A→Z case-insensitively, .NET URL-encoding, lowercase, SHA256, uppercase. */
function ecpayMac(params: Record<string, string>, hashKey: string, hashIv: string): string {
  const names = Object.keys(params)
    .filter((name) => name !== "CheckMacValue")
    .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
  const raw = `HashKey=${hashKey}&${names.map((name) => `${name}=${params[name]}`).join("&")}&HashIV=${hashIv}`;
  // Byte by byte: letters, digits and - _ . ! * ( ) stay; a space is +; every other byte is %xx.
  let encoded = "";
  for (const byte of Buffer.from(raw, "utf8")) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.!*()]/.test(char)) encoded += char;
    else if (char === " ") encoded += "+";
    else encoded += `%${byte.toString(16).padStart(2, "0")}`;
  }
  return createHash("sha256").update(encoded.toLowerCase()).digest("hex").toUpperCase();
}

/** NewebPay's TradeInfo: AES-256-CBC of the text, lowercase hex; `padTo` 32 pads as NewebPay's own sample does. */
function newebEncrypt(text: string, hashKey: string, hashIv: string, padTo: 16 | 32 = 16): string {
  const bytes = Buffer.from(text, "utf8");
  const count = padTo - (bytes.length % padTo);
  const padded = Buffer.concat([bytes, Buffer.alloc(count, count)]);
  const cipher = createCipheriv("aes-256-cbc", Buffer.from(hashKey), Buffer.from(hashIv)).setAutoPadding(false);
  return Buffer.concat([cipher.update(padded), cipher.final()]).toString("hex");
}

function newebDecrypt(hex: string, hashKey: string, hashIv: string): string {
  const decipher = createDecipheriv("aes-256-cbc", Buffer.from(hashKey), Buffer.from(hashIv));
  return Buffer.concat([decipher.update(Buffer.from(hex, "hex")), decipher.final()]).toString("utf8");
}

const newebSha = (tradeInfo: string, hashKey: string, hashIv: string) =>
  createHash("sha256").update(`HashKey=${hashKey}&${tradeInfo}&HashIV=${hashIv}`).digest("hex").toUpperCase();

const linepayAuth = (secret: string, path: string, body: string, nonce: string) =>
  createHmac("sha256", secret)
    .update(secret + path + body + nonce)
    .digest("base64");

const jkoDigest = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");

// ---------------------------------------------------------------------------------------------
// The stand-in for the gateways' servers, at the adapters' fetch parameter.

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A fetch that answers each request with the next of `answers` (in order) and keeps what it was sent. */
function gatewayServer(...answers: ((sent: Sent) => Response)[]) {
  const sent: Sent[] = [];
  const fetcher: Fetcher = async (request) => {
    const call = { method: request.method, url: request.url, headers: request.headers, body: await request.text() };
    sent.push(call);
    const answer = answers[sent.length - 1];
    if (!answer) throw new Error(`unexpected call to the gateway: ${request.method} ${request.url}`);
    return answer(call);
  };
  return { sent, fetcher };
}

const json = (body: string) => () => new Response(body, { headers: { "content-type": "application/json" } });
const text = (body: string) => () => new Response(body, { headers: { "content-type": "text/html" } });

/** An adapter as the back end gets it: the hotel file's entry, the Worker secrets it names, a fetch. */
function adapter(
  config: GatewayConfig,
  secrets: Record<string, string>,
  fetcher: Fetcher = gatewayServer().fetcher,
): Promise<PaymentGateway> {
  return paymentGateway(config.vendor_id, [config], {
    secrets: (name) => secrets[name],
    signingSecret: "not-used-by-real-gateways",
    siteOrigin: "https://hotel.example",
    fetcher,
  });
}

const urls: PaymentRequest["urls"] = {
  notify: "https://hotel.example/api/payment/callback/1/6/return",
  paymentInfo: "https://hotel.example/api/payment/callback/1/6/info",
  browserReturn: "https://hotel.example/en-US/pay/1/H2607000001",
  confirm: "https://hotel.example/api/payment/linepay/1/4/confirm?back=%2Fen-US%2Fpay%2F1%2FH2607000001",
};

// ---------------------------------------------------------------------------------------------

describe("ECPay AIO adapter", () => {
  // ECPay's staging merchant of the published vector.
  const KEY = "pwFHCqoQZGmho4w6";
  const IV = "EkRm7iFT261dpevs";
  const config = (mode: "test" | "production" = "test"): GatewayConfig => ({
    vendor_id: PAYMENT_VENDORS.ECPAY,
    provider: "ecpay_aio",
    mode,
    merchant_id: "3002607",
    secrets: { hash_key: "PAY_ECPAY_KEY", hash_iv: "PAY_ECPAY_IV" },
  });
  const secrets = { PAY_ECPAY_KEY: KEY, PAY_ECPAY_IV: IV };
  const signed = (fields: Record<string, string>) =>
    new URLSearchParams({ ...fields, CheckMacValue: ecpayMac(fields, KEY, IV) }).toString();

  it("this file's CheckMacValue gives the published vector", () => {
    const vector = {
      TradeDesc: "促銷方案",
      PaymentType: "aio",
      MerchantTradeDate: "2023/03/12 15:30:23",
      MerchantTradeNo: "ecpay20230312153023",
      MerchantID: "3002607",
      ReturnURL: "https://www.ecpay.com.tw/receive.php",
      ItemName: "Apple iphone 15",
      TotalAmount: "30000",
      ChoosePayment: "ALL",
      EncryptType: "1",
    };
    expect(ecpayMac(vector, KEY, IV)).toBe("6C51C9E6888DE861FD62FB1DD17029FC742634498FD813DC43D4243B5685B840");
    // CheckMacValue itself is never signed.
    expect(ecpayMac({ ...vector, CheckMacValue: "anything" }, KEY, IV)).toBe(ecpayMac(vector, KEY, IV));
  });

  it("sends the browser to ECPay's staging checkout with a signed form, the trade date in Taiwan time", async () => {
    const server = gatewayServer();
    const gateway = await adapter(config(), secrets, server.fetcher);
    const start = await gateway.start({
      tradeNo: "H2607000001",
      amount: 30000,
      itemName: "Apple iphone 15",
      email: "mei@example.com",
      now: new Date("2023-03-12T07:30:23Z"),
      lang: "en-US",
      atmDays: 3,
      urls,
    });
    expect(start.kind).toBe("form");
    if (start.kind !== "form") return;
    expect(start.action).toBe("https://payment-stage.ecpay.com.tw/Cashier/AioCheckOut/V5");
    const { CheckMacValue, ...fields } = start.fields;
    expect(fields).toEqual({
      MerchantID: "3002607",
      MerchantTradeNo: "H2607000001",
      MerchantTradeDate: "2023/03/12 15:30:23",
      PaymentType: "aio",
      TotalAmount: "30000",
      TradeDesc: "Apple iphone 15",
      ItemName: "Apple iphone 15",
      ReturnURL: urls.notify,
      ChoosePayment: "ALL",
      EncryptType: "1",
      PaymentInfoURL: urls.paymentInfo,
      ClientBackURL: urls.browserReturn,
      ExpireDate: "3",
      Language: "ENG",
    });
    expect(CheckMacValue).toBe(ecpayMac(fields, KEY, IV));
    // The form is the whole start: nothing is sent to the gateway from the server.
    expect(server.sent).toEqual([]);
    expect(gateway.acknowledgement).toBe("1|OK");
  });

  it("uses ECPay's production checkout for a production merchant", async () => {
    const start = await (
      await adapter(config("production"), secrets)
    ).start({
      tradeNo: "H2607000001",
      amount: 100,
      itemName: "Room",
      email: "",
      now: new Date(),
      lang: "zh-TW",
      atmDays: 1,
      urls,
    });
    expect(start).toMatchObject({ kind: "form", action: "https://payment.ecpay.com.tw/Cashier/AioCheckOut/V5" });
    // Traditional Chinese is ECPay's own default: no Language field.
    expect(start.kind === "form" && "Language" in start.fields).toBe(false);
  });

  // A ReturnURL callback as ECPay posts it (its documented fields).
  const paid = {
    MerchantID: "3002607",
    MerchantTradeNo: "H2607000001",
    StoreID: "",
    RtnCode: "1",
    RtnMsg: "交易成功",
    TradeNo: "2303121530230001",
    TradeAmt: "30000",
    PaymentDate: "2023/03/12 15:35:10",
    PaymentType: "Credit_CreditCard",
    PaymentTypeChargeFee: "600",
    TradeDate: "2023/03/12 15:30:23",
    SimulatePaid: "0",
    CustomField1: "",
    CustomField2: "",
    CustomField3: "",
    CustomField4: "",
  };

  it("accepts a signed ReturnURL callback as paid by card, and reads a replay the same (it keeps no state)", async () => {
    const gateway = await adapter(config(), secrets);
    const body = signed(paid);
    const verdict = await gateway.verifyCallback("return", body, new Headers());
    expect(verdict).toMatchObject({
      ok: true,
      notice: {
        kind: "paid",
        tradeNo: "H2607000001",
        amount: 30000,
        currency: "TWD",
        gatewayTradeNo: "2303121530230001",
        simulated: false,
        paidWith: "credit",
      },
    });
    // ECPay repeats a callback until it reads 1|OK: the replay names the same trade and gateway
    // trade, which is what lets the back end land the payment once (decision 047).
    expect(await gateway.verifyCallback("return", body, new Headers())).toEqual(verdict);
  });

  it("refuses a tampered amount, a callback signed with other keys, another merchant's and an unsigned one", async () => {
    const gateway = await adapter(config(), secrets);
    const tampered = new URLSearchParams(signed(paid));
    tampered.set("TradeAmt", "3");
    expect(await gateway.verifyCallback("return", tampered.toString(), new Headers())).toEqual({
      ok: false,
      reason: "CheckMacValue mismatch",
    });
    const forged = new URLSearchParams({ ...paid, CheckMacValue: ecpayMac(paid, "5294y06JbISpM5x9", "v77hoKGq4kWxNNIS") });
    expect(await gateway.verifyCallback("return", forged.toString(), new Headers())).toMatchObject({ ok: false });
    expect(await gateway.verifyCallback("return", signed({ ...paid, MerchantID: "2000132" }), new Headers())).toEqual({
      ok: false,
      reason: "another merchant",
    });
    expect(await gateway.verifyCallback("return", new URLSearchParams(paid).toString(), new Headers())).toMatchObject({ ok: false });
  });

  it("reads a refused card as failed, with ECPay's message", async () => {
    const gateway = await adapter(config(), secrets);
    const verdict = await gateway.verifyCallback("return", signed({ ...paid, RtnCode: "10100058", RtnMsg: "付款失敗" }), new Headers());
    expect(verdict).toMatchObject({ ok: true, notice: { kind: "failed", tradeNo: "H2607000001", amount: 30000, message: "付款失敗" } });
  });

  it("takes a back-office simulation (SimulatePaid=1) as simulated on staging and never as money in production", async () => {
    const simulated = signed({ ...paid, SimulatePaid: "1" });
    expect(await (await adapter(config(), secrets)).verifyCallback("return", simulated, new Headers())).toMatchObject({
      ok: true,
      notice: { kind: "paid", simulated: true },
    });
    expect(await (await adapter(config("production"), secrets)).verifyCallback("return", simulated, new Headers())).toEqual({
      ok: false,
      reason: "SimulatePaid=1 in production",
    });
  });

  it("reads PaymentInfoURL: an ATM account issued (RtnCode 2) and a convenience-store code issued (10100073)", async () => {
    const gateway = await adapter(config(), secrets);
    const info = { MerchantID: "3002607", MerchantTradeNo: "H2607000001", StoreID: "", TradeNo: "2303121530230001", TradeAmt: "30000" };
    const atm = {
      ...info,
      RtnCode: "2",
      RtnMsg: "Get VirtualAccount Succeeded",
      PaymentType: "ATM_TAISHIN",
      TradeDate: "2023/03/12 15:30:23",
      BankCode: "812",
      vAccount: "9103522175887271",
      ExpireDate: "2023/03/15",
    };
    expect(await gateway.verifyCallback("payment_info", signed(atm), new Headers())).toEqual({
      ok: true,
      notice: {
        kind: "code_issued",
        tradeNo: "H2607000001",
        amount: 30000,
        currency: "TWD",
        gatewayTradeNo: "2303121530230001",
        paymentType: "ATM_TAISHIN",
        bankCode: "812",
        account: "9103522175887271",
        expireDate: "2023/03/15",
      },
    });
    const cvs = {
      ...info,
      RtnCode: "10100073",
      RtnMsg: "Get CVS Code Succeeded.",
      PaymentType: "CVS_CVS",
      TradeDate: "2023/03/12 15:30:23",
      PaymentNo: "LLL22251222",
      ExpireDate: "2023/03/19 15:30:23",
      Barcode1: "",
      Barcode2: "",
      Barcode3: "",
    };
    expect(await gateway.verifyCallback("payment_info", signed(cvs), new Headers())).toMatchObject({
      ok: true,
      notice: { kind: "code_issued", paymentType: "CVS_CVS", account: "LLL22251222", expireDate: "2023/03/19 15:30:23" },
    });
  });

  // QueryTradeInfo's documented answer: a form-encoded list, signed with CheckMacValue.
  const queryAnswer = (status: string) =>
    signed({
      CustomField1: "",
      CustomField2: "",
      CustomField3: "",
      CustomField4: "",
      HandlingCharge: "600",
      ItemName: "Apple iphone 15",
      MerchantID: "3002607",
      MerchantTradeNo: "H2607000001",
      PaymentDate: "2023/03/12 15:35:10",
      PaymentType: "Credit_CreditCard",
      PaymentTypeChargeFee: "600",
      StoreID: "",
      TradeAmt: "30000",
      TradeDate: "2023/03/12 15:30:23",
      TradeNo: "2303121530230001",
      TradeStatus: status,
    });

  it("queries a trade with a signed QueryTradeInfo and believes only a signed answer", async () => {
    const server = gatewayServer(text(queryAnswer("1")), text(queryAnswer("0")), () => {
      const answer = new URLSearchParams(queryAnswer("1"));
      answer.set("TradeAmt", "1");
      return new Response(answer.toString());
    });
    const gateway = await adapter(config(), secrets, server.fetcher);
    expect(await gateway.query("H2607000001", "2303121530230001", 30000)).toEqual({ paid: true, amount: 30000 });
    const [sent] = server.sent;
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe("https://payment-stage.ecpay.com.tw/Cashier/QueryTradeInfo/V5");
    const { CheckMacValue, ...fields } = Object.fromEntries(new URLSearchParams(sent?.body));
    expect(Object.keys(fields).sort()).toEqual(["MerchantID", "MerchantTradeNo", "TimeStamp"]);
    expect(fields).toMatchObject({ MerchantID: "3002607", MerchantTradeNo: "H2607000001" });
    expect(fields.TimeStamp).toMatch(/^\d{10}$/);
    expect(CheckMacValue).toBe(ecpayMac(fields, KEY, IV));
    // TradeStatus 0: not paid (yet).
    expect(await gateway.query("H2607000001", "2303121530230001", 30000)).toEqual({ paid: false, amount: 30000 });
    // An answer whose amount was changed on the way no longer matches its CheckMacValue: nothing is believed.
    expect(await gateway.query("H2607000001", "2303121530230001", 30000)).toBeNull();
  });

  it("refunds a card payment with a signed DoAction (Action R) and reports ECPay's answer", async () => {
    const server = gatewayServer(
      text("MerchantID=3002607&MerchantTradeNo=H2607000001&TradeNo=2303121530230001&RtnCode=1&RtnMsg="),
      text("MerchantID=3002607&MerchantTradeNo=H2607000001&TradeNo=2303121530230001&RtnCode=0&RtnMsg=Exceed+refund+amount"),
    );
    const gateway = await adapter(config(), secrets, server.fetcher);
    const payment = { tradeNo: "H2607000001", gatewayTradeNo: "2303121530230001", amount: 30000 };
    expect(await gateway.refund(payment, 9000)).toEqual({ ok: true, reason: "" });
    const [sent] = server.sent;
    expect(sent?.url).toBe("https://payment-stage.ecpay.com.tw/CreditDetail/DoAction");
    const { CheckMacValue, ...fields } = Object.fromEntries(new URLSearchParams(sent?.body));
    expect(fields).toEqual({
      MerchantID: "3002607",
      MerchantTradeNo: "H2607000001",
      TradeNo: "2303121530230001",
      Action: "R",
      TotalAmount: "9000",
    });
    expect(CheckMacValue).toBe(ecpayMac(fields, KEY, IV));
    expect(await gateway.refund(payment, 90000)).toEqual({ ok: false, reason: "Exceed refund amount" });
  });
});

describe("NewebPay MPG adapter", () => {
  // The published vector's keys and merchant.
  const KEY = "12345678901234567890123456789012";
  const IV = "1234567890123456";
  const config = (mode: "test" | "production" = "test"): GatewayConfig => ({
    vendor_id: PAYMENT_VENDORS.NEWEB,
    provider: "newebpay_mpg",
    mode,
    merchant_id: "3430112",
    secrets: { hash_key: "PAY_NEWEB_KEY", hash_iv: "PAY_NEWEB_IV" },
  });
  const secrets = { PAY_NEWEB_KEY: KEY, PAY_NEWEB_IV: IV };

  it("this file's TradeInfo and TradeSha give the published vector", () => {
    const plaintext =
      "MerchantID=3430112&RespondType=JSON&TimeStamp=1485232229&Version=1.4&MerchantOrderNo=S_1485232229&Amt=40&ItemDesc=UnitTest";
    const info = newebEncrypt(plaintext, KEY, IV);
    expect(info).toBe(
      "ff91c8aa01379e4de621a44e5f11f72e4d25bdb1a18242db6cef9ef07d80b0165e476fd1d9acaa53170272c82d122961e1a0700a7427cfa1cf90db7f6d6593bbc93102a4d4b9b66d9974c13c31a7ab4bba1d4e0790f0cbbbd7ad64c6d3c8012a601ceaa808bff70f94a8efa5a4f984b9d41304ffd879612177c622f75f4214fa",
    );
    expect(newebSha(info, KEY, IV)).toBe("EA0A6CC37F40C1EA5692E7CBB8AE097653DF3E91365E6A9CD7E91312413C7BB8");
  });

  it("sends the browser to NewebPay's test MPG with TradeInfo that decrypts to the trade and a matching TradeSha", async () => {
    const server = gatewayServer();
    const start = await (
      await adapter(config(), secrets, server.fetcher)
    ).start({
      tradeNo: "S1485232229",
      amount: 40,
      itemName: "UnitTest",
      email: "mei@example.com",
      now: new Date(1485232229_000),
      lang: "en-US",
      atmDays: 3,
      urls,
    });
    expect(start.kind).toBe("form");
    if (start.kind !== "form") return;
    expect(start.action).toBe("https://ccore.newebpay.com/MPG/mpg_gateway");
    expect(Object.keys(start.fields).sort()).toEqual(["MerchantID", "TradeInfo", "TradeSha", "Version"]);
    expect(start.fields.MerchantID).toBe("3430112");
    const info = start.fields.TradeInfo ?? "";
    expect(info).toMatch(/^[0-9a-f]+$/);
    expect(start.fields.TradeSha).toBe(newebSha(info, KEY, IV));
    expect(Object.fromEntries(new URLSearchParams(newebDecrypt(info, KEY, IV)))).toEqual({
      MerchantID: "3430112",
      RespondType: "JSON",
      TimeStamp: "1485232229",
      Version: start.fields.Version,
      MerchantOrderNo: "S1485232229",
      Amt: "40",
      ItemDesc: "UnitTest",
      Email: "mei@example.com",
      ReturnURL: urls.browserReturn,
      NotifyURL: urls.notify,
      ClientBackURL: urls.browserReturn,
    });
    expect(server.sent).toEqual([]);
  });

  it("uses NewebPay's production MPG for a production merchant", async () => {
    const start = await (
      await adapter(config("production"), secrets)
    ).start({
      tradeNo: "S1",
      amount: 40,
      itemName: "Room",
      email: "",
      now: new Date(),
      lang: "zh-TW",
      atmDays: 1,
      urls,
    });
    expect(start).toMatchObject({ kind: "form", action: "https://core.newebpay.com/MPG/mpg_gateway" });
  });

  // A NotifyURL callback as NewebPay posts it: Status, MerchantID, Version, TradeInfo, TradeSha.
  const result = (status: string, padTo: 16 | 32 = 16, keys = { key: KEY, iv: IV }) => {
    const info = newebEncrypt(
      JSON.stringify({
        Status: status,
        Message: status === "SUCCESS" ? "授權成功" : "信用卡授權失敗",
        Result: {
          MerchantID: "3430112",
          Amt: 40,
          TradeNo: "23031215302312345",
          MerchantOrderNo: "S1485232229",
          PaymentType: "CREDIT",
          RespondType: "JSON",
          PayTime: "2023-03-12 15:35:10",
          IP: "203.0.113.9",
          EscrowBank: "HNCB",
        },
      }),
      keys.key,
      keys.iv,
      padTo,
    );
    return new URLSearchParams({
      Status: status,
      MerchantID: "3430112",
      Version: "2.0",
      TradeInfo: info,
      TradeSha: newebSha(info, keys.key, keys.iv),
    });
  };

  it("accepts a signed SUCCESS callback as paid by card, padded either way, and reads a replay the same", async () => {
    const gateway = await adapter(config(), secrets);
    const expected = {
      ok: true,
      notice: {
        kind: "paid",
        tradeNo: "S1485232229",
        amount: 40,
        currency: "TWD",
        gatewayTradeNo: "23031215302312345",
        simulated: false,
        paidWith: "credit",
      },
    };
    const body = result("SUCCESS").toString();
    expect(await gateway.verifyCallback("return", body, new Headers())).toEqual(expected);
    expect(await gateway.verifyCallback("return", body, new Headers())).toEqual(expected);
    // NewebPay's own sample pads to a 32-byte boundary (pad bytes 17-32).
    expect(await gateway.verifyCallback("return", result("SUCCESS", 32).toString(), new Headers())).toEqual(expected);
    expect(gateway.acknowledgement).toBe("SUCCESS");
  });

  it("reads any other Status as failed", async () => {
    const verdict = await (await adapter(config(), secrets)).verifyCallback("return", result("MPG03009").toString(), new Headers());
    expect(verdict).toMatchObject({ ok: true, notice: { kind: "failed", tradeNo: "S1485232229", amount: 40, message: "MPG03009" } });
  });

  it("refuses a tampered TradeInfo, a callback sealed with other keys and one without TradeSha", async () => {
    const gateway = await adapter(config(), secrets);
    const tampered = result("SUCCESS");
    const info = tampered.get("TradeInfo") ?? "";
    tampered.set("TradeInfo", `${info.slice(0, 10)}${info[10] === "0" ? "1" : "0"}${info.slice(11)}`);
    expect(await gateway.verifyCallback("return", tampered.toString(), new Headers())).toEqual({ ok: false, reason: "TradeSha mismatch" });
    const forged = result("SUCCESS", 16, { key: "abcdefghijklmnopqrstuvwxyz123456", iv: "abcdefghijklmnop" });
    expect(await gateway.verifyCallback("return", forged.toString(), new Headers())).toEqual({ ok: false, reason: "TradeSha mismatch" });
    const unsigned = result("SUCCESS");
    unsigned.delete("TradeSha");
    expect(await gateway.verifyCallback("return", unsigned.toString(), new Headers())).toMatchObject({ ok: false });
  });

  it("has no status query and leaves refunds to NewebPay's back office, without calling out", async () => {
    const server = gatewayServer();
    const gateway = await adapter(config(), secrets, server.fetcher);
    expect(await gateway.query("S1485232229", "23031215302312345", 40)).toBeNull();
    expect(await gateway.refund({ tradeNo: "S1485232229", gatewayTradeNo: "23031215302312345", amount: 40 }, 40)).toMatchObject({
      ok: false,
    });
    expect(server.sent).toEqual([]);
  });
});

describe("LINE Pay v3 adapter", () => {
  const SECRET = "a917ab6a2367b536f8e5a6e2977e06f4";
  const config = (mode: "test" | "production" = "test"): GatewayConfig => ({
    vendor_id: PAYMENT_VENDORS.LINEPAY,
    provider: "linepay",
    mode,
    merchant_id: "1234567890",
    secrets: { channel_secret: "PAY_LINE_SECRET" },
  });
  const secrets = { PAY_LINE_SECRET: SECRET };
  // A transactionId as LINE Pay sends it: a 19-digit JSON number, beyond a double's exact integers.
  const TRANSACTION = "2018123112345678910";

  /** The signature headers a request must carry, checked over the exact bytes it sent. */
  function expectSigned(sent: Sent | undefined, path: string) {
    expect(sent?.headers.get("X-LINE-ChannelId")).toBe("1234567890");
    const nonce = sent?.headers.get("X-LINE-Authorization-Nonce") ?? "";
    expect(nonce).not.toBe("");
    expect(sent?.headers.get("X-LINE-Authorization")).toBe(linepayAuth(SECRET, path, sent?.body ?? "", nonce));
    expect(sent?.headers.get("content-type")).toBe("application/json");
  }

  it("requests a payment with a signed body and sends the browser to LINE Pay's page", async () => {
    const server = gatewayServer(
      json(
        `{"returnCode":"0000","returnMessage":"Success.","info":{"paymentUrl":{"web":"https://sandbox-web-pay.line.me/web/payment/wait?transactionReserveId=WWpFYmpYa2pBZz0","app":"line://pay/payment/WWpFYmpYa2pBZz0"},"transactionId":${TRANSACTION},"paymentAccessToken":"187568751124"}}`,
      ),
    );
    const start = await (
      await adapter(config(), secrets, server.fetcher)
    ).start({
      tradeNo: "H2607000001",
      amount: 4000,
      itemName: "Deluxe double, 2 nights",
      email: "mei@example.com",
      now: new Date(),
      lang: "en-US",
      atmDays: 3,
      urls,
    });
    expect(start).toEqual({
      kind: "redirect",
      url: "https://sandbox-web-pay.line.me/web/payment/wait?transactionReserveId=WWpFYmpYa2pBZz0",
    });
    const [sent] = server.sent;
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe("https://sandbox-api-pay.line.me/v3/payments/request");
    expectSigned(sent, "/v3/payments/request");
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      amount: 4000,
      currency: "TWD",
      orderId: "H2607000001",
      packages: [{ id: "rooms", amount: 4000, products: [{ name: "Deluxe double, 2 nights", quantity: 1, price: 4000 }] }],
      redirectUrls: { confirmUrl: urls.confirm, cancelUrl: urls.browserReturn },
    });
  });

  it("reports a refused request (returnCode other than 0000) as a configuration error", async () => {
    const server = gatewayServer(json(`{"returnCode":"1104","returnMessage":"Merchant not found."}`));
    const gateway = await adapter(config("production"), secrets, server.fetcher);
    await expect(
      gateway.start({ tradeNo: "H1", amount: 100, itemName: "Room", email: "", now: new Date(), lang: "zh-TW", atmDays: 1, urls }),
    ).rejects.toThrow(PaymentConfigError);
    expect(server.sent[0]?.url).toBe("https://api-pay.line.me/v3/payments/request");
  });

  it("takes no callback: anything posted to it is refused without calling LINE Pay", async () => {
    const server = gatewayServer();
    const gateway = await adapter(config(), secrets, server.fetcher);
    const posted = JSON.stringify({ returnCode: "0000", info: { orderId: "H2607000001", transactionId: TRANSACTION } });
    expect(await gateway.verifyCallback("return", posted, new Headers())).toMatchObject({ ok: false });
    expect(server.sent).toEqual([]);
  });

  it("confirms the 19-digit transaction exactly, with a signed amount; a second confirm is not a second payment", async () => {
    const server = gatewayServer(
      json(
        `{"returnCode":"0000","returnMessage":"Success.","info":{"orderId":"H2607000001","transactionId":${TRANSACTION},"payInfo":[{"method":"CREDIT_CARD","amount":4000,"maskedCreditCardNumber":"************1111"}]}}`,
      ),
      json(`{"returnCode":"1152","returnMessage":"There is a history of transactions with the same transactionId."}`),
    );
    const gateway = await adapter(config(), secrets, server.fetcher);
    expect(await gateway.query("H2607000001", TRANSACTION, 4000)).toEqual({ paid: true, amount: 4000 });
    const [sent] = server.sent;
    expect(sent?.url).toBe(`https://sandbox-api-pay.line.me/v3/payments/${TRANSACTION}/confirm`);
    expectSigned(sent, `/v3/payments/${TRANSACTION}/confirm`);
    expect(JSON.parse(sent?.body ?? "")).toEqual({ amount: 4000, currency: "TWD" });
    expect(await gateway.query("H2607000001", TRANSACTION, 4000)).toEqual({ paid: false, amount: 0 });
  });

  it("never sends a transaction id that is not LINE Pay's digits", async () => {
    const server = gatewayServer();
    const gateway = await adapter(config(), secrets, server.fetcher);
    expect(await gateway.query("H2607000001", "2018/../../request", 4000)).toEqual({ paid: false, amount: 0 });
    expect(server.sent).toEqual([]);
  });

  it("refunds part of a payment with a signed refundAmount and reports LINE Pay's code", async () => {
    const server = gatewayServer(
      json(
        `{"returnCode":"0000","returnMessage":"Success.","info":{"refundTransactionId":2018123112345678911,"refundTransactionDate":"2018-12-31T09:00:00Z"}}`,
      ),
      json(`{"returnCode":"1165","returnMessage":"A transaction already been refunded."}`),
    );
    const gateway = await adapter(config(), secrets, server.fetcher);
    const payment = { tradeNo: "H2607000001", gatewayTradeNo: TRANSACTION, amount: 4000 };
    expect(await gateway.refund(payment, 1200)).toEqual({ ok: true, reason: "0000" });
    const [sent] = server.sent;
    expect(sent?.url).toBe(`https://sandbox-api-pay.line.me/v3/payments/${TRANSACTION}/refund`);
    expectSigned(sent, `/v3/payments/${TRANSACTION}/refund`);
    expect(JSON.parse(sent?.body ?? "")).toEqual({ refundAmount: 1200 });
    expect(await gateway.refund(payment, 1200)).toEqual({ ok: false, reason: "1165" });
  });
});

describe("JKOPay adapter", () => {
  // The published vector's store and secret.
  const STORE = "35f12dff-1581-11e9-a054-00505684fd45";
  const SECRET = "r0odDC1e9LHXDmxuvmOv9bgaWLf2CXB2c4gMheoFucVKNMi1K0Id9zwRHJF1r-kdtAKriKgb11VDlo7Kb8R-FQ";
  const config = (mode: "test" | "production" = "test"): GatewayConfig => ({
    vendor_id: PAYMENT_VENDORS.JKOS,
    provider: "jkopay",
    mode,
    merchant_id: STORE,
    secrets: { api_key: "PAY_JKO_API_KEY", secret_key: "PAY_JKO_SECRET" },
  });
  const secrets = { PAY_JKO_API_KEY: "jko-api-key-for-tests", PAY_JKO_SECRET: SECRET };
  const start = (gateway: PaymentGateway) =>
    gateway.start({
      tradeNo: "demo-order-001",
      amount: 10,
      itemName: "Room",
      email: "",
      now: new Date(),
      lang: "zh-TW",
      atmDays: 1,
      urls: { ...urls, browserReturn: "https://display.com", notify: "https://result-callback.xxx/xxx" },
    });

  it("this file's DIGEST gives the published vector", () => {
    const body =
      '{"platform_order_id":"demo-order-001","store_id":"35f12dff-1581-11e9-a054-00505684fd45","currency": "TWD","total_price":10,"final_price":10,"unredeem":10,"result_display_url":"https://display.com","result_url":"https://result-callback.xxx/xxx"}';
    expect(jkoDigest(SECRET, body)).toBe("3577609b058ab85c2d0a00a5421a991979ed6b9f549476e9a82476dc1b70d876");
  });

  it("posts the documented entry body with its DIGEST and API-KEY, and sends the browser to the payment_url", async () => {
    const server = gatewayServer(
      json(
        `{"result":"000","message":"","result_object":{"payment_url":"https://uat-onlinepay.jkopay.app/platform/pay?token=abc123","qr_img":"https://uat-onlinepay.jkopay.app/qr/abc123.png","qr_timeout":1700000000}}`,
      ),
    );
    expect(await start(await adapter(config(), secrets, server.fetcher))).toEqual({
      kind: "redirect",
      url: "https://uat-onlinepay.jkopay.app/platform/pay?token=abc123",
    });
    const [sent] = server.sent;
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe("https://uat-onlinepay.jkopay.app/platform/entry");
    // The published request's fields, in its order (its sample has one space more, after "currency":).
    expect(sent?.body).toBe(
      '{"platform_order_id":"demo-order-001","store_id":"35f12dff-1581-11e9-a054-00505684fd45","currency":"TWD","total_price":10,"final_price":10,"unredeem":10,"result_display_url":"https://display.com","result_url":"https://result-callback.xxx/xxx"}',
    );
    expect(sent?.headers.get("DIGEST")).toBe(jkoDigest(SECRET, sent?.body ?? ""));
    expect(sent?.headers.get("API-KEY")).toBe("jko-api-key-for-tests");
    expect(sent?.headers.get("content-type")).toBe("application/json");
  });

  it("reports a refused entry as a configuration error, on JKOPay's production host in production", async () => {
    const server = gatewayServer(json(`{"result":"151","message":"store_id not found"}`));
    await expect(start(await adapter(config("production"), secrets, server.fetcher))).rejects.toThrow(PaymentConfigError);
    expect(server.sent[0]?.url).toBe("https://onlinepay.jkopay.com/platform/entry");
  });

  // JKOPay's result POST to result_url, and its inquiry answers.
  const resultPost = (status: number, finalPrice = 10) =>
    JSON.stringify({
      transaction: {
        platform_order_id: "demo-order-001",
        store_id: STORE,
        status,
        tradeNo: "JKO20230312000123",
        currency: "TWD",
        total_price: 10,
        final_price: finalPrice,
        tradeTime: "2023-03-12T15:35:10+08:00",
      },
    });
  const inquiry = (transactions: object[]) => json(JSON.stringify({ result: "000", message: "", result_object: { transactions } }));
  const paidTransaction = { platform_order_id: "demo-order-001", status: 0, final_price: 10, tradeNo: "JKO20230312000123" };

  it("believes a result POST only through a signed inquiry, and asks again on a replay", async () => {
    const server = gatewayServer(inquiry([paidTransaction]), inquiry([paidTransaction]));
    const gateway = await adapter(config(), secrets, server.fetcher);
    const expected = {
      ok: true,
      notice: {
        kind: "paid",
        tradeNo: "demo-order-001",
        amount: 10,
        currency: "TWD",
        gatewayTradeNo: "JKO20230312000123",
        simulated: false,
        paidWith: "wallet",
      },
    };
    expect(await gateway.verifyCallback("return", resultPost(0), new Headers())).toEqual(expected);
    const [sent] = server.sent;
    expect(sent?.method).toBe("GET");
    expect(sent?.url).toBe("https://uat-onlinepay.jkopay.app/platform/inquiry?platform_order_ids=demo-order-001");
    expect(sent?.headers.get("DIGEST")).toBe(jkoDigest(SECRET, "platform_order_ids=demo-order-001"));
    expect(sent?.headers.get("API-KEY")).toBe("jko-api-key-for-tests");
    expect(await gateway.verifyCallback("return", resultPost(0), new Headers())).toEqual(expected);
    expect(server.sent).toHaveLength(2);
  });

  it("reads a forged result POST by what the inquiry says: the amount is JKOPay's, an unknown order is no payment", async () => {
    const server = gatewayServer(inquiry([paidTransaction]), inquiry([]));
    const gateway = await adapter(config(), secrets, server.fetcher);
    // It claims 1 dollar was the price: the inquiry's 10 is what the notice carries.
    expect(await gateway.verifyCallback("return", resultPost(0, 1), new Headers())).toMatchObject({
      ok: true,
      notice: { kind: "paid", amount: 10 },
    });
    // JKOPay knows no such payment: not paid, for no amount (the back end refuses it against the attempt's).
    expect(await gateway.verifyCallback("return", resultPost(0), new Headers())).toMatchObject({
      ok: true,
      notice: { kind: "failed", tradeNo: "demo-order-001", amount: 0 },
    });
    expect(await gateway.verifyCallback("return", "not json", new Headers())).toEqual({ ok: false, reason: "not JSON" });
    expect(server.sent).toHaveLength(2);
  });

  it("queries a trade with the inquiry, and has no refund yet (nothing sent)", async () => {
    const server = gatewayServer(inquiry([{ ...paidTransaction, status: 101 }]));
    const gateway = await adapter(config(), secrets, server.fetcher);
    expect(await gateway.query("demo-order-001", "", 10)).toEqual({ paid: false, amount: 10 });
    expect(await gateway.refund({ tradeNo: "demo-order-001", gatewayTradeNo: "JKO20230312000123", amount: 10 }, 10)).toMatchObject({
      ok: false,
    });
    expect(server.sent).toHaveLength(1);
  });
});

describe("the registry", () => {
  it("refuses a real gateway whose Worker secret is not set, naming the secret", async () => {
    const config: GatewayConfig = {
      vendor_id: PAYMENT_VENDORS.ECPAY,
      provider: "ecpay_aio",
      mode: "production",
      merchant_id: "3002607",
      secrets: { hash_key: "PAY_ECPAY_KEY", hash_iv: "PAY_ECPAY_IV" },
    };
    await expect(adapter(config, { PAY_ECPAY_KEY: "pwFHCqoQZGmho4w6" })).rejects.toThrow(/PAY_ECPAY_IV/);
  });
});
