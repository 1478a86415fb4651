/**
 * The staff API's booking actions (decision 151): `POST /api/desk/bookings/:orderDoc/actions/:action`
 * with the staff member's session in the x-desk-session header and a JSON body of `domain`, the
 * form's one-time `form_key` and the action's fields. Owners and the front desk only (MAY_ACT). An
 * order of another hotel is "not found", never its data. A form applied before answers
 * `already_done` and changes nothing; a refusal answers 4xx in the request's language and writes
 * nothing, its audit entry included.
 */
import * as v from "valibot";
import { isIsoDate, todayIn } from "~/domain/dates";
import { ApiError, ok, parseInput, readJsonBody } from "~/backend/http.server";
import { requireHotel } from "~/backend/hotels/hotels.server";
import { DocParam, Note } from "~/backend/orders/schema";
import { findOrder } from "~/backend/orders/store.server";
import { WholeNumber } from "~/backend/pricing/stay.server";
import { MAY_ACT, formKeyUsed, requireStaff } from "~/backend/desk/staff.server";
import { recordPayment } from "~/backend/desk/payments-desk.server";
import { refund } from "~/backend/desk/refunds-desk.server";
import { invoiceAction } from "~/backend/desk/einvoice-desk.server";
import {
  addNote,
  cancelForGuest,
  extendDeadline,
  moveStay,
  resendConfirmation,
  type Acting,
  type DeskOrder,
} from "~/backend/desk/stay-desk.server";
import { DESK_ACTIONS, type DeskAction } from "~/contract/desk-actions-schemas";
import type { BackendContext, BackendRoute } from "~/backend/route";

/** The largest amount a desk form takes (TWD): far above any stay, below anything that overflows. */
const MAX_AMOUNT = 100_000_000;
const Amount = WholeNumber(1, MAX_AMOUNT);
const Day = v.pipe(
  v.string(),
  v.check((value) => isIsoDate(value)),
);
/** One line of text without control characters (a reference, a slip number). */
const Reference = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max), v.regex(/^[^\p{Cc}\p{Cf}]*$/u));

/** An invoice number: 2 uppercase letters and 8 digits. */
const InvoiceNumber = v.pipe(v.string(), v.trim(), v.regex(/^[A-Z]{2}\d{8}$/));

const Base = v.looseObject({
  domain: v.string(),
  form_key: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/)),
});

const FIELDS = {
  record_transfer: v.object({ amount: Amount, transfer_date: Day, account_last5: v.pipe(v.string(), v.regex(/^\d{5}$/)) }),
  record_at_hotel: v.object({ amount: Amount, method: v.picklist(["cash", "card_terminal"]), reference: v.optional(Reference(40), "") }),
  extend_deadline: v.object({ deadline_day: Day }),
  no_show: v.object({ reason: Note(500) }),
  cancel: v.object({ reason: v.pipe(Note(500), v.minLength(1)), waive_fee: v.optional(v.boolean(), false) }),
  refund: v.variant("method", [
    v.object({ method: v.literal("gateway"), amount: Amount, reference: v.optional(Reference(80), "") }),
    v.object({ method: v.literal("manual"), amount: Amount, reference: v.pipe(Reference(80), v.minLength(1)) }),
  ]),
  note: v.object({ note: v.pipe(Note(1000), v.minLength(1)) }),
  invoice_void: v.object({ number: InvoiceNumber }),
  invoice_allowance: v.object({ number: InvoiceNumber }),
  invoice_handled: v.object({
    resolution: v.picklist(["allowance_found", "allowance_absent", "outside"]),
    allowance_number: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9]{0,20}$/)), ""),
    note: v.pipe(Note(500), v.minLength(1)),
  }),
} satisfies Partial<Record<DeskAction, v.GenericSchema>>;

/** The actions that take fields (check-in, check-out, the resend and "issue now" take none). */
type WithFields = keyof typeof FIELDS;
type Fields<A extends WithFields> = v.InferOutput<(typeof FIELDS)[A]>;

async function apply(acting: Acting, action: DeskAction, input: unknown): Promise<Record<string, unknown>> {
  const { ctx, hotel, staff, order, formKey } = acting;
  const fields = <A extends WithFields>(a: A): Fields<A> => parseInput(FIELDS[a], input) as Fields<A>;
  switch (action) {
    case "record_transfer": {
      const body = fields("record_transfer");
      if (body.transfer_date > todayIn(hotel.time_zone, ctx.now)) throw new ApiError(400, "desk_date_in_future", {}, "transfer_date");
      return recordPayment(ctx, hotel, staff, order, {
        action,
        amount: body.amount,
        paidWith: "transfer",
        reference: `${body.transfer_date} *${body.account_last5}`,
        formKey,
      });
    }
    case "record_at_hotel": {
      const body = fields("record_at_hotel");
      return recordPayment(ctx, hotel, staff, order, {
        action,
        amount: body.amount,
        paidWith: body.method,
        reference: body.reference,
        formKey,
      });
    }
    case "extend_deadline":
      return { outcome: await extendDeadline(acting, fields("extend_deadline").deadline_day) };
    case "check_in":
      return { outcome: await moveStay(acting, "in_house") };
    case "check_out":
      return { outcome: await moveStay(acting, "checked_out") };
    case "no_show":
      return cancelForGuest(acting, "no_show", fields("no_show").reason, false);
    case "cancel": {
      const body = fields("cancel");
      return cancelForGuest(acting, "cancel", body.reason, body.waive_fee);
    }
    case "refund":
      return refund(acting, fields("refund"));
    case "resend_confirmation":
      return { outcome: await resendConfirmation(acting) };
    case "note":
      return { outcome: await addNote(acting, fields("note").note) };
    case "invoice_issue_now":
    case "invoice_consent_again":
    case "invoice_allowance_now":
      return invoiceAction(acting, { action });
    case "invoice_void":
    case "invoice_allowance":
      return invoiceAction(acting, { action, number: fields(action).number });
    case "invoice_handled":
      return invoiceAction(acting, { action, ...fields("invoice_handled") });
  }
}

async function act(ctx: BackendContext, params: Record<string, string>): Promise<Response> {
  const input = await readJsonBody(ctx.request);
  const body = parseInput(Base, input);
  const hotel = await requireHotel(ctx.db, body.domain);
  const staff = await requireStaff(ctx, hotel, MAY_ACT);
  const action = v.safeParse(v.picklist(DESK_ACTIONS), params.action);
  if (!action.success) throw new ApiError(404, "desk_action_unknown");
  const doc = v.safeParse(DocParam, params.id);
  const order = doc.success ? await findOrder(ctx.db, hotel.id, doc.output, ctx.now) : null;
  if (!order) throw new ApiError(404, "order_not_found");
  // A form applied before: "already done", whatever the booking is now (its batch would also fail on the key).
  if (await formKeyUsed(ctx.db, hotel.id, body.form_key))
    return ok({ outcome: "already_done", action: action.output, order_doc: order.order_doc });
  const acting: Acting = { ctx, hotel, staff, order: order as DeskOrder, formKey: body.form_key };
  const result = await apply(acting, action.output, input);
  return ok({ ...result, action: action.output, order_doc: order.order_doc });
}

export const deskActionRoutes: BackendRoute[] = [{ method: "POST", path: "/api/desk/bookings/:id/actions/:action", handler: act }];
