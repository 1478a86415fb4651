import { describe, expect, it } from "vitest";
import { pointsOf, promotionOf, validateCheckout } from "~/features/checkout/checkout-form";
import { MEMBER_PROMOTION_CODE } from "~/domain/pricing";

const filled = {
  booker_last_name: "Chen",
  booker_first_name: "Mei",
  booker_phone: "+886 2 2345 6789",
  booker_email: "mei@example.com",
  payment: "1:credit",
  checkout_key: "key-12345678",
};

describe("the checkout form's schema", () => {
  it("takes a filled form, trimming what the guest typed", () => {
    const result = validateCheckout({ ...filled, booker_last_name: "  Chen  ", memo: "Late arrival\nafter 22:00" }, 1);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input.booker_last_name).toBe("Chen");
    expect(result.input.memo).toBe("Late arrival\nafter 22:00");
    expect(result.input.pay_option).toBe("all");
    expect(result.occupants).toEqual([{ occupant_name: "", occupant_phone: "", occupant_email: "" }]);
  });

  it("names each field to fix with its own translation key, the first problem only", () => {
    const result = validateCheckout(
      { ...filled, booker_first_name: "", booker_phone: "2026-12-10", booker_email: "mei@", company_reg_number: "1234" },
      1,
    );
    expect(result.ok).toBe(false);
    expect(result.fieldErrors).toEqual({
      booker_first_name: "form.error.required",
      booker_phone: "form.error.phone",
      booker_email: "form.error.email",
      company_reg_number: "form.error.company_reg_number",
    });
  });

  it("checks each line's occupant apart and names the line", () => {
    const result = validateCheckout(
      { ...filled, occupant_phone_0: "0912 345 678", occupant_email_1: "not an email", occupant_name_1: "A\u0007B" },
      2,
    );
    expect(result.ok).toBe(false);
    expect(result.fieldErrors).toEqual({ occupant_email_1: "form.error.email", occupant_name_1: "form.error.control_characters" });
  });

  it("refuses control characters in a name but keeps a note's line breaks", () => {
    expect(validateCheckout({ ...filled, booker_last_name: "Ch\u0000en" }, 1).fieldErrors).toEqual({
      booker_last_name: "form.error.control_characters",
    });
    expect(validateCheckout({ ...filled, memo: "one\r\ntwo\tthree" }, 1).ok).toBe(true);
    expect(validateCheckout({ ...filled, memo: "one\u0085two" }, 1).fieldErrors).toEqual({ memo: "form.error.control_characters" });
  });

  it("refuses direction controls in the booker's and the occupants' names, and takes a right-to-left name", () => {
    expect(
      validateCheckout({ ...filled, booker_last_name: "Lin\u202E", booker_first_name: "\u2067Mei", occupant_name_0: "A\u200FB" }, 1)
        .fieldErrors,
    ).toEqual({
      booker_last_name: "form.error.control_characters",
      booker_first_name: "form.error.control_characters",
      occupant_name_0: "form.error.control_characters",
    });
    expect(validateCheckout({ ...filled, booker_last_name: "כהן", booker_first_name: "שרה", occupant_name_0: "محمد" }, 1).ok).toBe(true);
  });

  it("refuses a payment the form never offers and an overlong field", () => {
    const result = validateCheckout({ ...filled, payment: "1:bitcoin", booker_last_name: "x".repeat(51) }, 1);
    expect(result.fieldErrors).toEqual({ payment: "form.error.payment", booker_last_name: "form.error.too_long" });
  });
});

describe("promotions and points from the form", () => {
  it("takes the members-only code over a typed coupon, and a blank coupon as none", () => {
    expect(promotionOf({ member_promotion: "1", coupon_code: "SPRING" })).toBe(MEMBER_PROMOTION_CODE);
    expect(promotionOf({ coupon_code: " SPRING " })).toBe("SPRING");
    expect(promotionOf({ coupon_code: "   " })).toBeUndefined();
  });

  it("reads points as a whole number of 0 or more, blank as none", () => {
    expect(pointsOf({ points: "" })).toBe(0);
    expect(pointsOf({ points: " 120 " })).toBe(120);
    expect(pointsOf({ points: "-5" })).toBeNull();
    expect(pointsOf({ points: "1.5" })).toBeNull();
    expect(pointsOf({ points: "12345678" })).toBeNull();
  });
});
