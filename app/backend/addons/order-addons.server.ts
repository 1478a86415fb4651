/**
 * Add-on calls beyond the order's own (issue 27; decisions 116 and 124): booking a batch of items
 * onto an existing unpaid order (`POST /api/xtra/adds/batch/booking`, the add-on twin of
 * `POST /api/xtra/rail/reservation`), and the spec's unnamed list fetches given paths of ours: the
 * hotel's items by plan or for one order (`GET /api/xtra/adds/list`), one item by its serial
 * (`GET /api/xtra/adds/{serial}`).
 */
import * as v from "valibot";
import { addonHeldDays, addonUnitsTaken } from "~/domain/addons";
import { depositOf } from "~/domain/pricing";
import type { Language } from "~/i18n/languages";
import { ApiError, ok, parseInput, queryObject, readJsonBody } from "~/backend/http.server";
import { mainLanguage, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { memberFromRequest } from "~/backend/account/members.server";
import { verifyOrderLink } from "~/backend/orders/links.server";
import { DocParam } from "~/backend/orders/schema";
import { findOrder, loadOrderLines, type OrderLineRow, type OrderRow } from "~/backend/orders/store.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { WholeNumber } from "~/backend/pricing/stay.server";
import {
  attachmentDetail,
  attachmentList,
  loadAddons,
  presentAddon,
  priceAttachments,
  storedAttachments,
  type AddonRow,
  type PricedAttachments,
} from "~/backend/addons/addons.server";

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

const planIdsOf = (addon: AddonRow) => (addon.plan_ids ? addon.plan_ids.split(",").map(Number) : []);

/** An item as the list calls answer it: as in `adds_list`, with the plans that offer it. */
const listedAddon = (addon: AddonRow, lang: Language, main: Language) => ({
  ...presentAddon(addon, lang, main),
  proposal_ids: planIdsOf(addon),
});

/** The order's room lines by position, as the pricing of choices reads them. */
const stayLinesOf = (lines: readonly OrderLineRow[]) =>
  lines.map((line) => ({ position: line.position, room: { id: line.room_class_id }, plan: { id: line.rate_plan_id } }));

/**
 * The order named, for the holder of one of its links (`purposes`) or its signed-in member;
 * anything else, another hotel's order included, is 404 `order_not_found` (nothing told).
 */
async function authorisedOrder(
  ctx: BackendContext,
  hotel: HotelRow,
  orderDoc: string,
  validHash: string | undefined,
  purposes: readonly ("view" | "cancel")[],
): Promise<OrderRow> {
  const order = await findOrder(ctx.db, hotel.id, orderDoc, ctx.now);
  if (!order) throw new ApiError(404, "order_not_found", {}, "order_doc");
  if (validHash) {
    for (const purpose of purposes) {
      if ((await verifyOrderLink(ctx.signingSecret, validHash, purpose, hotel.id, ctx.now)) === order.order_doc) return order;
    }
    throw new ApiError(404, "order_not_found", {}, "order_doc");
  }
  const member = await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
  if (!member || order.member_id !== member.id) throw new ApiError(404, "order_not_found", {}, "order_doc");
  return order;
}

/** Why the order can take no more add-ons, or null: it must be unpaid, with nothing paid and no payment under way. */
async function notAddableReason(db: D1Database, order: OrderRow): Promise<ApiError | null> {
  if (order.status === "cancelled") return new ApiError(409, "already_cancelled", {}, "order_doc");
  if (order.status !== "pending_payment" || order.paid_amount > 0) return new ApiError(409, "addon_order_closed", {}, "order_doc");
  if (order.payment_status !== -1) return new ApiError(409, "addon_payment_under_way", {}, "order_doc");
  const running = await db
    .prepare("SELECT 1 FROM payments WHERE order_id = ? AND status IN ('pending', 'code_issued') LIMIT 1")
    .bind(order.id)
    .first();
  return running ? new ApiError(409, "addon_payment_under_way", {}, "order_doc") : null;
}

/**
 * SQL: the order is still as read (unpaid, nothing paid, no payment under way, the same add-ons and
 * amounts): every statement of the batch runs under it, so all of it applies or none. ?1 order id,
 * ?2 its room_attachment_detail, ?3 total_price, ?4 pay_amount as read.
 */
const AS_READ = `EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND status = 'pending_payment' AND paid_amount = 0 AND payment_status = -1
    AND room_attachment_detail = ?2 AND total_price = ?3 AND pay_amount = ?4)
  AND NOT EXISTS (SELECT 1 FROM payments WHERE order_id = ?1 AND status IN ('pending', 'code_issued'))`;

/** The order's amounts with `added` more of add-ons (decision 124): a deposit is the hotel's rule on the new total. */
export function amountsWithAddons(order: OrderRow, hotel: HotelRow, added: number) {
  const total = order.total_price + added;
  const rail = order.rail_amount ?? 0;
  const deposit = order.pay_option === "part" || order.deposit_amount > 0 ? depositOf(total - rail, hotel.deposit_percent) : 0;
  return {
    attachment_amount: order.attachment_amount + added,
    total_price: total,
    deposit_amount: deposit,
    // Tickets are never part of a deposit (decision 120): a deposit order pays its deposit and its tickets.
    pay_amount: order.pay_option === "part" ? deposit + rail : order.pay_amount + added,
  };
}

/** What the order holds of each item by day now. */
async function heldUnits(db: D1Database, orderId: number): Promise<Map<number, Map<string, number>>> {
  const { results } = await db
    .prepare("SELECT addon_id, day, units FROM order_addon_days WHERE order_id = ?")
    .bind(orderId)
    .all<{ addon_id: number; day: string; units: number }>();
  const out = new Map<number, Map<string, number>>();
  for (const row of results) out.set(row.addon_id, (out.get(row.addon_id) ?? new Map<string, number>()).set(row.day, row.units));
  return out;
}

function isAddonSoldOut(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.includes("addon_days_not_oversold") || message.includes("no_addon_inventory");
}

const BatchBody = v.object({
  domain: v.string(),
  order_doc: DocParam,
  valid_hash: v.optional(v.pipe(v.string(), v.maxLength(200))),
  room_attachment_detail: v.pipe(v.array(v.unknown()), v.minLength(1), v.maxLength(20)),
  /** How many add-on entries the caller saw on the order (decision 126): another count means it changed since, and nothing is written. */
  seen_attachments: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000))),
});

