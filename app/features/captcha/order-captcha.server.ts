/**
 * The captcha step of the checkout (decision 072), kept out of the checkout's own code: the order
 * API asks for a challenge (`429 captcha_required`, a challenge in its data) when the guest is past
 * a limit; the page shows it inside the same form, keeping everything typed; the form action
 * verifies the answer (`/api/captcha/verify`) before the order is sent again, with the pass.
 */
import * as v from "valibot";
import { HotelApiError, type HotelApi } from "~/contract/client";
import { CaptchaChallengeSchema, type CaptchaChallenge } from "~/contract/schemas";

/** A challenge as the checkout shows it, with the error of the last answer (the back end's message). */
export interface CaptchaView extends CaptchaChallenge {
  error: string | null;
}

/** The challenge a refusal of the back end carries (captcha_required, captcha_wrong, captcha_expired), if any. */
export function challengeOf(error: HotelApiError, message: string | null = null): CaptchaView | null {
  const parsed = v.safeParse(v.object({ challenge: CaptchaChallengeSchema }), error.data);
  return parsed.success ? { ...parsed.output.challenge, error: message } : null;
}

export type CaptchaStep = { ok: true; pass: string | undefined } | { ok: false; captcha: CaptchaView | null; formError: string };

/** A new challenge for "order" (the guest's "new challenge" button), when the limits still ask for one. */
export async function freshOrderChallenge(api: HotelApi, values: Record<string, string>): Promise<CaptchaView | null> {
  const { challenge } = await api.captchaTrigger("order", { email: values.booker_email ?? "", phone: values.booker_phone ?? "" });
  return challenge ? { ...challenge, error: null } : null;
}

/**
 * The form's answer to a challenge, if it carries one: a pass to send with the order, or the page
 * to show again with a new challenge and why. A form without a challenge needs no pass (the order
 * API says when it does).
 */
export async function orderCaptchaStep(api: HotelApi, values: Record<string, string>): Promise<CaptchaStep> {
  const token = (values.captcha_token ?? "").slice(0, 400);
  const answer = (values.captcha_answer ?? "").trim().slice(0, 64);
  if (!token) return { ok: true, pass: undefined };
  if (!answer) {
    const captcha = await freshOrderChallenge(api, values);
    return captcha
      ? { ok: false, captcha: { ...captcha, error: "checkout.captcha.required" }, formError: "checkout.captcha.needed" }
      : { ok: true, pass: undefined };
  }
  try {
    const { pass } = await api.captchaVerify("order", token, answer);
    return { ok: true, pass };
  } catch (error) {
    if (!(error instanceof HotelApiError) || error.isUnavailable) throw error;
    return { ok: false, captcha: challengeOf(error, error.message), formError: error.message };
  }
}
