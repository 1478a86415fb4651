/**
 * The add-on calls beyond the order's own (docs/api.md "Add-ons"; issue 27; decisions 116 and 124):
 * an item as the list fetches answer it, the list for one order, and the answer of a batch booking
 * onto an existing order.
 */
import * as v from "valibot";
import { ADDON_UNITS } from "~/domain/addons";

/** An item as a plan's `adds_list` has it, with the plans that offer it (`GET /api/xtra/adds/list`, `GET /api/xtra/adds/{serial}`). */
export const AddonItemSchema = v.object({
  adds_id: v.number(),
  adds_code: v.string(),
  name: v.string(),
  description: v.optional(v.string(), ""),
  photo: v.optional(v.string(), ""),
  unit: v.picklist(ADDON_UNITS),
  price: v.number(),
  child_price: v.nullable(v.number()),
  max_per_booking: v.number(),
  limited: v.boolean(),
  proposal_ids: v.array(v.number()),
});
export type AddonItem = v.InferOutput<typeof AddonItemSchema>;

export const AddonListSchema = v.object({ adds: v.array(AddonItemSchema) });

/** The items one order may take: on which of its room lines, how many it has, how many are left for its stay (null: unlimited). */
export const OrderAddonListSchema = v.object({
  order_doc: v.string(),
  /** Unpaid, nothing paid, no payment under way: a batch booking would be taken. */
  addable: v.boolean(),
  adds: v.array(
    v.object({
      ...AddonItemSchema.entries,
      room_indexes: v.array(v.number()),
      booked: v.number(),
      left: v.nullable(v.number()),
    }),
  ),
});
export type OrderAddonList = v.InferOutput<typeof OrderAddonListSchema>;

/**
 * `GET /api/xtra/adds/date/inventory`: what is left of each item per day of a stay (`inventory`
 * null on every day for items without a limit).
 */
export const AddonInventorySchema = v.object({
  start_date: v.string(),
  end_date: v.string(),
  adds: v.array(
    v.object({
      adds_id: v.number(),
      limited: v.boolean(),
      dates: v.array(v.object({ date: v.string(), inventory: v.nullable(v.number()) })),
    }),
  ),
});
export type AddonInventory = v.InferOutput<typeof AddonInventorySchema>;

/** A priced add-on of an order, as booked. */
export const BookedAddonSchema = v.object({
  adds_id: v.number(),
  adds_code: v.string(),
  name: v.string(),
  unit: v.picklist(ADDON_UNITS),
  price: v.number(),
  child_price: v.nullable(v.number()),
  quantity: v.number(),
  child_quantity: v.number(),
  nights: v.number(),
  amount: v.number(),
  room_index: v.nullable(v.number()),
});

/** `POST /api/xtra/adds/batch/booking`: the order's add-ons after the call and its new amounts. */
export const AddonBatchSchema = v.object({
  order_doc: v.string(),
  attachment_list: v.array(BookedAddonSchema),
  attachment_detail: v.object({
    rooms: v.array(
      v.object({
        room_index: v.number(),
        room_class_id: v.number(),
        proposal_id: v.number(),
        items: v.array(BookedAddonSchema),
        amount: v.number(),
      }),
    ),
    other: v.array(BookedAddonSchema),
  }),
  attachment_amount: v.number(),
  total_price: v.number(),
  deposit_amount: v.number(),
  pay_amount: v.number(),
});
export type AddonBatch = v.InferOutput<typeof AddonBatchSchema>;

/** One choice of `room_attachment_detail`: the counts only (decision 116). */
export interface AddonChoiceInput {
  adds_id: number;
  quantity: number;
  child_quantity?: number;
  room_index?: number;
}

/** A priced add-on of a price detail's or an order's attachment_detail, as the order page, the PDF and the emails read it. */
export const PricedAddonSchema = v.object({
  adds_id: v.number(),
  name: v.string(),
  unit: v.picklist(ADDON_UNITS),
  quantity: v.number(),
  child_quantity: v.optional(v.number(), 0),
  nights: v.optional(v.number(), 1),
  amount: v.number(),
});
export type PricedAddonView = v.InferOutput<typeof PricedAddonSchema>;
