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
  /** Sign-ups from one caller per hour before the next needs a captcha. */
  signup_captcha_after: number;
  /** Sign-ups from one caller per hour, beyond which it is refused. */
  signup_max_per_hour: number;
  /** Unpaid holds one guest may have beyond `payment_deadlines.max_unpaid_per_guest` by passing a captcha each. */
  unpaid_extra_with_captcha: number;
  /** The most rooms × nights one order may hold when nothing is paid online (pay at arrival, bank transfer). */
  max_room_nights_unpaid: number;
  /** Order emails from unconfirmed orders one recipient gets per hotel per day. */
  order_emails_per_recipient_per_day: number;
  /** Orders created plus cancelled by one caller per hour before a captcha is asked. */
  order_changes_captcha_after: number;
  /** Orders created plus cancelled by one caller per hour, beyond which they are refused. */
  order_changes_max_per_hour: number;
}

export const DEFAULT_ABUSE_LIMITS: AbuseLimits = {
  signin_window_minutes: 15,
  signin_captcha_after: 3,
  signin_captcha_after_caller: 10,
  signin_captcha_after_account: 20,
  signup_captcha_after: 3,
  signup_max_per_hour: 10,
  unpaid_extra_with_captcha: 2,
  max_room_nights_unpaid: 20,
  order_emails_per_recipient_per_day: 3,
  order_changes_captcha_after: 6,
  order_changes_max_per_hour: 12,
};

/** The allowed range of each setting: the hotel file refuses a value outside it. */
export const ABUSE_LIMIT_RANGES: Record<keyof AbuseLimits, readonly [number, number]> = {
  signin_window_minutes: [5, 24 * 60],
  signin_captcha_after: [1, 20],
  signin_captcha_after_caller: [1, 200],
  signin_captcha_after_account: [1, 500],
  signup_captcha_after: [0, 50],
  signup_max_per_hour: [1, 200],
  unpaid_extra_with_captcha: [0, 20],
  max_room_nights_unpaid: [1, 1000],
  order_emails_per_recipient_per_day: [1, 100],
  order_changes_captcha_after: [1, 500],
  order_changes_max_per_hour: [1, 1000],
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
