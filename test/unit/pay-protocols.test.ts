import { describe, expect, it } from "vitest";
import { jkopayDigest, jkopayEntry, jkopayInquiry, jkopayVerifyDigest } from "~/backend/payments/gateways/jkopay";
import { linepayConfirm, linepayRequest, linepaySignature, parseLinepay } from "~/backend/payments/gateways/linepay";
import { decryptTradeInfo, encryptTradeInfo, readNewebpayCallback, tradeSha } from "~/backend/payments/gateways/newebpay";
import { toHex } from "~/lib/crypto";

const neweb = { merchantId: "3430112", hashKey: "12345678901234567890123456789012", hashIv: "1234567890123456" };
const plaintext =
  "MerchantID=3430112&RespondType=JSON&TimeStamp=1485232229&Version=1.4&MerchantOrderNo=S_1485232229&Amt=40&ItemDesc=UnitTest";
const publishedInfo =
  "ff91c8aa01379e4de621a44e5f11f72e4d25bdb1a18242db6cef9ef07d80b0165e476fd1d9acaa53170272c82d122961e1a0700a7427cfa1cf90db7f6d6593bbc93102a4d4b9b66d9974c13c31a7ab4bba1d4e0790f0cbbbd7ad64c6d3c8012a601ceaa808bff70f94a8efa5a4f984b9d41304ffd879612177c622f75f4214fa";

/** AES-256-CBC with a pad of the caller's choosing (NewebPay's sample pads to 32 bytes), via Web Crypto. */
async function encryptPadded(text: string, padTo: number): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const count = padTo - (bytes.length % padTo);
  const padded = new Uint8Array(bytes.length + count).fill(count);
  padded.set(bytes);
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(neweb.hashKey), { name: "AES-CBC" }, false, ["encrypt"]);
  // Web Crypto always adds a 16-byte PKCS#7 block of its own: drop it.
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: new TextEncoder().encode(neweb.hashIv) }, key, padded));
  return toHex(sealed.slice(0, padded.length));
}

describe("NewebPay MPG", () => {
  it("matches the published TradeInfo and TradeSha", async () => {
    const info = await encryptTradeInfo(plaintext, neweb);
    expect(info).toBe(publishedInfo);
    expect(await tradeSha(info, neweb)).toBe("EA0A6CC37F40C1EA5692E7CBB8AE097653DF3E91365E6A9CD7E91312413C7BB8");
    expect(await decryptTradeInfo(publishedInfo, neweb)).toBe(plaintext);
  });

  it("decrypts callbacks padded to 32 bytes (pad bytes 17-32), which Web Crypto alone refuses", async () => {
    const text = "x".repeat(40); // 40 bytes → 24 pad bytes to the next 32-byte boundary
    const info = await encryptPadded(text, 32);
    expect(await decryptTradeInfo(info, neweb)).toBe(text);
  });

  it("refuses a tampered TradeInfo, a wrong TradeSha and garbage", async () => {
    const body = JSON.stringify({
      Status: "SUCCESS",
      Result: { MerchantID: "3430112", MerchantOrderNo: "PT1", Amt: 40, TradeNo: "23", PaymentType: "VACC" },
    });
    const info = await encryptTradeInfo(body, neweb);
    const good = new URLSearchParams({ TradeInfo: info, TradeSha: await tradeSha(info, neweb) });
    expect(await readNewebpayCallback(good, neweb)).toEqual({
      ok: true,
      notice: { kind: "paid", tradeNo: "PT1", amount: 40, gatewayTradeNo: "23", status: "SUCCESS", paymentType: "VACC" },
    });
    const flipped = `${info.slice(0, 10)}${info[10] === "0" ? "1" : "0"}${info.slice(11)}`;
    expect(await readNewebpayCallback(new URLSearchParams({ TradeInfo: flipped, TradeSha: await tradeSha(info, neweb) }), neweb)).toEqual({
      ok: false,
      reason: "TradeSha mismatch",
    });
    // Signed but not decryptable (someone holding the sha key but not producing a real ciphertext).
    expect(await readNewebpayCallback(new URLSearchParams({ TradeInfo: "abcd", TradeSha: await tradeSha("abcd", neweb) }), neweb)).toEqual({
      ok: false,
      reason: "TradeInfo does not decrypt",
    });
    expect(await readNewebpayCallback(good, { ...neweb, merchantId: "1" })).toEqual({ ok: false, reason: "another merchant" });
  });
});

const jkoBody =
  '{"platform_order_id":"demo-order-001","store_id":"35f12dff-1581-11e9-a054-00505684fd45","currency": "TWD","total_price":10,"final_price":10,"unredeem":10,"result_display_url":"https://display.com","result_url":"https://result-callback.xxx/xxx"}';
const jkoSecret = "r0odDC1e9LHXDmxuvmOv9bgaWLf2CXB2c4gMheoFucVKNMi1K0Id9zwRHJF1r-kdtAKriKgb11VDlo7Kb8R-FQ";

