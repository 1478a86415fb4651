/**
 * The staff API's calendar (decision 156): a month of rooms to sell, prices and stay rules per
 * room class and plan (every role may read), and the bulk change (owners and the front desk):
 * `preview` lists exactly which rows change from what to what with a digest of that list, and
 * `apply` recomputes the list, refuses unless its digest is the preview's, and writes that list in
 * one D1 batch: the audit entry with the form's one-time key first, then few set-based statements
 * (each carries up to ROWS_PER_STATEMENT rows as one JSON parameter and re-checks every row's old
 * values; a guard after it aborts the whole batch unless every row it carried was found as
 * previewed), then the hotel's stock version (cached pages that show prices are replaced).
 */
import * as v from "valibot";
import { isIsoDate, nightsBetween, stayNights, todayIn } from "~/domain/dates";
import { MONTH, monthSpan } from "~/domain/months";
import {
  BULK_CHANGES,
  CHANGE_VALUE,
  MAX_BULK_NIGHTS,
  chosenNights,
  columnsOf,
  groupChanges,
  levelsOf,
  planBulkChange,
  type BulkRefusal,
  type ChangedRow,
  type PlanNightRow,
  type RoomNightRow,
} from "~/domain/bulk-change";
import { sha256Hex } from "~/lib/crypto";
import type { DeskBulkPreview, DeskCalendar } from "~/contract/desk-calendar-schemas";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { apiMessage } from "~/backend/messages";
import { mainLanguage, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { MAY_ACT, MAY_READ, auditEntry, formKeyUsed, requireStaff } from "./staff.server";
import { refuseUnless } from "./action-batch.server";

/**
 * Rows one statement of the apply carries, as one JSON parameter (about 45 bytes a row, so at most
 * ~225 KB: D1 binds at most 100 parameters a statement and 2 MB a value, and limits a statement's
 * SQL text to 100 KB; the text here is under 1 KB whatever the rows).
 */
export const ROWS_PER_STATEMENT = 5_000;

const Domain = v.pipe(v.string(), v.maxLength(253));
const Day = v.pipe(
  v.string(),
  v.check((value) => isIsoDate(value)),
);
const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(999_999_999));

const BulkBody = v.object({
  domain: Domain,
  from: Day,
  to: Day,
  weekdays: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(6))), v.minLength(1), v.maxLength(7)),
  room_class_ids: v.optional(v.pipe(v.array(Id), v.maxLength(500)), []),
  plans: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^\d{1,9}:\d{1,9}$/))), v.maxLength(2000)), []),
  change: v.picklist(BULK_CHANGES),
  value: v.optional(v.nullable(v.number()), null),
});
type BulkInput = v.InferOutput<typeof BulkBody>;

const ApplyBody = v.object({
  ...BulkBody.entries,
  form_key: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/)),
  digest: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
});

const RULES = "closed, min_stay, max_stay, no_arrival, no_departure, changed_at";
const on = (flag: number) => flag === 1;

const unique = <T>(values: readonly T[]) => [...new Set(values)];

// ---- the month ----

interface RoomClassRow {
  id: number;
  room_code: string;
  name: string;
}
interface PlanRoomRow {
  rate_plan_id: number;
  room_class_id: number;
  rate_plan_code: string;
  name: string;
}
type Changed = { changed_at: string | null };

