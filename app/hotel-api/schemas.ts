/**
 * Valibot schemas for the answers of the hotel API contract (spec §3, §7). The client validates
 * every answer with these, whether it comes from the built-in back end or from an existing one.
 */
import * as v from "valibot";

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

export const FailureSchema = v.object({ success: v.literal(false), msg: v.optional(MsgSchema) });

export const ImageSchema = v.object({
  src: v.string(),
  width: v.number(),
  height: v.number(),
  alt: v.optional(v.string(), ""),
});
export type Image = v.InferOutput<typeof ImageSchema>;

const LangSchema = v.picklist(["zh-TW", "zh-CN", "en-US", "ja-JP", "ko-KR"]);

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
});
export type HotelInfo = v.InferOutput<typeof HotelInfoSchema>;
