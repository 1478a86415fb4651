/**
 * The calendar's daily roll-forward (issue 40, decision 155): from the Cron Trigger, every hotel's
 * nights after `opened_through` up to its today + horizon_days - 1 (in the hotel's time zone) are
 * opened from its standing rules: rooms to sell from the room class, prices from plan_rates
 * (holiday over weekend over weekday, as the import prices them), a limited add-on's per_day.
 *
 * INSERT OR IGNORE: a night that exists (loaded by the import, changed at the desk) is never
 * touched. Set-based: the due hotels and their night ranges go in as one JSON parameter, a
 * recursive CTE spells out the nights, and one statement per table writes them for all hotels at
 * once, so a thousand hotels take one read and one write batch on an ordinary day. A run twice the
 * same day finds nothing due and writes nothing.
 */
import { addDays, todayIn } from "~/domain/dates";

/** Hotel-nights opened per write batch: an ordinary day's thousand hotels (one night each) fit one. */
export const ROLL_NIGHTS_PER_BATCH = 5_000;

export interface RollRun {
  /** Hotels whose calendar was opened further, and the hotel-nights opened (rows per table vary). */
  hotels: number;
  nights: number;
  /** Round trips to D1 and rows written, for the Cron's log and the bound (decision 155). */
  trips: number;
  rowsWritten: number;
}

interface HotelClock {
  id: number;
  time_zone: string;
  horizon_days: number;
  opened_through: string | null;
}

/** [hotel id, first night, last night] of each due hotel. */
type Due = [number, string, string];

// The due hotels' nights, one row per (hotel, night).
const NIGHTS = `WITH RECURSIVE due(hotel_id, night, last) AS (
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?1)
  UNION ALL SELECT hotel_id, date(night, '+1 day'), last FROM due WHERE night < last
)`;

const ROOM_NIGHTS = `${NIGHTS}
INSERT OR IGNORE INTO room_nights (room_class_id, night, capacity)
SELECT r.id, due.night, r.total_rooms FROM due JOIN room_classes r ON r.hotel_id = due.hotel_id`;

// Day kinds: 2 holiday, 1 weekend night (hotels.weekend_nights, 0 Sunday … 6 Saturday), 0 weekday.
const PLAN_NIGHTS = `${NIGHTS},
kinds AS (
  SELECT due.hotel_id, due.night,
    CASE WHEN EXISTS (SELECT 1 FROM hotel_holidays hh WHERE hh.hotel_id = due.hotel_id AND hh.night = due.night) THEN 2
         WHEN EXISTS (SELECT 1 FROM hotels h, json_each(h.weekend_nights) w
                      WHERE h.id = due.hotel_id AND w.value = CAST(strftime('%w', due.night) AS INTEGER)) THEN 1
         ELSE 0 END AS kind
  FROM due
),
priced AS (
  SELECT pr.rate_plan_id, pr.room_class_id, k.night, pr.member_percent, pr.allotment,
    CASE k.kind WHEN 2 THEN pr.holiday WHEN 1 THEN pr.weekend ELSE pr.weekday END AS price
  FROM kinds k JOIN rate_plans p ON p.hotel_id = k.hotel_id JOIN plan_rates pr ON pr.rate_plan_id = p.id
)
INSERT OR IGNORE INTO plan_nights (rate_plan_id, room_class_id, night, price, member_price, allotment)
SELECT rate_plan_id, room_class_id, night, price,
  CASE WHEN member_percent IS NULL THEN NULL ELSE CAST(round((price * member_percent) / 100.0) AS INTEGER) END,
  allotment
FROM priced`;

const ADDON_DAYS = `${NIGHTS}
INSERT OR IGNORE INTO addon_days (addon_id, day, capacity)
SELECT a.id, due.night, a.per_day FROM due JOIN addons a ON a.hotel_id = due.hotel_id
WHERE a.limited = 1 AND a.active = 1 AND a.per_day IS NOT NULL`;

const OPENED = `UPDATE hotels SET opened_through = (SELECT json_extract(value, '$[2]') FROM json_each(?1) WHERE json_extract(value, '$[0]') = hotels.id)
WHERE id IN (SELECT json_extract(value, '$[0]') FROM json_each(?1))`;

/** The night range each hotel is due to open at `now`; none for a hotel whose calendar reaches its horizon. */
export function dueRanges(hotels: readonly HotelClock[], now: Date): Due[] {
  const due: Due[] = [];
  for (const hotel of hotels) {
    // Never imported since standing rates existed: nothing to open from (the next import sets it).
    if (hotel.opened_through === null) continue;
    const today = todayIn(hotel.time_zone, now);
    const last = addDays(today, hotel.horizon_days - 1);
    const from = hotel.opened_through < today ? today : addDays(hotel.opened_through, 1);
    if (from <= last) due.push([hotel.id, from, last]);
  }
  return due;
}

const nightsOf = ([, from, last]: Due) => Math.round((Date.parse(last) - Date.parse(from)) / 86_400_000) + 1;

/** Opens every hotel's calendar up to its horizon. */
export async function rollCalendarsForward(db: D1Database, now: Date): Promise<RollRun> {
  const { results } = await db
    .prepare("SELECT id, time_zone, horizon_days, opened_through FROM hotels WHERE opened_through IS NOT NULL")
    .all<HotelClock>();
  const run: RollRun = { hotels: 0, nights: 0, trips: 1, rowsWritten: 0 };
  const batches: Due[][] = [];
  let size = ROLL_NIGHTS_PER_BATCH;
  for (const due of dueRanges(results, now)) {
    if (size + nightsOf(due) > ROLL_NIGHTS_PER_BATCH && size > 0) {
      batches.push([]);
      size = 0;
    }
    batches.at(-1)?.push(due);
    size += nightsOf(due);
    run.hotels += 1;
    run.nights += nightsOf(due);
  }
  for (const batch of batches) {
    const json = JSON.stringify(batch);
    const answers = await db.batch([ROOM_NIGHTS, PLAN_NIGHTS, ADDON_DAYS, OPENED].map((sql) => db.prepare(sql).bind(json)));
    run.trips += 1;
    for (const answer of answers) run.rowsWritten += answer.meta.rows_written ?? 0;
  }
  return run;
}
