/** Orders (spec §3, §7, §8): creating one, the member's orders, an order by its links, cancelling, its attachments. */
import * as v from "valibot";
import type { PaymentMethod } from "~/domain/payments";
import { AttachmentSchema, CreatedOrderSchema, OrderHistorySchema, OrderSchema, type Order } from "../schemas";
import type { RailItemInput } from "../rail";
import { HotelApiError, type ClientClass } from "./core";
import type { OrderLineInput } from "./pricing";

/** The calls of orders. */
export function withOrderCalls<TBase extends ClientClass>(Base: TBase) {
  return class OrderCalls extends Base {
    /**
     * POST /api/ota/order/personal-new. Never throws for a refused order: the result carries the
     * error and order_doc "error-order" (spec §8).
     */
    async createOrder(payload: OrderPayload, idempotencyKey: string): Promise<CreateOrderResult> {
      try {
        const created = await this.call(CreatedOrderSchema, "POST", "/api/ota/order/personal-new", {
          body: { ...payload, domain: this.options.domain, booking_from: "HXA" },
          headers: { "idempotency-key": `"${idempotencyKey}"` },
        });
        return { ok: true, ...created };
      } catch (error) {
        if (error instanceof HotelApiError) return { ok: false, order_doc: ERROR_ORDER_DOC, error };
        throw error;
      }
    }

    /** GET /api/ota/order/personal-order-list (the member's orders) */
    memberOrders(filters: { order_doc?: string; status?: string } = {}) {
      return this.call(v.array(OrderSchema), "GET", "/api/ota/order/personal-order-list", { query: { ...this.hotel, ...filters } });
    }

    /** GET /api/ota/order/personal-history */
    orderHistory(hashCode: string) {
      return this.call(OrderHistorySchema, "GET", "/api/ota/order/personal-history", { query: { ...this.hotel, hash_code: hashCode } });
    }

    /** GET /api/ota/order/via-hash */
    orderViaHash(validHash: string) {
      return this.call(OrderSchema, "GET", "/api/ota/order/via-hash", { query: { ...this.hotel, valid_hash: validHash } });
    }

    /** POST /api/wota/order/cancel_apply/{id} (the member's own order) */
    cancelOrder(orderDoc: string, reason = "") {
      return this.call(OrderSchema, "POST", `/api/wota/order/cancel_apply/${encodeURIComponent(orderDoc)}`, {
        body: { ...this.hotel, reason },
      });
    }

    /** POST /api/wota/order/cancel-via-hash/{id} */
    cancelOrderViaHash(orderDoc: string, validHash: string, reason = "") {
      return this.call(OrderSchema, "POST", `/api/wota/order/cancel-via-hash/${encodeURIComponent(orderDoc)}`, {
        body: { ...this.hotel, valid_hash: validHash, reason },
      });
    }

    /** POST /api/ota/order/attachment */
    orderAttachments(orderDoc: string, validHash?: string) {
      return this.call(AttachmentSchema, "POST", "/api/ota/order/attachment", {
        body: { ...this.hotel, order_doc: orderDoc, valid_hash: validHash },
      });
    }
  };
}

/** The order_doc a failed order creation yields (spec §8). */
export const ERROR_ORDER_DOC = "error-order";

/** The order payload of spec §3 (domain and booking_from are added by the client). */
export interface OrderPayload {
  booker_first_name: string;
  booker_last_name: string;
  booker_name?: string;
  booker_phone: string;
  booker_email: string;
  check_in_day: string;
  check_out_day: string;
  pay_way: PaymentMethod;
  payment_vendor: number;
  pay_option?: "all" | "part";
  memo?: string;
  company_reg_number?: string;
  company_name?: string;
  point_used?: number;
  coupon_array?: string[];
  orders: (OrderLineInput & { memo?: string; occupant_name?: string; occupant_phone?: string; occupant_email?: string })[];
  rail_item_list?: RailItemInput[];
  room_attachment_detail?: unknown[];
  room_attachment_exist?: boolean;
  adults_count: number;
  children_count: number;
  /** A pass of captchaVerify for "order", when the back end asked for one (decision 072). */
  captcha_pass?: string;
  /** How the guest receives the e-invoice, where Portico issues it (decision 159; docs/api.md). */
  invoice?: { kind: string; carrier?: string; carrier_code?: string; love_code?: string; company_address?: string; advised_code?: string };
}

export type CreateOrderResult =
  | { ok: true; order_doc: string; redirect_path: string; order: Order }
  | { ok: false; order_doc: typeof ERROR_ORDER_DOC; error: HotelApiError };