async function readMonth(ctx: BackendContext, hotel: HotelRow, month: string): Promise<DeskCalendar> {
  const span = monthSpan(month, hotel.time_zone);
  const [rooms, plans, roomNights, planNights] = await ctx.db.batch([
    ctx.db.prepare("SELECT id, room_code, name FROM room_classes WHERE hotel_id = ? ORDER BY position, id").bind(hotel.id),
    ctx.db
      .prepare(
        `SELECT rpr.rate_plan_id, rpr.room_class_id, rp.rate_plan_code, rp.name
         FROM rate_plan_rooms rpr JOIN rate_plans rp ON rp.id = rpr.rate_plan_id
         WHERE rp.hotel_id = ? ORDER BY rp.position, rp.id`,
      )
      .bind(hotel.id),
    ctx.db
      .prepare(
        `SELECT rn.room_class_id, rn.night, rn.capacity, rn.booked, ${RULES.replace(/(\w+)/g, "rn.$1")}
         FROM room_nights rn JOIN room_classes rc ON rc.id = rn.room_class_id
         WHERE rc.hotel_id = ?1 AND rn.night >= ?2 AND rn.night < ?3`,
      )
      .bind(hotel.id, span.firstDay, span.nextDay),
    ctx.db
      .prepare(
        `SELECT pn.rate_plan_id, pn.room_class_id, pn.night, pn.price, pn.member_price, pn.allotment, pn.sold, ${RULES.replace(/(\w+)/g, "pn.$1")}
         FROM plan_nights pn JOIN rate_plans rp ON rp.id = pn.rate_plan_id
         WHERE rp.hotel_id = ?1 AND pn.night >= ?2 AND pn.night < ?3`,
      )
      .bind(hotel.id, span.firstDay, span.nextDay),
  ]);
  const nights = stayNights(span.firstDay, span.nextDay);
  const index = new Map(nights.map((night, at) => [night, at]));
  const main = mainLanguage(hotel);
  const name = (json: string) => pickText(parseJson<LocalizedText>(json, {}), ctx.lang, main);
  const rules = (row: Omit<RoomNightRow, "room_class_id" | "night" | "capacity" | "booked"> & Changed) => ({
    closed: on(row.closed),
    min_stay: row.min_stay,
    max_stay: row.max_stay,
    no_arrival: on(row.no_arrival),
    no_departure: on(row.no_departure),
    changed: row.changed_at !== null,
  });
  const roomCells = new Map<number, DeskCalendar["room_classes"][number]["nights"]>();
  for (const row of (roomNights?.results ?? []) as (RoomNightRow & Changed)[]) {
    const cells = roomCells.get(row.room_class_id) ?? nights.map(() => null);
    cells[index.get(row.night)!] = { to_sell: row.capacity, booked: row.booked, ...rules(row) };
    roomCells.set(row.room_class_id, cells);
  }
  const planCells = new Map<string, DeskCalendar["room_classes"][number]["plans"][number]["nights"]>();
  for (const row of (planNights?.results ?? []) as (PlanNightRow & Changed)[]) {
    const key = `${row.rate_plan_id}:${row.room_class_id}`;
    const cells = planCells.get(key) ?? nights.map(() => null);
    cells[index.get(row.night)!] = {
      price: row.price,
      member_price: row.member_price,
      allotment: row.allotment,
      sold: row.sold,
      ...rules(row),
    };
    planCells.set(key, cells);
  }
  const planRows = (plans?.results ?? []) as unknown as PlanRoomRow[];
  return {
    month,
    today: todayIn(hotel.time_zone, ctx.now),
    nights,
    room_classes: ((rooms?.results ?? []) as unknown as RoomClassRow[]).map((room) => ({
      id: room.id,
      code: room.room_code,
      name: name(room.name),
      nights: roomCells.get(room.id) ?? nights.map(() => null),
      plans: planRows
        .filter((plan) => plan.room_class_id === room.id)
        .map((plan) => ({
          id: plan.rate_plan_id,
          code: plan.rate_plan_code,
          name: name(plan.name),
          nights: planCells.get(`${plan.rate_plan_id}:${room.id}`) ?? nights.map(() => null),
        })),
    })),
  };
}

// ---- the bulk change ----

interface Worked {
  input: BulkInput;
  rows: ChangedRow[];
  refusals: BulkRefusal[];
  digest: string;
  roomName: (id: number) => string;
  planName: (id: number | null) => string | null;
}

/** Checks what was asked against the hotel's today and the change's value; a refusal names the field. */
function checkAsked(hotel: HotelRow, ctx: BackendContext, input: BulkInput): void {
  const today = todayIn(hotel.time_zone, ctx.now);
  if (input.from < today) throw new ApiError(400, "desk_calendar_range", { max: MAX_BULK_NIGHTS }, "from");
  if (input.to < input.from || nightsBetween(input.from, input.to) + 1 > MAX_BULK_NIGHTS)
    throw new ApiError(400, "desk_calendar_range", { max: MAX_BULK_NIGHTS }, "to");
  const bounds = CHANGE_VALUE[input.change];
  if (bounds && (input.value === null || !Number.isInteger(input.value) || input.value < bounds.min || input.value > bounds.max))
    throw new ApiError(400, "desk_calendar_value", { min: bounds.min, max: bounds.max }, "value");
  const rooms = input.room_class_ids.length > 0;
  const plans = input.plans.length > 0;
  // Price and allotment are a plan's (a room class chosen means all its plans); rooms to sell a room class's.
  if (input.change === "rooms_set" ? !rooms : !(rooms || plans))
    throw new ApiError(400, "desk_calendar_targets", {}, input.change === "rooms_set" ? "room_class_ids" : "targets");
}

