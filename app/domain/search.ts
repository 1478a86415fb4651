/**
 * The booking search of spec §2/§3: start, end, duration, room, adults, children, with the
 * defaults of §9 (today, tomorrow, 1 night, 1 room, 2 adults, 0 children in the hotel's zone).
 * Invalid values are reported per field, as translation keys, with the values entered kept.
 */
import { addDays, isIsoDate } from "./dates";
import { DEFAULT_BOOKING, MAX_GUESTS, MAX_ROOMS_PER_ORDER, MAX_STAY_NIGHTS, validateStay } from "./stay";

export interface BookingSearch {
  start: string;
  end: string;
  room: number;
  adults: number;
  children: number;
}

export type SearchField = keyof BookingSearch;

export interface SearchFilters {
  /** Plan set ids (proposal ids). */
  plans: number[];
  rooms: number[];
  facilities: string[];
  meals: boolean;
}

export interface ParsedSearch {
  search: BookingSearch;
  /** What the guest typed, to re-render the form. */
  entered: Record<SearchField, string>;
  errors: Partial<Record<SearchField, string>>;
  filters: SearchFilters;
}

function wholeNumber(raw: string | null, fallback: number): number | null {
  if (raw === null || raw.trim() === "") return fallback;
  return /^\d{1,6}$/.test(raw.trim()) ? Number(raw) : null;
}

const ids = (values: string[]) => [
  ...new Set(
    values
      .flatMap((value) => value.split(","))
      .filter((value) => /^\d{1,9}$/.test(value))
      .map(Number),
  ),
];

export function parseBookingSearch(params: URLSearchParams, today: string): ParsedSearch {
  const errors: Partial<Record<SearchField, string>> = {};
  const rawStart = params.get("start")?.trim() || "";
  const start = rawStart || today;
  const duration = wholeNumber(params.get("duration"), DEFAULT_BOOKING.duration);
  const rawEnd = params.get("end")?.trim() || "";
  let end = rawEnd;
  if (!end) {
    if (duration === null || duration < 1 || duration > MAX_STAY_NIGHTS) errors.end = "search.error.duration";
    end = isIsoDate(start) ? addDays(start, duration && duration >= 1 && duration <= MAX_STAY_NIGHTS ? duration : 1) : "";
  }
  for (const error of validateStay(start, end, today)) {
    errors[error.field] ??= `search.error.${error.code}`;
  }
  const room = wholeNumber(params.get("room"), DEFAULT_BOOKING.room);
  if (room === null || room < 1 || room > MAX_ROOMS_PER_ORDER) errors.room = "search.error.rooms";
  const adults = wholeNumber(params.get("adults"), DEFAULT_BOOKING.adults);
  if (adults === null || adults < 1 || adults > MAX_GUESTS) errors.adults = "search.error.adults";
  const children = wholeNumber(params.get("children"), DEFAULT_BOOKING.children);
  if (children === null || children < 0 || children > MAX_GUESTS) errors.children = "search.error.children";
  if (!errors.room && !errors.adults && room !== null && adults !== null && adults < room) errors.adults = "search.error.adults_per_room";
  return {
    search: {
      start,
      end,
      room: room ?? DEFAULT_BOOKING.room,
      adults: adults ?? DEFAULT_BOOKING.adults,
      children: children ?? DEFAULT_BOOKING.children,
    },
    entered: {
      start: rawStart || start,
      end: rawEnd || end,
      room: params.get("room") ?? String(DEFAULT_BOOKING.room),
      adults: params.get("adults") ?? String(DEFAULT_BOOKING.adults),
      children: params.get("children") ?? String(DEFAULT_BOOKING.children),
    },
    errors,
    filters: {
      plans: ids(params.getAll("plan")),
      rooms: ids(params.getAll("room_id")),
      facilities: [...new Set(params.getAll("facility").filter((value) => /^[a-z0-9_]{1,40}$/.test(value)))],
      meals: params.get("meals") === "1",
    },
  };
}

export function searchQuery(search: BookingSearch): URLSearchParams {
  return new URLSearchParams({
    start: search.start,
    end: search.end,
    room: String(search.room),
    adults: String(search.adults),
    children: String(search.children),
  });
}
