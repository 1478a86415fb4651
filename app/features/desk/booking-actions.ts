/**
 * Which of the desk's actions a booking's page offers (decision 151): those that apply to the
 * booking as it is and that the staff member's role may do. The back end decides again on every
 * form; this only keeps the page to the buttons that can work.
 */
import type { DeskAction } from "~/contract/desk-actions-schemas";

/** What the actions' forms need to know of a booking (the booking's page reads it from the staff API). */
export interface BookingForActions {
  order_doc: string;
  status: "pending_payment" | "confirmed" | "cancel_requested" | "cancelled";
  stay_status: "expected" | "in_house" | "checked_out" | "no_show";
  check_in_day: string;
  check_out_day: string;
  pay_deadline: string | null;
  /** What the booking still owes (total less paid). */
  owed: number;
  /** What is due back to the guest (the refunds ledger's sum, decision 151). */
  due_back: number;
  /** Cancelled by the expiry sweep with nothing paid: recording its transfer reinstates it. */
  reinstatable: boolean;
}

export type DeskRole = "owner" | "front_desk" | "read_only";

/** The roles that may act on bookings (the back end's MAY_ACT). */
export const ACTING_ROLES: readonly DeskRole[] = ["owner", "front_desk"];

export function actionsFor(booking: BookingForActions, role: DeskRole, today: string): DeskAction[] {
  if (!ACTING_ROLES.includes(role)) return [];
  const live = booking.status !== "cancelled";
  const expected = booking.stay_status === "expected";
  const arrived = today >= booking.check_in_day;
  const offered: [DeskAction, boolean][] = [
    ["record_transfer", (live && booking.owed > 0) || booking.reinstatable],
    ["record_at_hotel", live && booking.owed > 0],
    ["extend_deadline", booking.status === "pending_payment" && booking.pay_deadline !== null],
    ["check_in", booking.status === "confirmed" && expected && arrived && today < booking.check_out_day],
    ["check_out", live && booking.stay_status === "in_house"],
    ["no_show", live && expected && arrived],
    ["cancel", live && expected],
    ["refund", booking.due_back > 0],
    ["resend_confirmation", live],
    ["note", true],
  ];
  return offered.filter(([, applies]) => applies).map(([action]) => action);
}