/**
 * The rows the change writes and the nights that refuse it, from the rows as they are now: one D1
 * round trip (the hotel's room classes and plans, and the chosen nights of the chosen targets).
 */
async function workOut(ctx: BackendContext, hotel: HotelRow, input: BulkInput): Promise<Worked> {
  checkAsked(hotel, ctx, input);
  const nights = chosenNights(input.from, input.to, input.weekdays);
  const levels = levelsOf(input.change);
  const roomIds = unique(input.room_class_ids).sort((a, b) => a - b);
  const pairs = unique(input.plans)
    .map((pair) => pair.split(":").map(Number) as [number, number])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const nightsJson = JSON.stringify(nights);
  const [rooms, plans, roomRows, planRows] = await ctx.db.batch([
    ctx.db.prepare("SELECT id, room_code, name FROM room_classes WHERE hotel_id = ?").bind(hotel.id),
    ctx.db
      .prepare(
        `SELECT rpr.rate_plan_id, rpr.room_class_id, rp.rate_plan_code, rp.name
         FROM rate_plan_rooms rpr JOIN rate_plans rp ON rp.id = rpr.rate_plan_id WHERE rp.hotel_id = ?`,
      )
      .bind(hotel.id),
    ctx.db
      .prepare(
        `SELECT room_class_id, night, capacity, booked, closed, min_stay, max_stay, no_arrival, no_departure
         FROM room_nights
         WHERE room_class_id IN (SELECT value FROM json_each(?1))
           AND room_class_id IN (SELECT id FROM room_classes WHERE hotel_id = ?3)
           AND night IN (SELECT value FROM json_each(?2))
         ORDER BY room_class_id, night`,
      )
      .bind(levels.room ? JSON.stringify(roomIds) : "[]", nightsJson, hotel.id),
    ctx.db
      .prepare(
        `SELECT pn.rate_plan_id, pn.room_class_id, pn.night, pn.price, pn.member_price, pn.allotment, pn.sold,
                pn.closed, pn.min_stay, pn.max_stay, pn.no_arrival, pn.no_departure
         FROM plan_nights pn
         WHERE pn.rate_plan_id IN (SELECT id FROM rate_plans WHERE hotel_id = ?4)
           AND pn.night IN (SELECT value FROM json_each(?2))
           AND ((pn.rate_plan_id, pn.room_class_id) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1))
                OR pn.room_class_id IN (SELECT value FROM json_each(?3)))
         ORDER BY pn.rate_plan_id, pn.room_class_id, pn.night`,
      )
      .bind(
        levels.plan ? JSON.stringify(pairs) : "[]",
        nightsJson,
        // A price or an allotment set on a room class is set on each of its plans.
        levels.plan && !levels.room ? JSON.stringify(roomIds) : "[]",
        hotel.id,
      ),
  ]);
  const main = mainLanguage(hotel);
  const name = (json: string) => pickText(parseJson<LocalizedText>(json, {}), ctx.lang, main);
  const roomNames = new Map(((rooms?.results ?? []) as unknown as RoomClassRow[]).map((room) => [room.id, name(room.name)]));
  const planNames = new Map<number, string>();
  const knownPairs = new Set<string>();
  for (const row of (plans?.results ?? []) as unknown as PlanRoomRow[]) {
    planNames.set(row.rate_plan_id, name(row.name));
    knownPairs.add(`${row.rate_plan_id}:${row.room_class_id}`);
  }
  if (roomIds.some((id) => !roomNames.has(id))) throw new ApiError(404, "desk_calendar_unknown_target", {}, "room_class_ids");
  if (pairs.some(([plan, room]) => !knownPairs.has(`${plan}:${room}`)))
    throw new ApiError(404, "desk_calendar_unknown_target", {}, "plans");
  const planned = planBulkChange(
    { kind: input.change, value: input.value },
    (roomRows?.results ?? []) as unknown as RoomNightRow[],
    (planRows?.results ?? []) as unknown as PlanNightRow[],
  );
  const digest = await sha256Hex(
    JSON.stringify({
      hotel: hotel.id,
      change: input.change,
      value: input.value,
      nights,
      rooms: roomIds,
      plans: pairs,
      rows: planned.rows.map((row) => [
        row.table,
        row.room_class_id,
        row.rate_plan_id,
        row.night,
        row.columns.flatMap((cell) => [cell.column, cell.old, cell.new]),
      ]),
    }),
  );
  return {
    input,
    ...planned,
    digest,
    roomName: (id) => roomNames.get(id) ?? "",
    planName: (id) => (id === null ? null : (planNames.get(id) ?? "")),
  };
}

