/**
 * Add-on items booked with the room (spec §1, §3, §7; issue 27; decisions 115-117): the items a
 * plan offers (`adds_list`), what is left of a limited item by day, and the pricing of a guest's
 * choices into `attachment_detail` and the inventory an order holds.
 */
import * as v from "valibot";
import {
  addonAmount,
  addonChoicesProblem,
  addonHeldDays,
  addonUnitsTaken,
  isPerPerson,
  type AddonChoice,
  type AddonUnit,
} from "~/domain/addons";
import { addDays, nightsBetween, stayNights } from "~/domain/dates";
import type { Language } from "~/i18n/languages";
import { ApiError, ok } from "~/backend/http.server";
import { mainLanguage, requireHotel } from "~/backend/hotels/hotels.server";
import { parseJson, pickText, type LocalizedText } from "~/backend/localize";
import type { BackendRoute } from "~/backend/route";
import { versionedRows, type VersionedHotel } from "~/backend/versioned";
import { requireStay, WholeNumber } from "~/backend/pricing/stay.server";

export interface AddonRow {
  id: number;
  hotel_id: number;
  addon_code: string;
  position: number;
  name: string;
  description: string;
  photo: string;
  unit: AddonUnit;
  price: number;
  child_price: number | null;
  max_per_booking: number;
  limited: number;
  /** Comma-separated ids of the plans that offer it. */
  plan_ids: string | null;
}

/** The hotel's items on offer; they change only with an import, so they are kept under its content version (decision 046). */
export function loadAddons(db: D1Database, hotel: VersionedHotel): Promise<readonly AddonRow[]> {
  return versionedRows<AddonRow>(
    db,
    hotel,
    "addons",
    db
      .prepare(
        `SELECT a.*, (SELECT group_concat(rate_plan_id) FROM addon_plans WHERE addon_id = a.id) AS plan_ids
         FROM addons a WHERE a.hotel_id = ? AND a.active = 1 ORDER BY a.position, a.id`,
      )
      .bind(hotel.id),
  );
}

const offeredBy = (addon: AddonRow, planId: number) => (addon.plan_ids ?? "").split(",").map(Number).includes(planId);

/** One item as a plan's `adds_list` entry (spec §3), in one language. */
export function presentAddon(addon: AddonRow, lang: Language, main: Language) {
  return {
    adds_id: addon.id,
    adds_code: addon.addon_code,
    name: pickText(parseJson<LocalizedText>(addon.name, {}), lang, main),
    description: pickText(parseJson<LocalizedText>(addon.description, {}), lang, main),
    photo: addon.photo,
    unit: addon.unit,
    price: addon.price,
    /** What one child pays (per-person items); null for items not counted per person. */
    child_price: isPerPerson(addon.unit) ? (addon.child_price ?? addon.price) : null,
    max_per_booking: addon.max_per_booking,
    limited: addon.limited === 1,
  };
}

export type PresentedAddon = ReturnType<typeof presentAddon>;

const addsLists = new WeakMap<readonly AddonRow[], Map<string, readonly PresentedAddon[]>>();

/**
 * A plan's `adds_list`: the items that name it. Built once per list of rows (kept per content
 * version, decision 046), plan and language: a search asks it for every plan of every room
 * (decision 122). Frozen; callers never change it.
 */
export function addsListOf(addons: readonly AddonRow[], planId: number, lang: Language, main: Language): readonly PresentedAddon[] {
  let byPlan = addsLists.get(addons);
  if (!byPlan) addsLists.set(addons, (byPlan = new Map()));
  const key = `${planId} ${lang} ${main}`;
  let list = byPlan.get(key);
  if (!list) {
    list = Object.freeze(addons.filter((addon) => offeredBy(addon, planId)).map((addon) => Object.freeze(presentAddon(addon, lang, main))));
    byPlan.set(key, list);
  }
  return list;
}

const Id = WholeNumber(1, 2_147_483_647);

/**
 * One choice of `room_attachment_detail` (decision 116): the item, how many (adults for per-person
 * items), how many children (per-person items only), and the room line (`room_index`, the position
 * in `orders`) it goes with; without one it is for the order.
 */
export const AddonSelection = v.object({
  adds_id: Id,
  quantity: WholeNumber(0, 100),
  child_quantity: v.optional(WholeNumber(0, 100), 0),
  room_index: v.optional(WholeNumber(0, 19)),
});

/** A priced choice as the price check and the order answer it. */
export interface PricedAddon {
  adds_id: number;
  adds_code: string;
  name: string;
  unit: AddonUnit;
  price: number;
  child_price: number | null;
  quantity: number;
  child_quantity: number;
  nights: number;
  amount: number;
  room_index: number | null;
}

