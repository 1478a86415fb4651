/**
 * Room classes, rate plans and their availability over a stay, read from D1. Availability is
 * exact: a plan's inventory over a stay is the minimum over its nights, and a night without an
 * inventory or price row cannot be sold.
 */
import type { Language } from "~/i18n/languages";
import { nightsBetween } from "~/domain/dates";
import { rulesByNight, stayRefusal, type RuleRow, type RulesOf, type StayRefusal } from "~/domain/stay-rules";
import { freeCancelUntil } from "~/domain/refund";
import { parseJson, pickText, presentImages, type LocalizedText, type StoredImage } from "~/backend/localize";
import { versionedRows, type VersionedHotel } from "~/backend/versioned";

export interface RoomClassRow {
  id: number;
  hotel_id: number;
  room_code: string;
  position: number;
  name: string;
  introduction: string;
  show_price: number;
  people: number;
  children: number;
  square_meters: number | null;
  beds: string;
  facilities: string;
  photos: string;
  symbol_tags: string;
  memo_tags: string;
  total_rooms: number;
}

export interface RatePlanRow {
  id: number;
  hotel_id: number;
  rate_plan_code: string;
  position: number;
  name: string;
  introduction: string;
  refund_template_id: number;
  allow_coupon: number;
  allow_member_price: number;
  /** 1: sold to signed-in members only (decision 037). */
  members_only: number;
  contain_meals: number;
  support_entire_rent: number;
  open_check_in_date: string | null;
  close_check_in_date: string | null;
  promo_type: string;
  days: number;
  is_special: number;
  details: string;
  adds_list: string;
  /** Comma-separated room class ids the plan is sold for. */
  target_rooms: string | null;
}

/**
 * Room classes and rate plans change only with an import of the hotel file, which bumps the
 * hotel's content version: they are kept per Worker instance under it (~/backend/versioned).
 */
export function loadRoomClasses(db: D1Database, hotel: VersionedHotel): Promise<readonly RoomClassRow[]> {
  return versionedRows<RoomClassRow>(
    db,
    hotel,
    "rooms",
    db.prepare("SELECT * FROM room_classes WHERE hotel_id = ? ORDER BY position, id").bind(hotel.id),
  );
}

/**
 * The hotel's plans as the caller may see them: members-only plans exist only for a signed-in
 * member, so a guest's search never shows them and a guest's price check or order cannot name them.
 */
export function loadRatePlans(db: D1Database, hotel: VersionedHotel, viewer: { signedIn: boolean }): Promise<readonly RatePlanRow[]> {
  return versionedRows<RatePlanRow>(
    db,
    hotel,
    viewer.signedIn ? "member plans" : "guest plans",
    db
      .prepare(
        `SELECT rp.*, (SELECT group_concat(room_class_id) FROM rate_plan_rooms WHERE rate_plan_id = rp.id) AS target_rooms
         FROM rate_plans rp WHERE rp.hotel_id = ?1 AND (rp.members_only = 0 OR ?2 = 1) ORDER BY rp.position, rp.id`,
      )
      .bind(hotel.id, viewer.signedIn ? 1 : 0),
  );
}

const targets = new WeakMap<RatePlanRow, readonly number[]>();

/** The room classes a plan is sold with; read once per row (rows are kept per content version). */
export function targetRoomIds(plan: RatePlanRow): readonly number[] {
  let ids = targets.get(plan);
  if (!ids) targets.set(plan, (ids = Object.freeze((plan.target_rooms ?? "").split(",").filter(Boolean).map(Number))));
  return ids;
}

export interface BedOut {
  bed: string;
  count: number;
}

const presented = new WeakMap<RoomClassRow, Map<string, PresentedRoomClass>>();

/**
 * A room class in one language: the entity of spec §3 plus its room-list view fields. Built once
 * per row (rows are kept per content version) and language; callers copy, never change it.
 */
export function presentRoomClass(room: RoomClassRow, lang: Language, main: Language): PresentedRoomClass {
  let byLanguage = presented.get(room);
  if (!byLanguage) presented.set(room, (byLanguage = new Map()));
  const key = `${lang} ${main}`;
  let result = byLanguage.get(key);
  if (!result) byLanguage.set(key, (result = Object.freeze(buildRoomClass(room, lang, main))));
  return result;
}

export type PresentedRoomClass = Readonly<ReturnType<typeof buildRoomClass>>;

