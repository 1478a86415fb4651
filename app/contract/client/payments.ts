/** Payments (spec §7, §9): a payment attempt, the master-system order, the repay configuration and the repayment. */
import { repayConfig } from "~/domain/master-order";
import { MasterOrderSchema, PaymentStartSchema, RepayConfigSchema } from "../schemas";
import type { ClientClass } from "./core";

/** The calls of payments. */
export function withPaymentCalls<TBase extends ClientClass>(Base: TBase) {
  return class PaymentCalls extends Base {
    /** POST /api/payment/start: a payment attempt for what the order owes now (docs/decisions/031). */
    startPayment(input: { order_doc: string; valid_hash: string; return_path: string; payment_vendor?: number }) {
      return this.call(PaymentStartSchema, "POST", "/api/payment/start", { body: { ...this.hotel, ...input } });
    }

    /** GET /api/order/master/{id}: the master-system order (spec §3). */
    masterOrder(orderDoc: string, validHash: string) {
      return this.call(MasterOrderSchema, "GET", `/api/order/master/${encodeURIComponent(orderDoc)}`, {
        query: { ...this.hotel, valid_hash: validHash },
      });
    }

    /**
     * GET {master}/payment/config: the repay configuration of this hotel (spec §7): its master-system
     * id and the §9 payment ids it takes. Without the hotel's domain it cannot be asked: spec §8's
     * MasterDomainMissingError, before any request.
     */
    repayConfig() {
      const { domain } = repayConfig(this.hotel.domain);
      return this.call(RepayConfigSchema, "GET", "{master}/payment/config", { query: { domain } });
    }

    /** POST {master}/payment: pay an unpaid or part-paid order (again) with a §9 payment id (FEATURE_REPAY). */
    repay(input: {
      payment_id: number;
      booking_number: string;
      email: string;
      deposit: boolean;
      return_url: string;
      hotel_id: number;
      type_id?: number;
    }) {
      return this.call(PaymentStartSchema, "POST", "{master}/payment", { body: input });
    }
  };
}
