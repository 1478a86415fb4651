/**
 * Valibot schemas for the answers of the hotel API contract (spec §3, §7). The client validates
 * every answer with these, whether it comes from the built-in back end or from an existing one.
 */
import * as v from "valibot";
import { LANGUAGES } from "~/i18n/languages";
import { RailLineSchema } from "./rail";

export const MsgSchema = v.union([
  v.object({
    code: v.optional(v.union([v.string(), v.number()]), ""),
    message: v.optional(v.string(), ""),
    extrainfo: v.optional(v.object({ message: v.optional(v.string(), ""), field: v.optional(v.string()) })),
  }),
  v.pipe(
    v.string(),
    v.transform((message) => ({ code: "", message, extrainfo: undefined })),
  ),
  v.pipe(
    v.null(),
    v.transform(() => ({ code: "", message: "", extrainfo: undefined })),
  ),
]);

export function envelope<TData extends v.GenericSchema>(data: TData) {
  return v.object({ success: v.literal(true), msg: v.optional(MsgSchema), data });
}

export const FailureSchema = v.object({ success: v.literal(false), msg: v.optional(MsgSchema), data: v.optional(v.unknown()) });

export const ImageSchema = v.object({
  src: v.string(),
  width: v.number(),
  height: v.number(),
  alt: v.optional(v.string(), ""),
});
export type Image = v.InferOutput<typeof ImageSchema>;

const LangSchema = v.picklist(LANGUAGES);

export const HotelInfoSchema = v.object({
  hotel_id: v.number(),
  lang: LangSchema,
  hotel_name: v.string(),
  upper_name: v.optional(v.string(), ""),
  template_code: v.optional(v.string(), ""),
  template_booking_code: v.optional(v.string(), ""),
  kind: v.number(),
  domain: v.string(),
  origin_pms: v.optional(v.string(), ""),
  main_lang: LangSchema,
  support_lang: v.array(LangSchema),
  time_zone: v.optional(v.string(), "Asia/Taipei"),
  status: v.number(),
  website_exist: v.boolean(),
  booking_close: v.boolean(),
  booking_validate: v.optional(v.boolean(), false),
  close_member_system: v.boolean(),
  business_status: v.number(),
  deposit_type: v.picklist(["all", "deposit"]),
  deposit_percent: v.number(),
  payment_list: v.array(v.object({ vendor_id: v.number(), method: v.string() })),
  /** Portico's own (decision 047): the hotel's payments go through the built-in test gateway, which takes no money. */
  test_payments: v.optional(v.boolean(), false),
  member_price_discount: v.object({
    discount: v.number(),
    start: v.nullish(v.string(), null),
    end: v.nullish(v.string(), null),
  }),
  support_client_cancel: v.boolean(),
  google_map_open_way: v.number(),
  google_store_name: v.optional(v.string(), ""),
  ga_code: v.optional(v.string(), ""),
  pixel_code: v.optional(v.string(), ""),
  online_support: v.optional(v.string(), ""),
  address: v.string(),
  coordinates: v.nullable(v.object({ lat: v.number(), lng: v.number() })),
  email: v.string(),
  phone: v.string(),
  phone2: v.optional(v.string(), ""),
  fax: v.optional(v.string(), ""),
  fb: v.optional(v.string(), ""),
  line: v.optional(v.string(), ""),
  instagram: v.optional(v.string(), ""),
  about_images: v.array(ImageSchema),
  about_us_path: v.optional(v.string(), ""),
  introduction: v.string(),
  seo_title: v.string(),
  seo_content: v.string(),
  icon_images: v.object({ main: v.string() }),
  logo_images: v.object({ dark: v.string(), white: v.string() }),
  banner_images: v.array(ImageSchema),
  banner_info: v.array(v.object({ img: v.string(), alt: v.string(), link: v.string() })),
  banner_titles: v.array(v.object({ title: v.string(), subtitle: v.string() })),
  custom_block: v.string(),
  location_block: v.string(),
  official_booking: v.string(),
  checkin_start_time: v.string(),
  checkin_end_time: v.string(),
  checkout_time: v.string(),
  refund_template_id: v.number(),
  customer_notice: v.string(),
  booking_policy: v.string(),
  cancel_policy: v.string(),
  registration_name: v.string(),
  business_registration: v.string(),
  unified_business_number: v.string(),
  support_facilities: v.array(v.string()),
  thsr_support_on: v.number(),
  agent_name: v.optional(v.string(), ""),
  remittance_notice: v.string(),
  remittance_info: v.nullable(v.record(v.string(), v.string())),
  dining_options: v.string(),
  template_images: v.array(ImageSchema),
  tags: v.array(v.string()),
  updated_at: v.optional(v.string(), ""),
  /** Who issues the e-invoice (built-in back end, decision 159); null: Portico issues none. */
  invoice_issuer: v.optional(v.nullable(v.picklist(["portico_at_payment", "portico_at_checkout", "hotel_system"])), null),
});
export type HotelInfo = v.InferOutput<typeof HotelInfoSchema>;

