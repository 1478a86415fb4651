/**
 * Signing in at the desk (decision 149): email and password give a session at stage 'password';
 * the authenticator's code (or a one-time recovery code) gives a new session at stage 'full'. A
 * staff member without a second factor yet enrols in the half session: the secret is offered (as
 * text, URI and QR code), and its first right code makes it theirs, with ten recovery codes shown
 * once.
 *
 * Throttled as member sign-in is (login_failures, the captcha of decision 070), with one change:
 * past the ceilings that refuse a member's password sign-ins, the desk asks for the captcha again
 * instead, so nobody (the owner above all) is locked out of the desk; the second factor is what an
 * attacker who solves captchas still lacks. Wrong codes count as failed sign-ins too, and a half
 * session ends after CODE_FAILURES_PER_SESSION of them, so guessing a code costs a password each
 * five guesses.
 */
import * as v from "valibot";
import { sha256Hex } from "~/lib/crypto";
import { ApiError, fail, ok, parseInput, readJsonBody } from "~/backend/http.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { hotelNameIn, requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { verifyPassword } from "~/backend/account/passwords";
import {
  answerChallenge,
  callerKey,
  callerNetwork,
  clearSignInFailures,
  newChallenge,
  recordSignInFailure,
  signInRisk,
} from "~/backend/captcha/captcha.server";
import { matchTotp, newTotpSecret, otpauthUri } from "./totp";
import { newRecoveryCodes, normalizedRecoveryCode, recoveryCodeHash } from "./recovery-codes";
import { CODE_FAILURES_PER_SESSION, endSession, newSession, requireHalfSession, type HalfSession } from "./staff-sessions.server";
import { qrCodeSvg } from "./qr-code.server";
import { MAY_READ, requireStaff } from "./staff.server";

/** Keeps a wrong email as slow as a wrong password: a hash of a password nobody has. */
const DUMMY_HASH = "100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

const Domain = v.pipe(v.string(), v.maxLength(253));
const SignInBody = v.object({
  domain: Domain,
  email: v.pipe(v.string(), v.maxLength(254)),
  password: v.pipe(v.string(), v.maxLength(200)),
  captcha_token: v.optional(v.pipe(v.string(), v.maxLength(400)), ""),
  captcha_answer: v.optional(v.pipe(v.string(), v.maxLength(64)), ""),
});
const CodeBody = v.object({ domain: Domain, code: v.pipe(v.string(), v.maxLength(40)) });
const DomainBody = v.object({ domain: Domain });

/** A refusal that carries a new challenge to show with the form. */
async function withChallenge(ctx: BackendContext, hotel: HotelRow, error: ApiError): Promise<Response> {
  return fail(error, ctx.lang, { challenge: await newChallenge(ctx, hotel.id, "desk_sign_in") });
}

async function signIn(ctx: BackendContext): Promise<Response> {
  const body = parseInput(SignInBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, body.domain);
  const email = body.email.trim().toLowerCase();
  const caller = callerKey(ctx);
  const network = callerNetwork(ctx);
  // "refuse" (a member's ceiling) asks for the captcha here: the desk never locks its staff out.
  const risk = await signInRisk(ctx.db, hotel, email, caller, network, ctx.now);
  if (risk !== "none") {
    if (!body.captcha_token) return withChallenge(ctx, hotel, new ApiError(400, "desk_captcha_required", {}, "captcha_answer"));
    const answered = await answerChallenge(ctx, hotel.id, "desk_sign_in", body.captcha_token, body.captcha_answer);
    if (answered === "refused") throw new ApiError(429, "too_many_attempts");
    if (answered !== "passed") {
      const code = answered === "wrong" ? "captcha_wrong" : "captcha_expired";
      return withChallenge(ctx, hotel, new ApiError(400, code, {}, "captcha_answer"));
    }
  }
  const staff = await ctx.db
    .prepare("SELECT id, password_hash, totp_secret FROM staff WHERE hotel_id = ? AND email = ? AND status = 'active'")
    .bind(hotel.id, email)
    .first<{ id: number; password_hash: string; totp_secret: string }>();
  const passwordOk = await verifyPassword(body.password, staff?.password_hash || DUMMY_HASH);
  if (!staff || !staff.password_hash || !passwordOk) {
    await recordSignInFailure(ctx.db, hotel.id, email, caller, network, ctx.now);
    const after = await signInRisk(ctx.db, hotel, email, caller, network, ctx.now);
    const error = new ApiError(401, "desk_credentials", {}, "password");
    return after === "none" ? fail(error, ctx.lang) : withChallenge(ctx, hotel, error);
  }
  await clearSignInFailures(ctx.db, hotel.id, email, caller);
  const session = await newSession(ctx, hotel.id, staff.id, "password");
  await session.statement.run();
  return ok({ token: session.token, stage: "password", enrol: staff.totp_secret === "" });
}

