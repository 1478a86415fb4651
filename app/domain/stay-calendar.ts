/**
 * The guest's price calendar (issue 40, decision 157): from one read of a hotel's nights, each
 * day's cheapest stay for a party, or why a stay cannot start that day; and, from a chosen
 * check-in, each check-out's total or why it is impossible. It prices a stay exactly as a search
 * does (catalogue.server.ts: every night present, the plan's allotment and the room's rooms left,
 * the site's entire-rent state, the plan's check-in window and minimum days), for a guest who is
 * not signed in: the plan's price, times the rooms asked, on a room class that takes the party.
 * The stay rules are decided by stayRefusal alone, so the calendar and the search agree.
 */
import { addDays, nightsBetween } from "./dates";
import { MAX_STAY_NIGHTS } from "./limits";
import type { Party } from "./sorting";
import { stayBounds, stayRefusal, type NightRules } from "./stay-rules";

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

export interface RoomNightRow extends NightRules {
  room_class_id: number;
  night: string;
  /** capacity - booked */
  remaining: number;
}

export interface PlanNightRow extends NightRules {
  rate_plan_id: number;
  room_class_id: number;
  night: string;
  price: number;
  /** allotment - sold, or null without an allotment */
  remaining: number | null;
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
  rooms: readonly CalendarRoom[];
  plans: readonly CalendarPlan[];
  roomNights: readonly RoomNightRow[];
  planNights: readonly PlanNightRow[];
  siteNights: readonly SiteNightRow[];
}

type Priced = { total: number } | { refusal: CalendarRefusal };

/** The nights read, indexed for the many stays a calendar prices. */
export function calendarOf(read: CalendarNights, party: Party, today: string) {
  const roomNights = new Map(read.roomNights.map((row) => [`${row.room_class_id} ${row.night}`, row]));
  const planNights = new Map(read.planNights.map((row) => [`${row.rate_plan_id} ${row.room_class_id} ${row.night}`, row]));
  const siteNights = new Map(read.siteNights.map((row) => [row.night, row]));
  // Room classes that take the party, and the plans a guest may book there (the search's rule).
  const pairs = read.rooms
    .filter((room) => room.people >= party.adults / party.rooms && room.children >= party.children)
    .flatMap((room) => read.plans.filter((plan) => plan.targets.includes(room.id)).map((plan) => ({ room, plan })));

  /** One plan of one room class over a stay: its total for the party, or why not. */
  function pairStay({ room, plan }: (typeof pairs)[number], checkIn: string, checkOut: string): Priced {
    const refusal = stayRefusal(
      checkIn,
      checkOut,
      (night) => [roomNights.get(`${room.id} ${night}`), planNights.get(`${plan.id} ${room.id} ${night}`)],
      plan.days,
    );
    if (refusal)
      return {
        refusal:
          refusal.rule === "min_stay" || refusal.rule === "max_stay"
            ? { reason: refusal.rule, nights: refusal.nights }
            : { reason: refusal.rule },
      };
    if (plan.open_check_in_date && checkIn < plan.open_check_in_date) return { refusal: { reason: "sold_out" } };
    if (plan.close_check_in_date && checkIn > plan.close_check_in_date) return { refusal: { reason: "sold_out" } };
    const nights = nightsBetween(checkIn, checkOut);
    let price = 0;
    let left = Number.POSITIVE_INFINITY;
    for (let index = 0; index < nights; index += 1) {
      const night = addDays(checkIn, index);
      const roomNight = roomNights.get(`${room.id} ${night}`);
      const planNight = planNights.get(`${plan.id} ${room.id} ${night}`);
      const site = siteNights.get(night);
      if (!roomNight || !planNight) return { refusal: { reason: "sold_out" } };
      if (plan.support_entire_rent === 1 ? (site?.unit_rooms ?? 0) > 0 : (site?.entire_rooms ?? 0) > 0)
        return { refusal: { reason: "sold_out" } };
      left = Math.min(left, roomNight.remaining, planNight.remaining ?? Number.POSITIVE_INFINITY);
      price += planNight.price;
    }
    if (left < party.rooms) return { refusal: { reason: "sold_out" } };
    return { total: price * party.rooms };
  }

  /** The cheapest stay over every plan, or the refusal a guest is told (rules before sold out). */
  function stay(checkIn: string, checkOut: string): Priced {
    let best: number | null = null;
    let refusal: CalendarRefusal = { reason: "sold_out" };
    for (const pair of pairs) {
      const priced = pairStay(pair, checkIn, checkOut);
      if ("total" in priced) best = best === null ? priced.total : Math.min(best, priced.total);
      else if (refusal.reason === "sold_out") refusal = priced.refusal;
    }
    return best === null ? { refusal } : { total: best };
  }

  return {
    /** A day: the cheapest of the shortest stays the rules allow from it, or why none. */
    day(date: string): CalendarDay {
      if (date < today) return { date, reason: "past" };
      let best: { price: number; nights: number; min_stay: number } | null = null;
      let refusal: CalendarRefusal = { reason: "sold_out" };
      for (const pair of pairs) {
        const arrival = [roomNights.get(`${pair.room.id} ${date}`), planNights.get(`${pair.plan.id} ${pair.room.id} ${date}`)];
        const { min, max } = stayBounds(arrival, pair.plan.days);
        // A closed departure morning pushes the shortest stay one night on, within the maximum.
        for (let nights = min; nights <= Math.min(max ?? MAX_STAY_NIGHTS, MAX_STAY_NIGHTS); nights += 1) {
          const priced = pairStay(pair, date, addDays(date, nights));
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
      return Array.from({ length: MAX_STAY_NIGHTS }, (_, index) => {
        const date = addDays(checkIn, index + 1);
        if (checkIn < today) return { date, nights: index + 1, reason: "past" };
        const priced = stay(checkIn, date);
        return "total" in priced ? { date, nights: index + 1, total: priced.total } : { date, nights: index + 1, ...priced.refusal };
      });
    },
  };
}
