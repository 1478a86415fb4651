/**
 * Where rail seats and tickets come from (decision 120): one interface, like the payment gateways'
 * (app/backend/payments/gateways/gateway.ts), so an agent's own system can replace the built-in
 * allotment. THSR has no public booking API (integrations.md): hotels sell combos from seats an
 * agent holds for them, per train and day.
 *
 * The seats of a new order are held in the order's own D1 batch (all or nothing with its rooms),
 * so a provider answers statements for that batch, not a promise: the built-in one takes seats from
 * rail_allotments under its CHECK; an agent's system would record the line here and confirm it with
 * its API once the batch has run (`issue`).
 */
import type { HotelRow } from "~/backend/hotels/hotels.server";

export interface RailSeatKey {
  train_no: string;
  day: string;
}

export interface RailProvider {
  readonly name: string;
  /** Seats the hotel can still sell, per train of the keys (absent: none). */
  seatsLeft(db: D1Database, hotel: HotelRow, keys: readonly RailSeatKey[]): Promise<Map<string, number>>;
  /** Statements to run in a batch before the rail_reservations rows that take seats (the built-in: the allotment rows). */
  prepareStatements(db: D1Database, hotel: HotelRow, keys: readonly RailSeatKey[]): D1PreparedStatement[];
  /**
   * Issues the tickets of paid lines: PNR and booking number per reservation id. The built-in
   * provider issues them in the statement that records the payment (migration 0011, trigger
   * orders_paid_book_rail) and answers statements for the booking call's retry.
   */
  bookStatements(db: D1Database, orderId: number): D1PreparedStatement[];
}

export const seatKey = (key: RailSeatKey) => `${key.train_no}|${key.day}`;

/** The built-in provider: the hotel's allotment in D1 (thsr_seats_per_train, or a row per train and day). */
export const allotmentProvider: RailProvider = {
  name: "allotment",
  async seatsLeft(db, hotel, keys) {
    const out = new Map<string, number>();
    if (keys.length === 0) return out;
    const { results } = await db
      .prepare(
        `SELECT train_no, day, seats - taken AS left FROM rail_allotments
         WHERE hotel_id = ?1 AND (train_no || '|' || day) IN (SELECT value FROM json_each(?2))`,
      )
      .bind(hotel.id, JSON.stringify(keys.map(seatKey)))
      .all<{ train_no: string; day: string; left: number }>();
    for (const key of keys) out.set(seatKey(key), hotel.thsr_seats_per_train ?? 0);
    for (const row of results) out.set(seatKey(row), Math.max(0, row.left));
    return out;
  },
  prepareStatements(db, hotel, keys) {
    return keys.map((key) =>
      db
        .prepare(
          `INSERT INTO rail_allotments (hotel_id, train_no, day, seats)
           SELECT id, ?2, ?3, thsr_seats_per_train FROM hotels WHERE id = ?1
           ON CONFLICT (hotel_id, train_no, day) DO NOTHING`,
        )
        .bind(hotel.id, key.train_no, key.day),
    );
  },
  bookStatements(db, orderId) {
    return [
      db
        .prepare(
          `UPDATE rail_reservations
           SET status = 'booked', pnr = printf('%08d', abs(random()) % 100000000), booking_number = 'TH' || upper(hex(randomblob(5))),
               updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
           WHERE order_id = ?1 AND status = 'reserved' AND provider = 'allotment'`,
        )
        .bind(orderId),
    ];
  },
};

/** The registry: one provider per name a hotel may use (the built-in allotment only, for now). */
const PROVIDERS: Record<string, RailProvider> = { allotment: allotmentProvider };

/** The rail provider of a hotel. */
export function railProviderFor(_hotel: HotelRow): RailProvider {
  return PROVIDERS.allotment ?? allotmentProvider;
}
