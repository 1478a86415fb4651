/**
 * The desk's bulk change of the calendar (issue 40, decision 156): one change (a price, rooms to
 * sell, an allotment, closed or open, a stay rule) over chosen nights of chosen room classes and
 * plans. This module decides, from the rows as they are, exactly which rows change from what to
 * what, and which nights refuse the change; the preview shows that list and the apply writes that
 * same list, so what staff saw is what is written.
 */

export const BULK_CHANGES = [
  "price_set",
  "price_raise",
  "price_lower",
  "price_raise_percent",
  "price_lower_percent",
  "rooms_set",
  "allotment_set",
  "allotment_clear",
  "close",
  "open",
  "min_stay_set",
  "min_stay_clear",
  "max_stay_set",
  "max_stay_clear",
  "no_arrival_set",
  "no_arrival_clear",
  "no_departure_set",
  "no_departure_clear",
] as const;
export type BulkChangeKind = (typeof BULK_CHANGES)[number];

/** The highest nightly price (TWD) and rooms a form takes: far above any hotel, far below an overflow. */
export const MAX_NIGHT_PRICE = 10_000_000;
export const MAX_ROOMS = 9_999;
/** A bulk change covers at most this many nights (a year, a leap year's too). */
export const MAX_BULK_NIGHTS = 366;

/** The value each change takes (inclusive bounds), or null when it takes none. */
export const CHANGE_VALUE: Record<BulkChangeKind, { min: number; max: number } | null> = {
  price_set: { min: 0, max: MAX_NIGHT_PRICE },
  price_raise: { min: 1, max: MAX_NIGHT_PRICE },
  price_lower: { min: 1, max: MAX_NIGHT_PRICE },
  price_raise_percent: { min: 1, max: 1000 },
  price_lower_percent: { min: 1, max: 100 },
  rooms_set: { min: 0, max: MAX_ROOMS },
  allotment_set: { min: 0, max: MAX_ROOMS },
  allotment_clear: null,
  close: null,
  open: null,
  min_stay_set: { min: 1, max: 30 },
  min_stay_clear: null,
  max_stay_set: { min: 1, max: 30 },
  max_stay_clear: null,
  no_arrival_set: null,
  no_arrival_clear: null,
  no_departure_set: null,
  no_departure_clear: null,
};

export interface BulkChange {
  kind: BulkChangeKind;
  /** The change's number (a price, an amount, a percent, rooms, nights); null for the changes that take none. */
  value: number | null;
}

/** A room class's night (room_nights). */
export interface RoomNightRow {
  room_class_id: number;
  night: string;
  capacity: number;
  booked: number;
  closed: number;
  min_stay: number | null;
  max_stay: number | null;
  no_arrival: number;
  no_departure: number;
}

/** A plan's night for a room class (plan_nights). */
export interface PlanNightRow {
  rate_plan_id: number;
  room_class_id: number;
  night: string;
  price: number;
  member_price: number | null;
  allotment: number | null;
  sold: number;
  closed: number;
  min_stay: number | null;
  max_stay: number | null;
  no_arrival: number;
  no_departure: number;
}

export type RoomColumn = "capacity" | "closed" | "min_stay" | "max_stay" | "no_arrival" | "no_departure";
export type PlanColumn = "price" | "member_price" | "allotment" | "closed" | "min_stay" | "max_stay" | "no_arrival" | "no_departure";
export type Column = RoomColumn | PlanColumn;

/** Which rows a change is about: a room class's (room_nights), a plan's (plan_nights), or both. */
export function levelsOf(kind: BulkChangeKind): { room: boolean; plan: boolean } {
  if (kind.startsWith("price_") || kind.startsWith("allotment_")) return { room: false, plan: true };
  if (kind === "rooms_set") return { room: true, plan: false };
  return { room: true, plan: true };
}

/** The columns a change writes, in the order the apply's statements carry them. */
export function columnsOf(kind: BulkChangeKind, table: "room" | "plan"): Column[] {
  if (kind.startsWith("price_")) return table === "plan" ? ["price", "member_price"] : [];
  if (kind.startsWith("allotment_")) return table === "plan" ? ["allotment"] : [];
  if (kind === "rooms_set") return table === "room" ? ["capacity"] : [];
  if (kind === "close" || kind === "open") return ["closed"];
  if (kind.startsWith("min_stay_")) return ["min_stay"];
  if (kind.startsWith("max_stay_")) return ["max_stay"];
  if (kind.startsWith("no_arrival_")) return ["no_arrival"];
  return ["no_departure"];
}

