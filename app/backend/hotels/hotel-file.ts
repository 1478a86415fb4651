/**
 * The hotel file: how an operator describes one hotel for `npm run hotel:import`.
 * Format documented in docs/hotel-file.md; the demo hotels in demo/hotels/ use it too.
 */
import * as v from "valibot";
import { decodeEntities } from "~/lib/entities";
import { DEFAULT_PAYMENT_DEADLINES, isPaymentVendor, PAYMENT_METHODS } from "~/domain/payments";
import { isCleanName } from "~/domain/contact";
import { ABUSE_LIMIT_RANGES, DEFAULT_ABUSE_LIMITS, type AbuseLimits } from "~/domain/abuse-limits";
import { PAYMENT_PROVIDERS } from "~/backend/payments/gateways/providers";
import { isLocalHost } from "~/lib/hosts";
import { FACILITY_GROUPS } from "~/contract/facilities";
import { LANGUAGES } from "~/i18n/languages";
import { HOTEL_LINK_RULE, isHotelLink } from "~/domain/links";
import { DEPOSIT_CAP_PERCENT } from "~/domain/pricing";
import { lessGenerousDay, type PaymentKind, type RefundStep } from "~/domain/refund";
import { ADDON_UNITS } from "~/domain/addons";
import { isValidTaxId } from "~/domain/einvoice/buyer";
import { ALLOWANCE_MODES, ISSUERS } from "~/domain/einvoice/machine";
import { EINVOICE_PROVIDERS, EINVOICE_SECRET_NAME } from "~/backend/einvoice/provider";

/** One threshold of `abuse_limits`: a whole number in its range, or its default. */
function abuseLimit(key: keyof AbuseLimits) {
  const [min, max] = ABUSE_LIMIT_RANGES[key];
  return v.optional(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max)), DEFAULT_ABUSE_LIMITS[key]);
}

const Lang = v.picklist(LANGUAGES, "must be one of zh-TW, zh-CN, en-US, ja-JP, ko-KR");

/**
 * Hotel text arrives here: character references in plain text (names, titles, addresses) are
 * decoded once, so "Caf&eacute;" is stored, served and printed as "Café" and each writer escapes it
 * once (issue 25 item 16). HTML fields keep theirs: they are HTML until htmlToText reads them.
 */
const decodeEach = <T extends Partial<Record<string, string>>>(texts: T): T =>
  Object.fromEntries(Object.entries(texts).map(([lang, text]) => [lang, decodeEntities(text ?? "")])) as T;

/** Plain text in several languages: {"zh-TW": "…", "en-US": "…"}. */
const Localized = v.pipe(
  v.record(Lang, v.string()),
  v.check((value) => Object.keys(value).length > 0, "needs a text in at least one language"),
  v.transform(decodeEach),
);
/** Plain text in several languages, or none. */
const PlainLocalized = v.optional(v.pipe(v.record(Lang, v.string()), v.transform(decodeEach)), {});
/** HTML in several languages (introductions, policies, details), or none. */
const OptionalLocalized = v.optional(v.record(Lang, v.string()), {});

/** A date 'YYYY-MM-DD', or a day relative to the day the file is loaded: 'today', 'today+30', 'today-2'. */
const DayRef = v.pipe(v.string(), v.regex(/^(\d{4}-\d{2}-\d{2}|today([+-]\d{1,4})?)$/, "must be YYYY-MM-DD or today, today+N, today-N"));
const Time = v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:MM"));

/** A link in the hotel's content: to a page the site serves, or a full URL (nothing else reaches a guest). */
const Link = v.optional(v.pipe(v.string(), v.check(isHotelLink, HOTEL_LINK_RULE)), "");

const Image = v.object({
  src: v.pipe(v.string(), v.minLength(1, "needs a src")),
  width: v.pipe(v.number(), v.integer(), v.minValue(1)),
  height: v.pipe(v.number(), v.integer(), v.minValue(1)),
  alt: PlainLocalized,
});

const Code = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/, "must be 1-40 letters, digits, - or _"));
const Count = (max: number) => v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(0), v.maxValue(max));
const Money = v.pipe(v.number(), v.integer("must be whole TWD"), v.minValue(0), v.maxValue(10_000_000));
const Flag = v.optional(v.boolean(), false);

