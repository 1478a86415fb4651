import { describe, expect, it } from "vitest";
import {
  MasterDomainMissingError,
  REPAY_PAYMENT_IDS,
  repayConfig,
  repayOptions,
  repayReturnPath,
  repayVendor,
  splitInvoiceNumber,
} from "~/domain/master-order";

describe("master-system orders and repay (spec §3, §7, §9)", () => {
  it("splits an invoice number at its hyphen into number and random number", () => {
    expect(splitInvoiceNumber("AB12345678-1234")).toEqual({ number: "AB12345678", random_number: "1234" });
    expect(splitInvoiceNumber("AB12345678")).toEqual({ number: "AB12345678", random_number: "" });
  });

  it("maps the repay payment ids 2, 35, 45, 48 to card, JKOS, PIWALLE and SINOPACBK", () => {
    expect(REPAY_PAYMENT_IDS).toEqual({ card: 2, jkos: 35, piwalle: 45, sinopacbk: 48 });
    expect([2, 35, 45, 48].map((id) => repayVendor(id, 6))).toEqual([6, 3, 7, 12]);
    expect(repayVendor(2, null)).toBeNull();
    expect(repayVendor(99, 1)).toBeNull();
  });

  it("returns each vendor to its own page", () => {
    expect(repayReturnPath(2, 7, "PT1-A", "h/1")).toBe("/pay/7/PT1-A?valid_hash=h%2F1");
    expect(repayReturnPath(35, 7, "PT1-A", "h")).toBe("/pay/7/PT1-A?valid_hash=h&via=wallet");
    expect(repayReturnPath(45, 7, "PT1-A", "h")).toBe("/pay/7/PT1-A?valid_hash=h&via=wallet");
    expect(repayReturnPath(48, 7, "PT1-A", "h")).toBe("/redirect/receipt/PT1-A?valid_hash=h");
  });

  it("raises the §8 error when the master hotel domain cannot be obtained", () => {
    expect(() => repayConfig("")).toThrow(MasterDomainMissingError);
    expect(() => repayConfig(undefined)).toThrow("The master hotel domain cannot be obtained");
    expect(repayConfig("hotel.example")).toEqual({ domain: "hotel.example" });
  });

  it("offers the rest by the hotel's own card vendor and JKOS, the §9 ids with a protocol, never a wallet or bank it has none for", () => {
    expect(
      repayOptions([
        { vendor_id: 8, method: "remittance" },
        { vendor_id: 6, method: "credit" },
        { vendor_id: 9, method: "credit" },
        { vendor_id: 3, method: "credit" },
        { vendor_id: 7, method: "credit" },
      ]),
    ).toEqual([
      { payment_id: 2, vendor_id: 6 },
      { payment_id: 35, vendor_id: 3 },
    ]);
    expect(repayOptions([{ vendor_id: 14, method: "pay_arrival" }])).toEqual([]);
  });
});
