/**
 * Holds that hold (decision 072): how many unpaid orders one guest holds at a hotel, counted by
 * every spelling of who they are (the email as one mailbox, the phone in E.164, the address by
 * caller, IPv6 by /64), pay-at-arrival included; how often one caller creates and cancels orders;
 * how many order emails of unpaid orders one recipient gets a day. Past a limit, a captcha; past
 * the limit plus a few, a refusal.
 */
import { ApiError } from "~/backend/http.server";
import type { HotelRow } from "~/backend/hotels/hotels.server";
import type { BackendContext } from "~/backend/route";
import { countEvents, hotelLimits, newChallenge, spendPass, type Risk } from "~/backend/captcha/captcha.server";
import { callerAddressKey, callerNetworks, normalizedEmail, phoneE164 } from "~/domain/identity";
import { isOfflineMethod } from "~/domain/payments";
import { hotelDeadlines } from "~/backend/payments/payments.server";
import { fail } from "~/backend/http.server";

export interface OrderIdentity {
  emailKey: string;
  phoneKey: string;
  /** The caller's address key; "" for this machine's own requests, which count by email and phone only (decision 032). */
  callerKey: string;
  /** The caller's IPv6 /56 (one household: the same guest as its /64) and /48 (issue 37); "" for IPv4. */
  net56: string;
  net48: string;
}

export function orderIdentity(ctx: Pick<BackendContext, "clientIp">, email: string, phone: string): OrderIdentity {
  return {
    emailKey: normalizedEmail(email),
    phoneKey: phoneE164(phone),
    callerKey: callerAddressKey(ctx.clientIp),
    ...callerNetworks(ctx.clientIp),
  };
}

/** An unpaid order that holds rooms now (`o.` columns; ?2 the instant, ?3 today). */
const HOLDS_NOW = `status IN ('pending_payment', 'confirmed') AND payment_status = -1
         AND paid_amount = 0 AND pay_amount > 0 AND (pay_deadline IS NULL OR pay_deadline >= ?2) AND check_out_day >= ?3`;

/**
 * Unpaid orders that hold rooms now: nothing paid, something owed, not cancelled, not past
 * their payment deadline nor their stay; pay-at-arrival (confirmed, nothing paid) included.
 */