/** Tries this many times when another batch booking changed the same order between its read and its write. */
const ATTEMPTS = 4;

async function batchBooking(ctx: BackendContext) {
  const body = parseInput(BatchBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, body.domain);
  let order = await authorisedOrder(ctx, hotel, body.order_doc, body.valid_hash, ["cancel"]);
  const lines = await loadOrderLines(ctx.db, order.id);
  for (let attempt = 1; ; attempt++) {
    const refusal = await notAddableReason(ctx.db, order);
    if (refusal) throw refusal;
    const existing = storedAttachments(order.room_attachment_detail);
    // A form sent twice (a double click, a replay) finds the first one's extras: refused, not added again.
    if (body.seen_attachments !== undefined && existing.length !== body.seen_attachments)
      throw new ApiError(409, "addon_order_changed", {}, "order_doc");
    const priced = await priceAttachments(
      ctx.db,
      hotel,
      { start: order.check_in_day, end: order.check_out_day, lines: stayLinesOf(lines) },
      body.room_attachment_detail,
      { adults: order.adults_count, children: order.children_count },
      existing,
    );
    const written = await writeBatch(ctx.db, hotel, order, priced);
    if (written) break;
    // Nothing was written: the order changed meanwhile. Read it again; its state says why.
    const fresh = await findOrder(ctx.db, hotel.id, order.order_doc, ctx.now);
    if (!fresh) throw new ApiError(404, "order_not_found", {}, "order_doc");
    const reason = await notAddableReason(ctx.db, fresh);
    if (reason) throw reason;
    if (attempt >= ATTEMPTS) throw new ApiError(409, "addon_order_busy", {}, "order_doc");
    order = fresh;
  }
  return batchAnswer(ctx, hotel, order.order_doc);
}

