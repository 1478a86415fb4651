/** The Worker's Cron Trigger: unpaid orders expired, old payment events pruned, queued email sent. */
import { expireUnpaidOrders, prunePaymentEvents } from "~/backend/payments/payments.server";
import { parseEnv } from "~/platform/env.server";
import { createLogger } from "~/platform/log.server";
import { deliverMail } from "~/backend/mail/deliver.server";

/**
 * The Cron Trigger (wrangler.toml [triggers] crons): cancels unpaid orders past their payment
 * deadline and gives their rooms back (docs/decisions/032), then sends what the outbox still holds
 * (retries, and mail whose waitUntil was cut short).
 */
export async function handleScheduled(
  controller: { scheduledTime: number; cron: string },
  rawEnv: Record<string, unknown>,
): Promise<string[]> {
  const env = parseEnv(rawEnv);
  const log = createLogger(`cron-${crypto.randomUUID()}`);
  const expired = await expireUnpaidOrders(env.DB, new Date(controller.scheduledTime));
  if (expired.length > 0) log.info(`expired ${expired.length} unpaid order(s)`, expired.join(" "));
  const pruned = await prunePaymentEvents(env.DB, new Date(controller.scheduledTime));
  if (pruned > 0) log.info(`forgot ${pruned} payment callback event(s) older than the retention`);
  await deliverMail(env, log, { limit: 50 });
  return expired;
}
