/**
 * The thresholds of the limits that keep Portico from being abused (decisions 070–072): when a
 * guest is asked to prove they are a person, and when they are refused. A hotel sets any of them
 * in its hotel file (`abuse_limits`, docs/hotel-file.md); these are the defaults. Pure.
 */
export interface AbuseLimits {
  /** Window over which failed sign-ins are counted (minutes). */
  signin_window_minutes: number;
  /** Failed sign-ins to one account from one caller before that caller meets a captcha there. */
  signin_captcha_after: number;
  /** Failed sign-ins from one caller, any accounts, before the caller meets a captcha everywhere. */
  signin_captcha_after_caller: number;
  /** Failed sign-ins to one account from all callers before everyone meets a captcha on it. */
  signin_captcha_after_account: number;
  /**
   * Wrong passwords on one account from one caller in `SIGNIN_REFUSAL_HOURS`, beyond which that
   * caller's password sign-ins to it are refused (issue 37): a solved captcha does not lift it.
   * The owner signs in from elsewhere, or here by an emailed one-time link.
   */
  signin_refuse_after: number;
  /** Wrong passwords from one caller on any accounts in `SIGNIN_REFUSAL_HOURS`, beyond which its password sign-ins are refused. */
  signin_refuse_after_caller: number;
  /** Wrong passwords on one account from one IPv6 /48 in `SIGNIN_REFUSAL_HOURS`, beyond which that /48's are refused. */
  signin_refuse_after_network: number;
  /** Sign-ups from one caller per hour before the next needs a captcha. */
  signup_captcha_after: number;
  /** Sign-ups from one caller per hour, beyond which it is refused. */
  signup_max_per_hour: number;
  /** Sign-ups from one IPv6 /48 per hour, beyond which they are refused. */
  signup_max_per_hour_network: number;
  /** Unpaid holds one guest may have beyond `payment_deadlines.max_unpaid_per_guest` by passing a captcha each. */
  unpaid_extra_with_captcha: number;
  /** The most rooms × nights one order may hold when nothing is paid online (pay at arrival, bank transfer). */
  max_room_nights_unpaid: number;
  /** Unpaid holds from one IPv6 /48, whoever they name, beyond which an order must be paid online. */
  unpaid_per_network: number;
  /**
   * The share (percent, rounded up to whole rooms) of each room class's rooms to sell on a night
   * that orders paying nothing online may hold together; past it, only online payment books them.
   */
  unpaid_rooms_percent: number;
  /** Order emails from unconfirmed orders one recipient gets per hotel per day. */
  order_emails_per_recipient_per_day: number;
  /** Orders created plus cancelled by one caller per hour before a captcha is asked. */
  order_changes_captcha_after: number;
  /** Orders created plus cancelled by one caller per hour, beyond which they are refused. */
  order_changes_max_per_hour: number;
  /** Orders created plus cancelled from one IPv6 /48 per hour, beyond which they are refused. */
  order_changes_max_per_hour_network: number;
}

/** The window of the sign-in refusals (hours): long enough that guessing is no longer worth it. */
export const SIGNIN_REFUSAL_HOURS = 24;

export const DEFAULT_ABUSE_LIMITS: AbuseLimits = {
  signin_window_minutes: 15,
  signin_captcha_after: 3,
  signin_captcha_after_caller: 10,
  signin_captcha_after_account: 20,
  signin_refuse_after: 10,
  signin_refuse_after_caller: 50,
  signin_refuse_after_network: 30,
  signup_captcha_after: 3,
  signup_max_per_hour: 10,
  signup_max_per_hour_network: 30,
  unpaid_extra_with_captcha: 2,
  max_room_nights_unpaid: 20,
  unpaid_per_network: 10,
  unpaid_rooms_percent: 50,
  order_emails_per_recipient_per_day: 3,
  order_changes_captcha_after: 6,
  order_changes_max_per_hour: 12,
  order_changes_max_per_hour_network: 36,
};

/** The allowed range of each setting: the hotel file refuses a value outside it. */
export const ABUSE_LIMIT_RANGES: Record<keyof AbuseLimits, readonly [number, number]> = {
  signin_window_minutes: [5, 24 * 60],
  signin_captcha_after: [1, 20],
  signin_captcha_after_caller: [1, 200],
  signin_captcha_after_account: [1, 500],
  signin_refuse_after: [3, 100],
  signin_refuse_after_caller: [5, 1000],
  signin_refuse_after_network: [5, 1000],
  signup_captcha_after: [0, 50],
  signup_max_per_hour: [1, 200],
  signup_max_per_hour_network: [1, 1000],
  unpaid_extra_with_captcha: [0, 20],
  max_room_nights_unpaid: [1, 1000],
  unpaid_per_network: [1, 500],
  unpaid_rooms_percent: [1, 100],
  order_emails_per_recipient_per_day: [1, 100],
  order_changes_captcha_after: [1, 500],
  order_changes_max_per_hour: [1, 1000],
  order_changes_max_per_hour_network: [1, 5000],
};

/** A hotel's stored settings (JSON) over the defaults; a value out of range or of the wrong type is ignored. */
export function abuseLimits(stored: string | null | undefined): AbuseLimits {
  let parsed: unknown = {};
  try {
    parsed = JSON.parse(stored || "{}");
  } catch {
    parsed = {};
  }
  const limits = { ...DEFAULT_ABUSE_LIMITS };
  if (typeof parsed !== "object" || parsed === null) return limits;
  for (const key of Object.keys(DEFAULT_ABUSE_LIMITS) as (keyof AbuseLimits)[]) {
    const value = (parsed as Record<string, unknown>)[key];
    const [min, max] = ABUSE_LIMIT_RANGES[key];
    if (typeof value === "number" && Number.isInteger(value) && value >= min && value <= max) limits[key] = value;
  }
  return limits;
}
