/**
 * The add-ons a checkout offers and what the guest chose (issue 27, decisions 115-117): read from
 * the contract's loosely typed lists (another back end may answer other shapes: those items are
 * left out), and from the checkout form's fields `addon_<id>` and `addon_<id>_children`.
 */
import * as v from "valibot";
import { PricedAddonSchema, type PricedAddonView } from "~/contract/addons";
import { ADDON_UNITS, isPerPerson } from "~/domain/addons";

export const AddonOfferSchema = v.object({
  adds_id: v.number(),
  adds_code: v.optional(v.string(), ""),
  name: v.string(),
  description: v.optional(v.string(), ""),
  photo: v.optional(v.string(), ""),
  unit: v.picklist(ADDON_UNITS),
  price: v.number(),
  child_price: v.optional(v.nullable(v.number()), null),
  max_per_booking: v.number(),
  limited: v.optional(v.boolean(), false),
});
/**
 * An item offered. `left`: for a limited item, how many the hotel has left for the whole stay (the
 * fewest over the days it is held on), from the inventory call; null or absent: no limit, or not known.
 */
export type AddonOffer = v.InferOutput<typeof AddonOfferSchema> & { left?: number | null };

/** The items of a list that read as `schema`; others are left out. */
export function itemsOf<T>(schema: v.GenericSchema<unknown, T>, list: readonly unknown[]): T[] {
  return list.flatMap((item) => {
    const parsed = v.safeParse(schema, item);
    return parsed.success ? [parsed.output] : [];
  });
}

/** Every priced add-on of a price detail's or an order's attachment_detail: per room line first, then the order's. */
export function pricedAddons(detail: { rooms: readonly unknown[]; other: readonly unknown[] } | null | undefined): PricedAddonView[] {
  if (!detail) return [];
  const rooms = detail.rooms.flatMap((room) =>
    typeof room === "object" && room !== null && Array.isArray((room as { items?: unknown }).items)
      ? itemsOf(PricedAddonSchema, (room as { items: unknown[] }).items)
      : [],
  );
  return [...rooms, ...itemsOf(PricedAddonSchema, detail.other)];
}

/** The most of an item one count field may ask for: its maximum per booking, or fewer when fewer are left. */
export function addonFieldMax(item: Pick<AddonOffer, "max_per_booking" | "left">): number {
  return item.left === undefined || item.left === null ? item.max_per_booking : Math.min(item.max_per_booking, item.left);
}

/** A limited item asked for beyond what is left for the stay: its field (the first that asks for it), name and how many are left. */
export interface AddonOverLeft {
  field: string;
  name: string;
  left: number;
}

/**
 * The items chosen for more than are left, over every group (one item asked for on several room
 * lines draws on the same inventory). The price check would refuse them: the guest is told which,
 * and how many are left, before it is asked.
 */
export function addonsOverLeft(values: Record<string, string | undefined>, groups: readonly AddonGroup[]): AddonOverLeft[] {
  const asked = new Map<number, { item: AddonOffer; units: number; field: string | null }>();
  for (const group of groups) {
    for (const item of group.items) {
      const name = addonField(group, item);
      const units = (countOf(values[name]) ?? 0) + (isPerPerson(item.unit) ? (countOf(values[`${name}_children`]) ?? 0) : 0);
      const entry = asked.get(item.adds_id) ?? { item, units: 0, field: null };
      entry.units += units;
      if (units > 0 && entry.field === null) entry.field = (countOf(values[name]) ?? 0) > 0 ? name : `${name}_children`;
      asked.set(item.adds_id, entry);
    }
  }
  return [...asked.values()].flatMap(({ item, units, field }) =>
    item.left !== undefined && item.left !== null && field !== null && units > item.left
      ? [{ field, name: item.name, left: item.left }]
      : [],
  );
}

export interface AddonChoiceInput {
  adds_id: number;
  quantity: number;
  child_quantity: number;
  /** The room line the choice is for (`attachment_detail.rooms`); none: for the order. */
  room_index?: number;
}

/** The extras offered for the order (`room_index` null) or for one room line, named by its room and plan. */
export interface AddonGroup {
  room_index: number | null;
  label: string;
  items: AddonOffer[];
}

/** The form field of an item's count in a group: `addon_<id>` for the order, `addon_<id>_r<line>` for a room line. */
export function addonField(group: Pick<AddonGroup, "room_index">, item: Pick<AddonOffer, "adds_id">): string {
  return group.room_index === null ? `addon_${item.adds_id}` : `addon_${item.adds_id}_r${group.room_index}`;
}

/** A count field: "" is none; anything but a whole number 0-100 is refused (null). */
function countOf(raw: string | undefined): number | null {
  const value = (raw ?? "").trim();
  if (value === "") return 0;
  return /^\d{1,3}$/.test(value) && Number(value) <= 100 ? Number(value) : null;
}

/**
 * The guest's choices among the groups offered, from the form's values, and the fields that are not
 * counts. Items left at 0 are not chosen.
 */
export function addonChoicesOf(
  values: Record<string, string | undefined>,
  groups: readonly AddonGroup[],
): { choices: AddonChoiceInput[]; invalid: string[] } {
  const invalid: string[] = [];
  const choices = groups.flatMap((group) =>
    group.items.flatMap((item) => {
      const name = addonField(group, item);
      const quantity = countOf(values[name]);
      const children = isPerPerson(item.unit) ? countOf(values[`${name}_children`]) : 0;
      if (quantity === null) invalid.push(name);
      if (children === null) invalid.push(`${name}_children`);
      if (quantity === null || children === null || quantity + children === 0) return [];
      return [
        {
          adds_id: item.adds_id,
          quantity,
          child_quantity: children,
          ...(group.room_index === null ? {} : { room_index: group.room_index }),
        },
      ];
    }),
  );
  return { choices, invalid };
}