/** Secret names: a Worker secret's name, never its value (docs/decisions/031). */
const SecretName = v.pipe(
  v.string(),
  v.regex(/^PAY_[A-Z0-9_]{1,60}$/, "must be the NAME of a Worker secret starting with PAY_ (A-Z, 0-9, _)"),
);

/**
 * How a hotel takes online payments for one vendor of its payment_list: the protocol, the merchant
 * id, and the NAMES of the Worker secrets holding its keys (docs/decisions/031).
 */
const PaymentGateway = v.object({
  vendor_id: v.pipe(v.number(), v.integer(), v.check(isPaymentVendor, "must be a vendor id of spec §4")),
  provider: v.picklist(PAYMENT_PROVIDERS),
  mode: v.optional(v.picklist(["test", "production"]), "test"),
  merchant_id: v.optional(v.pipe(v.string(), v.maxLength(64)), ""),
  secrets: v.optional(v.record(v.pipe(v.string(), v.regex(/^[a-z_]{2,32}$/)), SecretName), {}),
});

const Hotel = v.object({
  domain: v.pipe(
    v.string(),
    v.toLowerCase(),
    v.regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, "must be a host name like hotel.example.com"),
  ),
  hotel_name: Localized,
  upper_name: PlainLocalized,
  kind: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(17, "must be a kind of spec §3 (1-17)")),
  template_code: v.optional(v.string(), ""),
  template_booking_code: v.optional(v.string(), ""),
  origin_pms: v.optional(v.string(), ""),
  main_lang: Lang,
  support_lang: v.pipe(v.array(Lang), v.minLength(1, "needs at least one language")),
  time_zone: v.optional(
    v.pipe(
      v.string(),
      v.check((zone) => {
        try {
          new Intl.DateTimeFormat("en", { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, "must be an IANA time zone like Asia/Taipei"),
    ),
    "Asia/Taipei",
  ),
  status: v.optional(v.pipe(v.number(), v.integer()), 1),
  website_exist: v.optional(v.boolean(), true),
  booking_close: Flag,
  booking_validate: Flag,
  close_member_system: Flag,
  business_status: v.optional(v.pipe(v.number(), v.integer()), 0),
  deposit_type: v.optional(v.picklist(["all", "deposit"]), "all"),
  deposit_percent: v.optional(Count(100), 100),
  payment_list: v.optional(
    v.array(
      v.object({
        vendor_id: v.pipe(v.number(), v.integer(), v.check(isPaymentVendor, "must be a vendor id of spec §4")),
        method: v.picklist(PAYMENT_METHODS),
      }),
    ),
    [],
  ),
  payment_gateways: v.optional(v.array(PaymentGateway), []),
  /** How long an unpaid order holds its rooms (defaults: docs/decisions/032). */
  payment_deadlines: v.optional(
    v.object({
      online_minutes: v.optional(
        v.pipe(v.number(), v.integer(), v.minValue(5), v.maxValue(24 * 60)),
        DEFAULT_PAYMENT_DEADLINES.online_minutes,
      ),
      atm_days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14)), DEFAULT_PAYMENT_DEADLINES.atm_days),
      remittance_days: v.optional(
        v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14)),
        DEFAULT_PAYMENT_DEADLINES.remittance_days,
      ),
      max_unpaid_per_guest: v.optional(
        v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)),
        DEFAULT_PAYMENT_DEADLINES.max_unpaid_per_guest,
      ),
    }),
    DEFAULT_PAYMENT_DEADLINES,
  ),
  /** Thresholds of the captcha and the limits against abuse (decisions 070–072); any left out takes its default. */
  abuse_limits: v.optional(
    v.object({
      signin_window_minutes: abuseLimit("signin_window_minutes"),
      signin_captcha_after: abuseLimit("signin_captcha_after"),
      signin_captcha_after_caller: abuseLimit("signin_captcha_after_caller"),
      signin_captcha_after_account: abuseLimit("signin_captcha_after_account"),
      signin_refuse_after: abuseLimit("signin_refuse_after"),
      signin_refuse_after_caller: abuseLimit("signin_refuse_after_caller"),
      signin_refuse_after_network: abuseLimit("signin_refuse_after_network"),
      signup_captcha_after: abuseLimit("signup_captcha_after"),
      signup_max_per_hour: abuseLimit("signup_max_per_hour"),
      signup_max_per_hour_network: abuseLimit("signup_max_per_hour_network"),
      unpaid_extra_with_captcha: abuseLimit("unpaid_extra_with_captcha"),
      max_room_nights_unpaid: abuseLimit("max_room_nights_unpaid"),
      unpaid_per_network: abuseLimit("unpaid_per_network"),
      unpaid_rooms_percent: abuseLimit("unpaid_rooms_percent"),
      order_emails_per_recipient_per_day: abuseLimit("order_emails_per_recipient_per_day"),
      order_changes_captcha_after: abuseLimit("order_changes_captcha_after"),
      order_changes_max_per_hour: abuseLimit("order_changes_max_per_hour"),
      order_changes_max_per_hour_network: abuseLimit("order_changes_max_per_hour_network"),
    }),
    DEFAULT_ABUSE_LIMITS,
  ),
  member_price_discount: v.optional(
    v.object({
      /** The percent of the price a member pays (80 = 20% off); Memberpromotion gives 100 minus this. */
      discount: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)),
      start: v.optional(DayRef),
      end: v.optional(DayRef),
    }),
    { discount: 80 },
  ),
  support_client_cancel: v.optional(v.boolean(), true),
  google_map_open_way: v.optional(v.picklist([0, 1]), 0),
  google_store_name: v.optional(v.string(), ""),
  ga_code: v.optional(v.string(), ""),
  pixel_code: v.optional(v.string(), ""),
  online_support: v.optional(v.string(), ""),
  address: Localized,
  coordinates: v.optional(
    v.object({
      lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
      lng: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
    }),
  ),
  email: v.pipe(v.string(), v.email("must be an email address")),
  /** Where the hotel's own emails go (decision 150): a new booking, a cancellation, money, the morning list. Default: `email`. */
  reservation_emails: v.optional(
    v.pipe(v.array(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email("must be an email address"))), v.minLength(1), v.maxLength(10)),
  ),
  phone: v.string(),
  phone2: v.optional(v.string(), ""),
  fax: v.optional(v.string(), ""),
  fb: v.optional(v.string(), ""),
  line: v.optional(v.string(), ""),
  instagram: v.optional(v.string(), ""),
  about_images: v.optional(v.array(Image), []),
  about_us_path: v.optional(v.string(), ""),
  introduction: OptionalLocalized,
  seo_title: PlainLocalized,
  seo_content: OptionalLocalized,
  icon_images: v.optional(v.object({ main: v.optional(v.string(), "") }), { main: "" }),
  logo_images: v.optional(v.object({ dark: v.optional(v.string(), ""), white: v.optional(v.string(), "") }), { dark: "", white: "" }),
  banners: v.optional(
    v.array(
      v.object({
        image: Image,
        title: PlainLocalized,
        subtitle: PlainLocalized,
        link: Link,
      }),
    ),
    [],
  ),
  custom_block: OptionalLocalized,
  location_block: OptionalLocalized,
  official_booking: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url("must be a full URL"))]), ""),
  checkin_start_time: v.optional(Time, "15:00"),
  checkin_end_time: v.optional(Time, "23:00"),
  checkout_time: v.optional(Time, "11:00"),
  refund_template_id: v.optional(v.picklist([0, 1, 2, 3]), 2),
  /** The hotel's own refund ladder after the free window; empty: the standard contract's (decision 040). */
  refund_ladder: v.optional(
    v.pipe(
      v.array(
        v.object({
          days_before: v.pipe(v.number(), v.integer("must be a whole number of days"), v.minValue(0, "must be 0 or more")),
          percent: v.pipe(
            v.number(),
            v.integer("must be a whole percentage"),
            v.minValue(0, "must be 0 to 100"),
            v.maxValue(100, "must be 0 to 100"),
          ),
        }),
      ),
      v.maxLength(20),
    ),
    [],
  ),
  customer_notice: OptionalLocalized,
  booking_policy: OptionalLocalized,
  cancel_policy: OptionalLocalized,
  registration_name: v.optional(v.string(), ""),
  business_registration: v.optional(v.string(), ""),
  unified_business_number: v.optional(v.string(), ""),
  support_facilities: v.optional(v.array(v.string()), []),
  thsr_support_on: v.optional(v.picklist([1, -1]), -1),
  /** The hotel's high-speed rail station (a TDX StationID, e.g. "1000" Taipei); needed where thsr_support_on is 1 (decision 119). */
  thsr_station_id: v.optional(v.pipe(v.string(), v.regex(/^(\d{4})?$/, "must be a THSR station id such as 1000")), ""),
  /** Seats the hotel holds on every train and day through its agent (its allotment; decision 120). */
  thsr_seats_per_train: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000)), 0),
  /** Refund handling fee per ticket before departure (THSR: NT$20). */
  thsr_refund_fee: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000)), 20),
  agent_name: v.optional(v.string(), ""),
  remittance_notice: OptionalLocalized,
  remittance_info: v.optional(
    v.object({
      account_name: v.string(),
      account_number: v.string(),
      bank: v.string(),
      branch: v.string(),
      country: v.string(),
    }),
  ),
  dining_options: OptionalLocalized,
  template_images: v.optional(v.array(Image), []),
  tags: v.optional(v.array(v.string()), []),
  preferences: v.optional(v.record(v.string(), v.unknown()), {}),
});

