/** What the checkout action answers when the guest stays on the page, and the ways of paying it offers. */
import { data } from "@remix-run/cloudflare";
import { defaultPaymentOption, paidAtTheHotel, paymentOptions, type PaymentOption } from "~/domain/payments";
import type { Cart } from "~/domain/cart";
import type { HotelInfo, PriceDetail } from "~/contract/schemas";
import { type CaptchaView } from "~/features/captcha/order-captcha.server";
import { type Values } from "./checkout-form";

/** What the action answers when the guest stays on the page. */
export interface CheckoutReply {
  values: Values;
  fieldErrors: Record<string, string>;
  /** A translation key, or the back end's own message. */
  formError: string | null;
  /**
   * The price of what the form holds; null when there is none to show (the check refused it, or an
   * extra is asked for beyond what is left: a price without it would not be what is charged).
   * Absent when no price check was made: the page keeps the one it has.
   */
  price?: PriceDetail | null;
  priceError: string | null;
  /** Changes whenever the promotion fields were cleared, so the page rebuilds them empty. */
  promotionReset?: string;
  orderDoc?: string;
  /** The name the invoice platform registers the 統一編號 to, when it is not the one typed (decision 168). */
  registeredCompanyName?: string;
  /** A challenge to answer before the order is sent again (decision 072). */
  captcha?: CaptchaView | null;
  /**
   * The ways of paying as the cart now allows them, when a way the form named is not: with
   * JavaScript a refused action does not reload the page's data, so the page shows these instead.
   */
  paymentChoices?: PaymentChoices;
  /** Changes whenever the way of paying was replaced, so the page rebuilds its choices. */
  paymentReset?: string;
}

export const reply = (body: CheckoutReply, status = 200) => data(body, { status });

/** An answer of the checkout action that keeps the guest on the page. */
export type CheckoutAnswer = ReturnType<typeof reply>;

export const hasTickets = (cart: Cart) => (cart.rail?.length ?? 0) > 0;

export interface PaymentChoices {
  payments: PaymentOption[];
  /** A translation key said under the choices. */
  paymentsNote: string | null;
  defaultPayment: string | null;
}

/**
 * The ways of paying the checkout offers for this cart, the note under them and the one chosen at
 * first. Rail tickets are paid when booking: with tickets, the ways of paying at the hotel are not
 * offered (decision 123), and the first way allowed (a card first, spec §4) is chosen.
 */
export function paymentChoicesFor(hotel: HotelInfo, cart: Cart): PaymentChoices {
  const withTickets = hasTickets(cart);
  const all = paymentOptions(hotel.payment_list);
  const payments = all.filter((option) => !withTickets || !paidAtTheHotel(option.method));
  return {
    payments,
    paymentsNote: withTickets && all.some((option) => paidAtTheHotel(option.method)) ? "checkout.rail.paid_now" : null,
    defaultPayment: defaultPaymentOption(payments),
  };
}
