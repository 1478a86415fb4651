import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateHotelFile } from "~/backend/hotels/hotel-file";
import { hotelFileToSql } from "~/backend/hotels/hotel-sql";

/** The hotel file's `invoicing` (decision 159): who issues, through which provider, under which 統一編號. */

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const minimal = () => read("../fixtures/minimal-hotel.json") as { hotel: { domain: string }; invoicing?: unknown };
const withInvoicing = (invoicing: unknown, domain?: string) => {
  const file = minimal();
  file.invoicing = invoicing;
  if (domain) file.hotel.domain = domain;
  return file;
};
const errorsOf = (input: unknown, options?: { allowTestGateway?: boolean }) => {
  const result = validateHotelFile(input, options);
  return result.success ? [] : result.errors;
};

describe("the hotel file's invoicing", () => {
  it("the demo hotels: taipei at payment and lakeside at check-out (allowances by the guest's consent) through the sandbox, camp by its own system", () => {
    const taipei = validateHotelFile(read("../../demo/hotels/taipei.json"));
    const lakeside = validateHotelFile(read("../../demo/hotels/lakeside.json"));
    const camp = validateHotelFile(read("../../demo/hotels/camp.json"));
    expect(taipei.success && taipei.file.invoicing).toMatchObject({
      issuer: "portico_at_payment",
      provider: "sandbox",
      allowance: "immediate",
    });
    expect(lakeside.success && lakeside.file.invoicing).toMatchObject({
      issuer: "portico_at_checkout",
      provider: "sandbox",
      allowance: "consent",
    });
    expect(camp.success && camp.file.invoicing).toMatchObject({ issuer: "hotel_system" });
  });

  it("makes allowances at once unless it says by the guest's consent (decision 167); anything else is refused at its field", () => {
    const base = { issuer: "portico_at_payment", provider: "sandbox", seller_tax_id: "04595257" };
    const plain = validateHotelFile(withInvoicing(base, "x.localhost"));
    expect(plain.success && plain.file.invoicing?.allowance).toBe("immediate");
    const consent = validateHotelFile(withInvoicing({ ...base, allowance: "consent" }, "x.localhost"));
    expect(consent.success && consent.file.invoicing?.allowance).toBe("consent");
    expect(consent.success && hotelFileToSql(consent.file, { loadDay: "2026-11-29" }).join("\n")).toMatch(
      /INSERT INTO hotel_invoicing \(.*allowance_mode\) VALUES .*'consent'\) ON CONFLICT .*allowance_mode = excluded\.allowance_mode/,
    );
    expect(errorsOf(withInvoicing({ ...base, allowance: "by_email" }, "x.localhost"))).toEqual([
      "invoicing.allowance: must be immediate or consent",
    ]);
  });

  it("is optional: without it Portico issues nothing", () => {
    expect(errorsOf(minimal())).toEqual([]);
  });

  it("names the issuer, the 統一編號 and the secrets' form beside their fields", () => {
    expect(errorsOf(withInvoicing({ issuer: "portico", provider: "sandbox", seller_tax_id: "04595257" }))).toEqual([
      "invoicing.issuer: must be portico_at_payment, portico_at_checkout or hotel_system",
    ]);
    expect(errorsOf(withInvoicing({ issuer: "hotel_system", seller_tax_id: "0459525" }))).toEqual([
      "invoicing.seller_tax_id: must be the hotel's 統一編號: 8 digits",
    ]);
    expect(errorsOf(withInvoicing({ issuer: "hotel_system", seller_tax_id: "04595258" }))).toEqual([
      "invoicing.seller_tax_id: is not a valid 統一編號 (its check digits do not add up)",
    ]);
    expect(
      errorsOf(
        withInvoicing({
          issuer: "portico_at_payment",
          provider: "ecpay",
          merchant_id: "2000132",
          seller_tax_id: "04595257",
          secrets: { hash_key: "ejCk326UnaZWKisg" },
        }),
      ),
    ).toEqual(["invoicing.secrets.hash_key: must be the NAME of a Worker secret starting with ECPAY_EINVOICE_ or EZPAY_EINVOICE_"]);
  });

  it("refuses Portico issuing without a provider, and ECPay without its merchant id and key names", () => {
    expect(errorsOf(withInvoicing({ issuer: "portico_at_payment", seller_tax_id: "04595257" }))).toEqual([
      "invoicing.provider: Portico issues for portico_at_payment: name the provider (sandbox, ecpay or ezpay)",
    ]);
    expect(
      errorsOf(withInvoicing({ issuer: "portico_at_checkout", provider: "ecpay", seller_tax_id: "04595257" }, "hotel.example.com")),
    ).toEqual([
      "invoicing.merchant_id: ECPay needs the hotel's e-invoice merchant id",
      "invoicing.secrets.hash_key: ECPay needs the NAME of the Worker secret holding its hash_key",
      "invoicing.secrets.hash_iv: ECPay needs the NAME of the Worker secret holding its hash_iv",
    ]);
    expect(
      errorsOf(
        withInvoicing(
          {
            issuer: "portico_at_checkout",
            provider: "ecpay",
            mode: "production",
            merchant_id: "2000132",
            seller_tax_id: "04595257",
            secrets: { hash_key: "ECPAY_EINVOICE_HOTEL_HASHKEY", hash_iv: "ECPAY_EINVOICE_HOTEL_HASHIV" },
          },
          "hotel.example.com",
        ),
      ),
    ).toEqual([]);
  });

  it("takes ezPay (decision 171) with its merchant id and key names, and refuses allowances by consent, which ezPay does not offer", () => {
    const ezpay = {
      issuer: "portico_at_payment",
      provider: "ezpay",
      mode: "production",
      merchant_id: "34818970",
      seller_tax_id: "04595257",
      secrets: { hash_key: "EZPAY_EINVOICE_HOTEL_HASHKEY", hash_iv: "EZPAY_EINVOICE_HOTEL_HASHIV" },
    };
    const taken = validateHotelFile(withInvoicing(ezpay, "hotel.example.com"));
    expect(taken.success && taken.file.invoicing).toMatchObject({ provider: "ezpay", mode: "production", allowance: "immediate" });
    expect(errorsOf(withInvoicing({ ...ezpay, allowance: "consent" }, "hotel.example.com"))).toEqual([
      `invoicing.allowance: ezPay has no allowance by the buyer's emailed consent: use "immediate" (the hotel holds the buyer's consent)`,
    ]);
    expect(
      errorsOf(withInvoicing({ issuer: "portico_at_checkout", provider: "ezpay", seller_tax_id: "04595257" }, "hotel.example.com")),
    ).toEqual([
      "invoicing.merchant_id: ezPay needs the hotel's e-invoice merchant id",
      "invoicing.secrets.hash_key: ezPay needs the NAME of the Worker secret holding its hash_key",
      "invoicing.secrets.hash_iv: ezPay needs the NAME of the Worker secret holding its hash_iv",
    ]);
    expect(errorsOf(withInvoicing({ ...ezpay, provider: "newebpay" }, "hotel.example.com"))).toEqual([
      "invoicing.provider: must be sandbox, ecpay or ezpay",
    ]);
    // A key written into the file instead of its secret's name is refused, never stored.
    expect(errorsOf(withInvoicing({ ...ezpay, secrets: { ...ezpay.secrets, hash_iv: "CrJMQLwDF6zKOeaP" } }, "hotel.example.com"))).toEqual([
      "invoicing.secrets.hash_iv: must be the NAME of a Worker secret starting with ECPAY_EINVOICE_ or EZPAY_EINVOICE_",
    ]);
  });

  it("refuses the sandbox on a live domain (unless a staging import opts in) and in production mode", () => {
    const sandbox = { issuer: "portico_at_payment", provider: "sandbox", seller_tax_id: "04595257" };
    expect(errorsOf(withInvoicing(sandbox, "hotel.example.com"))).toEqual([
      'invoicing.provider: "sandbox" is the built-in test provider, which issues nothing real: only for local domains (*.localhost), or a staging site imported with --allow-test-gateway',
    ]);
    expect(errorsOf(withInvoicing(sandbox, "hotel.example.com"), { allowTestGateway: true })).toEqual([]);
    expect(errorsOf(withInvoicing({ ...sandbox, mode: "production" }, "demo.localhost"))).toEqual([
      'invoicing.mode: "sandbox" is the built-in test provider, which issues nothing real: it has no production mode',
    ]);
    // The hotel's own system needs no provider anywhere.
    expect(errorsOf(withInvoicing({ issuer: "hotel_system", seller_tax_id: "04595257" }, "hotel.example.com"))).toEqual([]);
  });

  it("loads into hotel_invoicing, and a file without it removes the row", () => {
    const result = validateHotelFile(
      withInvoicing({ issuer: "portico_at_checkout", provider: "sandbox", seller_tax_id: "04595257" }, "demo.localhost"),
    );
    if (!result.success) throw new Error(result.errors.join("\n"));
    const sql = hotelFileToSql(result.file, { loadDay: "2026-11-29" }).filter((statement) => statement.includes("hotel_invoicing"));
    expect(sql).toHaveLength(1);
    expect(sql[0]).toContain("'portico_at_checkout', 'sandbox', 'test', '04595257', '', '{}'");
    const without = validateHotelFile(minimal());
    if (!without.success) throw new Error(without.errors.join("\n"));
    expect(hotelFileToSql(without.file, { loadDay: "2026-11-29" }).filter((statement) => statement.includes("hotel_invoicing"))).toEqual([
      "DELETE FROM hotel_invoicing WHERE hotel_id = (SELECT id FROM hotels WHERE domain = 'fixture.localhost');",
    ]);
  });
});
