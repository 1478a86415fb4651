/**
 * The desk's calendar (decision 156): a month of rooms to sell, prices and stay rules, and the bulk
 * change's preview and apply, each with the staff member's session in its header.
 */
import { DESK_SESSION_HEADER } from "../desk";
import { DeskBulkApplySchema, DeskBulkPreviewSchema, DeskCalendarSchema, type DeskBulkChangeInput } from "../desk-calendar-schemas";
import type { ClientClass } from "./core";

export function withDeskCalendarCalls<TBase extends ClientClass>(Base: TBase) {
  return class DeskCalendarCalls extends Base {
    /** GET /api/desk/calendar: each night of `month` (YYYY-MM) per room class and plan. */
    deskCalendar(session: string, month: string) {
      return this.withMemberToken(null).call(DeskCalendarSchema, "GET", "/api/desk/calendar", {
        query: { ...this.hotel, month },
        headers: { [DESK_SESSION_HEADER]: session },
      });
    }

    /** POST /api/desk/calendar/preview: exactly which nights the change would change, from what to what, and its digest. */
    deskCalendarPreview(session: string, input: DeskBulkChangeInput) {
      return this.call(DeskBulkPreviewSchema, "POST", "/api/desk/calendar/preview", {
        body: { ...input, ...this.hotel },
        headers: { [DESK_SESSION_HEADER]: session },
      });
    }

    /** POST /api/desk/calendar/apply: the previewed change, refused unless the nights are still as previewed (`digest`); once per `formKey`. */
    deskCalendarApply(session: string, input: DeskBulkChangeInput, digest: string, formKey: string) {
      return this.call(DeskBulkApplySchema, "POST", "/api/desk/calendar/apply", {
        body: { ...input, ...this.hotel, digest, form_key: formKey },
        headers: { [DESK_SESSION_HEADER]: session },
      });
    }
  };
}
