/**
 * The desk's booking lists and search (decision 152). Every list reads one index range of one hotel
 * (migration 0018) and pages by a keyset cursor, so a page reads about PAGE_SIZE + 1 orders however
 * many the hotel has had. "Today" is the hotel's own date (hotels.time_zone).
 */
import { addDays, todayIn } from "~/domain/dates";
import { DESK_BOOKING_LISTS, type DeskBookingList } from "~/contract/desk-bookings-schemas";
import { normalizedEmail, phoneE164 } from "~/domain/identity";
import { ApiError } from "~/backend/http.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import type { StaffPrincipal } from "./staff.server";

/** The lists the desk offers (contract/desk-bookings-schemas.ts). */
export const BOOKING_LISTS = DESK_BOOKING_LISTS;
export type BookingList = DeskBookingList;

export const PAGE_SIZE = 25;
/** Search answers at most this many bookings, newest first; more matches ask for a longer query. */
export const SEARCH_LIMIT = 50;
/** Before a staff member's first visit, "new" is what came in this many days. */
const FIRST_VISIT_DAYS = 7;

export interface BookingRow {
  id: number;
  order_doc: string;
  booker_name: string;
  booker_phone: string;
  booker_email: string;
  check_in_day: string;
  check_out_day: string;
  adults_count: number;
  children_count: number;
  rooms: number;
  status: string;
  payment_status: number;
  stay_status: string;
  total_price: number;
  paid_amount: number;
  pay_deadline: string | null;
  created_at: string;
  /** What is owed back (refund_due only; else 0). */
  refund: number;
}

/** A page's position: the last row's sort key and id, as an opaque URL-safe string. */
interface Cursor {
  key: string;
  id: number;
}

export function encodeCursor(cursor: Cursor): string {
  return btoa(JSON.stringify([cursor.key, cursor.id]))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A cursor as the page sent it back; anything else is a 400 naming the field, never a 500. */
export function decodeCursor(text: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
    if (Array.isArray(parsed) && typeof parsed[0] === "string" && Number.isSafeInteger(parsed[1])) {
      return { key: parsed[0], id: parsed[1] as number };
    }
  } catch {
    // falls through to the error below
  }
  throw new ApiError(400, "invalid_field", { field: "cursor" }, "cursor");
}

const COLUMNS = `o.id, o.order_doc, o.booker_name, o.booker_phone, o.booker_email, o.check_in_day, o.check_out_day,
  o.adults_count, o.children_count, (SELECT coalesce(sum(num), 0) FROM order_lines WHERE order_id = o.id) AS rooms,
  o.status, o.payment_status, o.stay_status, o.total_price, o.paid_amount, o.pay_deadline, o.created_at`;

export interface ListPage {
  rows: BookingRow[];
  next: string | null;
  /** Rows D1 read for the page's query (its result meta): what the tests hold bounded. */
  rowsRead: number;
  /** "new": the moment the list counts from. */
  since?: string;
}

interface ListQuery {
  sql: string;
  binds: unknown[];
  /** The sort key of a row, for the next page's cursor. */
  key: (row: BookingRow & { sort_key?: string }) => string;
}

const FIRST = { key: "", id: 0 };
const LAST = { key: "\uffff", id: Number.MAX_SAFE_INTEGER };