/** One D1 batch: the holds (the item's hold on the order replaced by old + new units, under the CHECK), then the order. */
async function writeBatch(db: D1Database, hotel: HotelRow, order: OrderRow, priced: PricedAttachments): Promise<boolean> {
  const held = await heldUnits(db, order.id);
  const asRead = [order.id, order.room_attachment_detail, order.total_price, order.pay_amount] as const;
  const holds = priced.holds.flatMap((hold) => {
    const before = held.get(hold.addonId) ?? new Map<string, number>();
    const days = hold.days.map((day) => [day, (before.get(day) ?? 0) + hold.units]);
    return [
      db.prepare(`DELETE FROM order_addon_days WHERE order_id = ?1 AND addon_id = ?5 AND ${AS_READ}`).bind(...asRead, hold.addonId),
      db
        .prepare(
          `INSERT INTO order_addon_days (order_id, addon_id, day, units)
           SELECT ?1, ?5, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?6) WHERE ${AS_READ}`,
        )
        .bind(...asRead, hold.addonId, JSON.stringify(days)),
    ];
  });
  const amounts = amountsWithAddons(order, hotel, priced.amount);
  const stored = [...storedAttachments(order.room_attachment_detail), ...priced.items];
  const update = db
    .prepare(
      `UPDATE orders SET room_attachment_detail = ?5, attachment_amount = ?6, total_price = ?7, pay_amount = ?8, deposit_amount = ?9,
         updated_at = ${NOW}
       WHERE id = ?1 AND ${AS_READ}`,
    )
    .bind(...asRead, JSON.stringify(stored), amounts.attachment_amount, amounts.total_price, amounts.pay_amount, amounts.deposit_amount);
  try {
    const results = await db.batch([...holds, update]);
    return (results[results.length - 1]?.meta.changes ?? 0) > 0;
  } catch (error) {
    // The last units went to another order since they were counted: the batch took nothing.
    if (isAddonSoldOut(error)) throw new ApiError(409, "addon_sold_out", {}, "room_attachment_detail");
    throw error;
  }
}

/** The order's add-ons, priced as booked, and its amounts after the call. */
async function batchAnswer(ctx: BackendContext, hotel: HotelRow, orderDoc: string) {
  const order = await findOrder(ctx.db, hotel.id, orderDoc, ctx.now);
  if (!order) throw new ApiError(404, "order_not_found", {}, "order_doc");
  const main = mainLanguage(hotel);
  const lines = await loadOrderLines(ctx.db, order.id);
  return ok({
    order_doc: order.order_doc,
    attachment_list: attachmentList(order.room_attachment_detail, ctx.lang, main),
    attachment_detail: attachmentDetail(
      storedAttachments(order.room_attachment_detail),
      lines.map((line) => ({ position: line.position, room_class_id: line.room_class_id, proposal_id: line.rate_plan_id })),
      ctx.lang,
      main,
    ),
    attachment_amount: order.attachment_amount,
    total_price: order.total_price,
    deposit_amount: order.deposit_amount,
    pay_amount: order.pay_amount,
  });
}

const Id = WholeNumber(1, 2_147_483_647);

const ListQuery = v.object({
  domain: v.string(),
  proposal_id: v.optional(v.pipe(v.array(Id), v.maxLength(20)), []),
  order_doc: v.optional(DocParam),
  valid_hash: v.optional(v.pipe(v.string(), v.maxLength(200))),
});

