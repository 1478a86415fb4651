/** Add-ons beyond the order's own (docs/api.md "Add-ons"; decision 124). */
import {
  AddonBatchSchema,
  AddonInventorySchema,
  AddonItemSchema,
  AddonListSchema,
  OrderAddonListSchema,
  type AddonChoiceInput,
} from "../addons";
import type { ClientClass } from "./core";

/** The calls of add-ons. */
export function withAddonCalls<TBase extends ClientClass>(Base: TBase) {
  return class AddonCalls extends Base {
    /** GET /api/xtra/adds/list: the hotel's items, only those of these plans when given. */
    addonList(proposalIds: readonly number[] = []) {
      return this.call(AddonListSchema, "GET", "/api/xtra/adds/list", { query: { ...this.hotel, proposal_id: [...proposalIds] } });
    }

    /** GET /api/xtra/adds/list with an order: what its plans offer, on which lines, what it has, what is left (view or cancel link, or the member). */
    orderAddonList(orderDoc: string, validHash?: string) {
      return this.call(OrderAddonListSchema, "GET", "/api/xtra/adds/list", {
        query: { ...this.hotel, order_doc: orderDoc, valid_hash: validHash },
      });
    }

    /** GET /api/xtra/adds/date/inventory: what is left of the hotel's items (only these, when given) on each day from `start` up to `end`. */
    addonInventory(start: string, end: string, addsIds: readonly number[] = []) {
      return this.call(AddonInventorySchema, "GET", "/api/xtra/adds/date/inventory", {
        query: { ...this.hotel, start_date: start, end_date: end, adds_id: [...addsIds] },
      });
    }

    /** GET /api/xtra/adds/{serial}: one item by its code (or adds_id). */
    addon(serial: string) {
      return this.call(AddonItemSchema, "GET", `/api/xtra/adds/${encodeURIComponent(serial)}`, { query: this.hotel });
    }

    /** POST /api/xtra/adds/batch/booking: books add-ons onto an unpaid order (its cancel link hash, or the member's token). */
    addonBatchBooking(orderDoc: string, cancelHash: string | undefined, choices: AddonChoiceInput[], seenAttachments?: number) {
      return this.call(AddonBatchSchema, "POST", "/api/xtra/adds/batch/booking", {
        body: {
          ...this.hotel,
          order_doc: orderDoc,
          valid_hash: cancelHash,
          room_attachment_detail: choices,
          seen_attachments: seenAttachments,
        },
      });
    }
  };
}
