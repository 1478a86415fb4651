/**
 * Sign-up that tells nobody who is a member (decision 071): a new and a taken email get the same
 * answer, "check your email to finish"; nothing is a member until the emailed link is followed,
 * and following it makes the account, or, for an address that already has one, gives it the
 * password just chosen: the owner of an address can always claim it. Sign-ups are counted per
 * caller (a captcha, then a refusal) and sign-up emails per recipient.
 */
import * as v from "valibot";
import type { BackendContext } from "~/backend/route";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { hotelNameIn } from "~/backend/hotels/hotels.server";
import { localizePath } from "~/i18n/languages";
import { randomToken, sha256Hex } from "~/lib/crypto";
import { personName } from "~/domain/contact-fields";
import { isPhoneNumber } from "~/domain/contact";
import {
  callerKey,
  callerNetwork,
  captchaText,
  countEvents,
  eventStatement,
  recipientSubject,
  signUpRisk,
} from "~/backend/captcha/captcha.server";
import type { ChallengeState } from "~/backend/captcha/fieldset";
import { hashPassword } from "./passwords";
import { escapeHtml } from "~/lib/html";
import { accountText, page } from "./pages.server";

/** How long a sign-up link works. */
export const SIGNUP_LINK_HOURS = 24;
/**
 * Sign-up emails one mailbox gets per hotel per day, however its address is spelled (`+tags`, Gmail's
 * dots; issue 37): sign-up is no way to flood someone's inbox.
 */
export const SIGNUP_EMAILS_PER_DAY = 3;

const NAME_MESSAGES = {
  required: "error.name",
  tooLong: "error.name",
  controlCharacters: "error.name_characters",
  link: "error.name_link",
} as const;

export const SignUpSchema = v.object({
  // Names by the one rule of every entry (decision 052): no control or bidirectional control characters, no links.
  last_name: personName(NAME_MESSAGES),
  first_name: personName(NAME_MESSAGES),
  email: v.pipe(v.string(), v.maxLength(200, "error.email"), v.email("error.email")),
  // The booking form's phone rule: `\s` once let CR LF and tabs through.
  phone: v.pipe(v.string(), v.check(isPhoneNumber, "error.phone")),
  password: v.pipe(v.string(), v.minLength(8, "error.password"), v.maxLength(200, "error.password")),
});

export type SignUpInput = v.InferOutput<typeof SignUpSchema>;

/** What sign-up's limits ask of this caller now (decision 071). */
export function signUpCheck(ctx: BackendContext, hotel: HotelRow) {
  return signUpRisk(ctx.db, hotel, callerKey(ctx), callerNetwork(ctx), ctx.now);
}

export const signUpReason = (ctx: BackendContext): Partial<ChallengeState> => ({ reason: captchaText(ctx.lang, "needed.signup") });

function confirmLink(ctx: BackendContext, token: string): string {
  return `${ctx.url.origin}/account/signup/confirm?${new URLSearchParams({ token, lang: ctx.lang })}`;
}

/**
 * An account email of one link (sign-up, sign-in), written whole now and queued through the outbox
 * like every email (there is no order to render it from later). It names nobody (decision 071):
 * the hotel's words, the link, and what to do if it was not you.
 */
export function linkMailStatement(
  ctx: BackendContext,
  hotelId: number,
  kind: "account_signup" | "account_signin_link",
  to: string,
  mail: { subject: string; intro: string; link: string; outro: string },
): D1PreparedStatement {
  const text = [mail.intro, "", mail.link, "", mail.outro].join("\n");
  const html = `<!DOCTYPE html><html lang="${ctx.lang}"><body><p>${escapeHtml(mail.intro)}</p><p><a href="${escapeHtml(mail.link)}">${escapeHtml(mail.link)}</a></p><p>${escapeHtml(mail.outro)}</p></body></html>`;
  return ctx.db
    .prepare(
      `INSERT INTO mail_outbox (hotel_id, order_id, kind, lang, to_address, site_origin, product, subject, text_body, html_body)
       VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(hotelId, kind, ctx.lang, to, ctx.site.origin, ctx.site.product, mail.subject, text, html);
}

/**
 * Records a sign-up: the request (its token's hash), the caller's event and, unless this address
 * had its day's sign-up emails, the email with the link, in one batch. Taken or not, the same.
 */
export async function requestSignUp(ctx: BackendContext, hotel: HotelRow, input: SignUpInput): Promise<void> {
  const email = input.email.toLowerCase();
  const token = randomToken();
  const recipient = recipientSubject(hotel.id, email);
  const network = callerNetwork(ctx);
  const sentToday = await countEvents(ctx.db, "signup_mail", recipient, 24 * 60, ctx.now);
  const statements = [
    ctx.db
      .prepare(
        `INSERT INTO signup_requests (token_hash, hotel_id, email, first_name, last_name, phone, password_hash, lang, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        await sha256Hex(token),
        hotel.id,
        email,
        input.first_name,
        input.last_name,
        input.phone.trim(),
        await hashPassword(input.password),
        ctx.lang,
        new Date(ctx.now.getTime() + SIGNUP_LINK_HOURS * 3_600_000).toISOString(),
      ),
    eventStatement(ctx.db, hotel.id, "signup", callerKey(ctx), ctx.now),
  ];
  if (network) statements.push(eventStatement(ctx.db, hotel.id, "signup_network", network, ctx.now));
  if (sentToday < SIGNUP_EMAILS_PER_DAY) {
    statements.push(eventStatement(ctx.db, hotel.id, "signup_mail", recipient, ctx.now));
    const hotelName = hotelNameIn(hotel, ctx.lang);
    statements.push(
      linkMailStatement(ctx, hotel.id, "account_signup", email, {
        subject: accountText(ctx.lang, "mail.signup.subject", { hotel: hotelName }),
        intro: accountText(ctx.lang, "mail.signup.body", { hotel: hotelName }),
        link: confirmLink(ctx, token),
        outro: accountText(ctx.lang, "mail.signup.ignore"),
      }),
    );
  }
  await ctx.db.batch(statements);
}