const MenuItem = v.object({
  type: v.string(),
  label: PlainLocalized,
  url: v.optional(v.string(), ""),
  new_tab: Flag,
});

const RoomClass = v.object({
  room_code: Code,
  name: Localized,
  introduction: OptionalLocalized,
  show_price: v.optional(Money, 0),
  people: v.pipe(v.number(), v.integer(), v.minValue(1, "a room sleeps at least one adult"), v.maxValue(50)),
  children: v.optional(Count(50), 0),
  square_meters: v.optional(v.pipe(v.number(), v.minValue(1))),
  beds: v.optional(v.array(v.object({ bed: v.string(), count: v.pipe(v.number(), v.integer(), v.minValue(1)) })), []),
  facilities: v.optional(
    v.strictObject(
      Object.fromEntries(FACILITY_GROUPS.map((group) => [group, v.optional(v.array(v.string()))])) as Record<
        (typeof FACILITY_GROUPS)[number],
        v.OptionalSchema<v.ArraySchema<v.StringSchema<undefined>, undefined>, undefined>
      >,
    ),
    {},
  ),
  photos: v.optional(v.array(Image), []),
  symbol_tags: v.optional(v.array(Localized), []),
  memo_tags: v.optional(v.array(Localized), []),
  total_rooms: Count(10_000),
});