function buildRoomClass(room: RoomClassRow, lang: Language, main: Language) {
  const beds = parseJson<BedOut[]>(room.beds, []);
  const facilities = parseJson<Record<string, string[]>>(room.facilities, {});
  const photos = presentImages(parseJson<StoredImage[]>(room.photos, []), lang, main);
  const tags = (column: string) => parseJson<LocalizedText[]>(column, []).map((tag) => pickText(tag, lang, main));
  const name = pickText(parseJson<LocalizedText>(room.name, {}), lang, main);
  const introduction = pickText(parseJson<LocalizedText>(room.introduction, {}), lang, main);
  return {
    room_class_id: room.id,
    room_code: room.room_code,
    room_class_name: name,
    show_price: room.show_price,
    photos,
    introduction,
    people: room.people,
    children: room.children,
    symbol_tags: tags(room.symbol_tags),
    memo_tags: tags(room.memo_tags),
    description: { square_meters: room.square_meters, bed: beds },
    facilities,
    total_rooms: room.total_rooms,
    // Room-list view (spec §3)
    id: room.id,
    title: name,
    href: `/room/${room.id}`,
    photo: photos[0]?.src ?? "",
    originPrice: room.show_price,
    tags: tags(room.memo_tags),
    symbo: tags(room.symbol_tags),
    facilities_for_search: Object.values(facilities).flat(),
  };
}

export interface DetailLineOut {
  name: string;
  number: number;
  unit: string;
}

export function presentPlanDetails(plan: RatePlanRow, lang: Language, main: Language): DetailLineOut[] {
  return parseJson<{ name: LocalizedText; number: number; unit?: LocalizedText }[]>(plan.details, []).map((line) => ({
    name: pickText(line.name, lang, main),
    number: line.number,
    unit: pickText(line.unit, lang, main),
  }));
}

/** Rooms left of a room class over a stay. */
export interface RoomAvailability {
  roomClassId: number;
  /** Nights of the stay that have an inventory row. */
  nights: number;
  /** Minimum over the nights of capacity minus booked; 0 when a night is missing. */
  remaining: number;
}

/** A plan for one room class over a stay. */
export interface PlanAvailability {
  roomClassId: number;
  planId: number;
  /** Nights of the stay that have a price. */
  nights: number;
  /** Whole stay, one room. */
  price: number;
  /** Whole stay, one room; null unless every night has a member price. */
  member_price: number | null;
  /** Minimum over the nights of allotment minus sold; null when the plan has no allotment. */
  planRemaining: number | null;
  /**
   * The site's other bookings exclude this plan on a night of the stay (decision 023): the site is
   * rented as a whole, or, for an entire-rent plan, some of its units are already sold.
   */
  siteTaken: boolean;
}

export interface StayAvailability {
  start: string;
  end: string;
  nights: number;
  rooms: Map<number, RoomAvailability>;
  plans: Map<string, PlanAvailability>;
  /** The stay rules of a plan of a room class, night by night (decision 154), for `stayRefusal`. */
  rules: (roomClassId: number, planId: number) => RulesOf;
}

export const planKey = (roomClassId: number, planId: number) => `${roomClassId}-${planId}`;

/**
 * Which hotel an availability read is for: its id, or its domain when the hotel row is read in the
 * same batch (a search then costs the database one round trip).
 */
export type HotelRef = { id: number } | { domain: string };

/**
 * The four reads of a stay's availability, to run in one batch (with the hotel row when `hotel` is
 * a domain), each proportional to the stay's nights (decision 110): the last reads the stay rules
 * (decision 154) from the arrival night to the check-out day, only rows that carry one;
 * plans are read plan by room class by night range on plan_nights' primary key. CROSS JOIN keeps
 * SQLite to that order: left to itself it read every night of every room class of a plan (16,000
 * rows for a two-night stay of the demo hotel instead of 184).
 */