describe("JKOPay", () => {
  it("matches the published DIGEST over the exact body", async () => {
    expect(await jkopayDigest(jkoSecret, jkoBody)).toBe("3577609b058ab85c2d0a00a5421a991979ed6b9f549476e9a82476dc1b70d876");
    expect(await jkopayVerifyDigest(jkoSecret, jkoBody, "3577609B058AB85C2D0A00A5421A991979ED6B9F549476E9A82476DC1B70D876")).toBe(true);
    // One space less is another body.
    expect(
      await jkopayVerifyDigest(
        jkoSecret,
        jkoBody.replace('"currency": ', '"currency":'),
        "3577609b058ab85c2d0a00a5421a991979ed6b9f549476e9a82476dc1b70d876",
      ),
    ).toBe(false);
    expect(await jkopayVerifyDigest(jkoSecret, jkoBody, null)).toBe(false);
  });

  it("signs the entry body it sends, and trusts a result only through the inquiry", async () => {
    const keys = { storeId: "store", apiKey: "api", secretKey: jkoSecret };
    const seen: { url: string; digest: string | null; body: string }[] = [];
    const fetcher = async (request: Request) => {
      const body = await request.text();
      seen.push({ url: request.url, digest: request.headers.get("DIGEST"), body });
      if (request.url.endsWith("/platform/entry"))
        return Response.json({ result: "000", result_object: { payment_url: "https://jko.example/pay/1" } });
      return Response.json({ result: "000", result_object: { transactions: [{ platform_order_id: "PT1", status: 0, final_price: 500 }] } });
    };
    expect(
      await jkopayEntry(fetcher, "https://jko.example", keys, {
        orderId: "PT1",
        amount: 500,
        displayUrl: "https://h/d",
        resultUrl: "https://h/r",
      }),
    ).toEqual({ ok: true, paymentUrl: "https://jko.example/pay/1" });
    expect(seen[0]?.digest).toBe(await jkopayDigest(jkoSecret, seen[0]?.body ?? ""));
    expect(await jkopayInquiry(fetcher, "https://jko.example", keys, "PT1")).toEqual({ paid: true, amount: 500 });
    expect(await jkopayInquiry(fetcher, "https://jko.example", keys, "PT2")).toEqual({ paid: false, amount: 0 });
  });
});

describe("LINE Pay v3", () => {
  const keys = { channelId: "1234567890", channelSecret: "a917ab6a2367b536f8e5a6e2977e06f4" };

  it("keeps a 19-digit transactionId exactly (JSON.parse would round it)", () => {
    const text = '{"returnCode":"0000","info":{"transactionId":2023042201206549310,"paymentUrl":{"web":"https://x"}}}';
    expect((JSON.parse(text) as { info: { transactionId: number } }).info.transactionId.toString()).not.toBe("2023042201206549310");
    expect((parseLinepay(text) as { info: { transactionId: string } }).info.transactionId).toBe("2023042201206549310");
  });

  it("signs the exact bytes it sends, and confirms with the string id", async () => {
    const requests: Request[] = [];
    const bodies: string[] = [];
    const fetcher = async (request: Request) => {
      requests.push(request);
      bodies.push(await request.clone().text());
      if (request.url.endsWith("/request"))
        return new Response(
          '{"returnCode":"0000","info":{"transactionId":2023042201206549310,"paymentUrl":{"web":"https://line.example/pay"}}}',
        );
      return new Response('{"returnCode":"0000","info":{"orderId":"PT1","transactionId":2023042201206549310}}');
    };
    const started = await linepayRequest(fetcher, "https://sandbox-api-pay.line.me", keys, {
      orderId: "PT1",
      amount: 500,
      productName: "Room",
      confirmUrl: "https://h/c",
      cancelUrl: "https://h/x",
    });
    expect(started).toEqual({ ok: true, transactionId: "2023042201206549310", paymentUrl: "https://line.example/pay" });
    const first = requests[0];
    const nonce = first?.headers.get("X-LINE-Authorization-Nonce") ?? "";
    expect(first?.headers.get("X-LINE-Authorization")).toBe(
      await linepaySignature(keys.channelSecret, "/v3/payments/request", bodies[0] ?? "", nonce),
    );
    expect(first?.headers.get("X-LINE-ChannelId")).toBe("1234567890");
    expect(await linepayConfirm(fetcher, "https://sandbox-api-pay.line.me", keys, "2023042201206549310", 500)).toEqual({
      paid: true,
      returnCode: "0000",
    });
    expect(requests[1]?.url).toBe("https://sandbox-api-pay.line.me/v3/payments/2023042201206549310/confirm");
    expect(await linepayConfirm(fetcher, "https://sandbox-api-pay.line.me", keys, "2023042201206549310/../x", 500)).toEqual({
      paid: false,
      returnCode: "bad transactionId",
    });
  });
});
