/**
 * The stay rules checked again inside the order's own batch (decision 154). The order was priced
 * from a read, and `stayRefusal` (app/domain/stay-rules.ts) found nothing against it; staff may close
 * a night or set a rule at the desk before the batch runs. This statement, first in the batch, asks
 * the same questions of the rows as they are then, and aborts the batch when one is refused
 * (migration 0021's stay_rule_refusals): nothing of the order is written. It mirrors `stayRefusal`
 * (a night of the stay closed; the arrival night closed to arrival, or its minimum or maximum stay
 * broken; the check-out day closed to departure; on the room class's row or the plan's), without the
 * plan's own minimum nights, which only an import changes. Which rule it was is read again after
 * the refusal, for the guest's message (create.server.ts).
 */
import { nightsBetween } from "~/domain/dates";

const REFUSES = (alias: string) =>
  `(${alias}.night < ?3 AND ${alias}.closed = 1)
   OR (${alias}.night = ?2 AND (${alias}.no_arrival = 1 OR ${alias}.min_stay > ?4 OR ${alias}.max_stay < ?4))
   OR (${alias}.night = ?3 AND ${alias}.no_departure = 1)`;

export function stayRulesGuard(
  db: D1Database,
  start: string,
  end: string,
  lines: readonly { room: { id: number }; plan: { id: number } }[],
): D1PreparedStatement {
  const pairs = JSON.stringify(lines.map((line) => [line.room.id, line.plan.id]));
  return db
    .prepare(
      `INSERT INTO stay_rule_refusals (rule)
       SELECT 'refused' WHERE EXISTS (
         SELECT 1 FROM json_each(?1) AS line
         JOIN room_nights rn ON rn.room_class_id = line.value ->> '$[0]' AND rn.night >= ?2 AND rn.night <= ?3
         WHERE ${REFUSES("rn")}
         UNION ALL
         SELECT 1 FROM json_each(?1) AS line
         JOIN plan_nights pn ON pn.rate_plan_id = line.value ->> '$[1]' AND pn.room_class_id = line.value ->> '$[0]'
           AND pn.night >= ?2 AND pn.night <= ?3
         WHERE ${REFUSES("pn")}
       )`,
    )
    .bind(pairs, start, end, nightsBetween(start, end));
}

/** The database refused the order's batch because of a stay rule (migration 0021). */
export function isStayRuleRefusal(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.includes("stay_rule_refused");
}