/** n / d rounded to a whole number, halves up, in integers (n ≥ 0, d > 0): the same on every engine. */
export const roundHalfUp = (n: number, d: number): number => Math.floor((2 * n + d) / (2 * d));

/** A price after the change: whole TWD, never below 0. */
export function changedPrice(kind: BulkChangeKind, value: number, price: number): number {
  switch (kind) {
    case "price_set":
      return value;
    case "price_raise":
      return price + value;
    case "price_lower":
      return Math.max(0, price - value);
    case "price_raise_percent":
      return roundHalfUp(price * (100 + value), 100);
    case "price_lower_percent":
      return roundHalfUp(price * (100 - value), 100);
    default:
      return price;
  }
}

/**
 * A member price after a price change: moved as the price is (by the amount or the percent); when
 * the price is set, it keeps its share of the price (rounded, halves up), so a 10 % member discount
 * stays 10 %. A night without a member price keeps none.
 */
export function changedMemberPrice(kind: BulkChangeKind, value: number, price: number, member: number | null): number | null {
  if (member === null) return null;
  if (kind === "price_set") return price === 0 ? value : Math.min(value, roundHalfUp(value * member, price));
  return changedPrice(kind, value, member);
}

/** Why a night refuses the change: rooms to sell below rooms booked, an allotment below rooms sold, a minimum above the maximum. */
export type BulkRefusal =
  | { reason: "below_booked"; room_class_id: number; night: string; booked: number }
  | { reason: "below_sold"; room_class_id: number; rate_plan_id: number; night: string; sold: number }
  | { reason: "min_above_max"; room_class_id: number; rate_plan_id: number | null; night: string; min: number; max: number };

/** One row that changes, with each column it writes (old and new); keys first. */
export interface ChangedRow {
  table: "room" | "plan";
  room_class_id: number;
  /** null for a room class's row. */
  rate_plan_id: number | null;
  night: string;
  columns: { column: Column; old: number | null; new: number | null }[];
}

type Rules = Pick<RoomNightRow, "closed" | "min_stay" | "max_stay" | "no_arrival" | "no_departure">;

function ruleColumn(kind: BulkChangeKind, value: number | null, row: Rules): { column: Column; old: number | null; new: number | null } {
  switch (kind) {
    case "close":
    case "open":
      return { column: "closed", old: row.closed, new: kind === "close" ? 1 : 0 };
    case "min_stay_set":
    case "min_stay_clear":
      return { column: "min_stay", old: row.min_stay, new: kind === "min_stay_set" ? value : null };
    case "max_stay_set":
    case "max_stay_clear":
      return { column: "max_stay", old: row.max_stay, new: kind === "max_stay_set" ? value : null };
    case "no_arrival_set":
    case "no_arrival_clear":
      return { column: "no_arrival", old: row.no_arrival, new: kind === "no_arrival_set" ? 1 : 0 };
    default:
      return { column: "no_departure", old: row.no_departure, new: kind === "no_departure_set" ? 1 : 0 };
  }
}

function stayRangeRefusal(kind: BulkChangeKind, value: number | null, row: Rules): { min: number; max: number } | null {
  if (kind === "min_stay_set" && value !== null && row.max_stay !== null && value > row.max_stay) return { min: value, max: row.max_stay };
  if (kind === "max_stay_set" && value !== null && row.min_stay !== null && row.min_stay > value) return { min: row.min_stay, max: value };
  return null;
}

/**
 * The rows the change writes, in key order, and the nights that refuse it. The rows given are the
 * chosen nights of the chosen targets already; rows the change leaves as they are are not listed.
 */
