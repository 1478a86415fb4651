/**
 * Signing in by a one-time link emailed to the member (issue 37, decision 132): the way in that
 * proves more than a captcha. A caller refused password sign-ins after too many wrong passwords,
 * or one who shares an address with a guesser (carrier NAT), or who forgot the password, asks for
 * a link; whoever reads the account's mail follows it and is signed in. Asking answers the same
 * whether the address is a member or not; links are counted per mailbox and per caller.
 */
import type { BackendContext } from "~/backend/route";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import { hotelNameIn } from "~/backend/hotels/hotels.server";
import { localizePath } from "~/i18n/languages";
import { randomToken, sha256Hex } from "~/lib/crypto";
import { escapeHtml } from "~/lib/html";
import { callerKey, countEvents, eventStatement, recipientSubject } from "~/backend/captcha/captcha.server";
import { accountText, page } from "./pages.server";
import { linkMailStatement } from "./signup.server";

/** How long a sign-in link works: long enough to open one's mail, short enough not to lie about. */
export const SIGNIN_LINK_MINUTES = 15;
/** Sign-in link emails one mailbox gets per hotel per day: asking for links is no way to flood an inbox. */
export const SIGNIN_LINK_EMAILS_PER_DAY = 3;
/** Links one caller may ask for in an hour (any addresses), beyond which it is refused. */
export const SIGNIN_LINKS_PER_CALLER_HOUR = 10;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

export type LinkRequest = "sent" | "invalid_email" | "refused";

/**
 * A member's request for a sign-in link: the link row and its email in one batch, if the address
 * is a member of this hotel and its mailbox had fewer than its day's links. The caller's request
 * is counted whether or not anything is sent, so nobody learns who is a member from the answer.
 */
export async function requestSignInLink(ctx: BackendContext, hotel: HotelRow, typed: string): Promise<LinkRequest> {
  const email = typed.trim().toLowerCase();
  if (email.length > 200 || !EMAIL.test(email)) return "invalid_email";
  const caller = callerKey(ctx);
  if ((await countEvents(ctx.db, "signin_link", caller, 60, ctx.now)) >= SIGNIN_LINKS_PER_CALLER_HOUR) return "refused";
  const recipient = recipientSubject(hotel.id, email);
  const [member, sentToday] = await Promise.all([
    ctx.db.prepare("SELECT id FROM members WHERE hotel_id = ? AND email = ?").bind(hotel.id, email).first<{ id: number }>(),
    countEvents(ctx.db, "signin_mail", recipient, 24 * 60, ctx.now),
  ]);
  const statements = [eventStatement(ctx.db, hotel.id, "signin_link", caller, ctx.now)];
  if (member && sentToday < SIGNIN_LINK_EMAILS_PER_DAY) {
    const token = randomToken();
    const hotelName = hotelNameIn(hotel, ctx.lang);
    const link = `${ctx.url.origin}/account/signin/link?${new URLSearchParams({ token, lang: ctx.lang })}`;
    statements.push(
      ctx.db
        .prepare("INSERT INTO signin_links (token_hash, hotel_id, member_id, site_origin, lang, expires_at) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(
          await sha256Hex(token),
          hotel.id,
          member.id,
          ctx.url.origin,
          ctx.lang,
          new Date(ctx.now.getTime() + SIGNIN_LINK_MINUTES * 60_000).toISOString(),
        ),
      eventStatement(ctx.db, hotel.id, "signin_mail", recipient, ctx.now),
      linkMailStatement(ctx, hotel.id, "account_signin_link", email, {
        subject: accountText(ctx.lang, "mail.signin_link.subject", { hotel: hotelName }),
        intro: accountText(ctx.lang, "mail.signin_link.body", { hotel: hotelName, minutes: SIGNIN_LINK_MINUTES }),
        link,
        outro: accountText(ctx.lang, "mail.signin_link.ignore"),
      }),
    );
  }
  await ctx.db.batch(statements);
  return "sent";
}

/** "Check your email": the one answer to every valid request, member or not. */
export function signInLinkSentPage(ctx: BackendContext, hotelName: string, email: string): Response {
  const title = accountText(ctx.lang, "signup.sent.title");
  return page(
    ctx.lang,
    `${title} | ${hotelName}`,
    `<h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(
      accountText(ctx.lang, "signin_link.sent", { email, minutes: SIGNIN_LINK_MINUTES }),
    )}</p>`,
  );
}

export function invalidLinkPage(ctx: BackendContext): Response {
  const title = accountText(ctx.lang, "signin_link.title");
  return page(
    ctx.lang,
    title,
    `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(accountText(ctx.lang, "signin_link.invalid"))}</p>`,
    400,
  );
}

/** A live link of this site: its hotel, or null (unknown, used, expired, or asked for on another site). */
async function liveLink(ctx: BackendContext, token: string): Promise<HotelRow | null> {
  if (!TOKEN.test(token)) return null;
  return ctx.db
    .prepare(
      `SELECT h.* FROM signin_links l JOIN hotels h ON h.id = l.hotel_id
       WHERE l.token_hash = ? AND l.site_origin = ? AND l.used_at IS NULL AND l.expires_at > ?`,
    )
    .bind(await sha256Hex(token), ctx.url.origin, ctx.now.toISOString())
    .first<HotelRow>();
}

/** GET of the emailed link: a button to sign in (a mail scanner following links signs nobody in). */
export async function signInLinkPage(ctx: BackendContext, token: string, csrf: string): Promise<Response> {
  const hotel = await liveLink(ctx, token);
  if (!hotel) return invalidLinkPage(ctx);
  const title = accountText(ctx.lang, "signin_link.title");
  const hotelName = hotelNameIn(hotel, ctx.lang);
  return page(
    ctx.lang,
    `${title} | ${hotelName}`,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(accountText(ctx.lang, "signin_link.body", { hotel: hotelName }))}</p><form method="post" action="/account/signin/link?lang=${ctx.lang}"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button type="submit">${escapeHtml(accountText(ctx.lang, "signin_link.action"))}</button></form>`,
  );
}

/**
 * Follows a link, once: the member it was sent to, and the site to go on to (its own sign-in,
 * which finds the account session this starts and comes back signed in), or null.
 */
export async function spendSignInLink(
  ctx: BackendContext,
  token: string,
): Promise<{ memberId: number; hotelId: number; email: string; next: string } | null> {
  if (!TOKEN.test(token)) return null;
  const row = await ctx.db
    .prepare(
      `UPDATE signin_links SET used_at = ?1
       WHERE token_hash = ?2 AND site_origin = ?3 AND used_at IS NULL AND expires_at > ?1
       RETURNING member_id, hotel_id, (SELECT email FROM members WHERE id = member_id) AS email`,
    )
    .bind(ctx.now.toISOString(), await sha256Hex(token), ctx.url.origin)
    .first<{ member_id: number; hotel_id: number; email: string | null }>();
  if (!row || row.email === null) return null;
  return {
    memberId: row.member_id,
    hotelId: row.hotel_id,
    email: row.email,
    next: `${ctx.site.origin}${localizePath(`/${ctx.site.product}/login`, ctx.lang)}`,
  };
}