/** A priced choice as an order stores it: its name in every language, so the order reads in the reader's. */
export type StoredAddon = Omit<PricedAddon, "name"> & { names: LocalizedText };

export interface PricedAttachments {
  items: StoredAddon[];
  amount: number;
  /** What the order holds of limited items: units per item per day. */
  holds: { addonId: number; days: string[]; units: number }[];
}

export const NO_ATTACHMENTS: PricedAttachments = { items: [], amount: 0, holds: [] };

interface StayLines {
  start: string;
  end: string;
  lines: readonly { position: number; room: { id: number }; plan: { id: number } }[];
}

/**
 * Prices the guest's choices from the database (nothing from the browser is trusted but the
 * counts) and checks what is left of limited items; refuses, naming the choice, anything that
 * cannot be booked. The order's batch guards the inventory again (migration 0010). `existing`: what
 * the order already has (a batch booking onto it, decision 124): counted with the new choices of the
 * same item against its maximum and the party, not priced again; the holds are the new units only.
 */
export async function priceAttachments(
  db: D1Database,
  hotel: VersionedHotel,
  stay: StayLines,
  input: readonly unknown[],
  party: { adults: number; children: number } | null,
  existing: readonly StoredAddon[] = [],
): Promise<PricedAttachments> {
  if (input.length === 0) return NO_ATTACHMENTS;
  const choices = input.map((raw, index) => {
    const result = v.safeParse(AddonSelection, raw);
    if (!result.success) {
      const issue = result.issues[0];
      const field = `room_attachment_detail.${index}${issue && v.getDotPath(issue) ? `.${v.getDotPath(issue)}` : ""}`;
      throw new ApiError(400, "invalid_field", { field }, field);
    }
    return { ...result.output, index };
  });
  const addons = new Map((await loadAddons(db, hotel)).map((addon) => [addon.id, addon]));
  const nights = nightsBetween(stay.start, stay.end);
  const byItem = new Map<number, { addon: AddonRow; choices: (AddonChoice & { index: number })[] }>();
  const items: StoredAddon[] = choices.map((choice) => {
    const field = `room_attachment_detail.${choice.index}`;
    const addon = addons.get(choice.adds_id);
    if (!addon) throw new ApiError(409, "addon_unknown", {}, `${field}.adds_id`);
    if (choice.room_index !== undefined) {
      const line = stay.lines[choice.room_index];
      if (!line) throw new ApiError(400, "invalid_field", { field: `${field}.room_index` }, `${field}.room_index`);
      if (!offeredBy(addon, line.plan.id)) throw new ApiError(409, "addon_unknown", {}, `${field}.adds_id`);
    } else if (!stay.lines.some((line) => offeredBy(addon, line.plan.id))) {
      throw new ApiError(409, "addon_unknown", {}, `${field}.adds_id`);
    }
    const group = byItem.get(addon.id) ?? { addon, choices: [] };
    group.choices.push(choice);
    byItem.set(addon.id, group);
    const price = { unit: addon.unit, price: addon.price, child_price: addon.child_price };
    return {
      adds_id: addon.id,
      adds_code: addon.addon_code,
      names: parseJson<LocalizedText>(addon.name, {}),
      unit: addon.unit,
      price: addon.price,
      child_price: isPerPerson(addon.unit) ? (addon.child_price ?? addon.price) : null,
      quantity: choice.quantity,
      child_quantity: choice.child_quantity,
      nights,
      amount: addonAmount(price, choice, nights),
      room_index: choice.room_index ?? null,
    };
  });

  const holds: PricedAttachments["holds"] = [];
  for (const { addon, choices: chosen } of byItem.values()) {
    const already = existing.filter((item) => item.adds_id === addon.id);
    const problem = addonChoicesProblem(addon, [...already, ...chosen], party);
    const field = `room_attachment_detail.${chosen[0]?.index ?? 0}`;
    if (problem) throw new ApiError(problem === "addon_over_maximum" ? 409 : 400, problem, { max: addon.max_per_booking }, field);
    if (addon.limited === 1) {
      holds.push({
        addonId: addon.id,
        days: addonHeldDays(addon.unit, stay.start, stay.end),
        units: chosen.reduce((sum, choice) => sum + addonUnitsTaken(choice), 0),
      });
    }
  }
  if (holds.length > 0) {
    const left = await stockLeft(
      db,
      holds.map((hold) => hold.addonId),
      stay.start,
      stay.end,
    );
    for (const hold of holds) {
      if (hold.days.some((day) => (left.get(hold.addonId)?.get(day) ?? 0) < hold.units)) {
        const index = choices.find((choice) => choice.adds_id === hold.addonId)?.index ?? 0;
        throw new ApiError(409, "addon_sold_out", {}, `room_attachment_detail.${index}`);
      }
    }
  }
  return { items, amount: items.reduce((sum, item) => sum + item.amount, 0), holds };
}