function previewOf(worked: Worked): DeskBulkPreview {
  const { input } = worked;
  return {
    change: input.change,
    value: input.value,
    from: input.from,
    to: input.to,
    weekdays: unique(input.weekdays).sort(),
    rows: worked.rows.length,
    groups: groupChanges(worked.rows).map((group) => ({
      ...group,
      room_name: worked.roomName(group.room_class_id),
      plan_name: worked.planName(group.rate_plan_id),
    })),
    refusals: worked.refusals.map((refusal) => ({
      reason: refusal.reason,
      night: refusal.night,
      room_name: worked.roomName(refusal.room_class_id),
      plan_name: worked.planName("rate_plan_id" in refusal ? refusal.rate_plan_id : null),
      taken: refusal.reason === "below_booked" ? refusal.booked : refusal.reason === "below_sold" ? refusal.sold : null,
    })),
    digest: worked.digest,
  };
}

/** At most this many nights are named in a refusal's message; the preview lists them all. */
const NAMED_NIGHTS = 12;

/** The refusal of a change some nights refuse, naming them (and what is booked or sold there). */
function refusalError(ctx: BackendContext, worked: Worked): ApiError {
  const first = worked.refusals[0]!;
  const items = worked.refusals.slice(0, NAMED_NIGHTS).map((refusal) => {
    const target = [worked.roomName(refusal.room_class_id), worked.planName("rate_plan_id" in refusal ? refusal.rate_plan_id : null)]
      .filter(Boolean)
      .join(" · ");
    if (refusal.reason === "min_above_max")
      return apiMessage("desk_calendar_item_range", ctx.lang, { night: refusal.night, target, min: refusal.min, max: refusal.max });
    const count = refusal.reason === "below_booked" ? refusal.booked : refusal.sold;
    return apiMessage("desk_calendar_item_taken", ctx.lang, { night: refusal.night, target, count });
  });
  const more = worked.refusals.length - NAMED_NIGHTS;
  if (more > 0) items.push(apiMessage("desk_calendar_item_more", ctx.lang, { count: more }));
  const code =
    first.reason === "below_booked"
      ? "desk_calendar_below_booked"
      : first.reason === "below_sold"
        ? "desk_calendar_below_sold"
        : "desk_calendar_min_above_max";
  return new ApiError(409, code, { nights: items.join("; ") }, "value");
}

/** The statements that write the rows: per table, chunks of rows as one JSON parameter, each followed by its guard. */
export function applyStatements(
  db: D1Database,
  kind: BulkInput["change"],
  rows: readonly ChangedRow[],
  now: string,
): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  for (const table of ["room", "plan"] as const) {
    const columns = columnsOf(kind, table);
    const mine = rows.filter((row) => row.table === table);
    if (columns.length === 0 || mine.length === 0) continue;
    const keys = table === "room" ? ["room_class_id", "night"] : ["rate_plan_id", "room_class_id", "night"];
    const name = table === "room" ? "room_nights" : "plan_nights";
    // Each row: its keys, then each column's old and new value.
    const at = (position: number) => `json_extract(j.value, '$[${position}]')`;
    const set = columns.map((column, i) => `${column} = ${at(keys.length + 2 * i + 1)}`).join(", ");
    const match = [
      ...keys.map((key, i) => `${name}.${key} = ${at(i)}`),
      ...columns.map((column, i) => `${name}.${column} IS ${at(keys.length + 2 * i)}`),
    ].join(" AND ");
    const sql = `UPDATE ${name} SET ${set}, changed_at = ?2 FROM json_each(?1) AS j WHERE ${match}`;
    for (let start = 0; start < mine.length; start += ROWS_PER_STATEMENT) {
      const chunk = mine.slice(start, start + ROWS_PER_STATEMENT);
      const values = chunk.map((row) => {
        const byColumn = new Map(row.columns.map((cell) => [cell.column, cell]));
        return [
          ...(table === "room" ? [row.room_class_id, row.night] : [row.rate_plan_id, row.room_class_id, row.night]),
          ...columns.flatMap((column) => {
            const cell = byColumn.get(column)!;
            return [cell.old, cell.new];
          }),
        ];
      });
      statements.push(db.prepare(sql).bind(JSON.stringify(values), now));
      // Every row carried was found as the preview saw it, else the whole batch is undone.
      statements.push(refuseUnless(db, `changes() = ${chunk.length}`));
    }
  }
  return statements;
}

