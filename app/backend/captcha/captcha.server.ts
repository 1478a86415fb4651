/**
 * The captcha of spec §7 (decision 070): POST /api/captcha/trigger says, from the action and the
 * caller, whether a challenge is needed and answers one; POST /api/captcha/verify checks an answer
 * and answers a short-lived, one-time pass bound to that action and hotel. The back end's own forms
 * (sign-in, sign-up) use the same functions in process; the order API spends a pass.
 */
import * as v from "valibot";
import type { Language } from "~/i18n/languages";
import { serverText, type ServerKey, type TextParams } from "~/i18n/server-text";
import { ApiError, fail, ok, parseInput, readJsonBody } from "~/backend/http.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { abuseLimits, SIGNIN_REFUSAL_HOURS, type AbuseLimits } from "~/domain/abuse-limits";
import { callerAddressKey, callerNetworks, normalizedEmail } from "~/domain/identity";
import { captchaPicture, normalizedAnswer, pictureDataUrl, randomCode } from "./picture";
import { randomSum, sumAnswer, sumWords } from "./question";
import { CHALLENGE_SECONDS, PASS_SECONDS, challengeClaims, checkChallenge, checkPass, newNonce, signChallenge, signPass } from "./token";
import { clientAddress } from "~/lib/hosts";

export type CaptchaText = ServerKey<"captcha">;

/** A text of the captcha (locales/<lng>/captcha.json; decision 094). */
export function captchaText(lang: Language, key: CaptchaText, params: TextParams = {}): string {
  return serverText(lang, "captcha", key, params);
}

/** The actions a challenge can be asked for. */
/** The actions a guest's page may ask a challenge for through /api/captcha/trigger. */
export const CAPTCHA_ACTIONS = ["sign_in", "sign_up", "order", "cancel"] as const;
/**
 * The desk's sign-in has challenges of its own, issued only by the desk's sign-in and never by the
 * public trigger: a challenge solved for a guest's page opens no way into the desk (decision 149).
 */
export type CaptchaAction = (typeof CAPTCHA_ACTIONS)[number] | "desk_sign_in";

/** Wrong answers one caller may give per hour, whatever the action: a guesser meets a refusal. */
export const WRONG_ANSWERS_PER_HOUR = 30;

/** A challenge as the guest sees it: the picture (an `<img>` data URL), the question in words, and the token to send back. */
export interface Challenge {
  token: string;
  picture: string;
  question: string;
  expires_in: number;
}

/**
 * Who is asking, by address: the client's address (Cloudflare's `cf-connecting-ip`, IPv6 by /64).
 * This machine's own requests (local development, tests without an address) are one caller, "local".
 */
export function callerKey(ctx: Pick<BackendContext, "clientIp" | "request">): string {
  return callerAddressKey(ctx.clientIp || clientAddress(ctx.request)) || "local";
}

/** The caller's IPv6 /48 (issue 37), "" for IPv4 and this machine: the wider ceilings count by it. */
export function callerNetwork(ctx: Pick<BackendContext, "clientIp" | "request">): string {
  return callerNetworks(ctx.clientIp || clientAddress(ctx.request)).net48;
}

export function hotelLimits(hotel: Pick<HotelRow, "abuse_limits">): AbuseLimits {
  return abuseLimits(hotel.abuse_limits);
}

const nowSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

/** A new challenge for `action` at this hotel: a code drawn as a picture and a sum in words; either answer passes. */
export async function newChallenge(
  ctx: Pick<BackendContext, "signingSecret" | "now" | "lang">,
  hotelId: number,
  action: CaptchaAction,
): Promise<Challenge> {
  const code = randomCode();
  const sum = randomSum();
  const claims = { action, hotelId, expires: nowSeconds(ctx.now) + CHALLENGE_SECONDS, nonce: newNonce() };
  const token = await signChallenge(ctx.signingSecret, claims, [code, sumAnswer(sum)]);
  return {
    token,
    picture: pictureDataUrl(captchaPicture(code)),
    question: captchaText(ctx.lang, "question", sumWords(sum, ctx.lang)),
    expires_in: CHALLENGE_SECONDS,
  };
}

