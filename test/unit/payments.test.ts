import { describe, expect, it } from "vitest";
import { DEFAULT_PAYMENT_DEADLINES, defaultPaymentOption, paymentDeadline, paymentLabelKeys, paymentOptions } from "~/domain/payments";

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
    expect(
      defaultPaymentOption(
        paymentOptions([
          { vendor_id: 8, method: "remittance" },
          { vendor_id: 4, method: "credit" },
          { vendor_id: 1, method: "credit" },
        ]),
      ),
    ).toBe("1:credit");
    expect(
      defaultPaymentOption(
        paymentOptions([
          { vendor_id: 8, method: "remittance" },
          { vendor_id: 4, method: "credit" },
        ]),
      ),
    ).toBe("4:credit");
    expect(
      defaultPaymentOption(
        paymentOptions([
          { vendor_id: 14, method: "pay_arrival" },
          { vendor_id: 8, method: "remittance" },
        ]),
      ),
    ).toBe("14:pay_arrival");
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

describe("a payment deadline never passes the start of the check-in day (decision 047)", () => {
  // Check-in on 2026-12-20 in Taipei: the day starts at 2026-12-19T16:00Z.
  const checkIn = new Date("2026-12-19T16:00:00Z");
  const at = (iso: string) => new Date(iso);
  it.each([
    ["a bank transfer a week ahead: three days", "remittance", "2026-12-10T02:00:00Z", "2026-12-13T02:00:00.000Z"],
    ["a bank transfer two days ahead: until the stay's day begins", "remittance", "2026-12-18T02:00:00Z", "2026-12-19T16:00:00.000Z"],
    ["a card at 23:30 the night before: its 30 minutes", "credit", "2026-12-19T15:30:00Z", "2026-12-19T16:00:00.000Z"],
    ["a bank transfer at 23:30 the night before: an hour", "remittance", "2026-12-19T15:30:00Z", "2026-12-19T16:30:00.000Z"],
    ["a bank transfer on the day at noon: an hour", "remittance", "2026-12-20T04:00:00Z", "2026-12-20T05:00:00.000Z"],
    ["a bank transfer on the day at 23:30: never past the day's end", "remittance", "2026-12-20T15:30:00Z", "2026-12-20T16:00:00.000Z"],
  ])("%s", (_, method, now, deadline) => {
    expect(paymentDeadline(method, 3000, at(now), DEFAULT_PAYMENT_DEADLINES, checkIn)).toBe(deadline);
  });

  it("nothing due before arrival has no deadline", () => {
    expect(paymentDeadline("pay_arrival", 3000, at("2026-12-10T02:00:00Z"), DEFAULT_PAYMENT_DEADLINES, checkIn)).toBeNull();
  });
});
