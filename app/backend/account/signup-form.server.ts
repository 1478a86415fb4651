/** The sign-up form's POST (decisions 035, 071): the fields, the captcha of a burst, and the emailed link to finish. */
import * as v from "valibot";
import type { BackendContext } from "~/backend/route";
import { hotelNameIn } from "~/backend/hotels/hotels.server";
import { signUpPage, accountText } from "./pages.server";
import { newChallenge } from "~/backend/captcha/captcha.server";
import type { ChallengeState } from "~/backend/captcha/fieldset";
import { requestSignUp, SignUpSchema, signUpCheck, signUpReason, signUpSentPage } from "./signup.server";
import { formChallenge, formIsOurs, formValues, openAccountForm, withCookie } from "./account-forms.server";

export async function signUp(ctx: BackendContext): Promise<Response> {
  const opened = await openAccountForm(ctx);
  if (!opened.ok) return opened.response;
  const { form, client, params, csrf } = opened;
  const values = { ...formValues(form, ["last_name", "first_name", "email", "phone"]), password: String(form.get("password") ?? "") };
  const { password: _password, ...shown } = values;
  const hotelName = hotelNameIn(client.hotel, ctx.lang);
  const again = (state: { errors?: Record<string, string>; message?: string; captcha?: ChallengeState }, status: number) =>
    withCookie(signUpPage(ctx.lang, client.hotel, params, csrf.token, { values: shown, ...state }, status), csrf.setCookie);
  if (!formIsOurs(ctx, form)) return again({ message: accountText(ctx.lang, "error.form_expired") }, 403);
  // A burst of sign-ups from one caller: a captcha, then a refusal (decision 071).
  const risk = await signUpCheck(ctx, client.hotel);
  if (risk === "refuse") return again({ message: accountText(ctx.lang, "error.too_many_signups") }, 429);
  const parsed = v.safeParse(SignUpSchema, values);
  const errors: Record<string, string> = {};
  for (const issue of parsed.issues ?? []) {
    const name = v.getDotPath(issue);
    if (name && !errors[name]) errors[name] = accountText(ctx.lang, issue.message as Parameters<typeof accountText>[1]);
  }
  if (risk === "captcha" || form.get("captcha_new")) {
    // The fields first: a challenge is spent only on a form that can then be sent.
    const checked = parsed.success
      ? await formChallenge(ctx, form, client.hotel.id, "sign_up")
      : { challenge: await newChallenge(ctx, client.hotel.id, "sign_up") };
    if (checked === "refused") return again({ message: accountText(ctx.lang, "error.too_many") }, 429);
    if (checked !== "passed") {
      const status = form.get("captcha_new") && parsed.success ? 200 : 400;
      return again({ errors, captcha: "error" in checked && checked.error ? checked : { ...checked, ...signUpReason(ctx) } }, status);
    }
  }
  if (!parsed.success) return again({ errors }, 400);
  // The same answer whether the address is new or already a member: nobody learns who is one.
  await requestSignUp(ctx, client.hotel, parsed.output);
  return withCookie(signUpSentPage(ctx, hotelName, parsed.output.email), csrf.setCookie);
}