/** The order payload's e-invoice choice (docs/api.md), as an order and a member's profile carry it back. */
const InvoiceChoiceSchema = v.object({
  kind: v.string(),
  carrier: v.optional(v.string()),
  carrier_code: v.optional(v.string()),
  love_code: v.optional(v.string()),
  company_address: v.optional(v.string()),
});

const NullableImage = v.nullable(ImageSchema);

export const MenuItemSchema = v.object({
  id: v.number(),
  position: v.number(),
  type: v.string(),
  label: v.string(),
  url: v.string(),
  new_tab: v.boolean(),
});
export type MenuItem = v.InferOutput<typeof MenuItemSchema>;

/** custom/menu, parsed per item: an item that does not parse reads as null, and the others stay (spec §8). */
export const MenuSchema = v.array(v.fallback(v.nullable(MenuItemSchema), null));

export const FacilitySchema = v.object({
  id: v.number(),
  facilities_key: v.string(),
  facilities_title: v.string(),
  index_introduction: v.string(),
  introduction: v.string(),
  floor: v.string(),
  main_image_path: NullableImage,
  picture_path_array: v.array(ImageSchema),
  priority: v.number(),
});
export type Facility = v.InferOutput<typeof FacilitySchema>;

export const PromotionTypeSchema = v.object({
  promotion_type_id: v.number(),
  topic_key: v.string(),
  topic_detail: v.string(),
  deleted: v.boolean(),
});

export const PromotionSchema = v.object({
  promotion_id: v.number(),
  category: v.picklist(["promotion", "announcement", "attraction"]),
  promotion_title: v.string(),
  sub_title: v.string(),
  promotion_type: v.nullable(v.number()),
  topic_key: v.string(),
  main_image_path: NullableImage,
  sub_image_path: NullableImage,
  detail_foreword: v.string(),
  detail_info_path: v.string(),
  begin: v.nullable(v.string()),
  end: v.nullable(v.string()),
  public_time: v.string(),
  checkin_begin: v.nullable(v.string()),
  checkin_end: v.nullable(v.string()),
  support_room_type: v.array(v.string()),
  show_in_index: v.boolean(),
  active: v.boolean(),
  priority: v.number(),
  banner_info: v.nullable(v.object({ img: v.string(), alt: v.string(), link: v.string() })),
});
export type Promotion = v.InferOutput<typeof PromotionSchema>;

export const SisterHotelSchema = v.object({
  domain: v.string(),
  hotel_name: v.string(),
  kind: v.number(),
  tags: v.array(v.string()),
  icon: v.string(),
});

export const PreferencesSchema = v.looseObject({
  hotel_id: v.number(),
  domain: v.string(),
  deposit_type: v.picklist(["all", "deposit"]),
  deposit_percent: v.number(),
  support_client_cancel: v.boolean(),
});

export const RoomClassSchema = v.object({
  room_class_id: v.number(),
  room_code: v.string(),
  room_class_name: v.string(),
  show_price: v.number(),
  photos: v.array(ImageSchema),
  introduction: v.string(),
  people: v.number(),
  children: v.number(),
  symbol_tags: v.array(v.string()),
  memo_tags: v.array(v.string()),
  description: v.object({
    square_meters: v.nullable(v.number()),
    bed: v.array(v.object({ bed: v.string(), count: v.number() })),
  }),
  facilities: v.record(v.string(), v.array(v.string())),
  total_rooms: v.number(),
  id: v.number(),
  title: v.string(),
  href: v.string(),
  photo: v.string(),
  originPrice: v.number(),
  tags: v.array(v.string()),
  symbo: v.array(v.string()),
  facilities_for_search: v.array(v.string()),
});
export type RoomClass = v.InferOutput<typeof RoomClassSchema>;