/** Spends a nonce: true the first time, false ever after. Expired nonces are cleared on the way. */
async function spendNonce(db: D1Database, nonce: string, expires: number, now: Date): Promise<boolean> {
  const [, inserted] = await db.batch<{ nonce: string }>([
    db.prepare("DELETE FROM captcha_spent WHERE expires_at < ?").bind(now.toISOString()),
    db
      .prepare("INSERT INTO captcha_spent (nonce, expires_at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING RETURNING nonce")
      .bind(nonce, new Date(expires * 1000).toISOString()),
  ]);
  return (inserted?.results.length ?? 0) === 1;
}

export type AnswerResult = "passed" | "wrong" | "expired" | "refused";

/**
 * Checks a guest's answer to a challenge of `action` at `hotelId`. The challenge is spent whatever
 * the answer (one guess per challenge); a wrong answer counts against the caller, and a caller past
 * `WRONG_ANSWERS_PER_HOUR` is refused. A token of another action or hotel is "expired": the guest
 * gets a new challenge either way.
 */
export async function answerChallenge(
  ctx: Pick<BackendContext, "db" | "signingSecret" | "now" | "clientIp" | "request">,
  hotelId: number,
  action: CaptchaAction,
  token: string,
  answer: string,
): Promise<AnswerResult> {
  const caller = callerKey(ctx);
  if ((await countEvents(ctx.db, "captcha_wrong", caller, 60, ctx.now)) >= WRONG_ANSWERS_PER_HOUR) return "refused";
  const claims = challengeClaims(token);
  if (!claims || claims.action !== action || claims.hotelId !== hotelId || claims.expires < nowSeconds(ctx.now)) return "expired";
  if (!(await spendNonce(ctx.db, claims.nonce, claims.expires, ctx.now))) return "expired";
  const checked = await checkChallenge(ctx.signingSecret, token, normalizedAnswer(answer));
  if (checked.ok) return "passed";
  await recordEvent(ctx.db, hotelId, "captcha_wrong", caller, ctx.now);
  return "wrong";
}

/** A pass for `action` at `hotelId`, valid for PASS_SECONDS and once. */
export function issuePass(ctx: Pick<BackendContext, "signingSecret" | "now">, hotelId: number, action: CaptchaAction): Promise<string> {
  return signPass(ctx.signingSecret, { action, hotelId, expires: nowSeconds(ctx.now) + PASS_SECONDS, nonce: newNonce() });
}

/** Spends a pass: true only for a pass of this action and hotel, signed by us, unexpired and never spent before. */
export async function spendPass(
  ctx: Pick<BackendContext, "db" | "signingSecret" | "now">,
  hotelId: number,
  action: CaptchaAction,
  pass: string,
): Promise<boolean> {
  if (!pass) return false;
  const claims = await checkPass(ctx.signingSecret, pass);
  if (!claims || claims.action !== action || claims.hotelId !== hotelId || claims.expires < nowSeconds(ctx.now)) return false;
  return spendNonce(ctx.db, claims.nonce, claims.expires, ctx.now);
}

/**
 * What the limits count: sign-ups and orders created or cancelled by caller, and by /48 (`_network`);
 * wrong captcha answers by caller; sign-up and sign-in link emails by recipient (`_mail`, subject
 * "<hotel id>:<mailbox>"); sign-in links asked for by caller.
 */
export type EventKind =
  | "signup"
  | "signup_network"
  | "captcha_wrong"
  | "order_change"
  | "order_change_network"
  | "signup_mail"
  | "signin_mail"
  | "signin_link";

/** The subject of a per-recipient count: one mailbox at one hotel, however the address is spelled. */
export const recipientSubject = (hotelId: number, email: string) => `${hotelId}:${normalizedEmail(email)}`;

export async function recordEvent(db: D1Database, hotelId: number, kind: EventKind, subject: string, now: Date): Promise<void> {
  await db.batch([
    db
      .prepare("INSERT INTO abuse_events (hotel_id, kind, subject, at) VALUES (?, ?, ?, ?)")
      .bind(hotelId, kind, subject, now.toISOString()),
    db.prepare("DELETE FROM abuse_events WHERE at < ?").bind(new Date(now.getTime() - 2 * 86_400_000).toISOString()),
  ]);
}

/** The INSERT of an event, for a batch that makes the change it counts. */
export function eventStatement(db: D1Database, hotelId: number, kind: EventKind, subject: string, now: Date): D1PreparedStatement {
  return db
    .prepare("INSERT INTO abuse_events (hotel_id, kind, subject, at) VALUES (?, ?, ?, ?)")
    .bind(hotelId, kind, subject, now.toISOString());
}