/** The nightly price of a plan for one room class. */
const PlanRoom = v.object({
  room_code: Code,
  weekday: Money,
  weekend: Money,
  holiday: Money,
  /** Member price as a percent of the price; absent means no member price for this plan. */
  member_percent: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
  /** Rooms this plan may sell per night (absent: limited by the room class only). */
  allotment: v.optional(Count(10_000)),
});

const RatePlan = v.object({
  rate_plan_code: Code,
  name: Localized,
  introduction: OptionalLocalized,
  refund_template_id: v.optional(v.picklist([0, 1, 2, 3], "must be 0 (no free cancellation), 1, 2 or 3"), 2),
  allow_coupon: v.optional(v.boolean(), true),
  allow_member_price: v.optional(v.boolean(), true),
  /** Sold to signed-in members only: guests never see it. */
  members_only: v.optional(v.boolean(), false),
  contain_meals: Flag,
  support_entire_rent: Flag,
  is_special: Flag,
  open_check_in_date: v.optional(DayRef),
  close_check_in_date: v.optional(DayRef),
  promo_type: v.optional(v.string(), ""),
  days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(60)), 1),
  details: v.optional(v.array(v.object({ name: Localized, number: v.number(), unit: PlainLocalized })), []),
  /** Kept for older files: a plan's add-ons are the `addons` that name it. */
  adds_list: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(0, "add-ons are declared in addons, each naming its plans")), []),
  rooms: v.pipe(v.array(PlanRoom), v.minLength(1, "a plan is sold for at least one room class")),
});

const StayLength = v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1), v.maxValue(30)));

const StayRule = v.pipe(
  v.object({
    room_code: v.optional(Code),
    rate_plan_code: v.optional(Code),
    nights: v.pipe(v.array(DayRef), v.minLength(1, "names at least one night")),
    closed: v.optional(v.boolean(), false),
    min_stay: StayLength,
    max_stay: StayLength,
    no_arrival: v.optional(v.boolean(), false),
    no_departure: v.optional(v.boolean(), false),
  }),
  v.check((rule) => rule.room_code !== undefined || rule.rate_plan_code !== undefined, "names a room_code, a rate_plan_code or both"),
  v.check(
    (rule) => rule.min_stay === undefined || rule.max_stay === undefined || rule.min_stay <= rule.max_stay,
    "min_stay must not be above max_stay",
  ),
);

