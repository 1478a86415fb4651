/**
 * The guest's price calendar (issue 40, decision 157): from one read of a hotel's nights, each
 * day's cheapest stay for a party, or why a stay cannot start that day; and, from a chosen
 * check-in, each check-out's total or why it is impossible. It prices a stay exactly as a search
 * does (catalogue.server.ts: every night present, the plan's allotment and the room's rooms left,
 * the site's entire-rent state, the plan's check-in window and minimum days), for a guest who is
 * not signed in: the plan's price, times the rooms asked, on a room class that takes the party.
 * The stay rules are decided by stayRefusalAt alone (what stayRefusal asks for the search), so the
 * calendar and the search agree.
 */
import { addDays, nightsBetween } from "./dates";
import { MAX_STAY_NIGHTS } from "./limits";
import type { Party } from "./sorting";
import { stayBounds, stayRefusalAt, type NightRules, type RuleRow } from "./stay-rules";

export interface CalendarRoom {
  id: number;
  people: number;
  children: number;
}

export interface CalendarPlan {
  id: number;
  days: number;
  open_check_in_date: string | null;
  close_check_in_date: string | null;
  support_entire_rent: number;
  targets: readonly number[];
}

/**
 * The nights one plan of one room class can be sold to the party, by their offset from the first
 * night read: the night's price where the room class's row and the plan's both exist and the room's
 * rooms left (capacity - booked) and the plan's allotment left (if it has one) both cover the rooms
 * asked; undefined where not (no stay can include that night).
 */
export interface PairPrices {
  rate_plan_id: number;
  room_class_id: number;
  prices: readonly (number | undefined)[];
}

export interface SiteNightRow {
  night: string;
  entire_rooms: number;
  unit_rooms: number;
}

/** Why no stay can start on a day, or end on a check-out. */
export type CalendarRefusal =
  | { reason: "past" | "sold_out" | "closed" | "no_arrival" | "no_departure" }
  | { reason: "min_stay" | "max_stay"; nights: number };

export type CalendarDay = { date: string } & ({ price: number; nights: number; min_stay: number } | CalendarRefusal);
export type CalendarCheckOut = { date: string; nights: number } & ({ total: number } | CalendarRefusal);

export interface CalendarNights {
  /** The nights read: from `from` up to `until` (not included). Rows outside it are ignored. */
  from: string;
  until: string;
  rooms: readonly CalendarRoom[];
  plans: readonly CalendarPlan[];
  /** The nights each plan of each room class can be sold to the party; a plan of a room class not listed has none. */
  pairPrices: readonly PairPrices[];
  /** The room classes' and plans' rows that carry a stay rule (a row without one may be left out). */
  rules: readonly RuleRow[];
  siteNights: readonly SiteNightRow[];
}

type Priced = { total: number } | { refusal: CalendarRefusal };
type Rows = readonly (NightRules | undefined)[];

const NO_RULES: Rows = Object.freeze([]);
const NO_PRICES: readonly (number | undefined)[] = Object.freeze([]);

/**
 * The nights read, indexed for the many stays a calendar prices (decision 165): each night is its
 * offset from the first night read, and each plan of a room class that takes the party has its
 * prices and its rule rows in arrays by that offset, so a stay is read without a date parsed or a
 * string key built.
 */