/** "Check your email": the one answer of every accepted sign-up, a new address or a taken one. */
export function signUpSentPage(ctx: BackendContext, hotelName: string, email: string): Response {
  const title = accountText(ctx.lang, "signup.sent.title");
  return page(
    ctx.lang,
    `${title} | ${hotelName}`,
    `<h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(accountText(ctx.lang, "signup.sent.body", { email }))}</p>`,
  );
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The hotel a sign-up link belongs to (whatever domain it is opened on), or null for no such link. */
export async function signUpHotel(ctx: BackendContext, token: string): Promise<HotelRow | null> {
  if (!TOKEN.test(token)) return null;
  return ctx.db
    .prepare("SELECT h.* FROM signup_requests r JOIN hotels h ON h.id = r.hotel_id WHERE r.token_hash = ?")
    .bind(await sha256Hex(token))
    .first<HotelRow>();
}

/** GET of the emailed link: a form to finish (a mail scanner following links changes nothing). */
export function confirmPage(ctx: BackendContext, hotel: HotelRow | null, token: string, csrf: string): Response {
  const title = accountText(ctx.lang, "confirm.title");
  const hotelName = hotel ? hotelNameIn(hotel, ctx.lang) : "";
  if (!hotel)
    return page(
      ctx.lang,
      title,
      `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(accountText(ctx.lang, "confirm.invalid"))}</p>`,
      400,
    );
  return page(
    ctx.lang,
    `${title} | ${hotelName}`,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(accountText(ctx.lang, "confirm.body", { hotel: hotelName }))}</p><form method="post" action="/account/signup/confirm?lang=${ctx.lang}"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button type="submit">${escapeHtml(accountText(ctx.lang, "confirm.action"))}</button></form>`,
  );
}

/**
 * Follows a sign-up link, once: the account is made, or an existing one of this address at this
 * hotel takes the new password, names and phone (its owner claims it), and everything signed in
 * with the old password is signed out. Answers the page to show.
 */
export async function confirmSignUp(ctx: BackendContext, token: string): Promise<Response> {
  const siteSignIn = `${ctx.site.origin}${localizePath(`/${ctx.site.product}/login`, ctx.lang)}`;
  const invalid = () => {
    const title = accountText(ctx.lang, "confirm.title");
    return page(
      ctx.lang,
      title,
      `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(accountText(ctx.lang, "confirm.invalid"))}</p>`,
      400,
    );
  };
  const hotel = await signUpHotel(ctx, token);
  if (!hotel) return invalid();
  const request = await ctx.db
    .prepare(
      `UPDATE signup_requests SET used_at = ?1 WHERE token_hash = ?2 AND hotel_id = ?3 AND used_at IS NULL AND expires_at > ?1
       RETURNING email, first_name, last_name, phone, password_hash`,
    )
    .bind(ctx.now.toISOString(), await sha256Hex(token), hotel.id)
    .first<{ email: string; first_name: string; last_name: string; phone: string; password_hash: string }>();
  if (!request) return invalid();
  const member = `(SELECT id FROM members WHERE hotel_id = ? AND email = ?)`;
  await ctx.db.batch([
    // An owner claiming an address: whoever signed in with the old password is signed out.
    ctx.db.prepare(`DELETE FROM pms_tokens WHERE member_id = ${member}`).bind(hotel.id, request.email),
    ctx.db.prepare(`DELETE FROM member_tokens WHERE member_id = ${member}`).bind(hotel.id, request.email),
    ctx.db.prepare(`DELETE FROM account_sessions WHERE member_id = ${member}`).bind(hotel.id, request.email),
    ctx.db
      .prepare(
        `INSERT INTO members (hotel_id, email, first_name, last_name, phone, password_hash) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (hotel_id, email) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name,
           phone = excluded.phone, password_hash = excluded.password_hash`,
      )
      .bind(hotel.id, request.email, request.first_name, request.last_name, request.phone, request.password_hash),
    // Other links of the same address are spent with it.
    ctx.db
      .prepare("UPDATE signup_requests SET used_at = ? WHERE hotel_id = ? AND email = ? AND used_at IS NULL")
      .bind(ctx.now.toISOString(), hotel.id, request.email),
  ]);
  const title = accountText(ctx.lang, "confirm.done.title");
  return page(
    ctx.lang,
    title,
    `<h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(accountText(ctx.lang, "confirm.done.body"))}</p><p><a href="${escapeHtml(siteSignIn)}">${escapeHtml(accountText(ctx.lang, "link.sign_in_site"))}</a></p>`,
  );
}