const Inventory = v.object({
  /** Nights loaded, counted from the load day. */
  months: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(36)), 18),
  /** Nights priced at the weekend price: 0 Sunday … 6 Saturday (default Friday and Saturday nights). */
  weekend_nights: v.optional(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(6))), [5, 6]),
  holidays: v.optional(v.array(DayRef), []),
  /** Nights with nothing left to sell for a room class. */
  sold_out: v.optional(v.array(v.object({ room_code: Code, nights: v.array(DayRef) })), []),
  /** Nights with only `rooms` left for a room class. */
  limited: v.optional(v.array(v.object({ room_code: Code, nights: v.array(DayRef), rooms: Count(10_000) })), []),
  /**
   * Stay rules and closures on given nights (decision 155; meanings in migration 0019): a room
   * class's (room_code only) apply to all its plans; a plan's (rate_plan_code, and room_code to
   * narrow it to one room class) to that plan only.
   */
  rules: v.optional(v.array(StayRule), []),
});

/** An add-on item booked with the room (issue 27; docs/hotel-file.md "addons"; decision 115). */
const Addon = v.object({
  code: Code,
  name: Localized,
  description: PlainLocalized,
  /** A picture's path under the site (/demo/…) or a full https URL. */
  photo: v.optional(v.pipe(v.string(), v.regex(/^((\/(?!\/)|https:\/\/)\S*)?$/, "must be a path starting with / or an https URL")), ""),
  unit: v.picklist(ADDON_UNITS, "must be stay, night, person or person_night"),
  /** TWD for one (per-person units: one adult). */
  price: Money,
  /** TWD for one child (per-person units only); absent: children pay the adult price. */
  child_price: v.optional(Money),
  max_per_booking: v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1), v.maxValue(100)),
  /** The rate plans that offer it. */
  plans: v.pipe(v.array(Code), v.minLength(1, "names at least one rate_plan_code")),
  /** Limited items: how many there are each day, loaded for inventory.months from the load day; absent: unlimited. */
  inventory: v.optional(
    v.object({
      per_day: Count(10_000),
      days: v.optional(v.array(v.object({ days: v.array(DayRef), count: Count(10_000) })), []),
    }),
  ),
});

const PromotionItem = v.object({
  key: Code,
  category: v.picklist(["promotion", "announcement", "attraction"]),
  type: v.optional(Code),
  title: Localized,
  sub_title: PlainLocalized,
  main_image: v.optional(Image),
  sub_image: v.optional(Image),
  detail_foreword: OptionalLocalized,
  detail_info: OptionalLocalized,
  begin: v.optional(DayRef),
  end: v.optional(DayRef),
  public_at: DayRef,
  checkin_begin: v.optional(DayRef),
  checkin_end: v.optional(DayRef),
  rooms: v.optional(v.array(Code), []),
  show_in_index: v.optional(v.boolean(), true),
  active: v.optional(v.boolean(), true),
  priority: v.optional(v.pipe(v.number(), v.integer()), 0),
  banner: v.optional(v.object({ img: v.string(), alt: PlainLocalized, link: Link })),
});

const Facility = v.object({
  key: Code,
  title: Localized,
  index_introduction: OptionalLocalized,
  introduction: OptionalLocalized,
  floor: v.optional(v.string(), ""),
  main_image: v.optional(Image),
  pictures: v.optional(v.array(Image), []),
  priority: v.optional(v.pipe(v.number(), v.integer()), 0),
});

const Coupon = v.object({
  code: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{2,40}$/, "must be 2-40 letters, digits, - or _")),
  name: PlainLocalized,
  type: v.optional(v.picklist(["percent", "amount"]), "percent"),
  percent: v.optional(Count(100), 0),
  discount: v.optional(Money, 0),
  verify: Flag,
  card_number_length: v.optional(Count(32), 0),
  valid_from: v.optional(DayRef),
  valid_to: v.optional(DayRef),
  min_amount: v.optional(Money, 0),
});

/** A member's name by the rule of every entry that takes a name (decision 052). */
const MemberName = v.pipe(
  v.string(),
  v.maxLength(50, "must be at most 50 characters"),
  v.check(isCleanName, "must not contain control or bidirectional control characters"),
);