/** How many `kind` events `subject` had in the last `minutes`, at any hotel (one caller abusing many hotels is one caller). */
export async function countEvents(db: D1Database, kind: EventKind, subject: string, minutes: number, now: Date): Promise<number> {
  const since = new Date(now.getTime() - minutes * 60_000).toISOString();
  const row = await db
    .prepare("SELECT COUNT(*) AS n FROM abuse_events WHERE kind = ? AND subject = ? AND at > ?")
    .bind(kind, subject, since)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** What the limits ask of a caller about to act: nothing, a captcha, or a refusal. */
export type Risk = "none" | "captcha" | "refuse";

/**
 * Sign-in: failed sign-ins are counted per account and caller, per caller and per account (decision
 * 070). Past any threshold the caller meets a captcha; nobody is ever locked out of their account.
 * A captcha is a speed bump a script solves, so wrong passwords also have ceilings a solved
 * challenge does not lift (issue 37, decision 132): per account from one caller, per caller on any
 * accounts, and per account from one IPv6 /48, over `SIGNIN_REFUSAL_HOURS`. Past one, that caller
 * (or /48) is refused password sign-ins; the owner still signs in from elsewhere, or by an emailed
 * one-time link from anywhere.
 */
export async function signInRisk(
  db: D1Database,
  hotel: Pick<HotelRow, "id" | "abuse_limits">,
  email: string,
  caller: string,
  network: string,
  now: Date,
): Promise<Risk> {
  const limits = hotelLimits(hotel);
  const since = new Date(now.getTime() - limits.signin_window_minutes * 60_000).toISOString();
  const refusalSince = new Date(now.getTime() - SIGNIN_REFUSAL_HOURS * 3_600_000).toISOString();
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM login_failures WHERE hotel_id = ?1 AND email = ?2 AND ip = ?3 AND at > ?4) AS pair,
              (SELECT COUNT(*) FROM login_failures WHERE ip = ?3 AND at > ?4) AS caller,
              (SELECT COUNT(*) FROM login_failures WHERE hotel_id = ?1 AND email = ?2 AND at > ?4) AS account,
              (SELECT COUNT(*) FROM login_failures WHERE hotel_id = ?1 AND email = ?2 AND ip = ?3 AND at > ?5) AS pair_day,
              (SELECT COUNT(*) FROM login_failures WHERE ip = ?3 AND at > ?5) AS caller_day,
              (SELECT COUNT(*) FROM login_failures WHERE ?6 != '' AND hotel_id = ?1 AND email = ?2 AND net = ?6 AND at > ?5) AS network_day`,
    )
    .bind(hotel.id, normalizedEmail(email), caller, since, refusalSince, network)
    .first<{ pair: number; caller: number; account: number; pair_day: number; caller_day: number; network_day: number }>();
  if (
    (row?.pair_day ?? 0) >= limits.signin_refuse_after ||
    (row?.caller_day ?? 0) >= limits.signin_refuse_after_caller ||
    (row?.network_day ?? 0) >= limits.signin_refuse_after_network
  )
    return "refuse";
  const atRisk =
    (row?.pair ?? 0) >= limits.signin_captcha_after ||
    (row?.caller ?? 0) >= limits.signin_captcha_after_caller ||
    (row?.account ?? 0) >= limits.signin_captcha_after_account;
  return atRisk ? "captcha" : "none";
}

export async function recordSignInFailure(
  db: D1Database,
  hotelId: number,
  email: string,
  caller: string,
  network: string,
  now: Date,
): Promise<void> {
  await db.batch([
    db
      .prepare("INSERT INTO login_failures (hotel_id, email, ip, net, at) VALUES (?, ?, ?, ?, ?)")
      .bind(hotelId, normalizedEmail(email), caller, network, now.toISOString()),
    db.prepare("DELETE FROM login_failures WHERE at < ?").bind(new Date(now.getTime() - 2 * 86_400_000).toISOString()),
  ]);
}

/** A right password clears this caller's failures on the account: the guest who knows it starts afresh. */
export async function clearSignInFailures(db: D1Database, hotelId: number, email: string, caller: string): Promise<void> {
  await db
    .prepare("DELETE FROM login_failures WHERE hotel_id = ? AND email = ? AND ip = ?")
    .bind(hotelId, normalizedEmail(email), caller)
    .run();
}

/**
 * Sign-up: a burst of sign-ups from one caller meets a captcha, then a refusal (decision 071); the
 * /64s of one /48 together meet a refusal too (issue 37), so new addresses do not reset the count.
 */
export async function signUpRisk(
  db: D1Database,
  hotel: Pick<HotelRow, "abuse_limits">,
  caller: string,
  network: string,
  now: Date,
): Promise<Risk> {
  const limits = hotelLimits(hotel);
  const [count, fromNetwork] = await Promise.all([
    countEvents(db, "signup", caller, 60, now),
    network ? countEvents(db, "signup_network", network, 60, now) : Promise.resolve(0),
  ]);
  if (count >= limits.signup_max_per_hour || fromNetwork >= limits.signup_max_per_hour_network) return "refuse";
  return count >= limits.signup_captcha_after ? "captcha" : "none";
}

export interface TriggerSubject {
  email: string;
  phone: string;
}

/** The risk of an action for a caller; orders register theirs (orders.server.ts) to keep this module free of them. */
export type RiskRule = (ctx: BackendContext, hotel: HotelRow, subject: TriggerSubject, caller: string) => Promise<Risk>;
const RULES: Partial<Record<CaptchaAction, RiskRule>> = {
  sign_in: (ctx, hotel, subject, caller) => signInRisk(ctx.db, hotel, subject.email, caller, callerNetwork(ctx), ctx.now),
  sign_up: (ctx, hotel, _subject, caller) => signUpRisk(ctx.db, hotel, caller, callerNetwork(ctx), ctx.now),
};

export function registerRiskRule(action: CaptchaAction, rule: RiskRule): void {
  RULES[action] = rule;
}

const Action = v.picklist(CAPTCHA_ACTIONS);
const TriggerBody = v.object({
  domain: v.pipe(v.string(), v.maxLength(253)),
  action: v.string(),
  email: v.optional(v.pipe(v.string(), v.maxLength(254)), ""),
  phone: v.optional(v.pipe(v.string(), v.maxLength(40)), ""),
});
const VerifyBody = v.object({
  domain: v.pipe(v.string(), v.maxLength(253)),
  action: v.string(),
  token: v.pipe(v.string(), v.maxLength(400)),
  answer: v.pipe(v.string(), v.maxLength(64)),
});

function actionOf(text: string): CaptchaAction {
  const parsed = v.safeParse(Action, text);
  if (!parsed.success) throw new ApiError(400, "captcha_action", { action: text.slice(0, 32) }, "action");
  return parsed.output;
}

export const captchaRoutes: BackendRoute[] = [
  {
    // { domain, action, email?, phone? } → { needed, challenge }: a challenge when the caller's risk asks for one.
    method: "POST",
    path: "/api/captcha/trigger",
    handler: async (ctx) => {
      const body = parseInput(TriggerBody, await readJsonBody(ctx.request));
      const hotel = await requireHotel(ctx.db, body.domain);
      const action = actionOf(body.action);
      const rule = RULES[action];
      const risk = rule ? await rule(ctx, hotel, { email: body.email, phone: body.phone }, callerKey(ctx)) : "captcha";
      if (risk === "refuse") throw new ApiError(429, "too_many_attempts");
      return ok({ action, needed: risk === "captcha", challenge: risk === "captcha" ? await newChallenge(ctx, hotel.id, action) : null });
    },
  },
  {
    // { domain, action, token, answer } → { pass, expires_in }; a wrong or spent challenge answers a new one.
    method: "POST",
    path: "/api/captcha/verify",
    handler: async (ctx) => {
      const body = parseInput(VerifyBody, await readJsonBody(ctx.request));
      const hotel = await requireHotel(ctx.db, body.domain);
      const action = actionOf(body.action);
      const result = await answerChallenge(ctx, hotel.id, action, body.token, body.answer);
      if (result === "passed") return ok({ action, pass: await issuePass(ctx, hotel.id, action), expires_in: PASS_SECONDS });
      if (result === "refused") throw new ApiError(429, "too_many_attempts");
      const code = result === "wrong" ? "captcha_wrong" : "captcha_expired";
      return fail(new ApiError(400, code, {}, "answer"), ctx.lang, { challenge: await newChallenge(ctx, hotel.id, action) });
    },
  },
];
