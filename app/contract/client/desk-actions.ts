/** The desk's booking actions (decision 151): one call per form, with the staff member's session in its header. */
import { DESK_SESSION_HEADER } from "../desk";
import { DeskActionResultSchema, type DeskAction } from "../desk-actions-schemas";
import type { ClientClass } from "./core";

export function withDeskActionCalls<TBase extends ClientClass>(Base: TBase) {
  return class DeskActionCalls extends Base {
    /**
     * POST /api/desk/bookings/{order_doc}/actions/{action}: `fields` are the form's (amounts as
     * numbers), `formKey` the form's one-time key: sent twice, it is applied once.
     */
    deskAction(session: string, orderDoc: string, action: DeskAction, formKey: string, fields: Record<string, string | number | boolean>) {
      return this.call(
        DeskActionResultSchema,
        "POST",
        `/api/desk/bookings/${encodeURIComponent(orderDoc)}/actions/${encodeURIComponent(action)}`,
        { body: { ...fields, ...this.hotel, form_key: formKey }, headers: { [DESK_SESSION_HEADER]: session } },
      );
    }
  };
}