const Member = v.object({
  email: v.pipe(v.string(), v.email("must be an email address")),
  first_name: v.optional(MemberName, ""),
  last_name: v.optional(MemberName, ""),
  phone: v.optional(v.string(), ""),
  points: v.optional(Count(100_000_000), 0),
  /** Plain text in the file; stored only as a PBKDF2 hash. */
  password: v.optional(v.pipe(v.string(), v.minLength(8, "must be at least 8 characters"))),
});

/**
 * The desk's first owner (decision 149): created on import as an invited owner (the import prints
 * the invitation's link), never overwriting a staff member who already exists. A demo hotel's
 * owner may carry a known password and TOTP secret instead, so that a newcomer signs in with any
 * authenticator app; only on local domains (*.localhost), like the test gateway.
 */
const DeskOwner = v.object({
  email: v.pipe(v.string(), v.email("must be an email address")),
  name: v.optional(MemberName, ""),
  demo_password: v.optional(v.pipe(v.string(), v.minLength(8, "must be at least 8 characters"))),
  demo_totp_secret: v.optional(v.pipe(v.string(), v.regex(/^[A-Z2-7]{16,64}$/, "must be 16 to 64 base32 characters (A-Z, 2-7)"))),
});

/**
 * Who issues the hotel's e-invoices (decision 159): Portico when a stay is paid, Portico at
 * check-out, or the hotel's own system (then Portico issues nothing). The seller is the hotel, under
 * its own 統一編號. ECPay's and ezPay's keys are Worker secrets, named here, never written here.
 */
const Invoicing = v.object({
  issuer: v.picklist(ISSUERS, "must be portico_at_payment, portico_at_checkout or hotel_system"),
  provider: v.optional(v.picklist(EINVOICE_PROVIDERS, "must be sandbox, ecpay or ezpay")),
  mode: v.optional(v.picklist(["test", "production"]), "test"),
  // How an allowance (after the void cut-off) is made: at once, or by the buyer's emailed consent (decision 167).
  allowance: v.optional(v.picklist(ALLOWANCE_MODES, "must be immediate or consent"), "immediate"),
  seller_tax_id: v.pipe(
    v.string(),
    v.regex(/^\d{8}$/, "must be the hotel's 統一編號: 8 digits"),
    v.check((id) => !/^\d{8}$/.test(id) || isValidTaxId(id), "is not a valid 統一編號 (its check digits do not add up)"),
  ),
  merchant_id: v.optional(v.pipe(v.string(), v.regex(/^\d{0,10}$/, "must be the provider's merchant id (digits)")), ""),
  secrets: v.optional(
    v.object({
      hash_key: v.optional(
        v.pipe(
          v.string(),
          v.regex(EINVOICE_SECRET_NAME, "must be the NAME of a Worker secret starting with ECPAY_EINVOICE_ or EZPAY_EINVOICE_"),
        ),
      ),
      hash_iv: v.optional(
        v.pipe(
          v.string(),
          v.regex(EINVOICE_SECRET_NAME, "must be the NAME of a Worker secret starting with ECPAY_EINVOICE_ or EZPAY_EINVOICE_"),
        ),
      ),
    }),
    {},
  ),
});

