import { describe, expect, it } from "vitest";
import { defaultPaymentOption, paymentLabelKeys, paymentOptions } from "~/booking/payments";

describe("payment choices at checkout (spec §4)", () => {
  it("keeps the hotel's order and drops methods a booking cannot use", () => {
    const options = paymentOptions([
      { vendor_id: 8, method: "remittance" },
      { vendor_id: 3, method: "wallet" },
      { vendor_id: 1, method: "credit" },
      { vendor_id: 14, method: "pay_arrival" },
    ]);
    expect(options.map((option) => option.value)).toEqual(["8:remittance", "1:credit", "14:pay_arrival"]);
  });

  it("starts on ECPG credit card, else any credit card, else the hotel's first method", () => {
    expect(defaultPaymentOption(paymentOptions([{ vendor_id: 8, method: "remittance" }, { vendor_id: 4, method: "credit" }, { vendor_id: 1, method: "credit" }]))).toBe("1:credit");
    expect(defaultPaymentOption(paymentOptions([{ vendor_id: 8, method: "remittance" }, { vendor_id: 4, method: "credit" }]))).toBe("4:credit");
    expect(defaultPaymentOption(paymentOptions([{ vendor_id: 14, method: "pay_arrival" }, { vendor_id: 8, method: "remittance" }]))).toBe("14:pay_arrival");
    expect(defaultPaymentOption([])).toBeNull();
  });
});

describe("a payment choice's name", () => {
  it.each<[string, number, string[]]>([
    ["remittance", 8, ["payment.method.remittance"]],
    ["pay_arrival", 14, ["payment.method.pay_arrival"]],
    ["credit", 1, ["payment.method.credit", "payment.vendor.1"]],
    ["credit", 4, ["payment.method.credit", "payment.vendor.4"]],
    ["remittance", 9, ["payment.method.remittance", "payment.vendor.9"]],
    ["cash", 14, ["payment.method.cash", "payment.vendor.14"]],
  ])("%s by vendor %i reads %j", (method, vendor, keys) => {
    expect(paymentLabelKeys(method, vendor)).toEqual(keys);
  });
});
