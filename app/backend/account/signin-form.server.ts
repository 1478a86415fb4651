/** The sign-in form's POSTs (decisions 035, 070, 132): the password, the emailed link asked for, and the link followed. */
import type { BackendContext } from "~/backend/route";
import { hotelNameIn } from "~/backend/hotels/hotels.server";
import { errorPage, signInPage, accountText } from "./pages.server";
import { verifyPassword } from "./passwords";
import {
  callerKey,
  callerNetwork,
  clearSignInFailures,
  newChallenge,
  recordSignInFailure,
  signInRisk,
  captchaText,
} from "~/backend/captcha/captcha.server";
import type { ChallengeState } from "~/backend/captcha/fieldset";
import { startSession } from "./tokens.server";
import { invalidLinkPage, requestSignInLink, signInLinkSentPage, spendSignInLink } from "./signin-link.server";
import { readForm } from "~/platform/forms.server";
import { formChallenge, formIsOurs, formValues, openAccountForm, sessionCookie, withCookie } from "./account-forms.server";
import { redirectWithCode } from "./authorize.server";

/** Keeps a wrong email as slow as a wrong password: a hash of a password nobody has. */
const DUMMY_HASH = "100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

export async function signIn(ctx: BackendContext): Promise<Response> {
  const opened = await openAccountForm(ctx);
  if (!opened.ok) return opened.response;
  const { form, client, params, csrf } = opened;
  const values = formValues(form, ["email"]);
  const again = (message: string | undefined, status: number, captcha?: ChallengeState) =>
    withCookie(signInPage(ctx.lang, client.hotel, params, csrf.token, { values, message, captcha }, status), csrf.setCookie);
  if (!formIsOurs(ctx, form)) return again(accountText(ctx.lang, "error.form_expired"), 403);
  const email = (values.email ?? "").toLowerCase();
  const password = String(form.get("password") ?? "");
  const caller = callerKey(ctx);
  const network = callerNetwork(ctx);
  const hotel = client.hotel;
  // Failed sign-ins are counted per account and caller: past a few, this caller (only) meets a
  // captcha before the password is even looked at (decision 070); past a ceiling a solved captcha
  // does not lift, this caller's password sign-ins to the account are refused, and the emailed
  // link is the way in (decision 132). Nobody is locked out.
  const risk = await signInRisk(ctx.db, hotel, email, caller, network, ctx.now);
  if (risk === "refuse") return again(accountText(ctx.lang, "error.signin_paused"), 429);
  if (form.get("captcha_new") || risk === "captcha") {
    const checked = await formChallenge(ctx, form, hotel.id, "sign_in");
    if (checked === "refused") return again(accountText(ctx.lang, "error.too_many"), 429);
    if (checked !== "passed") {
      const reason = checked.error ? undefined : captchaText(ctx.lang, "needed.signin");
      return again(undefined, form.get("captcha_new") ? 200 : 400, { ...checked, reason });
    }
  }
  const member = await ctx.db
    .prepare("SELECT id, password_hash FROM members WHERE hotel_id = ? AND email = ?")
    .bind(hotel.id, email)
    .first<{ id: number; password_hash: string }>();
  const passwordOk = await verifyPassword(password.slice(0, 200), member?.password_hash || DUMMY_HASH);
  if (!member || !member.password_hash || !passwordOk) {
    await recordSignInFailure(ctx.db, hotel.id, email, caller, network, ctx.now);
    const after = await signInRisk(ctx.db, hotel, email, caller, network, ctx.now);
    if (after === "refuse") return again(accountText(ctx.lang, "error.signin_paused"), 429);
    const captcha =
      after === "captcha"
        ? { challenge: await newChallenge(ctx, hotel.id, "sign_in"), reason: captchaText(ctx.lang, "needed.signin") }
        : undefined;
    return again(accountText(ctx.lang, "error.credentials"), 401, captcha);
  }
  await clearSignInFailures(ctx.db, hotel.id, email, caller);
  const { session, sessionHash } = await startSession(ctx.db, member.id, ctx.now);
  return withCookie(await redirectWithCode(ctx, params, member.id, sessionHash), sessionCookie(session));
}

/** "Email me a sign-in link", a second button of the sign-in form: the same answer for any address. */
export async function askForSignInLink(ctx: BackendContext): Promise<Response> {
  const opened = await openAccountForm(ctx);
  if (!opened.ok) return opened.response;
  const { form, client, params, csrf } = opened;
  const values = formValues(form, ["email"]);
  const again = (message: string, status: number) =>
    withCookie(signInPage(ctx.lang, client.hotel, params, csrf.token, { values, message }, status), csrf.setCookie);
  if (!formIsOurs(ctx, form)) return again(accountText(ctx.lang, "error.form_expired"), 403);
  const result = await requestSignInLink(ctx, client.hotel, values.email ?? "");
  if (result === "invalid_email") return again(accountText(ctx.lang, "error.email"), 400);
  if (result === "refused") return again(accountText(ctx.lang, "error.too_many"), 429);
  return withCookie(signInLinkSentPage(ctx, hotelNameIn(client.hotel, ctx.lang), values.email ?? ""), csrf.setCookie);
}

/** The emailed link's button: spends the link, starts the member's session and goes on to the site's sign-in. */
export async function followSignInLink(ctx: BackendContext): Promise<Response> {
  const form = (await readForm(ctx.request)) ?? new FormData();
  if (!formIsOurs(ctx, form)) return errorPage(ctx.lang, "error.form_expired", 403);
  const spent = await spendSignInLink(ctx, String(form.get("token") ?? "").slice(0, 100));
  if (!spent) return invalidLinkPage(ctx);
  // Whoever reads the account's mail starts afresh from here, as with a right password.
  await clearSignInFailures(ctx.db, spent.hotelId, spent.email, callerKey(ctx));
  const { session } = await startSession(ctx.db, spent.memberId, ctx.now);
  return withCookie(
    new Response(null, { status: 303, headers: { location: spent.next, "cache-control": "no-store" } }),
    sessionCookie(session),
  );
}
