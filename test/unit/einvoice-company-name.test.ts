import { describe, expect, it } from "vitest";
import { companyNameKey, sameCompanyName } from "~/domain/einvoice/company-name";

/**
 * The lenient comparison of a company name typed with the one the invoice platform registers the
 * 統一編號 to (decision 168): only a name plainly another's is advised.
 */

const REGISTERED = "範例旅行社股份有限公司";

describe("a company name typed against the registered one", () => {
  it.each([
    ["the same name", REGISTERED],
    ["typed full-width with spaces", "範例 旅行社　股份有限公司"],
    ["with the legal form left out", "範例旅行社"],
    ["with its legal form written short", "範例旅行社（股）公司"],
    ["with punctuation", "範例旅行社-股份有限公司。"],
  ])("is the same: %s", (_, typed) => {
    expect(sameCompanyName(typed, REGISTERED)).toBe(true);
  });

  it("reads 台 as 臺, either way round, and a short 有限公司 written (有)", () => {
    expect(sameCompanyName("台灣示範商務顧問有限公司", "臺灣示範商務顧問有限公司")).toBe(true);
    expect(sameCompanyName("臺灣示範商務顧問", "台灣示範商務顧問有限公司")).toBe(true);
    expect(sameCompanyName("臺灣示範商務顧問(有)公司", "臺灣示範商務顧問有限公司")).toBe(true);
  });

  it("reads Latin letters in any case and width, without spaces or punctuation", () => {
    expect(sameCompanyName("ＰＯＲＴＩＣＯ co., ltd.", "Portico Co Ltd")).toBe(true);
    expect(sameCompanyName("portico", "Portico Travel Co., Ltd.")).toBe(true);
    expect(companyNameKey(" Ｐortico  Co., Ltd. ")).toBe("porticocoltd");
  });

  it.each([
    ["another company", "林氏貿易"],
    ["a name sharing only some characters", "範例貿易股份有限公司"],
    ["the right name with another word in it", "範例旅行社台北分公司"],
    ["Latin for a Chinese name", "Example Travel"],
  ])("is another: %s", (_, typed) => {
    expect(sameCompanyName(typed, REGISTERED)).toBe(false);
  });

  it("tells nothing apart from a name with nothing left to compare", () => {
    expect(companyNameKey("（）—")).toBe("");
    expect(sameCompanyName("—", REGISTERED)).toBe(true);
  });
});