/** The SQL of one list's page after `cursor` (the first page: none). */
function listQuery(list: BookingList, hotel: HotelRow, today: string, since: string, cursor: Cursor | null): ListQuery {
  const limit = PAGE_SIZE + 1;
  const onDay = (column: "check_in_day" | "check_out_day", day: string): ListQuery => ({
    sql: `SELECT ${COLUMNS}, 0 AS refund FROM orders o INDEXED BY orders_desk_${column === "check_in_day" ? "arrivals" : "departures"}
          WHERE o.hotel_id = ?1 AND o.${column} = ?2 AND o.status <> 'cancelled' AND o.id > ?3 ORDER BY o.id LIMIT ?4`,
    binds: [hotel.id, day, (cursor ?? FIRST).id, limit],
    key: () => "",
  });
  switch (list) {
    case "arriving_today":
      return onDay("check_in_day", today);
    case "arriving_tomorrow":
      return onDay("check_in_day", addDays(today, 1));
    case "departing_today":
      return onDay("check_out_day", today);
    case "in_house":
      return {
        sql: `SELECT ${COLUMNS}, 0 AS refund FROM orders o WHERE o.hotel_id = ?1 AND o.stay_status = 'in_house' AND o.id > ?2
              ORDER BY o.id LIMIT ?3`,
        binds: [hotel.id, (cursor ?? FIRST).id, limit],
        key: () => "",
      };
    case "new": {
      const at = cursor ?? LAST;
      return {
        sql: `SELECT ${COLUMNS}, 0 AS refund FROM orders o INDEXED BY orders_desk_created
              WHERE o.hotel_id = ?1 AND o.created_at > ?2 AND (o.created_at, o.id) < (?3, ?4)
              ORDER BY o.created_at DESC, o.id DESC LIMIT ?5`,
        binds: [hotel.id, since, at.key, at.id, limit],
        key: (row) => row.created_at,
      };
    }
    case "awaiting_payment": {
      const at = cursor ?? FIRST;
      return {
        sql: `SELECT ${COLUMNS}, 0 AS refund, coalesce(o.pay_deadline, '9999') AS sort_key FROM orders o INDEXED BY orders_desk_awaiting
              WHERE o.hotel_id = ?1 AND o.status = 'pending_payment' AND (coalesce(o.pay_deadline, '9999'), o.id) > (?2, ?3)
              ORDER BY coalesce(o.pay_deadline, '9999'), o.id LIMIT ?4`,
        binds: [hotel.id, at.key, at.id, limit],
        key: (row) => row.sort_key ?? "",
      };
    }
    case "refund_due": {
      // Paged by the cancellation's id: the cursor's id is the cancellation's, not the order's.
      return {
        sql: `SELECT ${COLUMNS}, c.refund AS refund, c.id AS sort_key FROM cancellations c INDEXED BY cancellations_desk_due
              JOIN orders o ON o.id = c.order_id
              WHERE c.refund_status = 'due' AND c.hotel_id = ?1 AND c.id < ?2 ORDER BY c.id DESC LIMIT ?3`,
        binds: [hotel.id, (cursor ?? LAST).id, limit],
        key: (row) => String(row.sort_key),
      };
    }
    case "cancelled":
      return {
        sql: `SELECT ${COLUMNS}, 0 AS refund FROM orders o WHERE o.hotel_id = ?1 AND o.status = 'cancelled' AND o.id < ?2
              ORDER BY o.id DESC LIMIT ?3`,
        binds: [hotel.id, (cursor ?? LAST).id, limit],
        key: () => "",
      };
  }
}

/** Where "new" starts for this staff member: their last visit, or FIRST_VISIT_DAYS ago. */
async function seenSince(db: D1Database, staff: StaffPrincipal, now: Date): Promise<string> {
  const row = await db
    .prepare("SELECT bookings_seen_at FROM staff WHERE id = ?")
    .bind(staff.id)
    .first<{ bookings_seen_at: string | null }>();
  return row?.bookings_seen_at ?? new Date(now.getTime() - FIRST_VISIT_DAYS * 86_400_000).toISOString();
}

/**
 * One page of a list. Opening "new" (its first page) moves the staff member's last visit to now;
 * the pages after it carry the moment it counted from (`since`), so paging shows the same list.
 */
export async function readBookingList(
  db: D1Database,
  hotel: HotelRow,
  staff: StaffPrincipal,
  list: BookingList,
  options: { cursor: string | null; since?: string | null; now: Date },
): Promise<ListPage> {
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  let since = "";
  if (list === "new") {
    since = options.since ?? (await seenSince(db, staff, options.now));
    if (!cursor) {
      await db.prepare("UPDATE staff SET bookings_seen_at = ? WHERE id = ?").bind(options.now.toISOString(), staff.id).run();
    }
  }
  const query = listQuery(list, hotel, todayIn(hotel.time_zone, options.now), since, cursor);
  const result = await db
    .prepare(query.sql)
    .bind(...query.binds)
    .all<BookingRow & { sort_key?: string }>();
  const page = result.results.slice(0, PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    rows: page.map(({ sort_key: _key, ...row }) => row),
    next:
      result.results.length > PAGE_SIZE && last
        ? encodeCursor({ key: query.key(last), id: list === "refund_due" ? Number(last.sort_key) : last.id })
        : null,
    rowsRead: result.meta.rows_read ?? 0,
    ...(list === "new" ? { since } : {}),
  };
}