/** A wrong code: counted against the half session (ended past the limit) and as a failed sign-in. */
async function wrongCode(ctx: BackendContext, hotel: HotelRow, half: HalfSession): Promise<never> {
  const ended = half.codeFailures + 1 >= CODE_FAILURES_PER_SESSION;
  await ctx.db.batch([
    ended
      ? ctx.db.prepare("DELETE FROM staff_sessions WHERE token_hash = ?").bind(half.tokenHash)
      : ctx.db.prepare("UPDATE staff_sessions SET code_failures = code_failures + 1 WHERE token_hash = ?").bind(half.tokenHash),
  ]);
  await recordSignInFailure(ctx.db, hotel.id, half.staff.email, callerKey(ctx), callerNetwork(ctx), ctx.now);
  if (ended) throw new ApiError(401, "desk_code_too_many");
  throw new ApiError(400, "desk_code_wrong", { left: CODE_FAILURES_PER_SESSION - half.codeFailures - 1 }, "code");
}

/**
 * The second step: a code of the authenticator (its step must be later than the last one
 * accepted, written in the same batch that swaps the half session for a full one) or a recovery
 * code (marked used in that batch).
 */
async function secondFactor(ctx: BackendContext): Promise<Response> {
  const body = parseInput(CodeBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, body.domain);
  const half = await requireHalfSession(ctx, hotel);
  if (!half.staff.totpSecret) throw new ApiError(409, "desk_enrol_first");
  const full = await newSession(ctx, hotel.id, half.staff.id, "full");
  const swap = ctx.db.prepare("DELETE FROM staff_sessions WHERE token_hash = ? AND stage = 'password'").bind(half.tokenHash);
  const step = await matchTotp(half.staff.totpSecret, body.code, ctx.now, half.staff.totpLastStep);
  let spent: D1PreparedStatement;
  if (step !== null) {
    spent = ctx.db
      .prepare("UPDATE staff SET totp_last_step = ? WHERE id = ? AND totp_last_step < ? RETURNING id")
      .bind(step, half.staff.id, step);
  } else {
    const recovery = normalizedRecoveryCode(body.code);
    if (!recovery) return wrongCode(ctx, hotel, half);
    spent = ctx.db
      .prepare("UPDATE staff_recovery_codes SET used_at = ? WHERE staff_id = ? AND code_hash = ? AND used_at IS NULL RETURNING staff_id")
      .bind(ctx.now.toISOString(), half.staff.id, await recoveryCodeHash(recovery));
  }
  // The code is spent first: a code raced twice (or a recovery code used twice) spends once, and
  // only the request that spent it gets a session.
  const [spending] = await ctx.db.batch([spent]);
  if ((spending?.results.length ?? 0) === 0) return wrongCode(ctx, hotel, half);
  const [deleted] = await ctx.db.batch([swap, full.statement]);
  if ((deleted?.meta.changes ?? 0) === 0) {
    // The half session was used meanwhile: the new one goes too.
    await endSessionByToken(ctx, full.token);
    throw new ApiError(401, "desk_signin_required");
  }
  await clearSignInFailures(ctx.db, hotel.id, half.staff.email, callerKey(ctx));
  return ok({ token: full.token, stage: "full", recovery_code_used: step === null });
}

async function endSessionByToken(ctx: BackendContext, token: string): Promise<void> {
  await ctx.db
    .prepare("DELETE FROM staff_sessions WHERE token_hash = ?")
    .bind(await sha256Hex(token))
    .run();
}

