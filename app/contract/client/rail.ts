/** High-speed rail (docs/api.md "Rail"). The order calls take the order's cancel link hash, or the member's token. */
import {
  RailAvailabilitySchema,
  RailNextDateSchema,
  RailOrderSchema,
  RailTrialFareSchema,
  type RailFareType,
  type RailItemInput,
  type RailPassengers,
  type RailQuery,
} from "../rail";
import type { ClientClass } from "./core";

/** The calls of rail tickets. */
export function withRailCalls<TBase extends ClientClass>(Base: TBase) {
  return class RailCalls extends Base {
    private railPassengers(passengers: Partial<Record<RailFareType, number>> = {}) {
      return {
        adult: passengers.adult ?? 0,
        child: passengers.child ?? 0,
        senior: passengers.senior ?? 0,
        disabled: passengers.disabled ?? 0,
      };
    }

    /** GET /api/xtra/rail/train_availability: the trains of a date between two stations, seats left and fares. */
    railTrainAvailability(input: RailQuery & { date: string; time?: string }) {
      return this.call(RailAvailabilitySchema, "GET", "/api/xtra/rail/train_availability", {
        query: {
          ...this.hotel,
          date: input.date,
          origin: input.origin,
          destination: input.destination,
          time: input.time,
          ...this.railPassengers(input.passengers ?? { adult: 1 }),
        },
      });
    }

    /** GET /api/xtra/rail/next_avail_booking_date: the first date from `date` with a bookable train, the booking window and the stations. */
    railNextAvailBookingDate(input: { origin?: string; destination?: string; date?: string; seats?: number } = {}) {
      return this.call(RailNextDateSchema, "GET", "/api/xtra/rail/next_avail_booking_date", { query: { ...this.hotel, ...input } });
    }

    /** GET /api/xtra/rail/query_trial_fare: what the passengers pay between two stations. */
    railTrialFare(input: RailQuery) {
      return this.call(RailTrialFareSchema, "GET", "/api/xtra/rail/query_trial_fare", {
        query: {
          ...this.hotel,
          origin: input.origin,
          destination: input.destination,
          ...this.railPassengers(input.passengers ?? { adult: 1 }),
        },
      });
    }

    /** POST /api/xtra/rail/reservation: holds tickets for an unpaid order, adding their fares to it. */
    railReserve(orderDoc: string, cancelHash: string | undefined, items: RailItemInput[]) {
      return this.railOrderCall("/api/xtra/rail/reservation", orderDoc, cancelHash, { rail_item_list: items });
    }

    /** POST /api/xtra/rail/booking: books (PNR, booking number) the reserved tickets of a paid order; payment does it by itself. */
    railBook(orderDoc: string, cancelHash?: string) {
      return this.railOrderCall("/api/xtra/rail/booking", orderDoc, cancelHash, {});
    }

    /** POST /api/xtra/rail/change_reservation: moves one line to another train (same stations and passengers). */
    railChangeReservation(orderDoc: string, cancelHash: string | undefined, change: { rail_id: number; train_no: string; date?: string }) {
      return this.railOrderCall("/api/xtra/rail/change_reservation", orderDoc, cancelHash, change);
    }

    /** POST /api/xtra/rail/update_reservation: changes the passengers of a reserved (unpaid) line. */
    railUpdateReservation(
      orderDoc: string,
      cancelHash: string | undefined,
      update: { rail_id: number; passengers: Partial<RailPassengers> },
    ) {
      return this.railOrderCall("/api/xtra/rail/update_reservation", orderDoc, cancelHash, update);
    }

    /** POST /api/rail/refund: refunds a booked line before departure, less the handling fee per ticket. */
    railRefund(orderDoc: string, cancelHash: string | undefined, railId: number) {
      return this.railOrderCall("/api/rail/refund", orderDoc, cancelHash, { rail_id: railId });
    }

    /** POST /api/rail/refund_reserved: gives back reserved (unpaid) lines, one or (without rail_id) all. */
    railRefundReserved(orderDoc: string, cancelHash: string | undefined, railId?: number) {
      return this.railOrderCall("/api/rail/refund_reserved", orderDoc, cancelHash, { rail_id: railId });
    }

    private railOrderCall(path: string, orderDoc: string, cancelHash: string | undefined, body: Record<string, unknown>) {
      return this.call(RailOrderSchema, "POST", path, { body: { ...this.hotel, order_doc: orderDoc, valid_hash: cancelHash, ...body } });
    }
  };
}
