/**
 * A stay rule that leaves a search empty, in the guest's words (decision 154): "A stay from Fri,
 * Mar 14, 2026 is at least 2 nights", "No arrivals on …", "Closed on …".
 */
import { formatDate } from "~/i18n/format";
import type { StayRuleAnswer } from "~/contract/schemas";

export function stayRuleText(
  t: (key: string, values?: Record<string, string | number>) => string,
  rule: StayRuleAnswer,
  lang: string,
): string {
  const date = formatDate(rule.date, lang);
  if (rule.rule === "min_stay" || rule.rule === "max_stay") return t(`booking.rule.${rule.rule}`, { date, count: rule.nights ?? 1 });
  return t(`booking.rule.${rule.rule}`, { date });
}
