import { describe, expect, it } from "vitest";
import { ecpayBuyerFlags, isValidTaxId, toHalfWidth, validateBuyer, type BuyerFields } from "~/domain/einvoice/buyer";

/**
 * The guest's invoice choice (decision 159): the formats and the 統一編號 checksum over fixtures
 * worked out by hand (each sum written beside it), the normalising of what guests type, ECPay's
 * combination rules, and an error code beside each wrong field.
 */

// 統一編號: weights 1,2,1,2,1,2,4,1; the digits of each product added; divisible by 5, or (7th digit 7) sum + 1.
const TAX_IDS: [string, boolean, string][] = [
  ["04595257", true, "the notes' example: sum 40"],
  ["10458575", true, "the notes' example: 7th digit 7, 28 counts 10, sum 30"],
  ["22099131", true, "sum 30"],
  ["53212539", true, "sum 30"],
  ["84149961", true, "sum 50"],
  ["04595252", true, "sum 35: valid by 5 since 2023, not by the old 10"],
  ["12345675", true, "7th digit 7: sum 39, sum + 1 = 40"],
  ["12345670", true, "7th digit 7: sum 34, sum + 1 = 35"],
  ["46857174", true, "7th digit 7: sum 39, sum + 1 = 40"],
  ["11111111", false, "sum 14"],
  ["10458574", true, "7th digit 7: 1 + 0 + 4 + (1+0) + 8 + (1+0) + (2+8) + 4 = 29, sum + 1 = 30"],
  ["10458576", false, "7th digit 7: sum 31, 32 neither"],
  ["22099132", false, "sum 31"],
  ["99999999", false, "sum 72"],
  ["27857177", false, "7th digit 7: sum 42, 43 neither"],
  ["01234567", false, "sum 28"],
  ["88888888", false, "sum 58"],
  ["87654321", false, "sum 39 but the 7th digit is 2: no + 1"],
  ["1234567", false, "7 digits"],
  ["123456789", false, "9 digits"],
  ["1234567A", false, "a letter"],
  ["", false, "empty"],
];

describe("the 統一編號 checksum", () => {
  it.each(TAX_IDS)("%s → %s (%s)", (id, valid) => {
    expect(isValidTaxId(id)).toBe(valid);
  });
});

const carrier = (carrier_kind: string, carrier_code: string, extra: BuyerFields = {}): BuyerFields => ({
  invoice_kind: "carrier",
  carrier_kind,
  carrier_code,
  email: "guest@example.com",
  ...extra,
});
const company = (tax_id: string, company_name = "波提科股份有限公司", extra: BuyerFields = {}): BuyerFields => ({
  invoice_kind: "company",
  tax_id,
  company_name,
  company_address: "臺北市中正區重慶南路一段122號",
  email: "ap@example.com",
  ...extra,
});
const donation = (love_code: string, extra: BuyerFields = {}): BuyerFields => ({
  invoice_kind: "donation",
  love_code,
  email: "guest@example.com",
  ...extra,
});