export const DetailLineSchema = v.object({ name: v.string(), number: v.number(), unit: v.string() });

export const PriceSetItemSchema = v.object({
  proposal_id: v.number(),
  rate_plan_id: v.number(),
  rate_plan_code: v.string(),
  proposal_name: v.string(),
  proposal_introduction: v.string(),
  price: v.number(),
  member_price: v.nullable(v.number()),
  product: v.string(),
  inventory: v.number(),
  refund_template_id: v.number(),
  free_cancel_before_date: v.nullable(v.string()),
  allow_coupon: v.boolean(),
  allow_member_price: v.boolean(),
  /** Sold to signed-in members only (decision 037); a back end without the field sells to everyone. */
  members_only: v.optional(v.boolean(), false),
  contain_meals: v.boolean(),
  support_entire_rent: v.boolean(),
  days: v.number(),
  details: v.array(DetailLineSchema),
  adds_list: v.array(v.unknown()),
});
export type PriceSetItem = v.InferOutput<typeof PriceSetItemSchema>;

/**
 * Why the stay rules sell nothing for a stay (decision 154, docs/api.md "Stay rules"): the first
 * rule met, the date it is about and, for a minimum or maximum stay, its nights. Added fields: a back
 * end without them explains nothing, and the page says only that nothing is available.
 */
export const StayRuleSchema = v.object({
  rule: v.picklist(["closed", "no_arrival", "no_departure", "min_stay", "max_stay"]),
  date: v.string(),
  nights: v.nullable(v.number()),
});
export type StayRuleAnswer = v.InferOutput<typeof StayRuleSchema>;

export const SearchRowSchema = v.object({
  ...RoomClassSchema.entries,
  inventory: v.number(),
  price_set: v.array(PriceSetItemSchema),
  /** Set when the room has no plan to sell and a stay rule is why. */
  stay_rule: v.optional(v.nullable(StayRuleSchema), null),
});
export type SearchRow = v.InferOutput<typeof SearchRowSchema>;

export const SearchSchema = v.object({
  start_date: v.string(),
  end_date: v.string(),
  nights: v.number(),
  rooms: v.array(SearchRowSchema),
  /** Set when no room has a plan to sell and a stay rule is why (the first room's). */
  stay_rule: v.optional(v.nullable(StayRuleSchema), null),
});

export const SpecialRatePlanSchema = v.object({
  rate_plan_id: v.number(),
  rate_plan_code: v.string(),
  rate_plan_code_name: v.string(),
  rate_plan_code_introduction: v.string(),
  target_room_ids: v.array(v.number()),
  room_classes: v.array(
    v.object({ room_class_id: v.number(), origin_price: v.number(), member_price: v.nullable(v.number()), inventory: v.number() }),
  ),
  refund_template_id: v.number(),
  allow_coupon: v.boolean(),
  allow_member_price: v.boolean(),
});

export const CalendarDaySchema = v.object({
  date: v.string(),
  price: v.nullable(v.number()),
  member_price: v.nullable(v.number()),
  available: v.boolean(),
});
export type CalendarDay = v.InferOutput<typeof CalendarDaySchema>;

export const PriceDetailSchema = v.object({
  success: v.boolean(),
  room_price: v.number(),
  original_amount: v.number(),
  promotion_discount: v.number(),
  point_used: v.number(),
  total_price: v.number(),
  pay_amount: v.number(),
  deposit_amount: v.number(),
  deposit_type: v.picklist(["all", "deposit"]),
  deposit_percent: v.number(),
  coupon_code: v.string(),
  member: v.nullable(v.object({ points: v.number() })),
  attachment_detail: v.object({ rooms: v.array(v.unknown()), other: v.array(v.unknown()) }),
  /** Rail tickets priced (docs/api.md "Rail"); in total_price and, in full, in pay_amount. A back end without rail: none. */
  rail_item_list: v.optional(v.array(RailLineSchema), []),
  rail_amount: v.optional(v.number(), 0),
  lines: v.array(
    v.object({
      room_class_id: v.number(),
      room_class_name: v.string(),
      proposal_id: v.number(),
      proposal_name: v.string(),
      num: v.number(),
      nights: v.number(),
      price: v.number(),
      member_price: v.nullable(v.number()),
      unit_price: v.number(),
      amount: v.number(),
      inventory: v.number(),
      /** Whether the line's plan takes a coupon or the members-only code; a back end without the field: it does. */
      allow_coupon: v.optional(v.boolean(), true),
      error: v.nullable(v.object({ code: v.string(), message: v.string() })),
    }),
  ),
  check_in_day: v.string(),
  check_out_day: v.string(),
});
export type PriceDetail = v.InferOutput<typeof PriceDetailSchema>;

