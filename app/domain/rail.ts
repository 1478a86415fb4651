/**
 * THSR's booking rules (../shared/integrations.md "Taiwan High Speed Rail"; issue 27; decision 120):
 * the booking window, tickets per booking, who may travel with whom, what passengers pay and what a
 * refund keeps. Pure: the caller supplies fares and times as the database has them.
 */
import { addDays, dayOfWeek } from "~/domain/dates";

export const FARE_TYPES = ["adult", "child", "senior", "disabled"] as const;
export type FareType = (typeof FARE_TYPES)[number];
export type Passengers = Record<FareType, number>;
export type Fares = Record<FareType, number>;

/** Reserved-seat booking opens this many days before the departure day, at 00:00. */
export const BOOKING_OPENS_DAYS = 28;
/** ...and closes this long before departure. */
export const BOOKING_CLOSES_MS = 60 * 60 * 1000;
/** Tickets in one booking, and per direction of a return trip. */
export const MAX_TICKETS = 10;
export const MAX_TICKETS_PER_DIRECTION_RETURN = 5;
/** THSR's refund handling fee per ticket by default (NT$20 at the time of writing; a hotel setting). */
export const DEFAULT_REFUND_FEE = 20;

/** THSR runs on Taiwan time (UTC+8, no daylight saving). */
const TAIWAN_OFFSET = "+08:00";

export function seatsOf(passengers: Passengers): number {
  return passengers.adult + passengers.child + passengers.senior + passengers.disabled;
}

/** What the passengers of one line pay. */
export function railAmount(passengers: Passengers, fares: Fares): number {
  return FARE_TYPES.reduce((sum, type) => sum + passengers[type] * fares[type], 0);
}

/** The moment a train leaves a station: its day and "HH:MM", Taiwan time. */
export function departureInstant(day: string, time: string): Date {
  return new Date(`${day}T${time}:00${TAIWAN_OFFSET}`);
}

/** The last day on sale today (the window's end): today + 28. */
export function lastBookableDay(todayTaiwan: string): string {
  return addDays(todayTaiwan, BOOKING_OPENS_DAYS);
}

export type WindowProblem = "rail_not_open_yet" | "rail_booking_closed";

/** Whether a train leaving at `departure` (on `day`) can be booked at `now`. */
export function bookingWindowProblem(day: string, departure: Date, todayTaiwan: string, now: Date): WindowProblem | null {
  if (day > lastBookableDay(todayTaiwan)) return "rail_not_open_yet";
  if (departure.getTime() - now.getTime() < BOOKING_CLOSES_MS) return "rail_booking_closed";
  return null;
}

export type PassengerProblem = "rail_no_passenger" | "rail_child_alone";

/** A line needs a passenger, and a child an adult or a senior with them. */
export function passengerProblem(passengers: Passengers): PassengerProblem | null {
  if (seatsOf(passengers) < 1) return "rail_no_passenger";
  if (passengers.child > 0 && passengers.adult + passengers.senior < 1) return "rail_child_alone";
  return null;
}

/** The limit the lines of one booking break (10 tickets; 5 per direction of a return trip), or null. */
export function ticketLimitProblem(lines: readonly { direction: string; passengers: Passengers }[]): { max: number } | null {
  const total = lines.reduce((sum, line) => sum + seatsOf(line.passengers), 0);
  if (total > MAX_TICKETS) return { max: MAX_TICKETS };
  const directions = new Set(lines.map((line) => line.direction));
  if (directions.size > 1 && lines.some((line) => seatsOf(line.passengers) > MAX_TICKETS_PER_DIRECTION_RETURN)) {
    return { max: MAX_TICKETS_PER_DIRECTION_RETURN };
  }
  return null;
}

/** A refund before departure: the fee kept (per ticket, never more than was paid) and what comes back. */
export function railRefund(amount: number, seats: number, feePerTicket: number): { fee: number; refund: number } {
  const fee = Math.min(amount, seats * feePerTicket);
  return { fee, refund: amount - fee };
}

/** Whether a train with these service days ("1111100", Monday first) and validity runs on `day`. */
export function runsOn(train: { service_days: string; effective_date: string | null; expiring_date: string | null }, day: string): boolean {
  if (train.effective_date && day < train.effective_date) return false;
  if (train.expiring_date && day > train.expiring_date) return false;
  const mondayFirst = (dayOfWeek(day) + 6) % 7;
  return train.service_days[mondayFirst] === "1";
}

/** Minutes between two "HH:MM" on the same day (THSR runs no train past midnight). */
export function minutesBetween(from: string, to: string): number {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  return minutes(to) - minutes(from);
}