export function planBulkChange(
  change: BulkChange,
  roomRows: readonly RoomNightRow[],
  planRows: readonly PlanNightRow[],
): { rows: ChangedRow[]; refusals: BulkRefusal[] } {
  const { kind } = change;
  const value = change.value ?? 0;
  const rows: ChangedRow[] = [];
  const refusals: BulkRefusal[] = [];
  const levels = levelsOf(kind);
  if (levels.room) {
    for (const row of roomRows) {
      if (kind === "rooms_set") {
        if (value < row.booked)
          refusals.push({ reason: "below_booked", room_class_id: row.room_class_id, night: row.night, booked: row.booked });
        if (row.capacity !== value)
          rows.push({
            table: "room",
            room_class_id: row.room_class_id,
            rate_plan_id: null,
            night: row.night,
            columns: [{ column: "capacity", old: row.capacity, new: value }],
          });
        continue;
      }
      const range = stayRangeRefusal(kind, change.value, row);
      if (range)
        refusals.push({ reason: "min_above_max", room_class_id: row.room_class_id, rate_plan_id: null, night: row.night, ...range });
      const column = ruleColumn(kind, change.value, row);
      if (column.old !== column.new)
        rows.push({ table: "room", room_class_id: row.room_class_id, rate_plan_id: null, night: row.night, columns: [column] });
    }
  }
  if (levels.plan) {
    for (const row of planRows) {
      const keys = { table: "plan" as const, room_class_id: row.room_class_id, rate_plan_id: row.rate_plan_id, night: row.night };
      if (kind.startsWith("price_")) {
        const price = changedPrice(kind, value, row.price);
        const member = changedMemberPrice(kind, value, row.price, row.member_price);
        if (price !== row.price || member !== row.member_price)
          rows.push({
            ...keys,
            columns: [
              { column: "price", old: row.price, new: price },
              { column: "member_price", old: row.member_price, new: member },
            ],
          });
        continue;
      }
      if (kind === "allotment_set" || kind === "allotment_clear") {
        const allotment = kind === "allotment_set" ? value : null;
        if (allotment !== null && allotment < row.sold)
          refusals.push({
            reason: "below_sold",
            room_class_id: row.room_class_id,
            rate_plan_id: row.rate_plan_id,
            night: row.night,
            sold: row.sold,
          });
        if (allotment !== row.allotment) rows.push({ ...keys, columns: [{ column: "allotment", old: row.allotment, new: allotment }] });
        continue;
      }
      const range = stayRangeRefusal(kind, change.value, row);
      if (range)
        refusals.push({
          reason: "min_above_max",
          room_class_id: row.room_class_id,
          rate_plan_id: row.rate_plan_id,
          night: row.night,
          ...range,
        });
      const column = ruleColumn(kind, change.value, row);
      if (column.old !== column.new) rows.push({ ...keys, columns: [column] });
    }
  }
  return { rows, refusals };
}

/** The chosen nights: from `from` to `to` (both included) on the chosen weekdays (0 Sunday … 6 Saturday). */
export function chosenNights(from: string, to: string, weekdays: readonly number[]): string[] {
  const wanted = new Set(weekdays);
  const nights: string[] = [];
  const last = Date.parse(`${to}T00:00:00Z`);
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= last; at += 86_400_000) {
    const day = new Date(at);
    if (wanted.has(day.getUTCDay())) nights.push(day.toISOString().slice(0, 10));
  }
  return nights;
}

/** What the preview shows: per target and column, each (old → new) with its nights as runs of consecutive dates. */
export interface ChangeGroup {
  room_class_id: number;
  rate_plan_id: number | null;
  column: Column;
  old: number | null;
  new: number | null;
  nights: number;
  /** [first, last] night of each run of consecutive dates, both included. */
  runs: [string, string][];
}

const nextDay = (night: string) => new Date(Date.parse(`${night}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The changed rows grouped for reading: the same rows, nothing added or left out (a column that keeps its value is not shown). */
export function groupChanges(rows: readonly ChangedRow[]): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup & { last: string }>();
  const sorted = [...rows].sort((a, b) => (a.night < b.night ? -1 : a.night > b.night ? 1 : 0));
  for (const row of sorted) {
    for (const cell of row.columns) {
      if (cell.old === cell.new) continue;
      const key = `${row.room_class_id}|${row.rate_plan_id ?? ""}|${cell.column}|${cell.old}|${cell.new}`;
      const group = groups.get(key);
      if (!group) {
        groups.set(key, {
          room_class_id: row.room_class_id,
          rate_plan_id: row.rate_plan_id,
          column: cell.column,
          old: cell.old,
          new: cell.new,
          nights: 1,
          runs: [[row.night, row.night]],
          last: row.night,
        });
        continue;
      }
      group.nights += 1;
      const run = group.runs[group.runs.length - 1]!;
      if (nextDay(group.last) === row.night) run[1] = row.night;
      else group.runs.push([row.night, row.night]);
      group.last = row.night;
    }
  }
  return [...groups.values()].map(({ last: _last, ...group }) => group);
}