export const HotelFileSchema = v.pipe(
  v.object({
    hotel: Hotel,
    menus: v.optional(v.record(Code, v.array(MenuItem)), {}),
    room_classes: v.optional(v.array(RoomClass), []),
    rate_plans: v.optional(v.array(RatePlan), []),
    inventory: v.optional(Inventory, {}),
    promotion_types: v.optional(v.array(v.object({ key: Code, name: Localized, deleted: Flag })), []),
    promotions: v.optional(v.array(PromotionItem), []),
    facilities: v.optional(v.array(Facility), []),
    coupons: v.optional(v.array(Coupon), []),
    members: v.optional(v.array(Member), []),
    addons: v.optional(v.array(Addon), []),
    desk: v.optional(v.object({ owner: v.optional(DeskOwner) }), {}),
    invoicing: v.optional(Invoicing),
  }),
  v.forward(
    v.check((file) => file.hotel.support_lang.includes(file.hotel.main_lang), "main_lang must be one of support_lang"),
    ["hotel", "main_lang"],
  ),
  v.forward(
    v.check((file) => {
      const codes = new Set(file.room_classes.map((room) => room.room_code));
      return file.rate_plans.every((plan) => plan.rooms.every((room) => codes.has(room.room_code)));
    }, "names a room_code that is not among room_classes"),
    ["rate_plans"],
  ),
  v.forward(
    v.check((file) => {
      const codes = file.room_classes.map((room) => room.room_code);
      return new Set(codes).size === codes.length;
    }, "room_code values must be unique"),
    ["room_classes"],
  ),
  v.forward(
    v.check((file) => {
      const codes = file.rate_plans.map((plan) => plan.rate_plan_code);
      return new Set(codes).size === codes.length;
    }, "rate_plan_code values must be unique"),
    ["rate_plans"],
  ),
  v.forward(
    v.check((file) => {
      const codes = new Set(file.rate_plans.map((plan) => plan.rate_plan_code));
      return file.addons.every((addon) => addon.plans.every((code) => codes.has(code)));
    }, "names a plan that is not among rate_plans"),
    ["addons"],
  ),
  v.forward(
    v.check((file) => {
      const codes = file.addons.map((addon) => addon.code);
      return new Set(codes).size === codes.length;
    }, "code values must be unique"),
    ["addons"],
  ),
  v.forward(
    v.check(
      (file) => file.addons.every((addon) => addon.child_price === undefined || addon.unit === "person" || addon.unit === "person_night"),
      "child_price is for items counted per person (person, person_night)",
    ),
    ["addons"],
  ),
  // The standard contract caps a deposit at 30 % of the stay's price (decisions 030, 040): a hotel asking more is refused, not quietly capped.
  v.forward(
    v.check(
      (file) => file.hotel.deposit_type !== "deposit" || file.hotel.deposit_percent <= DEPOSIT_CAP_PERCENT,
      `must be at most ${DEPOSIT_CAP_PERCENT} when deposit_type is "deposit": the standard contract caps a deposit at ${DEPOSIT_CAP_PERCENT} % of the stay's price`,
    ),
    ["hotel", "deposit_percent"],
  ),
  // A hotel's own schedule replaces the standard contract's only where it gives back at least as much, for every kind of money it takes (decision 040).
  v.forward(
    v.check(
      (file) => ladderShortfall(file.hotel) === null,
      (issue) => ladderShortfall((issue.input as { hotel: LadderHotel }).hotel) ?? "",
    ),
    ["hotel", "refund_ladder"],
  ),
);

type LadderHotel = { deposit_type: "all" | "deposit"; refund_ladder: RefundStep[] };

/** Why a hotel's refund_ladder is refused: the first day it gives back less than the standard contract for a kind of payment the hotel takes. */
function ladderShortfall(hotel: LadderHotel): string | null {
  if (hotel.refund_ladder.length === 0) return null;
  // Every hotel takes whole stays paid in advance; a deposit hotel takes deposits too.
  const kinds: PaymentKind[] = hotel.deposit_type === "deposit" ? ["advance", "deposit"] : ["advance"];
  for (const kind of kinds) {
    const day = lessGenerousDay(hotel.refund_ladder, kind);
    if (day) {
      const what = kind === "deposit" ? "a deposit" : "room price paid in advance";
      return `gives back ${day.percent} % ${day.daysBefore} days before check-in, less than the standard contract's ${day.standard} % for ${what}`;
    }
  }
  return null;
}

export type HotelFile = v.InferOutput<typeof HotelFileSchema>;

export type HotelFileResult = { success: true; file: HotelFile } | { success: false; errors: string[] };

/** Known sign-in secrets are for demo hotels only: a hotel on a real domain has its owner invited. */
function demoStaffErrors(file: HotelFile): string[] {
  const owner = file.desk.owner;
  if (!owner || isLocalHost(file.hotel.domain)) return [];
  return (["demo_password", "demo_totp_secret"] as const)
    .filter((field) => owner[field] !== undefined)
    .map((field) => `desk.owner.${field}: known sign-in secrets are only for demo hotels on local domains (*.localhost)`);
}

/**
 * The built-in test gateway takes no money (decision 047): never in "production" mode, and only on a
 * local domain unless the import is for a staging site that opted in (--allow-test-gateway).
 */
