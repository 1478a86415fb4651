import { describe, expect, it } from "vitest";
import { checkMacValue, ecpayCheckoutFields, ECPAY_OK, readEcpayCallback } from "~/backend/payments/gateways/ecpay";

// The staging merchant of ECPay's published example (shared integrations notes).
const keys = { merchantId: "3002607", hashKey: "pwFHCqoQZGmho4w6", hashIv: "EkRm7iFT261dpevs" };

describe("ECPay AIO CheckMacValue", () => {
  it("matches the published vector", async () => {
    const params = {
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
    expect(await checkMacValue(params, keys)).toBe("6C51C9E6888DE861FD62FB1DD17029FC742634498FD813DC43D4243B5685B840");
    // The value itself is left out, so a signed set signs the same.
    expect(await checkMacValue({ ...params, CheckMacValue: "X" }, keys)).toBe(
      "6C51C9E6888DE861FD62FB1DD17029FC742634498FD813DC43D4243B5685B840",
    );
  });

  it("signs the checkout form it builds", async () => {
    const fields = await ecpayCheckoutFields(
      {
        tradeNo: "PT1234ABC1",
        tradeDate: new Date("2026-01-02T03:04:05Z"),
        amount: 2345,
        itemName: "Room #1",
        tradeDesc: "Booking",
        returnUrl: "https://h.example/api/payment/ecpay/return",
        paymentInfoUrl: "https://h.example/api/payment/ecpay/info",
        browserReturnUrl: "https://h.example/pay/1/PT",
        atmDays: 3,
      },
      keys,
    );
    expect(fields.MerchantTradeDate).toBe("2026/01/02 11:04:05");
    expect(fields.ItemName).toBe("Room  1");
    expect(fields.CheckMacValue).toBe(await checkMacValue(fields, keys));
    expect(ECPAY_OK).toBe("1|OK");
  });
});

async function callback(fields: Record<string, string>): Promise<URLSearchParams> {
  return new URLSearchParams({ ...fields, CheckMacValue: await checkMacValue(fields, keys) });
}

const paid = {
  MerchantID: "3002607",
  MerchantTradeNo: "PT1234ABC1",
  RtnCode: "1",
  RtnMsg: "交易成功",
  TradeNo: "2301011234567890",
  TradeAmt: "2345",
  PaymentType: "Credit_CreditCard",
  SimulatePaid: "0",
  PaymentDate: "2026/01/02 11:05:00",
  TradeDate: "2026/01/02 11:04:05",
};

describe("ECPay callbacks", () => {
  it("reads a signed payment", async () => {
    const verdict = await readEcpayCallback(await callback(paid), keys, "return");
    expect(verdict).toMatchObject({ ok: true, notice: { kind: "paid", tradeNo: "PT1234ABC1", amount: 2345, simulated: false } });
  });

  it("marks a back-office simulation as such", async () => {
    const verdict = await readEcpayCallback(await callback({ ...paid, SimulatePaid: "1" }), keys, "return");
    expect(verdict).toMatchObject({ ok: true, notice: { kind: "paid", simulated: true } });
  });

  it("refuses a tampered amount, a missing or wrong signature, another merchant and duplicated fields", async () => {
    const signed = await callback(paid);
    const tampered = new URLSearchParams(signed);
    tampered.set("TradeAmt", "1");
    expect(await readEcpayCallback(tampered, keys, "return")).toEqual({ ok: false, reason: "CheckMacValue mismatch" });
    const unsigned = new URLSearchParams(signed);
    unsigned.delete("CheckMacValue");
    expect(await readEcpayCallback(unsigned, keys, "return")).toEqual({ ok: false, reason: "no CheckMacValue" });
    expect(await readEcpayCallback(signed, { ...keys, hashKey: "another-key-1234" }, "return")).toEqual({
      ok: false,
      reason: "CheckMacValue mismatch",
    });
    expect(await readEcpayCallback(signed, { ...keys, merchantId: "2000132" }, "return")).toEqual({
      ok: false,
      reason: "another merchant",
    });
    const doubled = new URLSearchParams(signed);
    doubled.append("RtnCode", "1");
    expect(await readEcpayCallback(doubled, keys, "return")).toEqual({ ok: false, reason: "duplicate field RtnCode" });
  });

  it("reads a failure and an ATM account issued", async () => {
    expect(await readEcpayCallback(await callback({ ...paid, RtnCode: "10100058", RtnMsg: "declined" }), keys, "return")).toMatchObject({
      ok: true,
      notice: { kind: "failed" },
    });
    const atm = await readEcpayCallback(
      await callback({
        MerchantID: "3002607",
        MerchantTradeNo: "PT1234ABC1",
        RtnCode: "2",
        RtnMsg: "Get VirtualAccount Succeeded",
        TradeNo: "1",
        TradeAmt: "2345",
        PaymentType: "ATM_TAISHIN",
        BankCode: "812",
        vAccount: "9103522175887271",
        ExpireDate: "2026/01/05",
      }),
      keys,
      "payment_info",
    );
    expect(atm).toMatchObject({
      ok: true,
      notice: { kind: "code_issued", bankCode: "812", account: "9103522175887271", expireDate: "2026/01/05" },
    });
  });
});
