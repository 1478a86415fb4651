/** Free cancellation (spec §5): refund template 1, 2, 3 = 3, 7, 14 days before check-in. */
import { addDays } from "./dates";

export const REFUND_WINDOW_DAYS: Readonly<Record<number, number>> = { 1: 3, 2: 7, 3: 14 };
export const DEFAULT_REFUND_TEMPLATE_ID = 2;

/**
 * The last day a stay can be cancelled free of charge, or null when there is none to show:
 * a non-refundable plan, an unknown template, or a date that is no longer in the future.
 */
export function freeCancelUntil(checkIn: string, refundTemplateId: number, today: string): string | null {
  const days = REFUND_WINDOW_DAYS[refundTemplateId];
  if (days === undefined) return null;
  const until = addDays(checkIn, -days);
  return until > today ? until : null;
}
