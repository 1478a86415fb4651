/**
 * The checkout action's price checks: "Check the price" answered, and the check of exactly what
 * the form carries before the order is placed, with the promotion or points dropped that the back
 * end refused (spec §8).
 */
import { MEMBER_PROMOTION_CODE } from "~/domain/pricing";
import type { PriceOutcome } from "~/features/checkout/price-check.server";
import { pointsError, pointsOf, promotionOf } from "./checkout-form";
import { reply, type CheckoutAnswer } from "./checkout-reply.server";
import type { CheckoutSubmission } from "./submission.server";
import type { ValidOrder } from "./validate-order.server";

/**
 * Spec §8: a failed price check clears the promotion and shows the server's message. What was
 * valid on its own is kept (issue 25 item 17): the points when only the coupon or the
 * members-only discount was refused, the promotion when only the points were.
 */
async function dropPromotion({ values, check }: CheckoutSubmission, message: string, placing: boolean): Promise<CheckoutAnswer> {
  const promotion = promotionOf(values);
  const points = pointsOf(values) ?? 0;
  let kept: { promotion: boolean; points: boolean } = { promotion: false, points: false };
  let cleared: PriceOutcome | null = null;
  if (promotion !== undefined && points > 0) {
    const pointsOnly = await check(undefined, points);
    if (!pointsOnly.error) [kept, cleared] = [{ promotion: false, points: true }, pointsOnly];
    else {
      const promotionOnly = await check(promotion, 0);
      if (!promotionOnly.error) [kept, cleared] = [{ promotion: true, points: false }, promotionOnly];
    }
  }
  cleared ??= await check();
  const droppedPromotion = promotion !== undefined && !kept.promotion;
  const droppedPoints = points > 0 && !kept.points;
  const dropped =
    droppedPromotion && droppedPoints
      ? "checkout.error.promotion_dropped"
      : droppedPoints
        ? "checkout.error.points_dropped"
        : promotion === MEMBER_PROMOTION_CODE
          ? "checkout.error.member_discount_dropped"
          : "checkout.error.coupon_dropped";
  const formError = placing ? dropped : null;
  // With JavaScript, React keeps what an uncontrolled field holds across re-renders: a new key for
  // each clearing makes the promotion fields start again from their values, the kept ones only.
  const keptValues = {
    ...values,
    ...(kept.promotion ? {} : { coupon_code: "", member_promotion: "" }),
    ...(kept.points ? {} : { points: "" }),
  };
  return reply(
    { values: keptValues, fieldErrors: {}, formError, price: cleared.price, priceError: message, promotionReset: crypto.randomUUID() },
    400,
  );
}

/** "Check the price" (intent "price"): the price of what the form holds, or why it has none. */
export async function answerPriceCheck(submission: CheckoutSubmission): Promise<CheckoutAnswer> {
  const { values, check, addonErrors, addonMessage, paymentChoices, paymentRefusal } = submission;
  if (paymentRefusal) {
    const current = await check(promotionOf(values), pointsOf(values) ?? 0);
    return reply(
      {
        values: { ...values, payment: paymentChoices.defaultPayment ?? "" },
        fieldErrors: { payment: paymentRefusal },
        formError: null,
        price: current.price,
        priceError: current.error,
        paymentChoices,
        paymentReset: crypto.randomUUID(),
      },
      400,
    );
  }
  if (Object.keys(addonErrors).length > 0)
    return reply({ values, fieldErrors: addonErrors, formError: addonMessage, price: null, priceError: null }, 400);
  const points = pointsOf(values);
  const invalidPoints = pointsError(points, submission.profile);
  if (invalidPoints || points === null) {
    const current = await check(promotionOf(values));
    return reply(
      {
        values,
        fieldErrors: { points: invalidPoints ?? "form.error.points" },
        formError: null,
        price: current.price,
        priceError: current.error,
      },
      400,
    );
  }
  const outcome = await check(promotionOf(values), points);
  if (outcome.error) return dropPromotion(submission, outcome.error, false);
  return reply({ values, fieldErrors: {}, formError: null, price: outcome.price, priceError: null });
}

/**
 * The order is priced as "Check the price" would price it, for exactly what the form carries. A
 * coupon typed but never applied that fails is cleared with the server's message (spec §8). And
 * the order is placed only at the amount the page showed as due now (decision 065): a pay option
 * changed since the last price check (or a price changed meanwhile) shows the new amount first.
 * Null: the order may be placed.
 */
export async function refusedBeforeBooking(submission: CheckoutSubmission, order: ValidOrder): Promise<CheckoutAnswer | null> {
  const { values, check } = submission;
  const { input, promotion, pointsUsed } = order;
  const current = await check(promotion, pointsUsed);
  if (current.error && (promotion !== undefined || pointsUsed > 0)) return dropPromotion(submission, current.error, true);
  if (!current.error && current.price && String(current.price.pay_amount) !== input.due_now) {
    return reply({ values, fieldErrors: {}, formError: "checkout.error.due_now_changed", price: current.price, priceError: null }, 409);
  }
  return null;
}
