/** The seats of an order's rail lines, held in its batch (decision 120), and the refusal of seats another order took. */
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { railProviderFor } from "~/backend/rail/provider";
import { type PricedRail } from "./rail.server";

/**
 * The statements that hold the lines' seats for an order, for its batch: the provider's (the
 * allotment rows), then one reservation per line, whose trigger takes the seats under the CHECK.
 * `orderRef` is SQL naming the order's id, with its bindings; `onlyIf`, SQL a reservation is written
 * under (with its bindings), for an order that may have changed since it was read.
 */
export function railHoldStatements(
  db: D1Database,
  hotel: HotelRow,
  orderRef: { sql: string; bind: unknown[] },
  rail: PricedRail,
  onlyIf?: { sql: string; bind: unknown[] },
): D1PreparedStatement[] {
  if (rail.lines.length === 0) return [];
  const provider = railProviderFor(hotel);
  return [
    ...provider.prepareStatements(db, hotel, rail.lines),
    ...rail.lines.map((line) =>
      db
        .prepare(
          `INSERT INTO rail_reservations (order_id, hotel_id, provider, direction, day, train_no, origin_id, destination_id,
             departure_time, arrival_time, adult, child, senior, disabled, seats, fares, amount)
           SELECT ${orderRef.sql}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${onlyIf ? ` WHERE ${onlyIf.sql}` : ""}`,
        )
        .bind(
          ...orderRef.bind,
          hotel.id,
          provider.name,
          line.direction,
          line.day,
          line.train_no,
          line.origin_id,
          line.destination_id,
          line.departure_time,
          line.arrival_time,
          line.passengers.adult,
          line.passengers.child,
          line.passengers.senior,
          line.passengers.disabled,
          line.seats,
          JSON.stringify(line.fares),
          line.amount,
          ...(onlyIf?.bind ?? []),
        ),
    ),
  ];
}

/** The database refused seats (another order took them since they were counted). */
export function isRailSoldOut(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.includes("rail_allotments_not_oversold") || message.includes("no_rail_allotment");
}