describe("the buyer's choice", () => {
  const valid: [string, BuyerFields, unknown][] = [
    ["a mobile barcode", carrier("mobile", "/ABC+1.-"), { kind: "carrier", carrier: "mobile", code: "/ABC+1.-" }],
    ["a mobile barcode typed in lowercase", carrier("mobile", "/abc1234"), { code: "/ABC1234" }],
    ["a mobile barcode typed full-width with spaces", carrier("mobile", " ／ＡＢＣ１２３４ "), { code: "/ABC1234" }],
    ["a mobile barcode of digits only", carrier("mobile", "/1234567"), { code: "/1234567" }],
    ["a citizen certificate", carrier("citizen", "AB12345678901234"), { carrier: "citizen", code: "AB12345678901234" }],
    ["a citizen certificate in lowercase, full-width", carrier("citizen", "ａｂ12345678901234"), { code: "AB12345678901234" }],
    ["the provider's member carrier (the email)", carrier("member", ""), { carrier: "member", code: "", email: "guest@example.com" }],
    ["a donation code of 3 digits", donation("168"), { kind: "donation", loveCode: "168" }],
    ["a donation code of 7 digits", donation("5185000"), { loveCode: "5185000" }],
    ["a donation code typed full-width", donation("８８５５２１"), { loveCode: "885521" }],
    ["a company", company("04595257"), { kind: "company", taxId: "04595257", companyName: "波提科股份有限公司" }],
    ["a company whose number is typed full-width with a hyphen", company("１０４５-８５７５"), { taxId: "10458575" }],
    ["a company name trimmed, inner spaces kept single", company("22099131", "  Portico   Ltd. "), { companyName: "Portico Ltd." }],
    ["an email in capitals, lowercased", carrier("mobile", "/ABC1234", { email: " Guest@Example.COM " }), { email: "guest@example.com" }],
  ];
  it.each(valid)("accepts %s", (_what, fields, expected) => {
    const result = validateBuyer(fields);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (result.ok) expect(result.choice).toMatchObject(expected as object);
  });

  const invalid: [string, BuyerFields, Record<string, string>][] = [
    ["no kind", {}, { invoice_kind: "kind_required" }],
    ["an unknown kind", { invoice_kind: "paper" }, { invoice_kind: "kind_required" }],
    ["a mobile barcode without its slash", carrier("mobile", "ABC12345"), { carrier_code: "mobile_barcode_format" }],
    ["a mobile barcode of 6", carrier("mobile", "/ABC123"), { carrier_code: "mobile_barcode_format" }],
    ["a mobile barcode of 8", carrier("mobile", "/ABC12345"), { carrier_code: "mobile_barcode_format" }],
    ["a mobile barcode with a character outside 0-9A-Z.+-", carrier("mobile", "/ABC_123"), { carrier_code: "mobile_barcode_format" }],
    ["an empty mobile barcode", carrier("mobile", ""), { carrier_code: "mobile_barcode_format" }],
    ["a citizen certificate with 13 digits", carrier("citizen", "AB1234567890123"), { carrier_code: "citizen_certificate_format" }],
    ["a citizen certificate with one letter", carrier("citizen", "A123456789012345"), { carrier_code: "citizen_certificate_format" }],
    ["no carrier kind", carrier("", "/ABC1234"), { carrier_kind: "carrier_kind_required" }],
    ["a carrier without an email", carrier("member", "", { email: "" }), { email: "email_required" }],
    ["a carrier with a broken email", carrier("mobile", "/ABC1234", { email: "guest@" }), { email: "email_format" }],
    ["a carrier with a 統一編號", carrier("mobile", "/ABC1234", { tax_id: "04595257" }), { tax_id: "not_with_company" }],
    ["a carrier with a donation code", carrier("mobile", "/ABC1234", { love_code: "168" }), { love_code: "not_with_donation" }],
    ["a donation code of 2 digits", donation("16"), { love_code: "love_code_format" }],
    ["a donation code of 8 digits", donation("12345678"), { love_code: "love_code_format" }],
    ["a donation code with a letter", donation("16A"), { love_code: "love_code_format" }],
    ["a donation with a 統一編號", donation("168", { tax_id: "04595257" }), { tax_id: "not_with_donation" }],
    ["a company number of 7 digits", company("0459525"), { tax_id: "tax_id_format" }],
    ["a company number with a letter", company("0459525A"), { tax_id: "tax_id_format" }],
    ["a company number failing the checksum", company("04595258"), { tax_id: "tax_id_checksum" }],
    ["a company without a name", company("04595257", "   "), { company_name: "company_name_required" }],
    ["a company name of 61 characters", company("04595257", "公".repeat(61)), { company_name: "company_name_too_long" }],
    [
      "a company without an address",
      company("04595257", "波提科", { company_address: "" }),
      { company_address: "company_address_required" },
    ],
    ["a company invoice donated", company("04595257", "波提科", { love_code: "168" }), { love_code: "not_with_company" }],
  ];
  it.each(invalid)("refuses %s, beside the field", (_what, fields, errors) => {
    const result = validateBuyer(fields);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toEqual(errors);
  });

  it("names every wrong field at once", () => {
    const result = validateBuyer({ invoice_kind: "company", tax_id: "123", company_name: "", company_address: "", email: "x" });
    expect(result).toEqual({
      ok: false,
      errors: {
        tax_id: "tax_id_format",
        company_name: "company_name_required",
        company_address: "company_address_required",
        email: "email_format",
      },
    });
  });

  it("turns full-width letters, digits and the ideographic space half-width", () => {
    expect(toHalfWidth("ＡＢｃ１２３／＋－．\u3000")).toBe("ABc123/+-. ");
  });
});

describe("ECPay's combination rules", () => {
  const choice = (fields: BuyerFields) => {
    const result = validateBuyer(fields);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.choice;
  };

  it("a donation is not printed and carries no 統一編號", () => {
    expect(ecpayBuyerFlags(choice(donation("168")))).toEqual({
      Print: "0",
      Donation: "1",
      LoveCode: "168",
      CarrierType: "",
      CarrierNum: "",
      CustomerIdentifier: "",
    });
  });

  it("a company invoice is printed, never donated, on no carrier", () => {
    expect(ecpayBuyerFlags(choice(company("04595257")))).toEqual({
      Print: "1",
      Donation: "0",
      LoveCode: "",
      CarrierType: "",
      CarrierNum: "",
      CustomerIdentifier: "04595257",
    });
  });

  it("a carrier is not printed: member 1, citizen certificate 2, mobile barcode 3", () => {
    expect(ecpayBuyerFlags(choice(carrier("member", "")))).toMatchObject({ Print: "0", Donation: "0", CarrierType: "1", CarrierNum: "" });
    expect(ecpayBuyerFlags(choice(carrier("citizen", "AB12345678901234")))).toMatchObject({
      Print: "0",
      CarrierType: "2",
      CarrierNum: "AB12345678901234",
    });
    expect(ecpayBuyerFlags(choice(carrier("mobile", "/ABC1234")))).toMatchObject({ Print: "0", CarrierType: "3", CarrierNum: "/ABC1234" });
  });
});
