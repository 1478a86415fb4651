import type { Issuer } from "~/domain/einvoice/machine";
import { isLanguage, type Language, DEFAULT_LANGUAGE } from "~/i18n/languages";
import { ApiError } from "~/backend/http.server";
import { remembered } from "~/backend/versioned";
import { parseJson, pickText, presentImage, presentImages, type LocalizedText, type StoredImage } from "~/backend/localize";

export interface HotelRow {
  id: number;
  domain: string;
  hotel_name: string;
  upper_name: string;
  template_code: string;
  template_booking_code: string;
  kind: number;
  origin_pms: string;
  main_lang: string;
  support_lang: string;
  time_zone: string;
  status: number;
  website_exist: number;
  booking_close: number;
  booking_validate: number;
  close_member_system: number;
  business_status: number;
  deposit_type: "all" | "deposit";
  deposit_percent: number;
  payment_list: string;
  payment_gateways: string;
  payment_deadlines: string;
  /** JSON of the hotel file's `abuse_limits` (read with `abuseLimits`). */
  abuse_limits: string;
  member_discount_percent: number;
  member_discount_start: string | null;
  member_discount_end: string | null;
  support_client_cancel: number;
  google_map_open_way: number;
  google_store_name: string;
  ga_code: string;
  pixel_code: string;
  online_support: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  email: string;
  /** JSON list of the addresses the hotel's own emails go to (migration 0016). */
  reservation_emails: string;
  phone: string;
  phone2: string;
  fax: string;
  fb: string;
  line: string;
  instagram: string;
  about_images: string;
  about_us_path: string;
  introduction: string;
  seo_title: string;
  seo_content: string;
  icon_main: string;
  logo_dark: string;
  logo_white: string;
  banners: string;
  custom_block: string;
  location_block: string;
  official_booking: string;
  checkin_start_time: string;
  checkin_end_time: string;
  checkout_time: string;
  refund_template_id: number;
  /** The hotel's own refund ladder after the free window (JSON); "[]": the standard contract's (migration 0006). */
  refund_ladder?: string;
  customer_notice: string;
  booking_policy: string;
  cancel_policy: string;
  registration_name: string;
  business_registration: string;
  unified_business_number: string;
  support_facilities: string;
  thsr_support_on: number;
  /** Rail settings (migration 0011, decision 119); absent before it. */
  thsr_station_id?: string | null;
  thsr_seats_per_train?: number;
  thsr_refund_fee?: number;
  agent_name: string;
  remittance_notice: string;
  remittance_info: string;
  dining_options: string;
  template_images: string;
  tags: string;
  preferences: string;
  updated_at: string;
  /** Bumped by every import of the hotel file (migration 0003). */
  content_version: number;
  /** Who issues the e-invoice (the hotel file's `invoicing`, decision 159); null: Portico issues none. Read with the row (HOTEL_COLUMNS). */
  invoice_issuer?: Issuer | null;
}

/** A hotel row's columns with its e-invoice issuer: the import that changes it bumps content_version too. */
export const HOTEL_COLUMNS = "h.*, (SELECT issuer FROM hotel_invoicing WHERE hotel_id = h.id) AS invoice_issuer";

export function mainLanguage(hotel: Pick<HotelRow, "main_lang">): Language {
  return isLanguage(hotel.main_lang) ? hotel.main_lang : DEFAULT_LANGUAGE;
}

/** The hotel's name in a language (its main language's when it has none in that one). */
export function hotelNameIn(hotel: Pick<HotelRow, "main_lang" | "hotel_name">, lang: Language): string {
  return pickText(parseJson<LocalizedText>(hotel.hotel_name, {}), lang, mainLanguage(hotel));
}

/** The hotel at a domain as first read: its id and content version (null when no hotel has the domain). */
export type HotelHead = { id: number; content_version: number };

/**
 * The read of the hotel's id and content version at `domain`, to run alone or first in a batch;
 * hotelOf then gives the whole row, read once per content version (~/backend/versioned).
 */
export function hotelByDomain(db: D1Database, domain: string): D1PreparedStatement {
  return db.prepare("SELECT id, content_version FROM hotels WHERE domain = ?").bind(domain.toLowerCase());
}

/**
 * The whole hotel row of a head hotelByDomain read. With read replicas the row may come from a
 * newer replica than the head did: such a row is used, but kept only under the version it carries
 * when that is the head's (the room classes and plans are then keyed by the row's version).
 */
export function hotelOf(db: D1Database, head: HotelHead | null | undefined): Promise<HotelRow | null> {
  if (!head) return Promise.resolve(null);
  return remembered(
    `hotel ${head.id} ${head.content_version}`,
    () => db.prepare(`SELECT ${HOTEL_COLUMNS} FROM hotels h WHERE h.id = ?`).bind(head.id).first<HotelRow>(),
    (row) => row !== null && row.content_version === head.content_version,
  );
}

export async function findHotelByDomain(db: D1Database, domain: string): Promise<HotelRow | null> {
  return hotelOf(db, await hotelByDomain(db, domain).first<HotelHead>());
}

/**
 * The hotel named by `domain`, or a 404 the caller can show. A hotel that is not active or has no
 * website is not served: every API call answers it as not found (its site is a 404 too).
 */
export async function requireHotel(db: D1Database, domain: string | null | undefined): Promise<HotelRow> {
  if (!domain) throw new ApiError(400, "domain_required", {}, "domain");
  return requireLiveHotel(await findHotelByDomain(db, domain));
}

/** The hotel row read (hotelByDomain) when it is a live hotel; otherwise the same 404 (ApiError) as requireHotel. The site's liveHotel (platform/context.server.ts) answers null instead. */
export function requireLiveHotel(hotel: HotelRow | null | undefined): HotelRow {
  if (!hotel || hotel.status !== 1 || hotel.website_exist !== 1) throw new ApiError(404, "hotel_not_found");
  return hotel;
}

