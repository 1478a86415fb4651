/**
 * The cache versions of a hotel's public pages (migration 0003, docs/decisions/026): one indexed
 * read of the hotel row, small enough to make on every request.
 */
export interface HotelVersions {
  /** Bumped by every import of the hotel file. */
  content: number;
  /** Bumped whenever a booking takes or gives back rooms. */
  stock: number;
  /** The hotel's time zone (IANA), for its "today". */
  timeZone: string;
}

/** The versions of the live hotel at `domain`, or null when no live hotel has it. */
export async function readHotelVersions(db: Pick<D1Database, "prepare">, domain: string): Promise<HotelVersions | null> {
  const row = await db
    .prepare("SELECT content_version, stock_version, time_zone FROM hotels WHERE domain = ? AND status = 1 AND website_exist = 1")
    .bind(domain.toLowerCase())
    .first<{ content_version: number; stock_version: number; time_zone: string }>();
  return row ? { content: row.content_version, stock: row.stock_version, timeZone: row.time_zone } : null;
}
