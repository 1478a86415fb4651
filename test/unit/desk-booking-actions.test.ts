/** Which desk actions a booking's page offers (decision 151): by the booking's state, the day and the role. */
import { describe, expect, it } from "vitest";
import { actionsFor, type BookingForActions } from "~/features/desk/booking-actions";

const booking = (change: Partial<BookingForActions> = {}): BookingForActions => ({
  order_doc: "PT261128-ABCDEF",
  status: "pending_payment",
  stay_status: "expected",
  check_in_day: "2026-12-10",
  check_out_day: "2026-12-12",
  pay_deadline: "2026-12-01T15:59:59.000Z",
  owed: 6000,
  due_back: 0,
  reinstatable: false,
  ...change,
});

describe("actionsFor", () => {
  it("offers an unpaid transfer booking its payment, deadline, cancellation and paperwork", () => {
    expect(actionsFor(booking(), "front_desk", "2026-11-28")).toEqual([
      "record_transfer",
      "record_at_hotel",
      "extend_deadline",
      "cancel",
      "resend_confirmation",
      "note",
    ]);
  });

  it("offers read-only staff nothing", () => {
    expect(actionsFor(booking(), "read_only", "2026-11-28")).toEqual([]);
  });

  it("offers check-in and no-show from the check-in day, check-out once in house", () => {
    const paid = booking({ status: "confirmed", owed: 0, pay_deadline: null });
    expect(actionsFor(paid, "owner", "2026-12-09")).not.toContain("check_in");
    expect(actionsFor(paid, "owner", "2026-12-10")).toEqual(["check_in", "no_show", "cancel", "resend_confirmation", "note"]);
    expect(actionsFor(paid, "owner", "2026-12-12")).not.toContain("check_in");
    expect(actionsFor({ ...paid, stay_status: "in_house" }, "owner", "2026-12-11")).toEqual(["check_out", "resend_confirmation", "note"]);
  });

  it("offers a cancelled booking its refund when money is due back, and a swept one its transfer", () => {
    const cancelled = booking({ status: "cancelled", owed: 0, pay_deadline: null });
    expect(actionsFor({ ...cancelled, due_back: 3000 }, "front_desk", "2026-11-28")).toEqual(["refund", "note"]);
    expect(actionsFor({ ...cancelled, reinstatable: true, owed: 6000 }, "front_desk", "2026-11-28")).toEqual(["record_transfer", "note"]);
  });
});
