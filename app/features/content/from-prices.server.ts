/** "From" prices of room classes, read from the room calendar (spec §7) and decided by `fromPrice`. */
import { fromPrice, fromPriceWindowEnd } from "~/domain/from-price";
import type { HotelApi } from "~/contract/client";

/**
 * Each room class's "from" price (null when nothing is bookable in the window). One calendar call
 * per room: the calendar merges the rooms it is asked for into one lowest price per night.
 */
export async function loadFromPrices(api: HotelApi, today: string, roomClassIds: readonly number[]): Promise<Map<number, number | null>> {
  const end = fromPriceWindowEnd(today);
  const prices = await Promise.all(
    roomClassIds.map(async (roomClassId) => {
      const nights = await api.roomCalendar(today, end, [roomClassId]);
      return [roomClassId, fromPrice(nights, today)] as const;
    }),
  );
  return new Map(prices);
}