/** Enrolment's offer: the secret kept in the half session until confirmed, as text, URI and QR code. */
async function enrolment(ctx: BackendContext): Promise<Response> {
  const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
  const half = await requireHalfSession(ctx, hotel);
  if (half.staff.totpSecret) throw new ApiError(409, "desk_already_enrolled");
  let secret = half.pendingSecret;
  if (!secret) {
    secret = newTotpSecret();
    await ctx.db.prepare("UPDATE staff_sessions SET pending_totp_secret = ? WHERE token_hash = ?").bind(secret, half.tokenHash).run();
  }
  const issuer = `${hotelNameIn(hotel, ctx.lang)} Desk`;
  const uri = otpauthUri(issuer, half.staff.email, secret);
  return ok({ secret, uri, qr_svg: await qrCodeSvg(uri), issuer, account: half.staff.email });
}

/**
 * Enrolment confirmed by the first right code: the secret becomes the staff member's (only if
 * they still have none), ten recovery codes replace any older ones, and the half session becomes a
 * new full one, all in one batch.
 */
async function confirmEnrolment(ctx: BackendContext): Promise<Response> {
  const body = parseInput(CodeBody, await readJsonBody(ctx.request));
  const hotel = await requireHotel(ctx.db, body.domain);
  const half = await requireHalfSession(ctx, hotel);
  if (half.staff.totpSecret) throw new ApiError(409, "desk_already_enrolled");
  if (!half.pendingSecret) throw new ApiError(409, "desk_enrol_first");
  const step = await matchTotp(half.pendingSecret, body.code, ctx.now, 0);
  if (step === null) return wrongCode(ctx, hotel, half);
  const codes = newRecoveryCodes();
  const full = await newSession(ctx, hotel.id, half.staff.id, "full");
  const [claimed] = await ctx.db.batch([
    ctx.db
      .prepare("UPDATE staff SET totp_secret = ?, totp_last_step = ? WHERE id = ? AND totp_secret = '' RETURNING id")
      .bind(half.pendingSecret, step, half.staff.id),
  ]);
  if ((claimed?.results.length ?? 0) === 0) throw new ApiError(409, "desk_already_enrolled");
  await ctx.db.batch([
    ctx.db.prepare("DELETE FROM staff_recovery_codes WHERE staff_id = ?").bind(half.staff.id),
    ...(await Promise.all(
      codes.map(async (code) =>
        ctx.db
          .prepare("INSERT INTO staff_recovery_codes (staff_id, code_hash) VALUES (?, ?)")
          .bind(half.staff.id, await recoveryCodeHash(code)),
      ),
    )),
    ctx.db.prepare("DELETE FROM staff_sessions WHERE token_hash = ?").bind(half.tokenHash),
    full.statement,
  ]);
  return ok({ token: full.token, stage: "full", recovery_codes: codes });
}

export const staffSignInRoutes: BackendRoute[] = [
  // { domain, email, password, captcha_token?, captcha_answer? } → { token, stage: 'password', enrol }
  { method: "POST", path: "/api/desk/sign-in", handler: signIn },
  // x-desk-session (stage 'password'), { domain, code } → { token, stage: 'full' }: a TOTP or a recovery code.
  { method: "POST", path: "/api/desk/sign-in/code", handler: secondFactor },
  // x-desk-session (stage 'password'), ?domain → { secret, uri, qr_svg }
  { method: "GET", path: "/api/desk/enrolment", handler: enrolment },
  // x-desk-session (stage 'password'), { domain, code } → { token, stage: 'full', recovery_codes }
  { method: "POST", path: "/api/desk/enrolment", handler: confirmEnrolment },
  {
    // x-desk-session → the staff member signed in.
    method: "GET",
    path: "/api/desk/me",
    handler: async (ctx) => {
      const hotel = await requireHotel(ctx.db, ctx.url.searchParams.get("domain"));
      const staff = await requireStaff(ctx, hotel, MAY_READ);
      return ok({ id: staff.id, email: staff.email, name: staff.name, role: staff.role, lang: staff.lang });
    },
  },
  {
    // x-desk-session, { domain } → { signed_out }: the session's row is deleted, whatever its stage.
    method: "POST",
    path: "/api/desk/sign-out",
    handler: async (ctx) => {
      const body = parseInput(DomainBody, await readJsonBody(ctx.request));
      const hotel = await requireHotel(ctx.db, body.domain);
      return ok({ signed_out: await endSession(ctx, hotel) });
    },
  },
];