export async function unpaidHolds(
  ctx: Pick<BackendContext, "db" | "now" | "clientIp">,
  hotel: HotelRow,
  who: OrderIdentity,
  rawEmail: string,
): Promise<number> {
  const row = await ctx.db
    .prepare(
      // Each spelling of the guest is looked up through its own index and the matches joined, so the
      // rows read are the guest's own orders, never the hotel's whole history (issue 26); D1 takes at
      // most five terms in a compound SELECT, so who they are and where from are two. Orders from
      // before the keys (migration 0008) have NULL keys and are matched by their raw email and address.
      `SELECT COUNT(*) AS n FROM orders WHERE (id IN (
           SELECT id FROM orders WHERE hotel_id = ?1 AND email_key = ?4
           UNION SELECT id FROM orders WHERE hotel_id = ?1 AND email_key IS NULL AND booker_email = ?5 COLLATE NOCASE
           UNION SELECT id FROM orders WHERE hotel_id = ?1 AND ?6 != '' AND phone_key = ?6)
         OR id IN (
           SELECT id FROM orders WHERE hotel_id = ?1 AND ?7 != '' AND caller_key = ?7
           UNION SELECT id FROM orders WHERE hotel_id = ?1 AND ?8 != '' AND caller_key IS NULL AND client_ip = ?8
           UNION SELECT id FROM orders WHERE hotel_id = ?1 AND ?9 != '' AND caller_net56 = ?9))
         AND ${HOLDS_NOW}`,
    )
    .bind(
      hotel.id,
      ctx.now.toISOString(),
      ctx.now.toISOString().slice(0, 10),
      who.emailKey,
      rawEmail,
      who.phoneKey,
      who.callerKey,
      ctx.clientIp,
      who.net56,
    )
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Unpaid orders paying nothing online that hold rooms now from one IPv6 /48, whoever they name
 * (issue 37): a new mailbox, phone and /64 per order is still one network.
 */
async function unpaidHoldsFromNetwork(ctx: Pick<BackendContext, "db" | "now">, hotel: HotelRow, net48: string): Promise<number> {
  if (!net48) return 0;
  const row = await ctx.db
    .prepare(
      `SELECT COUNT(*) AS n FROM orders WHERE hotel_id = ?1 AND caller_net48 = ?4
         AND pay_way IN ('pay_arrival', 'remittance', 'cash') AND ${HOLDS_NOW}`,
    )
    .bind(hotel.id, ctx.now.toISOString(), ctx.now.toISOString().slice(0, 10), net48)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export interface OrderRisk {
  risk: Risk;
  /**
   * Why: too many unpaid holds, too many orders created and cancelled, or too many unpaid holds
   * from the caller's /48 (then paying online still books).
   */
  reason: "unpaid" | "changes" | "network_unpaid" | null;
  max: number;
}

/**
 * What the limits ask of this guest about to order (paying by `payWay`, "" when not known yet):
 * nothing, a captcha, or a refusal. A captcha is a speed bump a script solves (issue 37), so each
 * step has a ceiling behind it, and the ceilings count the caller's /48 as well as its /64.
 */
export async function orderRisk(
  ctx: BackendContext,
  hotel: HotelRow,
  who: OrderIdentity,
  rawEmail: string,
  payWay = "",
): Promise<OrderRisk> {
  const limits = hotelLimits(hotel);
  const offline = isOfflineMethod(payWay);
  const [holds, changes, networkChanges, networkHolds] = await Promise.all([
    unpaidHolds(ctx, hotel, who, rawEmail),
    who.callerKey ? countEvents(ctx.db, "order_change", who.callerKey, 60, ctx.now) : Promise.resolve(0),
    who.net48 ? countEvents(ctx.db, "order_change_network", who.net48, 60, ctx.now) : Promise.resolve(0),
    offline ? unpaidHoldsFromNetwork(ctx, hotel, who.net48) : Promise.resolve(0),
  ]);
  const maxUnpaid = hotelDeadlines(hotel).max_unpaid_per_guest;
  if (holds >= maxUnpaid + limits.unpaid_extra_with_captcha)
    return { risk: "refuse", reason: "unpaid", max: maxUnpaid + limits.unpaid_extra_with_captcha };
  if (changes >= limits.order_changes_max_per_hour) return { risk: "refuse", reason: "changes", max: limits.order_changes_max_per_hour };
  if (networkChanges >= limits.order_changes_max_per_hour_network)
    return { risk: "refuse", reason: "changes", max: limits.order_changes_max_per_hour_network };
  if (networkHolds >= limits.unpaid_per_network) return { risk: "refuse", reason: "network_unpaid", max: limits.unpaid_per_network };
  if (holds >= maxUnpaid) return { risk: "captcha", reason: "unpaid", max: maxUnpaid };
  if (changes >= limits.order_changes_captcha_after) return { risk: "captcha", reason: "changes", max: limits.order_changes_captcha_after };
  return { risk: "none", reason: null, max: 0 };
}

/**
 * The limits at order creation: a refusal is thrown (429, in the guest's language); a captcha
 * needed is satisfied only by a pass for "order" at this hotel (spent here), else answered `429
 * captcha_required` with a challenge in `data.challenge`.
 */
export async function assertOrderLimits(
  ctx: BackendContext,
  hotel: HotelRow,
  who: OrderIdentity,
  rawEmail: string,
  pass: string,
  payWay: string,
): Promise<void> {
  const { risk, reason, max } = await orderRisk(ctx, hotel, who, rawEmail, payWay);
  if (risk === "refuse") {
    if (reason === "unpaid") throw new ApiError(429, "too_many_unpaid_orders", { max }, "booker_email");
    if (reason === "network_unpaid") throw new ApiError(429, "unpaid_network_pay_online", {}, "pay_way");
    throw new ApiError(429, "too_many_attempts");
  }
  if (risk === "captcha" && !(await spendPass(ctx, hotel.id, "order", pass))) {
    throw new CaptchaRequired(await newChallenge(ctx, hotel.id, "order"));
  }
}

/** The order needs a captcha pass: its answer carries a challenge. */
export class CaptchaRequired extends Error {
  constructor(readonly challenge: Awaited<ReturnType<typeof newChallenge>>) {
    super("captcha_required");
  }

  response(lang: BackendContext["lang"]): Response {
    return fail(new ApiError(429, "captcha_required", {}, "captcha_pass"), lang, { challenge: this.challenge });
  }
}

/** Rooms × nights of an order, for the cap on orders that pay nothing online. */
export function roomNights(lines: readonly { num: number }[], start: string, end: string): number {
  const nights = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000);
  if (!Number.isFinite(nights) || nights <= 0) return 0;
  return lines.reduce((sum, line) => sum + (line.num > 0 ? line.num : 0), 0) * nights;
}

/**
 * Whether one more order email of an unpaid order may go to `to` today: a recipient (one mailbox,
 * `+tags` and Gmail dots included) gets at most
 * `order_emails_per_recipient_per_day` of them per hotel (book-then-cancel pairs cannot turn the
 * hotel's mail against one address). Emails of paid orders are not counted nor limited.
 */
export async function orderEmailAllowed(db: D1Database, hotel: HotelRow, to: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - 86_400_000).toISOString();
  const row = await db
    .prepare(
      // The messages to this mailbox (by its orders' email key, or by the address itself), each
      // found through an index: the rows read do not grow with the hotel's mail (decision 128).
      `SELECT COUNT(*) AS n FROM mail_outbox m JOIN orders o ON o.id = m.order_id
       WHERE m.id IN (
           SELECT mo.id FROM orders oo JOIN mail_outbox mo ON mo.order_id = oo.id
            WHERE oo.hotel_id = ?1 AND oo.email_key = ?2 AND mo.created_at > ?4
           UNION
           SELECT id FROM mail_outbox WHERE hotel_id = ?1 AND to_address = ?3 COLLATE NOCASE AND created_at > ?4)
         AND m.kind IN ('order_confirmation', 'order_cancellation') AND o.paid_amount = 0`,
    )
    .bind(hotel.id, normalizedEmail(to), to, since)
    .first<{ n: number }>();
  return (row?.n ?? 0) < hotelLimits(hotel).order_emails_per_recipient_per_day;
}