export function availabilityStatements(db: D1Database, hotel: HotelRef, start: string, end: string): D1PreparedStatement[] {
  const hotelId = "id" in hotel ? "?1" : "(SELECT id FROM hotels WHERE domain = ?1)";
  const key = "id" in hotel ? hotel.id : hotel.domain.toLowerCase();
  return [
    db
      .prepare(
        `SELECT rc.id AS roomClassId, COUNT(rn.night) AS nights, MIN(rn.capacity - rn.booked) AS remaining
         FROM room_classes rc
         LEFT JOIN room_nights rn ON rn.room_class_id = rc.id AND rn.night >= ?2 AND rn.night < ?3
         WHERE rc.hotel_id = ${hotelId} GROUP BY rc.id`,
      )
      .bind(key, start, end),
    db
      .prepare(
        `SELECT pn.room_class_id AS roomClassId, pn.rate_plan_id AS planId, COUNT(*) AS nights,
                SUM(pn.price) AS price,
                CASE WHEN COUNT(pn.member_price) = COUNT(*) THEN SUM(pn.member_price) END AS member_price,
                MIN(CASE WHEN pn.allotment IS NULL THEN NULL ELSE pn.allotment - pn.sold END) AS planRemaining,
                MAX(rp.support_entire_rent) AS wholeSite
         FROM rate_plans rp
         CROSS JOIN rate_plan_rooms rpr ON rpr.rate_plan_id = rp.id
         CROSS JOIN plan_nights pn ON pn.rate_plan_id = rpr.rate_plan_id AND pn.room_class_id = rpr.room_class_id
           AND pn.night >= ?2 AND pn.night < ?3
         WHERE rp.hotel_id = ${hotelId}
         GROUP BY pn.room_class_id, pn.rate_plan_id`,
      )
      .bind(key, start, end),
    db
      .prepare(
        `SELECT COALESCE(MAX(entire_rooms > 0), 0) AS entire, COALESCE(MAX(unit_rooms > 0), 0) AS units
         FROM site_nights WHERE hotel_id = ${hotelId} AND night >= ?2 AND night < ?3`,
      )
      .bind(key, start, end),
    stayRulesStatement(db, hotelId, key, start, end),
  ];
}

const RULE_SET = (alias: string) =>
  `(${alias}.closed = 1 OR ${alias}.no_arrival = 1 OR ${alias}.no_departure = 1 OR ${alias}.min_stay IS NOT NULL OR ${alias}.max_stay IS NOT NULL)`;

/**
 * The rows that carry a stay rule from the arrival night through the check-out day (its row says
 * whether guests may leave that morning), of every room class and of every plan sold with one.
 */
