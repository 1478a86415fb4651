/**
 * The checkout action's check of an order before anything is asked of the back end but a price:
 * every field, the extras, the points against the member's balance and the way of paying. A form
 * that fails keeps what was typed and the price of what is chosen.
 */
import type * as v from "valibot";
import { invoiceFromForm, type OrderInvoiceInput } from "~/domain/einvoice/guest";
import type { HotelInfo } from "~/contract/schemas";
import { pointsError, pointsOf, promotionOf, validateCheckout, type CheckoutForm, type Occupant } from "./checkout-form";
import { reply, type CheckoutAnswer } from "./checkout-reply.server";
import type { CheckoutSubmission } from "./submission.server";

/** The order as the form asks for it, every field valid. */
export interface ValidOrder {
  input: v.InferOutput<typeof CheckoutForm>;
  occupants: v.InferOutput<typeof Occupant>[];
  /** The coupon or the members-only code; none when the form names neither. */
  promotion: string | undefined;
  pointsUsed: number;
  /** The e-invoice choice for the payload, where Portico issues the hotel's invoices (decision 159). */
  invoice: OrderInvoiceInput | null;
}

/** Whether the checkout asks how to receive the e-invoice: only where Portico issues it. */
export const asksInvoice = (hotel: Pick<HotelInfo, "invoice_issuer">) =>
  hotel.invoice_issuer === "portico_at_payment" || hotel.invoice_issuer === "portico_at_checkout";

export async function validateOrder(
  submission: CheckoutSubmission,
): Promise<{ ok: true; order: ValidOrder } | { ok: false; answer: CheckoutAnswer }> {
  const { values, cart, check, addonErrors, addonMessage, paymentChoices, paymentRefusal } = submission;
  // The invoice's fields are checked as the back end checks them, each error beside its field; the
  // company's 統一編號 and name reach the order's own fields normalised (half-width, no hyphen), or
  // empty for another kind of invoice. A form without the section (a page from before) sends none.
  const invoice = asksInvoice(submission.hotel) && values.invoice_kind !== undefined ? invoiceFromForm(values) : null;
  const company = invoice ? (invoice.ok ? invoice.company : { company_reg_number: "", company_name: "" }) : {};
  const checked = validateCheckout({ ...values, ...company }, cart.lines.length);
  if (invoice && !invoice.ok) {
    for (const [field, message] of Object.entries(invoice.errors)) checked.fieldErrors[field] ??= message;
  }
  const invoiceRefused = invoice !== null && !invoice.ok;
  for (const [field, message] of Object.entries(addonErrors)) checked.fieldErrors[field] ??= message;
  const overBalance = pointsError(pointsOf(values), submission.profile);
  if (overBalance && !checked.fieldErrors.points) checked.fieldErrors.points = overBalance;
  if (paymentRefusal) checked.fieldErrors.payment = paymentRefusal;
  const addonRefused = Object.keys(addonErrors).length > 0;
  if (!checked.ok || overBalance || addonRefused || paymentRefusal || invoiceRefused) {
    // The page keeps showing the price of what is chosen (the pay option, the promotion), not the
    // first visit's: the guest fixes the fields and places the booking at the amount in view. None
    // while an extra cannot be priced as asked.
    const current = addonRefused ? null : await check(promotionOf(values), overBalance ? 0 : (pointsOf(values) ?? 0));
    return {
      ok: false,
      answer: reply(
        {
          values: paymentRefusal ? { ...values, payment: paymentChoices.defaultPayment ?? "" } : values,
          fieldErrors: checked.fieldErrors,
          formError: addonRefused ? addonMessage : "form.error.fix_fields",
          price: current?.price ?? null,
          priceError: null,
          ...(paymentRefusal ? { paymentChoices, paymentReset: crypto.randomUUID() } : {}),
        },
        400,
      ),
    };
  }
  const { input, occupants } = checked;
  return {
    ok: true,
    order: {
      input,
      occupants,
      promotion: promotionOf(input),
      pointsUsed: Number(input.points || 0),
      invoice: invoice?.ok ? invoice.invoice : null,
    },
  };
}
