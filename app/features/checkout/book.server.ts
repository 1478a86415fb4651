/**
 * The checkout action's booking: the challenge the order API asked for, the order sent with its
 * idempotency key (the form's checkout key), and the page's answer when the back end refuses it.
 */
import type { PaymentMethod } from "~/domain/payments";
import { challengeOf, freshOrderChallenge, orderCaptchaStep } from "~/features/captcha/order-captcha.server";
import { offeredAddons } from "~/features/addons/offered.server";
import { railItemsOf } from "~/features/rail/rail";
import { addonLeftErrors } from "./checkout-form";
import { reply, type CheckoutAnswer } from "./checkout-reply.server";
import type { CheckoutSubmission } from "./submission.server";
import type { ValidOrder } from "./validate-order.server";

interface Advised {
  field: "mobile_barcode" | "love_code" | "company_name";
  code: string;
  /** The name the platform registers the 統一編號 to (a company name advice, decision 168). */
  registeredName?: string;
}

/** The registered name a company name advice carries (`data.registered_name`), or "". */
function registeredNameOf(data: unknown): string {
  const name = typeof data === "object" && data !== null ? (data as { registered_name?: unknown }).registered_name : undefined;
  return typeof name === "string" && name.trim() !== "" && name.length <= 100 ? name : "";
}

/** The field and code the back end's advice is about (409 invoice_*_unknown, invoice_company_name_differs), or null. */
function adviceOf(error: { code: string; data?: unknown }, order: ValidOrder): Advised | null {
  const { code } = error;
  if (code === "invoice_barcode_unknown" && order.invoice?.carrier_code)
    return { field: "mobile_barcode", code: order.invoice.carrier_code };
  if (code === "invoice_love_code_unknown" && order.invoice?.love_code) return { field: "love_code", code: order.invoice.love_code };
  const registeredName = registeredNameOf(error.data);
  if (code === "invoice_company_name_differs" && order.input.company_reg_number && registeredName)
    return { field: "company_name", code: order.input.company_reg_number, registeredName };
  return null;
}

/** "Another picture" (intent "captcha_new"): a fresh challenge, nothing else checked. */
export async function answerNewChallenge({ api, values }: CheckoutSubmission): Promise<CheckoutAnswer> {
  return reply({
    values,
    fieldErrors: {},
    formError: null,
    priceError: null,
    captcha: await freshOrderChallenge(api, values),
  });
}

export async function bookOrder(
  submission: CheckoutSubmission,
  order: ValidOrder,
): Promise<{ ok: true; redirectPath: string } | { ok: false; answer: CheckoutAnswer }> {
  const { api, values, cart, parsed: search, addons, t, check } = submission;
  const { input, occupants, promotion, pointsUsed } = order;
  // The challenge the form carries, when the order API asked for one: verified before the order.
  const captcha = await orderCaptchaStep(api, values);
  if (!captcha.ok) {
    return {
      ok: false,
      answer: reply({ values, fieldErrors: {}, formError: captcha.formError, priceError: null, captcha: captcha.captcha }, 400),
    };
  }
  const [vendor, method] = input.payment.split(":") as [string, PaymentMethod];
  const result = await api.createOrder(
    {
      booker_first_name: input.booker_first_name,
      booker_last_name: input.booker_last_name,
      booker_phone: input.booker_phone,
      booker_email: input.booker_email,
      check_in_day: cart.start,
      check_out_day: cart.end,
      pay_way: method,
      payment_vendor: Number(vendor),
      pay_option: input.pay_option,
      memo: input.memo,
      company_name: input.company_name,
      company_reg_number: input.company_reg_number,
      coupon_array: promotion === undefined ? [] : [promotion],
      point_used: pointsUsed,
      orders: cart.lines.map((line, index) => ({ ...line, ...occupants[index] })),
      ...(addons.length > 0 ? { room_attachment_detail: addons, room_attachment_exist: true } : {}),
      ...(cart.rail && cart.rail.length > 0 ? { rail_item_list: railItemsOf(cart) } : {}),
      // The party of the search, already checked against its limits (never the raw query).
      adults_count: search.search.adults,
      children_count: search.search.children,
      ...(captcha.pass ? { captcha_pass: captcha.pass } : {}),
      ...(order.invoice ? { invoice: order.invoice } : {}),
    },
    input.checkout_key,
  );
  if (result.ok) return { ok: true, redirectPath: result.redirect_path };
  // The invoice platform does not know the mobile barcode or donation code (decision 166), or has
  // the 統一編號 registered to another name (decision 168): said beside it, nothing written,
  // everything kept; placed again with the same code, it goes through.
  const advised = adviceOf(result.error, order);
  if (advised) {
    return {
      ok: false,
      answer: reply(
        {
          values: { ...values, invoice_advised: advised.code },
          fieldErrors: { [advised.field]: `checkout.invoice.advice.${advised.field}` },
          formError: "checkout.invoice.advice.form",
          priceError: null,
          ...(advised.registeredName ? { registeredCompanyName: advised.registeredName } : {}),
        },
        409,
      ),
    };
  }
  // An extra taken by another booking since the page read what is left: the guest is told which
  // and how many are left now, on its field, with no price until the count fits.
  if (result.error.code === "addon_sold_out") {
    const now = addonLeftErrors(values, await offeredAddons(api, cart), t);
    const message = Object.values(now)[0];
    if (message) {
      return {
        ok: false,
        answer: reply({ values, fieldErrors: now, formError: message, orderDoc: result.order_doc, price: null, priceError: null }, 409),
      };
    }
  }
  // order_doc is "error-order" (spec §8): say why, keep everything the guest typed. The cart is
  // checked again so that a line the refusal is about (sold out meanwhile) is marked, and the
  // page shows the message once: at that line.
  const after = await check(promotion, pointsUsed);
  return {
    ok: false,
    answer: reply(
      {
        values,
        fieldErrors: result.error.field === "coupon_code" ? { coupon_code: "form.error.coupon" } : {},
        formError: result.error.message || "checkout.error.failed",
        orderDoc: result.order_doc,
        price: after.price,
        priceError: null,
        captcha: challengeOf(result.error),
      },
      result.error.status === 409 ? 409 : 400,
    ),
  };
}