export function calendarOf(read: CalendarNights, party: Party, today: string) {
  const span = Math.max(0, nightsBetween(read.from, read.until));
  const dates = Array.from({ length: span }, (_, offset) => addDays(read.from, offset));
  const offsets = new Map(dates.map((date, offset) => [date, offset]));
  /** A date's offset from the first night read (outside the window too: its nights have no row). */
  const offsetOf = (date: string) => offsets.get(date) ?? nightsBetween(read.from, date);

  // Room classes that take the party, and the plans a guest may book there (the search's rule).
  const pairs = read.rooms
    .filter((room) => room.people >= party.adults / party.rooms && room.children >= party.children)
    .flatMap((room) =>
      read.plans
        .filter((plan) => plan.targets.includes(room.id))
        .map((plan) => ({
          room,
          plan,
          /** By night: the price where the pair can be sold to the party that night (PairPrices). */
          prices: NO_PRICES,
          /** The night's rows that carry a rule: the room class's and the plan's. */
          rules: new Array<(NightRules | undefined)[] | undefined>(span),
        })),
    );
  const pairsOfRoom = new Map<number, (typeof pairs)[number][]>();
  const pairOf = new Map<number, Map<number, (typeof pairs)[number]>>();
  for (const pair of pairs) {
    pairsOfRoom.set(pair.room.id, [...(pairsOfRoom.get(pair.room.id) ?? []), pair]);
    let byRoom = pairOf.get(pair.plan.id);
    if (!byRoom) pairOf.set(pair.plan.id, (byRoom = new Map()));
    byRoom.set(pair.room.id, pair);
  }

  // A night the site's other bookings exclude a plan on (decision 023): it is rented as a whole, or,
  // for an entire-rent plan, some of its units are sold.
  const entireTaken = new Array<boolean>(span).fill(false);
  const unitsTaken = new Array<boolean>(span).fill(false);
  for (const row of read.siteNights) {
    const at = offsets.get(row.night);
    if (at === undefined) continue;
    entireTaken[at] = row.entire_rooms > 0;
    unitsTaken[at] = row.unit_rooms > 0;
  }
  for (const row of read.pairPrices) {
    const pair = pairOf.get(row.rate_plan_id)?.get(row.room_class_id);
    if (pair) pair.prices = row.prices;
  }
  for (const row of read.rules) {
    const at = offsets.get(row.night);
    if (at === undefined) continue;
    const owners = row.rate_plan_id === null ? pairsOfRoom.get(row.room_class_id) : [pairOf.get(row.rate_plan_id)?.get(row.room_class_id)];
    for (const pair of owners ?? []) {
      if (!pair) continue;
      const rows = (pair.rules[at] ??= [undefined, undefined]);
      rows[row.rate_plan_id === null ? 0 : 1] = row;
    }
  }

  /** One plan of one room class over a stay of `nights` from `checkIn` (at offset `at`): its total for the party, or why not. */
  function pairStay(pair: (typeof pairs)[number], checkIn: string, at: number, nights: number): Priced {
    const { plan, prices, rules } = pair;
    // A night the site's other bookings exclude this plan on (decision 023).
    const taken = plan.support_entire_rent === 1 ? unitsTaken : entireTaken;
    const refusal = stayRefusalAt(nights, (offset) => rules[at + offset] ?? NO_RULES, plan.days);
    if (refusal)
      return {
        refusal:
          refusal.rule === "min_stay" || refusal.rule === "max_stay"
            ? { reason: refusal.rule, nights: refusal.nights }
            : { reason: refusal.rule },
      };
    if (plan.open_check_in_date && checkIn < plan.open_check_in_date) return { refusal: { reason: "sold_out" } };
    if (plan.close_check_in_date && checkIn > plan.close_check_in_date) return { refusal: { reason: "sold_out" } };
    let price = 0;
    for (let offset = at; offset < at + nights; offset += 1) {
      const night = prices[offset];
      if (night === undefined || taken[offset] === true) return { refusal: { reason: "sold_out" } };
      price += night;
    }
    return { total: price * party.rooms };
  }

  /** The cheapest stay over every plan, or the refusal a guest is told (rules before sold out). */
  function stay(checkIn: string, at: number, nights: number): Priced {
    let best: number | null = null;
    let refusal: CalendarRefusal = { reason: "sold_out" };
    for (const pair of pairs) {
      const priced = pairStay(pair, checkIn, at, nights);
      if ("total" in priced) best = best === null ? priced.total : Math.min(best, priced.total);
      else if (refusal.reason === "sold_out") refusal = priced.refusal;
    }
    return best === null ? { refusal } : { total: best };
  }

  return {
    /** A day: the cheapest of the shortest stays the rules allow from it, or why none. */
    day(date: string): CalendarDay {
      if (date < today) return { date, reason: "past" };
      const at = offsetOf(date);
      let best: { price: number; nights: number; min_stay: number } | null = null;
      let refusal: CalendarRefusal = { reason: "sold_out" };
      for (const pair of pairs) {
        const arrival = pair.rules[at] ?? NO_RULES;
        const { min, max } = stayBounds(arrival, pair.plan.days);
        // A closed departure morning pushes the shortest stay one night on, within the maximum.
        for (let nights = min; nights <= Math.min(max ?? MAX_STAY_NIGHTS, MAX_STAY_NIGHTS); nights += 1) {
          const priced = pairStay(pair, date, at, nights);
          if ("total" in priced) {
            if (!best || nights < best.nights || (nights === best.nights && priced.total < best.price))
              best = { price: priced.total, nights, min_stay: min };
            break;
          }
          if (priced.refusal.reason !== "no_departure") {
            // A stay of the minimum that cannot be had says its minimum, unless the day itself is shut.
            const own = priced.refusal.reason === "no_arrival" || arrival.some((row) => row?.closed === 1 || row?.closed === true);
            const told: CalendarRefusal = min > 1 && !own ? { reason: "min_stay", nights: min } : priced.refusal;
            if (refusal.reason === "sold_out") refusal = told;
            break;
          }
        }
      }
      return best ? { date, ...best } : { date, ...refusal };
    },
    /** Each check-out from `checkIn` up to the longest stay: the whole stay's total, or why not. */
    checkOuts(checkIn: string): CalendarCheckOut[] {
      const at = offsetOf(checkIn);
      return Array.from({ length: MAX_STAY_NIGHTS }, (_, index) => {
        const date = addDays(checkIn, index + 1);
        if (checkIn < today) return { date, nights: index + 1, reason: "past" };
        const priced = stay(checkIn, at, index + 1);
        return "total" in priced ? { date, nights: index + 1, total: priced.total } : { date, nights: index + 1, ...priced.refusal };
      });
    },
  };
}
