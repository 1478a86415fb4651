/**
 * The high-speed rail part of the API contract (spec §3 Rail, §7 Rail; issue 27; docs/api.md
 * "Rail"): the nine calls' answers, a ticket line as the order payload sends it (`rail_item_list`)
 * and as the price check and the order answer it. Decisions 119 and 120.
 */
import * as v from "valibot";

/** THSR's fare types (TDX ODFare FareClass 1 adult, 3 child, 4 senior, 5 disabled). */
export const RAIL_FARE_TYPES = ["adult", "child", "senior", "disabled"] as const;
export type RailFareType = (typeof RAIL_FARE_TYPES)[number];

/** Which way a ticket line goes: to the hotel's station (outbound) or from it (return). */
export const RAIL_DIRECTIONS = ["outbound", "return"] as const;
export type RailDirection = (typeof RAIL_DIRECTIONS)[number];

/** Where a ticket line is in its life (decision 120). `quoted`: only priced (a price check), nothing held. */
export const RAIL_STATUSES = ["quoted", "reserved", "booked", "refunded", "released"] as const;
export type RailStatus = (typeof RAIL_STATUSES)[number];

/** Passengers of one line by fare type; a missing type counts 0. */
export const RailPassengersSchema = v.object({
  adult: v.optional(v.number(), 0),
  child: v.optional(v.number(), 0),
  senior: v.optional(v.number(), 0),
  disabled: v.optional(v.number(), 0),
});
export type RailPassengers = v.InferOutput<typeof RailPassengersSchema>;

/** One ticket's price (TWD, standard car, one way) by fare type. */
export const RailFaresSchema = v.object({ adult: v.number(), child: v.number(), senior: v.number(), disabled: v.number() });
export type RailFares = v.InferOutput<typeof RailFaresSchema>;

/** A THSR station: TDX StationID ("1000"), code ("TPE") and name in the request's language. */
export const RailStationSchema = v.object({ station_id: v.string(), code: v.string(), name: v.string() });
export type RailStation = v.InferOutput<typeof RailStationSchema>;

/** Why a train cannot be booked now: no seats left in the hotel's allotment, booking not open yet (28 days), or closed (1 hour before departure). */
export const RailUnavailableSchema = v.nullable(v.picklist(["sold_out", "not_open_yet", "closed"]));

export const RailTrainSchema = v.object({
  train_no: v.string(),
  /** THSR's own direction (TDX Direction 0 southbound, 1 northbound). */
  direction: v.picklist(["southbound", "northbound"]),
  /** "HH:MM", Taiwan time, at the origin and the destination of the query. */
  departure_time: v.string(),
  arrival_time: v.string(),
  duration_minutes: v.number(),
  /** Seats left in the hotel's allotment for this train and date. */
  seats_left: v.number(),
  bookable: v.boolean(),
  unavailable: RailUnavailableSchema,
  fares: RailFaresSchema,
  /** The price of the passengers asked for. */
  amount: v.number(),
});
export type RailTrain = v.InferOutput<typeof RailTrainSchema>;

/** GET /api/xtra/rail/train_availability */
export const RailAvailabilitySchema = v.object({
  date: v.string(),
  origin: RailStationSchema,
  destination: RailStationSchema,
  passengers: RailPassengersSchema,
  trains: v.array(RailTrainSchema),
});
export type RailAvailability = v.InferOutput<typeof RailAvailabilitySchema>;

/** GET /api/xtra/rail/next_avail_booking_date */
export const RailNextDateSchema = v.object({
  /** The first date from the one asked with a bookable train for the seats asked; null: none in the booking window. */
  date: v.nullable(v.string()),
  /** The booking window: today (Taiwan) to today + 28 days. */
  first_date: v.string(),
  last_date: v.string(),
  /** The hotel's station (hotel file `thsr_station_id`). */
  hotel_station: RailStationSchema,
  /** THSR's stations, north to south. */
  stations: v.array(RailStationSchema),
});
export type RailNextDate = v.InferOutput<typeof RailNextDateSchema>;

/** GET /api/xtra/rail/query_trial_fare */
export const RailTrialFareSchema = v.object({
  origin: RailStationSchema,
  destination: RailStationSchema,
  passengers: RailPassengersSchema,
  fares: RailFaresSchema,
  amount: v.number(),
});
export type RailTrialFare = v.InferOutput<typeof RailTrialFareSchema>;

/** A ticket line as the price check and the order answer it. */
export const RailLineSchema = v.object({
  /** The reservation's id; null in a price check (nothing is held yet). */
  rail_id: v.nullable(v.number()),
  direction: v.picklist(RAIL_DIRECTIONS),
  date: v.string(),
  train_no: v.string(),
  origin: RailStationSchema,
  destination: RailStationSchema,
  departure_time: v.string(),
  arrival_time: v.string(),
  passengers: RailPassengersSchema,
  fares: RailFaresSchema,
  amount: v.number(),
  status: v.picklist(RAIL_STATUSES),
  /** Set once booked (the order is paid). */
  pnr: v.nullable(v.string()),
  booking_number: v.nullable(v.string()),
  /** When refunded: the handling fee kept and what comes back. */
  refund_fee: v.optional(v.number(), 0),
  refund_amount: v.optional(v.number(), 0),
  /**
   * What refunding the line now would keep (`fee`) and give back (`refund_amount`), by the refund
   * calls' own rules; null when they would refuse it (built-in back end; others send none).
   */
  refund_quote: v.optional(v.nullable(v.object({ fee: v.number(), refund_amount: v.number() })), null),
});
export type RailLine = v.InferOutput<typeof RailLineSchema>;

/** The answer of the calls that change an order's tickets (reservation, booking, change, update, refund, refund_reserved). */
export const RailOrderSchema = v.object({
  order_doc: v.string(),
  rail_item_list: v.array(RailLineSchema),
  /** The fares of the order's tickets still held or booked. */
  rail_amount: v.number(),
  total_price: v.number(),
  pay_amount: v.number(),
});
export type RailOrder = v.InferOutput<typeof RailOrderSchema>;

/** One entry of `rail_item_list` as the order payload, the price check and the reservation call send it. */
export interface RailItemInput {
  direction: RailDirection;
  /** Departure date, YYYY-MM-DD (Taiwan). */
  date: string;
  train_no: string;
  /** TDX StationIDs; one of the two is the hotel's station. */
  origin: string;
  destination: string;
  passengers: Partial<Record<RailFareType, number>>;
  /** The amount the guest was shown; when sent and the fare is now different, the call is refused (rail_fare_changed). */
  amount?: number;
}

/** The stations and passengers of a fare or availability query. */
export interface RailQuery {
  origin: string;
  destination: string;
  passengers?: Partial<Record<RailFareType, number>>;
}
