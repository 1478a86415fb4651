import { describe, expect, it } from "vitest";
import { accountIfCancelled, orderAccount, orderMoneyLines, type OrderAccount, type OrderMoney } from "~/domain/order-view";
import { MEMBER_PROMOTION_CODE } from "~/domain/pricing";
import { addDays } from "~/domain/dates";
import { railRefund } from "~/domain/rail";
import { refundQuote } from "~/backend/orders/present.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import type { OrderLineRow, OrderRow } from "~/backend/orders/store.server";
import type { RailRow } from "~/backend/rail/lines.server";

/**
 * Issue 37 item 8: whatever the booking — rooms, add-ons, rail tickets with some refunded on their
 * own, points, a coupon, a deposit, cancelled or not — the money lines every page, email and the
 * PDF print (orderAccount) add up to the total; what was charged less what comes back is what the
 * hotel and the rail operator keep; no amount is negative; and only add-ons are called add-ons.
 * The bookings are made by the back end's rules: the fares paid in full, a ticket refunded less
 * NT$20 a ticket with its fare out of rail_amount and what came back out of the total (the rail
 * refund route), and a cancellation recording the back end's own refund quote (refundQuote).
 */

/** A seeded generator (mulberry32), so a failure is the same on every run. */
function generator(seed: number) {
  return (below: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let mixed = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return Math.floor((((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32) * below);
  };
}

const TODAY = "2030-01-10";
/** Noon in Taipei on TODAY. */
const NOW = new Date("2030-01-10T04:00:00Z");
const FEE_PER_TICKET = 20;

interface Booking {
  /** The order as the API answers it, before a cancellation. */
  order: OrderMoney;
  /** The add-ons booked: the one amount that may be called add-ons. */
  addons: number;
  /** What came back of tickets refunded on their own, and the operator's fees on them. */
  lineRefunds: number;
  lineFees: number;
  /** The refund quote of cancelling now (as the cancel page shows it) and the order once cancelled, when it is. */
  quote: ReturnType<typeof refundQuote>;
  cancelled: OrderMoney | null;
}

function generatedBooking(random: (below: number) => number): Booking {
  const sum = 1_000 + random(40_000);
  const couponDiscount = random(3) === 0 ? 0 : random(Math.floor(sum / 2));
  const usedPoint = random(3) === 0 ? 0 : random(sum - couponDiscount + 1);
  const addons = random(2) === 0 ? 0 : 100 + random(6_000);
  const checkIn = addDays(TODAY, 1 + random(20));
  const rail: RailRow[] = Array.from({ length: random(3) }, (_, index) => {
    const seats = 1 + random(5);
    // A ticket home the day before (gone) now and then, to see a fare spent, not refunded.
    const gone = random(6) === 0;
    return {
      id: index + 1,
      direction: index === 0 ? "outbound" : "return",
      status: "reserved",
      amount: seats * (random(4) === 0 ? 15 : 100 + random(1_500)),
      seats,
      refund_fee: 0,
      refund_amount: 0,
      day: gone ? TODAY : checkIn,
      departure_time: gone ? "07:00" : "08:00",
    } as unknown as RailRow;
  });
  const railFares = rail.reduce((added, line) => added + line.amount, 0);
  const stay = sum - couponDiscount - usedPoint + addons;
  let total = stay + railFares;
  const part = random(2) === 0;
  const deposit = part ? Math.ceil(stay * 0.3) : 0;
  const payAmount = part ? deposit + railFares : total;
  const paid = [0, payAmount, total][random(3)] ?? 0;
  let railAmount = railFares;
  let lineRefunds = 0;
  let lineFees = 0;
  if (paid > 0) {
    for (const line of rail) line.status = "booked";
    // Some tickets refunded on their own (/api/rail/refund), while their train has not left.
    for (const line of rail) {
      if (line.day === TODAY || random(2) === 0) continue;
      const { fee, refund } = railRefund(line.amount, line.seats, FEE_PER_TICKET);
      Object.assign(line, { status: "refunded", refund_fee: fee, refund_amount: refund });
      railAmount -= line.amount;
      total -= refund;
      lineRefunds += refund;
      lineFees += fee;
    }
  }
  const order: OrderMoney = {
    status: paid > 0 ? "confirmed" : "pending_payment",
    // As the payment left it (a ticket refunded later does not change it).
    payment_status: paid === 0 ? -1 : paid >= stay + railFares ? 2 : 1,
    pay_way: "credit",
    pay_option: part ? "part" : "all",
    sum,
    couponDiscount,
    used_coupon: couponDiscount === 0 ? "" : random(2) === 0 ? MEMBER_PROMOTION_CODE : "WELCOME10",
    usedPoint,
    final_amount: total,
    deposit_amount: deposit,
    pay_amount: payAmount,
    paid_amount: paid,
    attachment_amount: addons,
    rail_amount: railAmount,
    rail_item_list: rail.map((line) => ({ ...line })),
    free_cancel_before_date: null,
  };
  const hotel = {
    time_zone: "Asia/Taipei",
    thsr_refund_fee: FEE_PER_TICKET,
    refund_ladder:
      random(2) === 0
        ? "[]"
        : JSON.stringify([
            { days_before: 3, percent: 100 },
            { days_before: 1, percent: 70 },
          ]),
  } as unknown as HotelRow;
  const row = {
    check_in_day: checkIn,
    paid_amount: paid,
    total_price: total,
    rail_amount: railAmount,
    pay_option: order.pay_option,
    deposit_amount: deposit,
  } as unknown as OrderRow;
  const lines = [{ refund_template_id: random(4) }] as unknown as OrderLineRow[];
  const quote = refundQuote(hotel, row, lines, NOW, rail);
  if (random(2) === 0) return { order, addons, lineRefunds, lineFees, quote, cancelled: null };
  // Cancelled now: the quote recorded, reserved tickets released, booked ones whose train has not left refunded (the trigger).
  const after = rail.map((line) => {
    if (line.status === "reserved") return { ...line, status: "released" };
    if (line.status === "booked" && line.day !== TODAY) {
      const { fee, refund } = railRefund(line.amount, line.seats, FEE_PER_TICKET);
      return { ...line, status: "refunded", refund_fee: fee, refund_amount: refund };
    }
    return { ...line };
  });
  const cancelled: OrderMoney = {
    ...order,
    status: "cancelled",
    rail_item_list: after,
    cancellation: {
      refund: quote.refund,
      fee: quote.fee,
      refund_status: quote.refund === 0 ? "none" : random(2) === 0 ? "due" : "refunded",
    },
  };
  return { order, addons, lineRefunds, lineFees, quote, cancelled };
}

/** The lines before the total, added as a guest adds them. */
function itemsAdded(account: OrderAccount): number {
  const at = account.lines.findIndex((line) => line.sign === "=");
  return account.lines.slice(0, at).reduce((added, line) => added + (line.sign === "-" ? -line.amount : line.amount), 0);
}

const amountOf = (account: OrderAccount, label: string) => account.lines.find((line) => line.label === label)?.amount;

function expectAddsUp(account: OrderAccount, booking: Booking, what: string) {
  // The lines before the total add up to it.
  expect(itemsAdded(account), what).toBe(account.total);
  expect(amountOf(account, "total"), what).toBe(account.total);
  // What was charged less what comes back is what the hotel and the rail operator keep.
  expect(account.charged - account.refunded - account.toBeRefunded, what).toBe(account.keptHotel + account.keptRailFees);
  // No amount is negative.
  for (const line of account.lines) expect(line.amount, `${what}: ${line.label}`).toBeGreaterThanOrEqual(0);
  for (const figure of [account.charged, account.refunded, account.toBeRefunded, account.keptHotel, account.keptRailFees]) {
    expect(figure, what).toBeGreaterThanOrEqual(0);
  }
  // Only the add-ons are called add-ons: the operator's fee on a ticket refunded is none.
  expect(amountOf(account, "addons") ?? 0, what).toBe(booking.addons);
  // Every ticket's fare is on the rail line, and what came back of those refunded on their own below it.
  expect(account.railRefunds, what).toBe(booking.lineRefunds);
  // After the total, as the page prints them: what was charged, what comes back, who keeps the rest.
  const labels = account.lines.map((line) => line.label);
  if (labels.includes("charged")) {
    expect(amountOf(account, "charged"), what).toBe(account.charged);
    expect((amountOf(account, "refunded") ?? 0) + (amountOf(account, "to_be_refunded") ?? 0), what).toBe(
      account.refunded + account.toBeRefunded,
    );
    expect(amountOf(account, "kept_hotel"), what).toBe(account.keptHotel);
    expect(amountOf(account, "kept_rail_fee") ?? 0, what).toBe(account.keptRailFees);
  } else {
    // Nothing came back: the parts after the total add up to it (paid, left to pay; due now, later).
    const parts = account.lines.filter((line) => line.sign === "part");
    if (parts.length > 0 && !labels.includes("paid"))
      expect(
        parts.reduce((added, line) => added + line.amount, 0),
        what,
      ).toBe(account.total);
  }
}

describe("an order's account (orderAccount): what every page, email and the PDF print", () => {
  it("adds up for generated bookings, before and after a ticket is refunded, before and after cancelling", () => {
    const random = generator(37);
    let withRefundedTicket = 0;
    let cancelledAfterTicket = 0;
    for (let index = 0; index < 800; index++) {
      const booking = generatedBooking(random);
      const what = `booking ${index}: ${JSON.stringify(booking.order)}`;
      const account = orderAccount(booking.order);
      expectAddsUp(account, booking, what);
      if (booking.lineRefunds > 0 && booking.order.paid_amount === booking.order.final_amount + booking.lineRefunds) {
        withRefundedTicket++;
        // Paid in full, a ticket refunded: charged what was paid, what came back of the ticket owed back, the operator's fee not the hotel's.
        expect(account.charged, what).toBe(booking.order.paid_amount);
        expect(account.toBeRefunded, what).toBe(booking.lineRefunds);
        expect(account.keptRailFees, what).toBe(booking.lineFees);
        expect(account.keptHotel, what).toBe(booking.order.final_amount - booking.lineFees);
      }

      // The cancel page's quote is the account the cancellation then records.
      const quoted = accountIfCancelled(booking.order, {
        refund: booking.quote.refund,
        fee: booking.quote.fee,
        rail_fee: booking.quote.railFee,
      });
      expectAddsUp(quoted, booking, `${what} (quote)`);
      if (booking.order.paid_amount > 0) expect(quoted.charged, what).toBe(booking.order.paid_amount);
      if (booking.cancelled) {
        const recorded = orderAccount(booking.cancelled);
        expectAddsUp(recorded, booking, `${what} (cancelled)`);
        expect(recorded.charged, what).toBe(quoted.charged);
        expect(recorded.refunded + recorded.toBeRefunded, what).toBe(quoted.refunded + quoted.toBeRefunded);
        expect(recorded.keptHotel, what).toBe(quoted.keptHotel);
        expect(recorded.keptRailFees, what).toBe(quoted.keptRailFees);
        if (booking.order.paid_amount > 0) {
          // Everything that comes back: the cancellation's refund and the tickets refunded before it, owed on their lines.
          expect(recorded.refunded + recorded.toBeRefunded, what).toBe(booking.quote.refund + booking.lineRefunds);
          if (booking.lineRefunds > 0) cancelledAfterTicket++;
        }
      }
    }
    // The generator reaches the cases of issue 37 item 8.
    expect(withRefundedTicket).toBeGreaterThan(20);
    expect(cancelledAfterTicket).toBeGreaterThan(20);
  });

  it("says the case of issue 37: NT$12,215 charged, a return ticket of NT$3,000 refunded less NT$60", () => {
    // Rooms 6,215, two ways of three tickets at NT$3,000 each way; the return refunded on its own.
    const order: OrderMoney = {
      status: "confirmed",
      payment_status: 2,
      pay_way: "credit",
      pay_option: "all",
      sum: 6_215,
      couponDiscount: 0,
      used_coupon: "",
      usedPoint: 0,
      final_amount: 12_215 - 2_940,
      deposit_amount: 0,
      pay_amount: 12_215,
      paid_amount: 12_215,
      attachment_amount: 0,
      rail_amount: 3_000,
      rail_item_list: [
        { status: "booked", amount: 3_000 },
        { status: "refunded", amount: 3_000, refund_fee: 60, refund_amount: 2_940 },
      ],
      free_cancel_before_date: null,
    };
    // orderMoneyLines: the lines the pages and documents print.
    expect(orderMoneyLines(order).map((line) => `${line.label} ${line.amount}`)).toEqual([
      "rooms 6215",
      "rail 6000",
      "rail_refund 2940",
      "total 9275",
      "charged 12215",
      "to_be_refunded 2940",
      "kept_hotel 9215",
      "kept_rail_fee 60",
    ]);
  });
});