/** The fewest left of each limited item over the days it would be held for a stay. */
async function leftForStay(db: D1Database, addons: readonly AddonRow[], start: string, end: string): Promise<Map<number, number>> {
  const limited = addons.filter((addon) => addon.limited === 1);
  if (limited.length === 0) return new Map();
  const { results } = await db
    .prepare(
      `SELECT addon_id, day, capacity - taken AS left FROM addon_days
       WHERE addon_id IN (SELECT value FROM json_each(?1)) AND day >= ?2 AND day < ?3`,
    )
    .bind(JSON.stringify(limited.map((addon) => addon.id)), start, end)
    .all<{ addon_id: number; day: string; left: number }>();
  const out = new Map<number, number>();
  for (const addon of limited) {
    const days = addonHeldDays(addon.unit, start, end);
    const left = days.map((day) => results.find((row) => row.addon_id === addon.id && row.day === day)?.left ?? 0);
    out.set(addon.id, Math.max(0, Math.min(...left)));
  }
  return out;
}

async function addonList(ctx: BackendContext) {
  const query = parseInput(ListQuery, queryObject(ctx.url, ["proposal_id"]));
  const hotel = await requireHotel(ctx.db, query.domain);
  const main = mainLanguage(hotel);
  const addons = await loadAddons(ctx.db, hotel);
  const byPlan = (addon: AddonRow, plans: readonly number[]) => plans.length === 0 || planIdsOf(addon).some((id) => plans.includes(id));
  if (query.order_doc === undefined) {
    return ok({ adds: addons.filter((addon) => byPlan(addon, query.proposal_id)).map((addon) => listedAddon(addon, ctx.lang, main)) });
  }
  // For one order: what its plans offer, on which of its room lines, what it has, what is left for its stay.
  const order = await authorisedOrder(ctx, hotel, query.order_doc, query.valid_hash, ["view", "cancel"]);
  const lines = await loadOrderLines(ctx.db, order.id);
  const plans = lines.map((line) => line.rate_plan_id);
  const offered = addons.filter((addon) => byPlan(addon, plans) && byPlan(addon, query.proposal_id));
  const left = await leftForStay(ctx.db, offered, order.check_in_day, order.check_out_day);
  const existing = storedAttachments(order.room_attachment_detail);
  const addable = (await notAddableReason(ctx.db, order)) === null;
  return ok({
    order_doc: order.order_doc,
    addable,
    adds: offered.map((addon) => ({
      ...listedAddon(addon, ctx.lang, main),
      room_indexes: lines.filter((line) => planIdsOf(addon).includes(line.rate_plan_id)).map((line) => line.position),
      booked: existing.filter((item) => item.adds_id === addon.id).reduce((sum, item) => sum + addonUnitsTaken(item), 0),
      left: addon.limited === 1 ? (left.get(addon.id) ?? 0) : null,
    })),
  });
}

async function addonBySerial(ctx: BackendContext, params: Record<string, string>) {
  const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
  const serial = params.serial ?? "";
  const addons = await loadAddons(ctx.db, hotel);
  // Its code first (the hotel file's serial, stable across imports), then its adds_id.
  const addon =
    addons.find((item) => item.addon_code === serial) ??
    (/^\d{1,10}$/.test(serial) ? addons.find((item) => item.id === Number(serial)) : undefined);
  if (!addon) throw new ApiError(404, "addon_not_found", {}, "serial");
  return ok(listedAddon(addon, ctx.lang, mainLanguage(hotel)));
}

/** Registered after the other add-on routes: `/api/xtra/adds/list` must be matched before `{serial}`. */
export const orderAddonRoutes: BackendRoute[] = [
  { method: "POST", path: "/api/xtra/adds/batch/booking", handler: batchBooking },
  { method: "GET", path: "/api/xtra/adds/list", handler: addonList },
  { method: "GET", path: "/api/xtra/adds/:serial", handler: addonBySerial },
];
