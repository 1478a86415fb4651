import { describe, expect, it } from "vitest";
import { formatDate, formatPrice } from "~/i18n/format";

describe("formatting for the guest's language", () => {
  it("formats TWD without decimals", () => {
    expect(formatPrice(3200, "en-US")).toBe("NT$3,200");
    expect(formatPrice(3200, "zh-TW")).toBe("$3,200");
    expect(formatPrice(3200, "ja-JP")).toContain("3,200");
  });
  it("formats hotel-local dates without shifting them", () => {
    expect(formatDate("2030-05-01", "en-US")).toBe("May 1, 2030");
    expect(formatDate("2030-05-01", "zh-TW")).toBe("2030年5月1日");
    expect(formatDate("2030-05-01", "ja-JP")).toBe("2030/05/01");
    expect(formatDate("2030-05-01", "ko-KR")).toBe("2030. 5. 1.");
  });
});
