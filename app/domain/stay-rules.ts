/**
 * Stay rules (issue 40, decision 154): what a hotel sets per night for a room class, and per night
 * for a plan of a room class, and whether a stay obeys them. One function decides it for the search,
 * the checkout, the order and both calendars, so that a day the calendar offers is a stay the
 * search sells, and a stay the search refuses is refused for the reason the calendar shows.
 *
 * A room class's rules apply to all its plans; a plan's add to them (the stricter wins). Minimum and
 * maximum stay and "no arrival" are read on the arrival night; "no departure" on the check-out day's
 * row (the night that starts on the morning the guest leaves); "closed" on every night of the stay.
 */
import { addDays, nightsBetween } from "~/domain/dates";

/** One row's rules, as room_nights and plan_nights carry them (migration 0019). */
export interface NightRules {
  closed: number | boolean;
  min_stay: number | null;
  max_stay: number | null;
  no_arrival: number | boolean;
  no_departure: number | boolean;
}

/** Why a stay cannot be sold, in the order a guest is told it (the first that applies). */
export type StayRefusal =
  | { rule: "closed"; night: string }
  | { rule: "no_arrival"; night: string }
  | { rule: "no_departure"; night: string }
  | { rule: "min_stay"; nights: number }
  | { rule: "max_stay"; nights: number };

/** The rules of a night for one room class and plan: the room class's row and the plan's, either absent. */
export type RulesOf = (night: string) => readonly (NightRules | null | undefined)[];

const on = (flag: number | boolean | undefined) => flag === true || flag === 1;

/** The stricter minimum and maximum of a night's rows, with a plan's own minimum nights (rate_plans.days). */
export function stayBounds(rows: readonly (NightRules | null | undefined)[], planDays = 1): { min: number; max: number | null } {
  let min = Math.max(1, planDays);
  let max: number | null = null;
  for (const row of rows) {
    if (!row) continue;
    if (row.min_stay !== null && row.min_stay > min) min = row.min_stay;
    if (row.max_stay !== null && (max === null || row.max_stay < max)) max = row.max_stay;
  }
  return { min, max };
}

/** The rules of a stay's days by their offset from the arrival: 0 the arrival night … the check-out day. */
export type RulesAt = (offset: number) => readonly (NightRules | null | undefined)[];

/** A refusal whose day is an offset from the arrival (what `stayRefusal` dates). */
export type StayRefusalAt =
  | { rule: "closed" | "no_arrival" | "no_departure"; offset: number }
  | { rule: "min_stay" | "max_stay"; nights: number };

/**
 * The rules' one decision, on day offsets: whether a stay of `nights` nights obeys them, the first
 * refusal when it does not. `stayRefusal` dates it; the guest's calendar, which prices thousands of
 * stays a request, asks it with the nights it indexed by day (decision 165).
 */
export function stayRefusalAt(nights: number, rulesAt: RulesAt, planDays = 1): StayRefusalAt | null {
  for (let offset = 0; offset < nights; offset += 1) {
    if (rulesAt(offset).some((row) => on(row?.closed))) return { rule: "closed", offset };
  }
  const arrival = rulesAt(0);
  if (arrival.some((row) => on(row?.no_arrival))) return { rule: "no_arrival", offset: 0 };
  if (rulesAt(nights).some((row) => on(row?.no_departure))) return { rule: "no_departure", offset: nights };
  const { min, max } = stayBounds(arrival, planDays);
  if (nights < min) return { rule: "min_stay", nights: min };
  if (max !== null && nights > max) return { rule: "max_stay", nights: max };
  return null;
}

/**
 * Whether a stay from `checkIn` to `checkOut` obeys the rules; the first refusal when it does not.
 * Rows that do not exist (beyond the loaded calendar) carry no rule; whether there is a room to sell
 * on each night is the inventory's question, not this one.
 */
export function stayRefusal(checkIn: string, checkOut: string, rulesOf: RulesOf, planDays = 1): StayRefusal | null {
  const nights = nightsBetween(checkIn, checkOut);
  const nightAt = (offset: number) => (offset === 0 ? checkIn : offset === nights ? checkOut : addDays(checkIn, offset));
  const refusal = stayRefusalAt(nights, (offset) => rulesOf(nightAt(offset)), planDays);
  if (refusal === null || !("offset" in refusal)) return refusal;
  return { rule: refusal.rule, night: refusal.rule === "closed" ? addDays(checkIn, refusal.offset) : nightAt(refusal.offset) };
}

/** A row of rules as the search and the order read them: a room class's (planId null) or a plan's. */
export interface RuleRow extends NightRules {
  room_class_id: number;
  /** null: the room class's own row (room_nights); else the plan's row (plan_nights). */
  rate_plan_id: number | null;
  night: string;
}

/**
 * The rules of one plan of one room class night by night, from the rows read (rows without a rule
 * may be left out: a missing row carries none). What `stayRefusal` takes as `rulesOf`.
 */
export function rulesByNight(rows: readonly RuleRow[]): (roomClassId: number, planId: number) => RulesOf {
  const byKey = new Map<string, RuleRow>();
  for (const row of rows) byKey.set(`${row.room_class_id} ${row.rate_plan_id ?? 0} ${row.night}`, row);
  return (roomClassId, planId) => (night) => [byKey.get(`${roomClassId} 0 ${night}`), byKey.get(`${roomClassId} ${planId} ${night}`)];
}

/**
 * A refusal as the API answers it (docs/api.md "Stay rules"): the rule, the date it is about (the
 * closed night, the arrival or departure day, or for a minimum or maximum the arrival day), and for
 * a minimum or maximum its nights. The booking page says it in the guest's language.
 */
export interface StayRule {
  rule: StayRefusal["rule"];
  date: string;
  nights: number | null;
}

export function stayRuleOf(refusal: StayRefusal, checkIn: string): StayRule {
  return refusal.rule === "min_stay" || refusal.rule === "max_stay"
    ? { rule: refusal.rule, date: checkIn, nights: refusal.nights }
    : { rule: refusal.rule, date: refusal.night, nights: null };
}
