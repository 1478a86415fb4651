/**
 * The staff API's calendar (decision 156): a month of rooms to sell, prices and stay rules, and
 * the bulk change's preview and apply. Portico's extension of the contract, documented in docs/api.md.
 */
import * as v from "valibot";
import { BULK_CHANGES } from "~/domain/bulk-change";

const Rules = {
  closed: v.boolean(),
  min_stay: v.nullable(v.number()),
  max_stay: v.nullable(v.number()),
  no_arrival: v.boolean(),
  no_departure: v.boolean(),
  /** Changed at the desk (a re-import keeps it). */
  changed: v.boolean(),
};

export const DeskRoomNightSchema = v.object({ to_sell: v.number(), booked: v.number(), ...Rules });
export type DeskRoomNight = v.InferOutput<typeof DeskRoomNightSchema>;

export const DeskPlanNightSchema = v.object({
  price: v.number(),
  member_price: v.nullable(v.number()),
  allotment: v.nullable(v.number()),
  sold: v.number(),
  ...Rules,
});
export type DeskPlanNight = v.InferOutput<typeof DeskPlanNightSchema>;

export const DeskCalendarSchema = v.object({
  month: v.string(),
  /** The hotel's today. */
  today: v.string(),
  /** The month's nights; every `nights` array below is aligned with it (null: no row for that night). */
  nights: v.array(v.string()),
  room_classes: v.array(
    v.object({
      id: v.number(),
      code: v.string(),
      name: v.string(),
      nights: v.array(v.nullable(DeskRoomNightSchema)),
      plans: v.array(v.object({ id: v.number(), code: v.string(), name: v.string(), nights: v.array(v.nullable(DeskPlanNightSchema)) })),
    }),
  ),
});
export type DeskCalendar = v.InferOutput<typeof DeskCalendarSchema>;

/** What a bulk change asks: the nights, the targets and the one change (the apply adds form_key and digest). */
export interface DeskBulkChangeInput {
  from: string;
  to: string;
  /** 0 Sunday … 6 Saturday. */
  weekdays: number[];
  room_class_ids: number[];
  /** "<rate_plan_id>:<room_class_id>". */
  plans: string[];
  change: (typeof BULK_CHANGES)[number];
  value: number | null;
}

const Column = v.picklist([
  "capacity",
  "price",
  "member_price",
  "allotment",
  "closed",
  "min_stay",
  "max_stay",
  "no_arrival",
  "no_departure",
]);

export const DeskBulkPreviewSchema = v.object({
  change: v.picklist(BULK_CHANGES),
  value: v.nullable(v.number()),
  from: v.string(),
  to: v.string(),
  weekdays: v.array(v.number()),
  /** Rows that change (a room class's or a plan's night). */
  rows: v.number(),
  groups: v.array(
    v.object({
      room_class_id: v.number(),
      rate_plan_id: v.nullable(v.number()),
      room_name: v.string(),
      plan_name: v.nullable(v.string()),
      column: Column,
      old: v.nullable(v.number()),
      new: v.nullable(v.number()),
      nights: v.number(),
      runs: v.array(v.tuple([v.string(), v.string()])),
    }),
  ),
  /** Nights that refuse the change: the apply refuses it whole while there are any. */
  refusals: v.array(
    v.object({
      reason: v.picklist(["below_booked", "below_sold", "min_above_max"]),
      night: v.string(),
      room_name: v.string(),
      plan_name: v.nullable(v.string()),
      /** Rooms booked (below_booked) or sold by the plan (below_sold). */
      taken: v.nullable(v.number()),
    }),
  ),
  /** The preview's fingerprint: the apply takes it and refuses if the nights changed since. */
  digest: v.string(),
});
export type DeskBulkPreview = v.InferOutput<typeof DeskBulkPreviewSchema>;

export const DeskBulkApplySchema = v.object({
  outcome: v.picklist(["done", "already_done"]),
  rows: v.number(),
});
export type DeskBulkApply = v.InferOutput<typeof DeskBulkApplySchema>;