export const LegacyPriceSchema = v.object({
  success: v.boolean(),
  room_price: v.number(),
  original_amount: v.number(),
  promotion_discount: v.number(),
  total_price: v.number(),
  pay_amount: v.number(),
  deposit_amount: v.number(),
  attachment_detail: v.object({ rooms: v.array(v.unknown()), other: v.array(v.unknown()) }),
  // Portico's legacy answer also says what it applied and whom it priced for (docs/api.md); a back
  // end that leaves them out is read as applying what was asked.
  point_used: v.optional(v.number()),
  coupon_code: v.optional(v.string()),
  member: v.optional(v.nullable(v.object({ user_email: v.string(), user_point: v.number() }))),
});

/** The signed-in member's profile (spec §6: loaded before the price check). */
export const MemberProfileSchema = v.object({
  email: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  phone: v.string(),
  points: v.number(),
  /** The e-invoice choice of the member's last booking, with its company fields (built-in back end). */
  invoice_choice: v.optional(
    v.nullable(
      v.object({ ...InvoiceChoiceSchema.entries, company_reg_number: v.optional(v.string()), company_name: v.optional(v.string()) }),
    ),
    null,
  ),
});
export type MemberProfile = v.InferOutput<typeof MemberProfileSchema>;

/** A Bearer token as RFC 6750's b64token; long enough for the JWTs other account services issue. */
const BearerTokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~+/-]{16,2048}=*$/));

/**
 * {account}/oauth/token: the member token (mem_token), as RFC 6749 §5.1 answers it (expires_in and
 * scope are optional there; the token type is case-insensitive and must be Bearer, §7.1).
 */
export const AccessTokenSchema = v.object({
  access_token: BearerTokenSchema,
  token_type: v.pipe(
    v.string(),
    v.check((type) => type.toLowerCase() === "bearer"),
  ),
  expires_in: v.optional(v.number()),
  scope: v.optional(v.string()),
});

/** RFC 6749 §5.2: a refused token request. */
export const OAuthErrorSchema = v.object({
  error: v.pipe(v.string(), v.regex(/^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,100}$/)),
  error_description: v.optional(v.string()),
});

/** {account}/api/v1/onetap: who the token names, for the client asked about. */
export const OneTapSchema = v.object({
  client: v.string(),
  member: v.object({ email: v.string(), first_name: v.string(), last_name: v.string() }),
});

/** {pms}/oauth/token/exchange: the hotel-scoped token (pms_token). */
export const PmsTokenSchema = v.object({
  access_token: BearerTokenSchema,
  token_type: v.string(),
  expires_in: v.number(),
  hotel_id: v.number(),
});

export const CouponSchema = v.object({
  code: v.string(),
  name: v.string(),
  type: v.picklist(["percent", "amount"]),
  percent: v.number(),
  discount: v.number(),
  min_amount: v.number(),
  verify: v.boolean(),
  card_number_length: v.number(),
});
export type Coupon = v.InferOutput<typeof CouponSchema>;

/** Refund rules (app/domain/refund.ts, decision 040); a back end that names none says nothing about its rule. */
const RefundRuleSchema = v.optional(v.picklist(["unpaid", "free", "deposit", "advance", "deposit_advance", "hotel"]));

/** What was paid of one kind (a deposit, room price paid in advance) and what comes back of it, by which schedule. */
const RefundPartSchema = v.object({
  kind: v.picklist(["deposit", "advance"]),
  amount: v.number(),
  schedule: v.picklist(["free", "deposit", "advance", "hotel"]),
  percent: v.number(),
  refund: v.number(),
  fee: v.number(),
  steps: v.optional(v.array(v.object({ days_before: v.number(), percent: v.number() })), []),
});
export type RefundPartView = v.InferOutput<typeof RefundPartSchema>;

/** The schedule one kind of money is refunded by after the free window (app/domain/refund.ts refundPolicy). */
const RefundPolicySchema = v.object({
  kind: v.picklist(["deposit", "advance"]),
  schedule: v.picklist(["deposit", "advance", "hotel"]),
  steps: v.array(v.object({ days_before: v.number(), percent: v.number() })),
});