function testGatewayErrors(file: HotelFile, allowTestGateway: boolean): string[] {
  return file.hotel.payment_gateways.flatMap((config, index) => {
    if (config.provider !== "sandbox") return [];
    const at = `hotel.payment_gateways.${index}`;
    const errors: string[] = [];
    if (config.mode === "production")
      errors.push(`${at}.mode: "sandbox" is the built-in test gateway, which takes no money: it has no production mode`);
    if (!isLocalHost(file.hotel.domain) && !allowTestGateway) {
      errors.push(
        `${at}.provider: "sandbox" is the built-in test gateway, which takes no money: only for local domains (*.localhost), or a staging site imported with --allow-test-gateway whose Worker sets ALLOW_TEST_GATEWAY`,
      );
    }
    return errors;
  });
}

/** A stay rule names room classes and plans the file declares, and a plan's room class it is sold for. */
function stayRuleErrors(file: HotelFile): string[] {
  const rooms = new Set(file.room_classes.map((room) => room.room_code));
  const plans = new Map(file.rate_plans.map((plan) => [plan.rate_plan_code, new Set(plan.rooms.map((room) => room.room_code))]));
  return file.inventory.rules.flatMap((rule, index) => {
    const at = `inventory.rules.${index}`;
    if (rule.room_code !== undefined && !rooms.has(rule.room_code)) return [`${at}.room_code: no room class "${rule.room_code}"`];
    if (rule.rate_plan_code === undefined) return [];
    const planRooms = plans.get(rule.rate_plan_code);
    if (!planRooms) return [`${at}.rate_plan_code: no rate plan "${rule.rate_plan_code}"`];
    if (rule.room_code !== undefined && !planRooms.has(rule.room_code))
      return [`${at}.room_code: the plan "${rule.rate_plan_code}" is not sold for "${rule.room_code}"`];
    return [];
  });
}

/**
 * E-invoicing that cannot work is refused at import (decision 159): Portico issuing needs a
 * provider; ECPay and ezPay need their merchant id and the names of their two key secrets (ezPay
 * has no allowance by emailed consent, decision 171); the sandbox issues
 * nothing real, so, like the test gateway, it is never in production mode and only on local domains
 * (or a staging site imported with --allow-test-gateway).
 */
function invoicingErrors(file: HotelFile, allowTestGateway: boolean): string[] {
  const invoicing = file.invoicing;
  if (!invoicing || invoicing.issuer === "hotel_system") return [];
  if (!invoicing.provider)
    return [`invoicing.provider: Portico issues for ${invoicing.issuer}: name the provider (sandbox, ecpay or ezpay)`];
  const errors: string[] = [];
  if (invoicing.provider === "ecpay" || invoicing.provider === "ezpay") {
    const name = invoicing.provider === "ecpay" ? "ECPay" : "ezPay";
    if (!invoicing.merchant_id) errors.push(`invoicing.merchant_id: ${name} needs the hotel's e-invoice merchant id`);
    for (const role of ["hash_key", "hash_iv"] as const) {
      if (!invoicing.secrets[role])
        errors.push(`invoicing.secrets.${role}: ${name} needs the NAME of the Worker secret holding its ${role}`);
    }
    // ezPay emails the buyer no consent link (its Status 0 allowance waits for the merchant's own confirmation): decision 171.
    if (invoicing.provider === "ezpay" && invoicing.allowance === "consent")
      errors.push(
        `invoicing.allowance: ezPay has no allowance by the buyer's emailed consent: use "immediate" (the hotel holds the buyer's consent)`,
      );
  } else {
    if (invoicing.mode === "production")
      errors.push(`invoicing.mode: "sandbox" is the built-in test provider, which issues nothing real: it has no production mode`);
    if (!isLocalHost(file.hotel.domain) && !allowTestGateway) {
      errors.push(
        `invoicing.provider: "sandbox" is the built-in test provider, which issues nothing real: only for local domains (*.localhost), or a staging site imported with --allow-test-gateway`,
      );
    }
  }
  return errors;
}

/** Validates a parsed hotel file; each error names the field by its path, e.g. `hotel.email`. */
export function validateHotelFile(input: unknown, options: { allowTestGateway?: boolean } = {}): HotelFileResult {
  const result = v.safeParse(HotelFileSchema, input);
  if (result.success) {
    const errors = [
      ...testGatewayErrors(result.output, options.allowTestGateway ?? false),
      ...demoStaffErrors(result.output),
      ...stayRuleErrors(result.output),
      ...invoicingErrors(result.output, options.allowTestGateway ?? false),
    ];
    return errors.length === 0 ? { success: true, file: result.output } : { success: false, errors };
  }
  return {
    success: false,
    errors: result.issues.map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    }),
  };
}