/** Whether the hotel takes online orders at all (active, has a website, booking open). */
export function assertHotelBookable(hotel: HotelRow): void {
  if (hotel.status !== 1 || hotel.website_exist !== 1 || hotel.business_status === 1) {
    throw new ApiError(409, "hotel_unavailable");
  }
  if (hotel.booking_close === 1) throw new ApiError(409, "booking_closed");
}

interface StoredBanner {
  image: StoredImage;
  title?: LocalizedText;
  subtitle?: LocalizedText;
  link?: string;
}

/** Hotel info (spec §3) in one language. */
/** Whether any of the hotel's payments go through the built-in test gateway, which takes no money (decision 047). */
export function usesTestGateway(hotel: Pick<HotelRow, "payment_gateways">): boolean {
  return parseJson<{ provider?: string }[]>(hotel.payment_gateways, []).some((config) => config.provider === "sandbox");
}

/** The hotel's info (spec §3). `testGateway`: whether the test gateway may run here (the banner says "test mode" only then). */
export function presentHotelInfo(hotel: HotelRow, lang: Language, where: { testGateway: boolean } = { testGateway: false }) {
  const main = mainLanguage(hotel);
  const text = (column: string) => pickText(parseJson<LocalizedText>(column, {}), lang, main);
  const banners = parseJson<StoredBanner[]>(hotel.banners, []);
  const supportLang = parseJson<string[]>(hotel.support_lang, []).filter(isLanguage);
  const servedLang = supportLang.includes(lang) ? lang : main;
  return {
    hotel_id: hotel.id,
    lang: servedLang,
    hotel_name: hotelNameIn(hotel, lang),
    upper_name: text(hotel.upper_name),
    template_code: hotel.template_code,
    template_booking_code: hotel.template_booking_code,
    kind: hotel.kind,
    domain: hotel.domain,
    origin_pms: hotel.origin_pms,
    main_lang: main,
    support_lang: supportLang,
    time_zone: hotel.time_zone,
    status: hotel.status,
    website_exist: hotel.website_exist === 1,
    booking_close: hotel.booking_close === 1,
    booking_validate: hotel.booking_validate === 1,
    close_member_system: hotel.close_member_system === 1,
    business_status: hotel.business_status,
    deposit_type: hotel.deposit_type,
    deposit_percent: hotel.deposit_percent,
    payment_list: parseJson<{ vendor_id: number; method: string }[]>(hotel.payment_list, []),
    /** Who issues the e-invoice (decision 159): the checkout asks the guest's choice only where Portico does. */
    invoice_issuer: hotel.invoice_issuer ?? null,
    /** Portico's own: payments go through the built-in test gateway; every page says "test mode". */
    test_payments: where.testGateway && usesTestGateway(hotel),
    member_price_discount: {
      discount: hotel.member_discount_percent,
      start: hotel.member_discount_start,
      end: hotel.member_discount_end,
    },
    support_client_cancel: hotel.support_client_cancel === 1,
    google_map_open_way: hotel.google_map_open_way,
    google_store_name: hotel.google_store_name,
    ga_code: hotel.ga_code,
    pixel_code: hotel.pixel_code,
    online_support: hotel.online_support,
    address: text(hotel.address),
    coordinates: hotel.latitude != null && hotel.longitude != null ? { lat: hotel.latitude, lng: hotel.longitude } : null,
    email: hotel.email,
    phone: hotel.phone,
    phone2: hotel.phone2,
    fax: hotel.fax,
    fb: hotel.fb,
    line: hotel.line,
    instagram: hotel.instagram,
    about_images: presentImages(parseJson<StoredImage[]>(hotel.about_images, []), lang, main),
    about_us_path: hotel.about_us_path,
    introduction: text(hotel.introduction),
    seo_title: text(hotel.seo_title),
    seo_content: text(hotel.seo_content),
    icon_images: { main: hotel.icon_main },
    logo_images: { dark: hotel.logo_dark, white: hotel.logo_white },
    banner_images: banners.flatMap((banner) => presentImage(banner.image, lang, main) ?? []),
    banner_info: banners.map((banner) => ({
      img: banner.image.src,
      alt: pickText(banner.image.alt, lang, main),
      link: banner.link ?? "",
    })),
    banner_titles: banners.map((banner) => ({
      title: pickText(banner.title, lang, main),
      subtitle: pickText(banner.subtitle, lang, main),
    })),
    custom_block: text(hotel.custom_block),
    location_block: text(hotel.location_block),
    official_booking: hotel.official_booking,
    checkin_start_time: hotel.checkin_start_time,
    checkin_end_time: hotel.checkin_end_time,
    checkout_time: hotel.checkout_time,
    refund_template_id: hotel.refund_template_id,
    customer_notice: text(hotel.customer_notice),
    booking_policy: text(hotel.booking_policy),
    cancel_policy: text(hotel.cancel_policy),
    registration_name: hotel.registration_name,
    business_registration: hotel.business_registration,
    unified_business_number: hotel.unified_business_number,
    support_facilities: parseJson<string[]>(hotel.support_facilities, []),
    thsr_support_on: hotel.thsr_support_on,
    agent_name: hotel.agent_name,
    remittance_notice: text(hotel.remittance_notice),
    remittance_info: parseJson<Record<string, string> | null>(hotel.remittance_info, null),
    dining_options: text(hotel.dining_options),
    template_images: presentImages(parseJson<StoredImage[]>(hotel.template_images, []), lang, main),
    tags: parseJson<string[]>(hotel.tags, []),
    updated_at: hotel.updated_at,
  };
}

export type HotelInfoData = ReturnType<typeof presentHotelInfo>;
