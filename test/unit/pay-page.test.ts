import { describe, expect, it } from "vitest";
import { payableNow, paymentView } from "~/features/checkout/payment.server";
import type { Order } from "~/contract/schemas";

const now = new Date("2026-11-24T10:00:00Z");
const attempt = (status: string, minutesAgo = 1) => ({
  vendor_id: 1,
  amount: 3000,
  purpose: "full",
  status,
  code_info: status === "code_issued" ? { bank_code: "812", account: "1", expire_date: "2026/11/27" } : null,
  paid_at: null,
  paid_with: "",
  created_at: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
});
const order = (change: Partial<Order> = {}) =>
  ({
    status: "pending_payment",
    payment_status: -1,
    paid_amount: 0,
    final_amount: 3000,
    pay_amount: 3000,
    pay_deadline: "2026-11-24T10:30:00Z",
    payment_attempts: [],
    ...change,
  }) as unknown as Order;

describe("what the /pay page says (docs/decisions/033)", () => {
  it.each<[string, Partial<Order>, string, number | null]>([
    ["nothing tried yet", {}, "due", 3000],
    // Back from the gateway without an answer: "not received yet", and the guest may pay again.
    ["an attempt just started, no answer yet", { payment_attempts: [attempt("pending")] }, "not_received", 3000],
    ["an attempt started long ago", { payment_attempts: [attempt("pending", 20)] }, "not_received", 3000],
    ["the card was declined", { payment_attempts: [attempt("failed")] }, "declined", 3000],
    // An open ATM account is paid by transfer: no second attempt beside it (decision 047).
    ["an ATM account is open", { payment_attempts: [attempt("code_issued")] }, "code_issued", null],
    ["paid", { status: "confirmed", payment_status: 2, paid_amount: 3000, payment_attempts: [attempt("paid")] }, "paid", null],
    ["deposit paid", { status: "confirmed", payment_status: 1, paid_amount: 900, payment_attempts: [attempt("paid")] }, "part_paid", 2100],
    ["expired", { status: "cancelled", pay_deadline: "2026-11-24T09:00:00Z" }, "expired", null],
    ["cancelled by the guest", { status: "cancelled", pay_deadline: null }, "cancelled", null],
  ])("%s", (_, change, view, payable) => {
    const shown = paymentView(order(change), now);
    expect(shown).toBe(view);
    expect(payableNow(order(change), shown, true)).toBe(payable);
  });

  it("offers the rest after a deposit only with FEATURE_REPAY", () => {
    const deposit = order({ status: "confirmed", payment_status: 1, paid_amount: 900 });
    expect(payableNow(deposit, "part_paid", false)).toBeNull();
  });
});