async function preview(ctx: BackendContext): Promise<Response> {
  const input = parseInput(BulkBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, input.domain);
  await requireStaff(ctx, hotel, MAY_ACT);
  return ok(previewOf(await workOut(ctx, hotel, input)));
}

async function apply(ctx: BackendContext): Promise<Response> {
  const input = parseInput(ApplyBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, input.domain);
  const staff = await requireStaff(ctx, hotel, MAY_ACT);
  if (await formKeyUsed(ctx.db, hotel.id, input.form_key)) return ok({ outcome: "already_done", rows: 0 });
  const worked = await workOut(ctx, hotel, input);
  if (worked.refusals.length > 0) throw refusalError(ctx, worked);
  if (worked.digest !== input.digest) throw new ApiError(409, "desk_calendar_changed");
  if (worked.rows.length === 0) throw new ApiError(409, "desk_calendar_nothing");
  const now = ctx.now.toISOString();
  const shown = previewOf(worked);
  const statements = [
    auditEntry(ctx.db, {
      hotelId: hotel.id,
      staff,
      ip: ctx.clientIp,
      action: "calendar_bulk_change",
      subject: "calendar",
      // What the nights were and what they became, as the preview showed them (its first 200 lines).
      before: {
        groups: shown.groups.slice(0, 200).map((group) => [group.room_name, group.plan_name, group.column, group.old, group.runs]),
      },
      after: {
        change: input.change,
        value: input.value,
        from: input.from,
        to: input.to,
        weekdays: shown.weekdays,
        rows: worked.rows.length,
        digest: worked.digest,
        groups: shown.groups.slice(0, 200).map((group) => [group.room_name, group.plan_name, group.column, group.new]),
      },
      formKey: input.form_key,
    }),
    ...applyStatements(ctx.db, input.change, worked.rows, now),
    // Whole pages that show prices and rooms are cached under the stock version (decision 026).
    ctx.db.prepare("UPDATE hotels SET stock_version = stock_version + 1 WHERE id = ?").bind(hotel.id),
  ];
  try {
    await ctx.db.batch(statements);
  } catch (error) {
    const text = String(error);
    if (text.includes("audit_log.hotel_id, audit_log.form_key")) return ok({ outcome: "already_done", rows: 0 });
    if (/room_nights_not_oversold|plan_nights_not_oversold|min_stay_above_max_stay/.test(text)) {
      // A guest booked (or staff changed a rule) after the check: say which nights, as they are now.
      const again = await workOut(ctx, hotel, input);
      throw again.refusals.length > 0 ? refusalError(ctx, again) : new ApiError(409, "desk_calendar_changed");
    }
    if (text.includes("desk_refused")) throw new ApiError(409, "desk_calendar_changed");
    throw error;
  }
  return ok({ outcome: "done", rows: worked.rows.length });
}

const MonthQuery = v.object({ domain: Domain, month: v.pipe(v.string(), v.regex(MONTH)) });

export const deskCalendarRoutes: BackendRoute[] = [
  {
    // x-desk-session, ?domain&month=YYYY-MM → per room class and plan, each night of the month.
    method: "GET",
    path: "/api/desk/calendar",
    handler: async (ctx) => {
      const input = parseInput(MonthQuery, Object.fromEntries(ctx.url.searchParams));
      const hotel = await requireHotel(ctx.db, input.domain);
      await requireStaff(ctx, hotel, MAY_READ);
      return ok(await readMonth(ctx, hotel, input.month));
    },
  },
  { method: "POST", path: "/api/desk/calendar/preview", handler: preview },
  { method: "POST", path: "/api/desk/calendar/apply", handler: apply },
];
