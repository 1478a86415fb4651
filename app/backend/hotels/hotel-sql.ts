/**
 * Turns a validated hotel file into SQL statements that load it into D1. Loading is an upsert by
 * natural keys (domain, room_code, rate_plan_code, promotion key…), so ids, URLs and orders
 * survive a re-import; bookings already taken are never undone by it.
 */
import { addDays, addMonths, dayOfWeek, nightsBetween, resolveDayRef, stayNights } from "~/domain/dates";
import type { HotelFile } from "~/backend/hotels/hotel-file";

type SqlValue = string | number | boolean | null | undefined;

export function sqlLiteral(value: SqlValue): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replace(/'/g, "''")}'`;
}

const json = (value: unknown) => sqlLiteral(JSON.stringify(value ?? null));

function insert(table: string, row: Record<string, SqlValue>, conflict: string): string {
  const columns = Object.keys(row);
  return `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((column) => sqlLiteral(row[column])).join(", ")}) ${conflict};`;
}

function upsert(table: string, row: Record<string, SqlValue>, keys: string[]): string {
  const updates = Object.keys(row)
    .filter((column) => !keys.includes(column))
    .map((column) => `${column} = excluded.${column}`);
  return insert(table, row, `ON CONFLICT (${keys.join(", ")}) DO UPDATE SET ${updates.join(", ")}`);
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}

/** Prices of a night: holiday over weekend over weekday. */
function nightlyPrice(
  night: string,
  prices: { weekday: number; weekend: number; holiday: number },
  weekendNights: Set<number>,
  holidays: Set<string>,
): number {
  if (holidays.has(night)) return prices.holiday;
  if (weekendNights.has(dayOfWeek(night))) return prices.weekend;
  return prices.weekday;
}

export interface HotelSqlOptions {
  /** The hotel-local day the file is loaded on; relative dates ('today+3') count from it. */
  loadDay: string;
  /** PBKDF2 hashes of the members' passwords, by email (and of the desk's demo owner's). */
  passwordHashes?: Map<string, string>;
  /** The SHA-256 of the desk owner's invitation token, when the file names an owner without demo secrets. */
  ownerInviteHash?: string;
  /** When the invitation's link stops working (ISO). */
  ownerInviteExpires?: string;
  /** Overwrite the nights staff changed at the desk too (hotel:import --reset-desk-changes). */
  resetDeskChanges?: boolean;
}

/**
 * How far ahead the calendar stays open (hotels.horizon_days): as many nights as `inventory.months`
 * loads from the load day, so the last sellable night after the roll-forward is where the import
 * put it (18 months: 548 or 549 nights by the months crossed; capped by the column's 1,100).
 */
export function horizonDays(loadDay: string, months: number): number {
  return Math.min(1_100, nightsBetween(loadDay, addMonths(loadDay, months)));
}

type Rule = HotelFile["inventory"]["rules"][number];
const RULE_COLUMNS = "closed, min_stay, max_stay, no_arrival, no_departure";
const RULE_UPDATES =
  "closed = excluded.closed, min_stay = excluded.min_stay, max_stay = excluded.max_stay, no_arrival = excluded.no_arrival, no_departure = excluded.no_departure";

/** The file's rules by "room_code|rate_plan_code" ('' for a room class's own) and night; later entries add to earlier ones. */
function nightRules(entries: Rule[], loadDay: string): Map<string, Map<string, Rule>> {
  const out = new Map<string, Map<string, Rule>>();
  for (const entry of entries) {
    // A plan's rule without room_code applies to every room class the plan is sold for: keyed "*|plan" and spread by the caller.
    const key = `${entry.room_code ?? "*"}|${entry.rate_plan_code ?? ""}`;
    const byNight = out.get(key) ?? new Map<string, Rule>();
    for (const ref of entry.nights) {
      const night = resolveDayRef(ref, loadDay);
      const before = byNight.get(night);
      byNight.set(night, before ? mergeRules(before, entry) : entry);
    }
    out.set(key, byNight);
  }
  return out;
}

function mergeRules(a: Rule, b: Rule): Rule {
  return {
    ...a,
    closed: a.closed || b.closed,
    min_stay: b.min_stay ?? a.min_stay,
    max_stay: b.max_stay ?? a.max_stay,
    no_arrival: a.no_arrival || b.no_arrival,
    no_departure: a.no_departure || b.no_departure,
  };
}

function bothRules(a: Rule | undefined, b: Rule | undefined): Rule | undefined {
  return a && b ? mergeRules(a, b) : (a ?? b);
}

function ruleValues(rule: Rule | undefined): string {
  return [rule?.closed ?? false, rule?.min_stay ?? null, rule?.max_stay ?? null, rule?.no_arrival ?? false, rule?.no_departure ?? false]
    .map(sqlLiteral)
    .join(", ");
}

export function hotelFileToSql(
  file: HotelFile,
  { loadDay, passwordHashes = new Map(), ownerInviteHash, ownerInviteExpires, resetDeskChanges = false }: HotelSqlOptions,
): string[] {
  const day = (ref: string | undefined) => (ref ? resolveDayRef(ref, loadDay) : null);
  const h = file.hotel;
  const hotelId = `(SELECT id FROM hotels WHERE domain = ${sqlLiteral(h.domain)})`;
  const roomId = (code: string) => `(SELECT id FROM room_classes WHERE hotel_id = ${hotelId} AND room_code = ${sqlLiteral(code)})`;
  const planId = (code: string) => `(SELECT id FROM rate_plans WHERE hotel_id = ${hotelId} AND rate_plan_code = ${sqlLiteral(code)})`;
  const sql: string[] = [];
  // The content version moves at the start as well as at the end (decision 046): what a reader
  // keeps while the import runs, or after an import that stopped halfway, is kept under a version
  // of its own, never under the version the hotel had before the import.
  const bumpContentVersion = `UPDATE hotels SET content_version = content_version + 1 WHERE domain = ${sqlLiteral(h.domain)};`;
  sql.push(bumpContentVersion);

  sql.push(
    upsert(
      "hotels",
      {
        domain: h.domain,
        hotel_name: JSON.stringify(h.hotel_name),
        upper_name: JSON.stringify(h.upper_name),
        template_code: h.template_code,
        template_booking_code: h.template_booking_code,
        kind: h.kind,
        origin_pms: h.origin_pms,
        main_lang: h.main_lang,
        support_lang: JSON.stringify(h.support_lang),
        time_zone: h.time_zone,
        status: h.status,
        website_exist: h.website_exist,
        booking_close: h.booking_close,
        booking_validate: h.booking_validate,
        close_member_system: h.close_member_system,
        business_status: h.business_status,
        deposit_type: h.deposit_type,
        deposit_percent: h.deposit_percent,
        payment_list: JSON.stringify(h.payment_list),
        payment_gateways: JSON.stringify(h.payment_gateways),
        payment_deadlines: JSON.stringify(h.payment_deadlines),
        abuse_limits: JSON.stringify(h.abuse_limits),
        member_discount_percent: h.member_price_discount.discount,
        member_discount_start: day(h.member_price_discount.start),
        member_discount_end: day(h.member_price_discount.end),
        support_client_cancel: h.support_client_cancel,
        google_map_open_way: h.google_map_open_way,
        google_store_name: h.google_store_name,
        ga_code: h.ga_code,
        pixel_code: h.pixel_code,
        online_support: h.online_support,
        address: JSON.stringify(h.address),
        latitude: h.coordinates?.lat ?? null,
        longitude: h.coordinates?.lng ?? null,
        email: h.email,
        reservation_emails: JSON.stringify([...new Set(h.reservation_emails ?? [h.email.toLowerCase()])]),
        phone: h.phone,
        phone2: h.phone2,
        fax: h.fax,
        fb: h.fb,
        line: h.line,
        instagram: h.instagram,
        about_images: JSON.stringify(h.about_images),
        about_us_path: h.about_us_path,
        introduction: JSON.stringify(h.introduction),
        seo_title: JSON.stringify(h.seo_title),
        seo_content: JSON.stringify(h.seo_content),
        icon_main: h.icon_images.main,
        logo_dark: h.logo_images.dark,
        logo_white: h.logo_images.white,
        banners: JSON.stringify(h.banners),
        custom_block: JSON.stringify(h.custom_block),
        location_block: JSON.stringify(h.location_block),
        official_booking: h.official_booking,
        checkin_start_time: h.checkin_start_time,
        checkin_end_time: h.checkin_end_time,
        checkout_time: h.checkout_time,
        refund_template_id: h.refund_template_id,
        refund_ladder: JSON.stringify(h.refund_ladder),
        customer_notice: JSON.stringify(h.customer_notice),
        booking_policy: JSON.stringify(h.booking_policy),
        cancel_policy: JSON.stringify(h.cancel_policy),
        registration_name: h.registration_name,
        business_registration: h.business_registration,
        unified_business_number: h.unified_business_number,
        support_facilities: JSON.stringify(h.support_facilities),
        thsr_support_on: h.thsr_support_on,
        thsr_station_id: h.thsr_station_id || null,
        thsr_seats_per_train: h.thsr_seats_per_train,
        thsr_refund_fee: h.thsr_refund_fee,
        agent_name: h.agent_name,
        remittance_notice: JSON.stringify(h.remittance_notice),
        remittance_info: JSON.stringify(h.remittance_info ?? {}),
        dining_options: JSON.stringify(h.dining_options),
        template_images: JSON.stringify(h.template_images),
        tags: JSON.stringify(h.tags),
        preferences: JSON.stringify(h.preferences),
        updated_at: new Date().toISOString(),
      },
      ["domain"],
    ),
  );

  // Menus are replaced whole.
  sql.push(`DELETE FROM menu_items WHERE hotel_id = ${hotelId};`);
  for (const [menuCode, items] of Object.entries(file.menus)) {
    items.forEach((item, position) => {
      sql.push(
        `INSERT INTO menu_items (hotel_id, menu_code, position, item_type, label, url, new_tab) VALUES (${hotelId}, ${sqlLiteral(menuCode)}, ${position}, ${sqlLiteral(item.type)}, ${json(item.label)}, ${sqlLiteral(item.url)}, ${sqlLiteral(item.new_tab)});`,
      );
    });
  }

  file.room_classes.forEach((room, position) => {
    sql.push(
      `INSERT INTO room_classes (hotel_id, room_code, position, name, introduction, show_price, people, children, square_meters, beds, facilities, photos, symbol_tags, memo_tags, total_rooms) VALUES (${hotelId}, ${sqlLiteral(room.room_code)}, ${position}, ${json(room.name)}, ${json(room.introduction)}, ${room.show_price}, ${room.people}, ${room.children}, ${sqlLiteral(room.square_meters ?? null)}, ${json(room.beds)}, ${json(room.facilities)}, ${json(room.photos)}, ${json(room.symbol_tags)}, ${json(room.memo_tags)}, ${room.total_rooms}) ON CONFLICT (hotel_id, room_code) DO UPDATE SET position = excluded.position, name = excluded.name, introduction = excluded.introduction, show_price = excluded.show_price, people = excluded.people, children = excluded.children, square_meters = excluded.square_meters, beds = excluded.beds, facilities = excluded.facilities, photos = excluded.photos, symbol_tags = excluded.symbol_tags, memo_tags = excluded.memo_tags, total_rooms = excluded.total_rooms;`,
    );
  });
  const roomCodes = file.room_classes.map((room) => sqlLiteral(room.room_code)).join(", ") || "''";
  // Room classes no longer in the file go, unless an order still refers to them.
  sql.push(
    `DELETE FROM room_classes WHERE hotel_id = ${hotelId} AND room_code NOT IN (${roomCodes}) AND id NOT IN (SELECT room_class_id FROM order_lines);`,
  );

  file.rate_plans.forEach((plan, position) => {
    sql.push(
      `INSERT INTO rate_plans (hotel_id, rate_plan_code, position, name, introduction, refund_template_id, allow_coupon, allow_member_price, members_only, contain_meals, support_entire_rent, open_check_in_date, close_check_in_date, promo_type, days, is_special, details, adds_list) VALUES (${hotelId}, ${sqlLiteral(plan.rate_plan_code)}, ${position}, ${json(plan.name)}, ${json(plan.introduction)}, ${plan.refund_template_id}, ${sqlLiteral(plan.allow_coupon)}, ${sqlLiteral(plan.allow_member_price)}, ${sqlLiteral(plan.members_only)}, ${sqlLiteral(plan.contain_meals)}, ${sqlLiteral(plan.support_entire_rent)}, ${sqlLiteral(day(plan.open_check_in_date))}, ${sqlLiteral(day(plan.close_check_in_date))}, ${sqlLiteral(plan.promo_type)}, ${plan.days}, ${sqlLiteral(plan.is_special)}, ${json(plan.details)}, ${json(plan.adds_list)}) ON CONFLICT (hotel_id, rate_plan_code) DO UPDATE SET position = excluded.position, name = excluded.name, introduction = excluded.introduction, refund_template_id = excluded.refund_template_id, allow_coupon = excluded.allow_coupon, allow_member_price = excluded.allow_member_price, members_only = excluded.members_only, contain_meals = excluded.contain_meals, support_entire_rent = excluded.support_entire_rent, open_check_in_date = excluded.open_check_in_date, close_check_in_date = excluded.close_check_in_date, promo_type = excluded.promo_type, days = excluded.days, is_special = excluded.is_special, details = excluded.details, adds_list = excluded.adds_list;`,
    );
  });
  const planCodes = file.rate_plans.map((plan) => sqlLiteral(plan.rate_plan_code)).join(", ") || "''";
  sql.push(
    `DELETE FROM rate_plans WHERE hotel_id = ${hotelId} AND rate_plan_code NOT IN (${planCodes}) AND id NOT IN (SELECT rate_plan_id FROM order_lines);`,
  );
  sql.push(`DELETE FROM rate_plan_rooms WHERE rate_plan_id IN (SELECT id FROM rate_plans WHERE hotel_id = ${hotelId});`);
  for (const plan of file.rate_plans) {
    for (const room of plan.rooms) {
      sql.push(
        `INSERT INTO rate_plan_rooms (rate_plan_id, room_class_id) VALUES (${planId(plan.rate_plan_code)}, ${roomId(room.room_code)});`,
      );
    }
  }

  // Inventory and prices, night by night, from the load day; the standing rules the daily
  // roll-forward opens later nights from (decision 155). Nights staff changed at the desk
  // (changed_at set) are kept unless the import resets them.
  const inventory = file.inventory;
  const lastNight = addMonths(loadDay, inventory.months);
  const nights = stayNights(loadDay, lastNight);
  const weekendNights = new Set(inventory.weekend_nights);
  const holidays = new Set(inventory.holidays.map((ref) => resolveDayRef(ref, loadDay)));
  sql.push(
    `UPDATE hotels SET horizon_days = ${horizonDays(loadDay, inventory.months)}, weekend_nights = ${json([...weekendNights].sort())}, opened_through = MAX(COALESCE(opened_through, ''), ${sqlLiteral(addDays(lastNight, -1))}) WHERE id = ${hotelId};`,
  );
  sql.push(`DELETE FROM hotel_holidays WHERE hotel_id = ${hotelId};`);
  if (holidays.size > 0)
    sql.push(
      `INSERT INTO hotel_holidays (hotel_id, night) SELECT ${hotelId}, column1 FROM (VALUES ${[...holidays].map((night) => `(${sqlLiteral(night)})`).join(", ")});`,
    );
  const soldOut = new Map<string, Set<string>>();
  for (const entry of inventory.sold_out) {
    const set = soldOut.get(entry.room_code) ?? new Set<string>();
    for (const night of entry.nights) set.add(resolveDayRef(night, loadDay));
    soldOut.set(entry.room_code, set);
  }
  const limited = new Map<string, Map<string, number>>();
  for (const entry of inventory.limited) {
    const map = limited.get(entry.room_code) ?? new Map<string, number>();
    for (const night of entry.nights) map.set(resolveDayRef(night, loadDay), entry.rooms);
    limited.set(entry.room_code, map);
  }
  const rules = nightRules(inventory.rules, loadDay);
  const keep = resetDeskChanges ? "" : " WHERE room_nights.changed_at IS NULL";
  const keepPlan = resetDeskChanges ? "" : " WHERE plan_nights.changed_at IS NULL";
  for (const room of file.room_classes) {
    const rows = nights.map((night) => {
      const capacity = soldOut.get(room.room_code)?.has(night)
        ? 0
        : Math.min(room.total_rooms, limited.get(room.room_code)?.get(night) ?? room.total_rooms);
      return `(${sqlLiteral(night)}, ${capacity}, ${ruleValues(rules.get(`${room.room_code}|`)?.get(night))})`;
    });
    for (const chunk of chunks(rows, 200)) {
      // A re-import never sets capacity below what guests have already booked.
      sql.push(
        `INSERT INTO room_nights (room_class_id, night, capacity, ${RULE_COLUMNS}) SELECT ${roomId(room.room_code)}, v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7 FROM (VALUES ${chunk.join(", ")}) AS v WHERE true ON CONFLICT (room_class_id, night) DO UPDATE SET capacity = MAX(excluded.capacity, room_nights.booked), ${RULE_UPDATES}, changed_at = NULL${keep};`,
      );
    }
  }
  sql.push(`DELETE FROM plan_rates WHERE rate_plan_id IN (SELECT id FROM rate_plans WHERE hotel_id = ${hotelId});`);
  for (const plan of file.rate_plans) {
    for (const room of plan.rooms) {
      const memberPercent = plan.allow_member_price ? (room.member_percent ?? null) : null;
      sql.push(
        `INSERT INTO plan_rates (rate_plan_id, room_class_id, weekday, weekend, holiday, member_percent, allotment) VALUES (${planId(plan.rate_plan_code)}, ${roomId(room.room_code)}, ${room.weekday}, ${room.weekend}, ${room.holiday}, ${sqlLiteral(memberPercent)}, ${sqlLiteral(room.allotment ?? null)});`,
      );
      const own = rules.get(`${room.room_code}|${plan.rate_plan_code}`);
      const planWide = rules.get(`*|${plan.rate_plan_code}`);
      const rows = nights.map((night) => {
        const price = nightlyPrice(night, room, weekendNights, holidays);
        const memberPrice = memberPercent !== null ? Math.round((price * memberPercent) / 100) : null;
        return `(${sqlLiteral(night)}, ${price}, ${sqlLiteral(memberPrice)}, ${sqlLiteral(room.allotment ?? null)}, ${ruleValues(bothRules(planWide?.get(night), own?.get(night)))})`;
      });
      // IIF, not CASE … END: wrangler's SQL splitter (used by `d1 execute --file` and the test
      // server) reads CASE as the start of a compound statement and rescans, so a 12 KB statement
      // with one took seconds and the demo import minutes.
      for (const chunk of chunks(rows, 200)) {
        sql.push(
          `INSERT INTO plan_nights (rate_plan_id, room_class_id, night, price, member_price, allotment, ${RULE_COLUMNS}) SELECT ${planId(plan.rate_plan_code)}, ${roomId(room.room_code)}, v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, v.column9 FROM (VALUES ${chunk.join(", ")}) AS v WHERE true ON CONFLICT (rate_plan_id, room_class_id, night) DO UPDATE SET price = excluded.price, member_price = excluded.member_price, allotment = IIF(excluded.allotment IS NULL, NULL, MAX(excluded.allotment, plan_nights.sold)), ${RULE_UPDATES}, changed_at = NULL${keepPlan};`,
        );
      }
    }
  }

  // Add-on items (decision 115): upserted by code; those no longer in the file stay for the orders
  // that name them, inactive. Their plans are replaced whole; a limited item's days are loaded like
  // room nights, never below what guests have already taken.
  const addonId = (code: string) => `(SELECT id FROM addons WHERE hotel_id = ${hotelId} AND addon_code = ${sqlLiteral(code)})`;
  const addonCodes = file.addons.map((addon) => sqlLiteral(addon.code)).join(", ") || "''";
  sql.push(`UPDATE addons SET active = 0 WHERE hotel_id = ${hotelId} AND addon_code NOT IN (${addonCodes});`);
  sql.push(`DELETE FROM addon_plans WHERE addon_id IN (SELECT id FROM addons WHERE hotel_id = ${hotelId});`);
  file.addons.forEach((addon, position) => {
    sql.push(
      `INSERT INTO addons (hotel_id, addon_code, position, name, description, photo, unit, price, child_price, max_per_booking, limited, active) VALUES (${hotelId}, ${sqlLiteral(addon.code)}, ${position}, ${json(addon.name)}, ${json(addon.description)}, ${sqlLiteral(addon.photo)}, ${sqlLiteral(addon.unit)}, ${addon.price}, ${sqlLiteral(addon.child_price ?? null)}, ${addon.max_per_booking}, ${sqlLiteral(addon.inventory !== undefined)}, 1) ON CONFLICT (hotel_id, addon_code) DO UPDATE SET position = excluded.position, name = excluded.name, description = excluded.description, photo = excluded.photo, unit = excluded.unit, price = excluded.price, child_price = excluded.child_price, max_per_booking = excluded.max_per_booking, limited = excluded.limited, active = 1;`,
    );
    for (const code of addon.plans) {
      sql.push(`INSERT INTO addon_plans (addon_id, rate_plan_id) VALUES (${addonId(addon.code)}, ${planId(code)});`);
    }
    const stock = addon.inventory;
    if (stock) {
      const counts = new Map<string, number>();
      for (const entry of stock.days) for (const ref of entry.days) counts.set(resolveDayRef(ref, loadDay), entry.count);
      const rows = nights.map((night) => `(${sqlLiteral(night)}, ${counts.get(night) ?? stock.per_day})`);
      sql.push(`UPDATE addons SET per_day = ${stock.per_day} WHERE id = ${addonId(addon.code)};`);
      for (const chunk of chunks(rows, 200)) {
        sql.push(
          `INSERT INTO addon_days (addon_id, day, capacity) SELECT ${addonId(addon.code)}, v.column1, v.column2 FROM (VALUES ${chunk.join(", ")}) AS v WHERE true ON CONFLICT (addon_id, day) DO UPDATE SET capacity = MAX(excluded.capacity, addon_days.taken);`,
        );
      }
    }
  });

  for (const type of file.promotion_types) {
    sql.push(
      `INSERT INTO promotion_types (hotel_id, topic_key, topic_detail, deleted) VALUES (${hotelId}, ${sqlLiteral(type.key)}, ${json(type.name)}, ${sqlLiteral(type.deleted)}) ON CONFLICT (hotel_id, topic_key) DO UPDATE SET topic_detail = excluded.topic_detail, deleted = excluded.deleted;`,
    );
  }
  const promotionKeys = file.promotions.map((item) => sqlLiteral(`${item.category}:${item.key}`)).join(", ") || "''";
  sql.push(`DELETE FROM promotions WHERE hotel_id = ${hotelId} AND (category || ':' || promotion_key) NOT IN (${promotionKeys});`);
  for (const item of file.promotions) {
    const typeId = item.type
      ? `(SELECT id FROM promotion_types WHERE hotel_id = ${hotelId} AND topic_key = ${sqlLiteral(item.type)})`
      : "NULL";
    sql.push(
      `INSERT INTO promotions (hotel_id, category, promotion_key, promotion_type_id, title, sub_title, main_image, sub_image, detail_foreword, detail_info, begin_date, end_date, public_at, checkin_begin, checkin_end, support_room_type, show_in_index, active, priority, banner_info) VALUES (${hotelId}, ${sqlLiteral(item.category)}, ${sqlLiteral(item.key)}, ${typeId}, ${json(item.title)}, ${json(item.sub_title)}, ${json(item.main_image ?? {})}, ${json(item.sub_image ?? {})}, ${json(item.detail_foreword)}, ${json(item.detail_info)}, ${sqlLiteral(day(item.begin))}, ${sqlLiteral(day(item.end))}, ${sqlLiteral(day(item.public_at))}, ${sqlLiteral(day(item.checkin_begin))}, ${sqlLiteral(day(item.checkin_end))}, ${json(item.rooms)}, ${sqlLiteral(item.show_in_index)}, ${sqlLiteral(item.active)}, ${item.priority}, ${json(item.banner ?? {})}) ON CONFLICT (hotel_id, category, promotion_key) DO UPDATE SET promotion_type_id = excluded.promotion_type_id, title = excluded.title, sub_title = excluded.sub_title, main_image = excluded.main_image, sub_image = excluded.sub_image, detail_foreword = excluded.detail_foreword, detail_info = excluded.detail_info, begin_date = excluded.begin_date, end_date = excluded.end_date, public_at = excluded.public_at, checkin_begin = excluded.checkin_begin, checkin_end = excluded.checkin_end, support_room_type = excluded.support_room_type, show_in_index = excluded.show_in_index, active = excluded.active, priority = excluded.priority, banner_info = excluded.banner_info;`,
    );
  }

  const facilityKeys = file.facilities.map((facility) => sqlLiteral(facility.key)).join(", ") || "''";
  sql.push(`DELETE FROM facilities WHERE hotel_id = ${hotelId} AND facilities_key NOT IN (${facilityKeys});`);
  for (const facility of file.facilities) {
    sql.push(
      `INSERT INTO facilities (hotel_id, facilities_key, title, index_introduction, introduction, floor, main_image, pictures, priority) VALUES (${hotelId}, ${sqlLiteral(facility.key)}, ${json(facility.title)}, ${json(facility.index_introduction)}, ${json(facility.introduction)}, ${sqlLiteral(facility.floor)}, ${json(facility.main_image ?? {})}, ${json(facility.pictures)}, ${facility.priority}) ON CONFLICT (hotel_id, facilities_key) DO UPDATE SET title = excluded.title, index_introduction = excluded.index_introduction, introduction = excluded.introduction, floor = excluded.floor, main_image = excluded.main_image, pictures = excluded.pictures, priority = excluded.priority;`,
    );
  }

  for (const coupon of file.coupons) {
    sql.push(
      `INSERT INTO coupons (hotel_id, code, name, type, percent, discount, verify, card_number_length, valid_from, valid_to, min_amount) VALUES (${hotelId}, ${sqlLiteral(coupon.code)}, ${json(coupon.name)}, ${sqlLiteral(coupon.type)}, ${coupon.percent}, ${coupon.discount}, ${sqlLiteral(coupon.verify)}, ${coupon.card_number_length}, ${sqlLiteral(day(coupon.valid_from))}, ${sqlLiteral(day(coupon.valid_to))}, ${coupon.min_amount}) ON CONFLICT (hotel_id, code) DO UPDATE SET name = excluded.name, type = excluded.type, percent = excluded.percent, discount = excluded.discount, verify = excluded.verify, card_number_length = excluded.card_number_length, valid_from = excluded.valid_from, valid_to = excluded.valid_to, min_amount = excluded.min_amount;`,
    );
  }

  // Members keep the points they earned since: the file's points are their opening balance only.
  for (const member of file.members) {
    sql.push(
      `INSERT INTO members (hotel_id, email, first_name, last_name, phone, points, password_hash) VALUES (${hotelId}, ${sqlLiteral(member.email)}, ${sqlLiteral(member.first_name)}, ${sqlLiteral(member.last_name)}, ${sqlLiteral(member.phone)}, ${member.points}, ${sqlLiteral(passwordHashes.get(member.email) ?? "")}) ON CONFLICT (hotel_id, email) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name, phone = excluded.phone, password_hash = CASE WHEN excluded.password_hash = '' THEN members.password_hash ELSE excluded.password_hash END;`,
    );
  }
  sql.push(...deskOwnerSql(file, hotelId, passwordHashes, ownerInviteHash, ownerInviteExpires));
  sql.push(invoicingSql(file, hotelId));
  // Last: a new content version, so every edge copy of this hotel's pages is replaced on the next
  // request (docs/decisions/026). In the same batch as the rest, it is never seen before the data.
  sql.push(bumpContentVersion);
  return sql;
}

/**
 * Who issues the hotel's e-invoices (decision 159). A file without `invoicing` removes the row:
 * Portico then issues nothing (as for a hotel whose own system issues). Orders keep the issuer
 * they were booked under.
 */
function invoicingSql(file: HotelFile, hotelId: string): string {
  const invoicing = file.invoicing;
  if (!invoicing) return `DELETE FROM hotel_invoicing WHERE hotel_id = ${hotelId};`;
  const values = [
    invoicing.issuer,
    invoicing.provider ?? "sandbox",
    invoicing.mode,
    invoicing.seller_tax_id,
    invoicing.merchant_id,
    JSON.stringify(invoicing.secrets),
    invoicing.allowance,
  ]
    .map(sqlLiteral)
    .join(", ");
  return `INSERT INTO hotel_invoicing (hotel_id, issuer, provider, mode, seller_tax_id, merchant_id, secrets, allowance_mode) VALUES (${hotelId}, ${values}) ON CONFLICT (hotel_id) DO UPDATE SET issuer = excluded.issuer, provider = excluded.provider, mode = excluded.mode, seller_tax_id = excluded.seller_tax_id, merchant_id = excluded.merchant_id, secrets = excluded.secrets, allowance_mode = excluded.allowance_mode;`;
}

/**
 * The desk's first owner (decision 149), only when no staff member of that address exists: the
 * import never overwrites one. A demo owner is active at once with the file's password and TOTP
 * secret; any other is invited (the invitation's link, whose hash is given, is printed by the
 * import). The audit log records what the import did.
 */
function deskOwnerSql(
  file: HotelFile,
  hotelId: string,
  passwordHashes: Map<string, string>,
  inviteHash: string | undefined,
  inviteExpires: string | undefined,
): string[] {
  const owner = file.desk.owner;
  if (!owner) return [];
  const email = sqlLiteral(owner.email.toLowerCase());
  const demo = owner.demo_password !== undefined && owner.demo_totp_secret !== undefined;
  const status = demo ? "active" : "invited";
  const sql = [
    `INSERT INTO staff (hotel_id, email, name, role, lang, status, password_hash, totp_secret) VALUES (${hotelId}, ${email}, ${sqlLiteral(owner.name)}, 'owner', ${sqlLiteral(file.hotel.main_lang)}, '${status}', ${sqlLiteral(demo ? (passwordHashes.get(owner.email) ?? "") : "")}, ${sqlLiteral(demo ? (owner.demo_totp_secret ?? "") : "")}) ON CONFLICT (hotel_id, email) DO NOTHING;`,
    `INSERT INTO audit_log (hotel_id, action, subject, after) SELECT ${hotelId}, 'staff.import_owner', 'staff:' || last_insert_rowid(), json_object('email', ${email}, 'role', 'owner', 'status', '${status}') WHERE changes() = 1;`,
  ];
  if (!demo && inviteHash && inviteExpires) {
    sql.push(
      `INSERT INTO staff_links (token_hash, hotel_id, staff_id, purpose, expires_at) SELECT ${sqlLiteral(inviteHash)}, hotel_id, id, 'invite', ${sqlLiteral(inviteExpires)} FROM staff WHERE hotel_id = ${hotelId} AND email = ${email} AND status = 'invited';`,
    );
  }
  return sql;
}