/** What a search text is: a booking number, an email, a phone number, or the start of a name. */
export type SearchKind = "order_doc" | "email" | "phone" | "name";

export function searchKind(text: string): SearchKind {
  if (/^PT\d{6}-[A-Z0-9]{3,}$/i.test(text)) return "order_doc";
  if (text.includes("@")) return "email";
  if (/^[+\d\s()-]+$/.test(text) && text.replace(/\D/g, "").length >= 6) return "phone";
  return "name";
}

/** A name as the index keys it: spaces removed, Latin letters lower case (as SQLite's lower()). */
export const nameKey = (text: string): string => text.replace(/ /g, "").replace(/[A-Z]/g, (letter) => letter.toLowerCase());

export interface SearchPage {
  rows: BookingRow[];
  kind: SearchKind;
  /** More matched than SEARCH_LIMIT: the page asks for more of the name, number or address. */
  truncated: boolean;
  rowsRead: number;
}

/**
 * Bookings matching `text`, newest first. A booking number matches exactly; an email or a phone by
 * the keys the orders already carry (the email's normalized form, the phone in E.164); a name by
 * prefix of the booker's full name or family name. Each reads at most SEARCH_LIMIT + 1 index entries
 * per way it matches, so a common prefix answers "type more", not a scan of the hotel's history.
 */
export async function searchBookings(db: D1Database, hotel: HotelRow, text: string): Promise<SearchPage> {
  const query = text.trim().normalize("NFKC");
  const kind = searchKind(query);
  const limit = SEARCH_LIMIT + 1;
  let candidates: string;
  let binds: unknown[];
  if (kind === "order_doc") {
    candidates = "SELECT id FROM orders WHERE order_doc = ?2 AND hotel_id = ?1";
    binds = [hotel.id, query.toUpperCase()];
  } else if (kind === "email") {
    candidates = "SELECT id FROM orders INDEXED BY orders_email_key WHERE hotel_id = ?1 AND email_key = ?2 ORDER BY id DESC LIMIT ?3";
    binds = [hotel.id, normalizedEmail(query), limit];
  } else if (kind === "phone") {
    candidates = "SELECT id FROM orders INDEXED BY orders_phone_key WHERE hotel_id = ?1 AND phone_key = ?2 ORDER BY id DESC LIMIT ?3";
    binds = [hotel.id, phoneE164(query), limit];
  } else {
    const key = nameKey(query);
    candidates = `SELECT id FROM (SELECT id FROM orders INDEXED BY orders_desk_name
                    WHERE hotel_id = ?1 AND lower(replace(booker_name, ' ', '')) >= ?2 AND lower(replace(booker_name, ' ', '')) < ?3 LIMIT ?4)
                  UNION SELECT id FROM (SELECT id FROM orders INDEXED BY orders_desk_last_name
                    WHERE hotel_id = ?1 AND lower(replace(booker_last_name, ' ', '')) >= ?2 AND lower(replace(booker_last_name, ' ', '')) < ?3 LIMIT ?4)`;
    binds = [hotel.id, key, `${key}\uffff`, limit];
  }
  const result = await db
    .prepare(`SELECT ${COLUMNS}, 0 AS refund FROM orders o WHERE o.id IN (${candidates}) ORDER BY o.id DESC`)
    .bind(...binds)
    .all<BookingRow>();
  return {
    rows: result.results.slice(0, SEARCH_LIMIT),
    kind,
    truncated: result.results.length > SEARCH_LIMIT,
    rowsRead: result.meta.rows_read ?? 0,
  };
}