const CancellationSchema = v.object({
  via: v.string(),
  fee: v.number(),
  refund: v.number(),
  refund_status: v.optional(v.picklist(["none", "due", "refunded"]), "none"),
  rule: RefundRuleSchema,
  percent: v.optional(v.number()),
  paid: v.optional(v.number()),
  parts: v.optional(v.array(RefundPartSchema), []),
  points_returned: v.optional(v.number()),
  created_at: v.string(),
});
export type CancellationView = v.InferOutput<typeof CancellationSchema>;

export const OrderSchema = v.object({
  order_doc: v.string(),
  booker_first_name: v.string(),
  booker_last_name: v.string(),
  booker_name: v.string(),
  booker_phone: v.string(),
  booker_email: v.string(),
  memo: v.string(),
  company_name: v.string(),
  company_reg_number: v.string(),
  check_in_day: v.string(),
  check_out_day: v.string(),
  check_in_time: v.string(),
  check_out_time: v.string(),
  adults_count: v.number(),
  children_count: v.number(),
  orders: v.array(
    v.object({
      num: v.number(),
      room_class_id: v.number(),
      room_class_name: v.string(),
      rate_plan_id: v.number(),
      rate_plan_name: v.string(),
      occupant_name: v.string(),
      occupant_phone: v.string(),
      occupant_email: v.string(),
      memo: v.string(),
      amount: v.number(),
    }),
  ),
  pay_way: v.string(),
  payment_vendor: v.number(),
  pay_option: v.picklist(["all", "part"]),
  pay_amount: v.number(),
  paid_amount: v.number(),
  sum: v.number(),
  final_amount: v.number(),
  deposit_amount: v.number(),
  is_deposit_payed: v.boolean(),
  payment_status: v.picklist([-1, 1, 2]),
  status: v.string(),
  display_status: v.string(),
  attachment_list: v.array(v.unknown()),
  attachment_detail: v.object({ rooms: v.array(v.unknown()), other: v.array(v.unknown()) }),
  room_attachment_exist: v.boolean(),
  /** What the add-ons cost (built-in back end; other back ends may leave it out). */
  attachment_amount: v.optional(v.number()),
  /** The order's rail tickets with their status, PNR and booking number (docs/api.md "Rail"). */
  rail_item_list: v.optional(v.array(RailLineSchema), []),
  rail_amount: v.optional(v.number(), 0),
  /** The refund fees the total keeps of tickets refunded one by one (built-in back end; decision 140). */
  rail_fees_kept: v.optional(v.number(), 0),
  remittance_info: v.nullable(v.record(v.string(), v.string())),
  remittance_notice: v.string(),
  couponDiscount: v.number(),
  used_coupon: v.string(),
  usedPoint: v.number(),
  support_client_cancel: v.boolean(),
  free_cancel_before_date: v.nullable(v.string()),
  remain_total_amount: v.number(),
  remain_room_amount: v.number(),
  created_at: v.string(),
  /** When an unpaid order stops holding its rooms (ISO instant); null: nothing due before arrival. */
  pay_deadline: v.optional(v.nullable(v.string()), null),
  /** Payment attempts, newest first (built-in back end; other back ends may leave them out). */
  payment_attempts: v.optional(
    v.array(
      v.object({
        vendor_id: v.number(),
        amount: v.number(),
        purpose: v.string(),
        status: v.string(),
        code_info: v.nullable(v.record(v.string(), v.string())),
        paid_at: v.nullable(v.string()),
        /** How it was actually paid (credit, atm, cvs, barcode, webatm, wallet; "" unknown). */
        paid_with: v.optional(v.string(), ""),
        created_at: v.string(),
      }),
    ),
    [],
  ),
  valid_hash: v.string(),
  /** The cancel link's hash, only for whoever may cancel (its creator, owner or cancel-link holder); "" otherwise. */
  cancel_hash: v.optional(v.string(), ""),
  /** What cancelling today would give back (built-in back end; absent from other back ends). */
  refund_quote: v.optional(
    v.nullable(
      v.object({
        rule: v.picklist(["unpaid", "free", "deposit", "advance", "deposit_advance", "hotel"]),
        percent: v.number(),
        refund: v.number(),
        fee: v.number(),
        /** The rail operator's refund fees within `fee`, on the tickets cancelling now would refund. */
        rail_fee: v.optional(v.number(), 0),
        paid: v.optional(v.number()),
        days_before: v.optional(v.number()),
        parts: v.optional(v.array(RefundPartSchema), []),
        points: v.number(),
      }),
    ),
    null,
  ),
  /** The cancellation record of a cancelled order: its refund and whether it is still due. */
  cancellation: v.optional(v.nullable(CancellationSchema), null),
  /** The cancellation policy that applies after the free window, by kind of money (built-in back end; other back ends send none). */
  refund_policy: v.optional(v.array(RefundPolicySchema), []),
  /** The e-invoice as the guest is told of it (built-in back end, decision 159); null: Portico issues none. */
  invoice: v.optional(
    v.nullable(
      v.object({
        status: v.picklist(["issued", "voided", "being_issued", "after_payment", "at_checkout", "hotel_system"]),
        invoices: v.array(v.object({ number: v.string(), random_number: v.string(), amount: v.number(), issued_on: v.string() })),
        buyer: v.nullable(InvoiceChoiceSchema),
        /** The latest allowance, when asked by the guest's emailed consent (decision 167). */
        allowance: v.optional(v.object({ status: v.picklist(["awaiting", "issued", "refused", "expired"]), amount: v.number() })),
      }),
    ),
    null,
  ),
});
export type Order = v.InferOutput<typeof OrderSchema>;