function stayRulesStatement(db: D1Database, hotelId: string, key: string | number, start: string, end: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT rn.room_class_id, NULL AS rate_plan_id, rn.night, rn.closed, rn.min_stay, rn.max_stay, rn.no_arrival, rn.no_departure
       FROM room_classes rc CROSS JOIN room_nights rn ON rn.room_class_id = rc.id AND rn.night >= ?2 AND rn.night <= ?3
       WHERE rc.hotel_id = ${hotelId} AND ${RULE_SET("rn")}
       UNION ALL
       SELECT pn.room_class_id, pn.rate_plan_id, pn.night, pn.closed, pn.min_stay, pn.max_stay, pn.no_arrival, pn.no_departure
       FROM rate_plans rp
       CROSS JOIN rate_plan_rooms rpr ON rpr.rate_plan_id = rp.id
       CROSS JOIN plan_nights pn ON pn.rate_plan_id = rpr.rate_plan_id AND pn.room_class_id = rpr.room_class_id
         AND pn.night >= ?2 AND pn.night <= ?3
       WHERE rp.hotel_id = ${hotelId} AND ${RULE_SET("pn")}`,
    )
    .bind(key, start, end);
}

export async function loadAvailability(db: D1Database, hotelId: number, start: string, end: string): Promise<StayAvailability> {
  return stayAvailability(await db.batch(availabilityStatements(db, { id: hotelId }, start, end)), start, end);
}

/** The availability of a stay from the results of availabilityStatements, in their order. */
export function stayAvailability([rooms, plans, site, rules]: D1Result[], start: string, end: string): StayAvailability {
  const nights = nightsBetween(start, end);
  const taken = (site?.results[0] ?? { entire: 0, units: 0 }) as { entire: number; units: number };
  const planMap = new Map<string, PlanAvailability>();
  /** Room classes with a plan the site still allows on every night of the stay. */
  const roomsOpen = new Set<number>();
  const roomsPriced = new Set<number>();
  for (const row of (plans?.results ?? []) as unknown as (Omit<PlanAvailability, "siteTaken"> & { wholeSite: number })[]) {
    const { wholeSite, ...plan } = row;
    const siteTaken = wholeSite === 1 ? taken.units === 1 : taken.entire === 1;
    roomsPriced.add(plan.roomClassId);
    if (!siteTaken) roomsOpen.add(plan.roomClassId);
    planMap.set(planKey(plan.roomClassId, plan.planId), {
      ...plan,
      planRemaining: plan.planRemaining === null ? null : Math.max(0, plan.planRemaining),
      siteTaken,
    });
  }
  const roomMap = new Map<number, RoomAvailability>();
  for (const row of (rooms?.results ?? []) as unknown as RoomAvailability[]) {
    roomMap.set(row.roomClassId, {
      roomClassId: row.roomClassId,
      nights: row.nights,
      // A room whose every plan the site excludes is sold out for this stay (a pitch on a night the
      // whole campsite is rented, the entire-site "room" on a night a pitch is sold).
      remaining:
        row.nights === nights && !(roomsPriced.has(row.roomClassId) && !roomsOpen.has(row.roomClassId))
          ? Math.max(0, row.remaining ?? 0)
          : 0,
    });
  }
  return {
    start,
    end,
    nights,
    rooms: roomMap,
    plans: planMap,
    rules: rulesByNight((rules?.results ?? []) as unknown as RuleRow[]),
  };
}

/**
 * Why the stay rules refuse this stay of a plan for a room class (decision 154), or null: decided by
 * `stayRefusal` alone, with the plan's own minimum nights, as the guest's calendar decides it.
 */
export function ruleRefusal(availability: StayAvailability, plan: RatePlanRow, roomClassId: number): StayRefusal | null {
  return stayRefusal(availability.start, availability.end, availability.rules(roomClassId, plan.id), plan.days);
}

/** Why a plan cannot be sold for a stay at all (dates or length), or null when it can. */
export function planRestriction(plan: RatePlanRow, start: string, nights: number): "plan_not_bookable" | "min_nights" | null {
  if (plan.open_check_in_date && start < plan.open_check_in_date) return "plan_not_bookable";
  if (plan.close_check_in_date && start > plan.close_check_in_date) return "plan_not_bookable";
  if (nights < plan.days) return "min_nights";
  return null;
}

/** A sellable plan for a room over a stay: priced every night, allowed on these dates and by the stay rules. */
export function sellablePlan(
  availability: StayAvailability,
  plan: RatePlanRow,
  roomClassId: number,
  start: string,
): PlanAvailability | null {
  const priced = availability.plans.get(planKey(roomClassId, plan.id));
  if (!priced || priced.nights !== availability.nights) return null;
  if (planRestriction(plan, start, availability.nights)) return null;
  if (ruleRefusal(availability, plan, roomClassId)) return null;
  return priced;
}

/** Inventory of a plan for a room over the stay: the room's rooms left, capped by the plan's allotment. */
export function planInventory(room: RoomAvailability | undefined, plan: PlanAvailability): number {
  if (plan.siteTaken) return 0;
  const roomLeft = room?.remaining ?? 0;
  return plan.planRemaining === null ? roomLeft : Math.min(roomLeft, plan.planRemaining);
}

/** A plan's words in one language: what only an import changes. */
interface PlanWords {
  name: string;
  introduction: string;
  details: readonly DetailLineOut[];
}

const planWords = new WeakMap<RatePlanRow, Map<string, PlanWords>>();

/**
 * A plan's name, introduction and detail lines in one language, built once per row (rows are kept
 * per content version, decision 046) and language, as room classes are (decision 122): a search
 * presents every plan of every room, and parsing their JSON columns again was a third of its work.
 * Frozen; callers never change it.
 */
function wordsOf(plan: RatePlanRow, lang: Language, main: Language): PlanWords {
  let byLanguage = planWords.get(plan);
  if (!byLanguage) planWords.set(plan, (byLanguage = new Map()));
  const key = `${lang} ${main}`;
  let words = byLanguage.get(key);
  if (!words) {
    words = Object.freeze({
      name: pickText(parseJson<LocalizedText>(plan.name, {}), lang, main),
      introduction: pickText(parseJson<LocalizedText>(plan.introduction, {}), lang, main),
      details: Object.freeze(presentPlanDetails(plan, lang, main).map((line) => Object.freeze(line))),
    });
    byLanguage.set(key, words);
  }
  return words;
}

/** One plan as a price_set item of a search response row (spec §3), in one language. */
export function presentPriceSetItem(
  plan: RatePlanRow,
  room: RoomClassRow,
  priced: PlanAvailability,
  inventory: number,
  lang: Language,
  main: Language,
  start: string,
  today: string,
  /** The add-on items the plan offers, presented (decision 115). */
  addsList: readonly unknown[] = [],
) {
  const words = wordsOf(plan, lang, main);
  return {
    proposal_id: plan.id,
    rate_plan_id: plan.id,
    rate_plan_code: plan.rate_plan_code,
    proposal_name: words.name,
    proposal_introduction: words.introduction,
    price: priced.price,
    member_price: plan.allow_member_price === 1 ? priced.member_price : null,
    product: planKey(room.id, plan.id),
    inventory,
    refund_template_id: plan.refund_template_id,
    free_cancel_before_date: freeCancelUntil(start, plan.refund_template_id, today),
    allow_coupon: plan.allow_coupon === 1,
    allow_member_price: plan.allow_member_price === 1,
    members_only: plan.members_only === 1,
    contain_meals: plan.contain_meals === 1,
    support_entire_rent: plan.support_entire_rent === 1,
    days: plan.days,
    details: words.details,
    adds_list: addsList,
  };
}