/** What is left of limited items per day from `start` up to, not including, `end`. */
async function stockLeft(db: D1Database, addonIds: number[], start: string, end: string): Promise<Map<number, Map<string, number>>> {
  const { results } = await db
    .prepare(
      `SELECT addon_id, day, capacity - taken AS left FROM addon_days
       WHERE addon_id IN (SELECT value FROM json_each(?1)) AND day >= ?2 AND day < ?3`,
    )
    .bind(JSON.stringify(addonIds), start, end)
    .all<{ addon_id: number; day: string; left: number }>();
  const out = new Map<number, Map<string, number>>();
  for (const row of results) {
    const days = out.get(row.addon_id) ?? new Map<string, number>();
    days.set(row.day, row.left);
    out.set(row.addon_id, days);
  }
  return out;
}

/** The statements that take an order's holds, for the order's batch (the CHECK on addon_days refuses an oversell). */
export function holdStatements(db: D1Database, orderDoc: string, attachments: PricedAttachments): D1PreparedStatement[] {
  return attachments.holds.map((hold) =>
    db
      .prepare(
        `INSERT INTO order_addon_days (order_id, addon_id, day, units)
         SELECT (SELECT id FROM orders WHERE order_doc = ?1), ?2, value, ?3 FROM json_each(?4)`,
      )
      .bind(orderDoc, hold.addonId, hold.units, JSON.stringify(hold.days)),
  );
}

const named = (item: StoredAddon, lang: Language, main: Language): PricedAddon => {
  const { names, ...rest } = item;
  return { ...rest, name: pickText(names, lang, main) };
};

/**
 * `attachment_detail` (spec §3): `rooms` per room line with its items, `other` the order's own.
 * `lines` are the order's room lines by position.
 */
export function attachmentDetail(
  items: readonly StoredAddon[],
  lines: readonly { position: number; room_class_id: number; proposal_id: number }[],
  lang: Language,
  main: Language,
) {
  const rooms = lines.flatMap((line) => {
    const mine = items.filter((item) => item.room_index === line.position).map((item) => named(item, lang, main));
    if (mine.length === 0) return [];
    return [
      {
        room_index: line.position,
        room_class_id: line.room_class_id,
        proposal_id: line.proposal_id,
        items: mine,
        amount: mine.reduce((sum, item) => sum + item.amount, 0),
      },
    ];
  });
  const other = items.filter((item) => item.room_index === null).map((item) => named(item, lang, main));
  return { rooms, other };
}

/** An order's stored choices (orders.room_attachment_detail) in the reader's language: its `attachment_list`. */
export function attachmentList(stored: string, lang: Language, main: Language): PricedAddon[] {
  return storedAttachments(stored).map((item) => named(item, lang, main));
}

/** An order's stored choices; orders from before add-ons stored none. */
export function storedAttachments(stored: string): StoredAddon[] {
  return parseJson<unknown[]>(stored, []).filter(
    (item): item is StoredAddon => typeof item === "object" && item !== null && "adds_id" in item && "names" in item,
  );
}

/** The longest span the inventory call answers at once. */
export const MAX_INVENTORY_DAYS = 62;

export const addonRoutes: BackendRoute[] = [
  {
    method: "GET",
    path: "/api/xtra/adds/date/inventory",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const { start, end } = requireStay(hotel, ctx.url.searchParams.get("start_date"), ctx.url.searchParams.get("end_date"), ctx.now);
      const days = stayNights(start, end).slice(0, MAX_INVENTORY_DAYS);
      const last = days[days.length - 1] ?? start;
      const wanted = ctx.url.searchParams.getAll("adds_id").map(Number);
      const main = mainLanguage(hotel);
      const addons = (await loadAddons(ctx.db, hotel)).filter((addon) => wanted.length === 0 || wanted.includes(addon.id));
      const limited = addons.filter((addon) => addon.limited === 1).map((addon) => addon.id);
      const left = limited.length > 0 ? await stockLeft(ctx.db, limited, start, addDays(last, 1)) : new Map<number, Map<string, number>>();
      return ok({
        start_date: start,
        end_date: end,
        adds: addons.map((addon) => ({
          ...presentAddon(addon, ctx.lang, main),
          // Unlimited items have no count: null on every day.
          dates: days.map((date) => ({ date, inventory: addon.limited === 1 ? Math.max(0, left.get(addon.id)?.get(date) ?? 0) : null })),
        })),
      });
    },
  },
];