/** Where to send the browser to pay: a form to post, or an address. */
export const PaymentStartSchema = v.object({
  trade_no: v.string(),
  amount: v.number(),
  purpose: v.string(),
  vendor_id: v.number(),
  provider: v.string(),
  start: v.variant("kind", [
    v.object({ kind: v.literal("form"), action: v.pipe(v.string(), v.url()), fields: v.record(v.string(), v.string()) }),
    v.object({ kind: v.literal("redirect"), url: v.pipe(v.string(), v.url()) }),
  ]),
});
export type PaymentStart = v.InferOutput<typeof PaymentStartSchema>;

export const OrderHistorySchema = v.object({
  ...OrderSchema.entries,
  cancellation: v.nullable(CancellationSchema),
  payments: v.array(v.object({ vendor_id: v.number(), amount: v.number(), status: v.string(), created_at: v.string() })),
});

export const CreatedOrderSchema = v.object({ order_doc: v.string(), redirect_path: v.string(), order: OrderSchema });

/** A captcha challenge (decision 070): the picture as a data URL, the question in words, the token to send back. */
export const CaptchaChallengeSchema = v.object({
  token: v.pipe(v.string(), v.maxLength(400)),
  picture: v.pipe(v.string(), v.startsWith("data:image/svg+xml;base64,"), v.maxLength(60_000)),
  question: v.pipe(v.string(), v.maxLength(200)),
  expires_in: v.number(),
});
export type CaptchaChallenge = v.InferOutput<typeof CaptchaChallengeSchema>;
export const CaptchaTriggerSchema = v.object({ action: v.string(), needed: v.boolean(), challenge: v.nullable(CaptchaChallengeSchema) });
export const CaptchaPassSchema = v.object({ action: v.string(), pass: v.pipe(v.string(), v.maxLength(400)), expires_in: v.number() });

export const AttachmentSchema = v.object({ order_doc: v.string(), attachment_list: v.array(v.unknown()) });

/** Spec §3: the master-system order (GET /api/order/master/{id}). */
/** {master}/payment/config: the master system's hotel of a domain and the §9 payment ids it takes for repay. */
export const RepayConfigSchema = v.object({
  hotel_id: v.number(),
  domain: v.string(),
  currency: v.string(),
  payments: v.array(v.object({ payment_id: v.number(), vendor_id: v.number() })),
});
export type RepayConfig = v.InferOutput<typeof RepayConfigSchema>;

export const MasterOrderSchema = v.object({
  booking: v.looseObject({
    name: v.string(),
    email: v.string(),
    paid: v.number(),
    price: v.number(),
    status: v.string(),
    payment_status: v.number(),
    booking_number: v.string(),
    invoice_numbers: v.array(v.object({ number: v.string(), random_number: v.string() })),
  }),
  hotel: v.object({ hotelID: v.number(), name: v.string() }),
  booking_rooms: v.array(v.looseObject({ room_type: v.string(), plan: v.string() })),
  expired_ts: v.nullable(v.number()),
  cancellation_policy: v.string(),
  invoices: v.array(v.unknown()),
});
export type MasterOrder = v.InferOutput<typeof MasterOrderSchema>;
