/** The Worker's Cron Trigger: unpaid orders expired, old payment events pruned, e-invoices issued, queued email sent. */
import { expireUnpaidOrders, prunePaymentEvents } from "~/backend/payments/payments.server";
import { parseEnv } from "~/platform/env.server";
import { createLogger } from "~/platform/log.server";
import { deliverMail } from "~/backend/mail/deliver.server";
import { queueMornings } from "~/backend/mail/morning.server";
import { rollCalendarsForward } from "~/backend/hotels/roll-forward.server";
import { runInvoiceQueue } from "~/backend/einvoice/runner.server";
import type { EinvoiceDeps } from "~/backend/einvoice/registry.server";
import { EINVOICE_SECRET_NAME } from "~/backend/einvoice/provider";

/** Orders whose e-invoice one Cron pass looks after at most (each a few provider calls): the rest wait for the next pass. */
export const INVOICES_PER_RUN = 20;

/** What the e-invoice runner gets in the Cron: the e-invoice keys a hotel file may name, fetch, and the test gateway's flag. */
export function einvoiceDeps(env: { DB: D1Database; ALLOW_TEST_GATEWAY: boolean }, rawEnv: Record<string, unknown>): EinvoiceDeps {
  return {
    db: env.DB,
    secret: (name) => {
      const value = EINVOICE_SECRET_NAME.test(name) ? rawEnv[name] : undefined;
      return typeof value === "string" && value !== "" ? value : undefined;
    },
    fetcher: (request) => fetch(request),
    testGateway: env.ALLOW_TEST_GATEWAY,
  };
}

/**
 * The Cron Trigger (wrangler.toml [triggers] crons): cancels unpaid orders past their payment
 * deadline and gives their rooms back (docs/decisions/032), queues each hotel's morning email once
 * its local time reaches 07:00 (decision 150), opens each hotel's nights up to its horizon once its
 * local day turns (decision 155), then sends what the outbox still holds (retries, and
 * mail whose waitUntil was cut short).
 */
export async function handleScheduled(
  controller: { scheduledTime: number; cron: string },
  rawEnv: Record<string, unknown>,
): Promise<string[]> {
  const env = parseEnv(rawEnv);
  const run = `cron-${crypto.randomUUID()}`;
  const log = createLogger(run);
  const now = new Date(controller.scheduledTime);
  const expired = await expireUnpaidOrders(env.DB, now, undefined, env.PRODUCT);
  if (expired.length > 0) log.info(`expired ${expired.length} unpaid order(s)`, expired.join(" "));
  const pruned = await prunePaymentEvents(env.DB, now);
  if (pruned > 0) log.info(`forgot ${pruned} payment callback event(s) older than the retention`);
  const mornings = await queueMornings(env.DB, now, { product: env.PRODUCT }, run);
  if (mornings.due > 0)
    log.info(
      `morning emails: ${mornings.due} hotel(s), ${mornings.queued} message(s), ${mornings.trips} round trips, ${mornings.rowsRead} rows read`,
    );
  const rolled = await rollCalendarsForward(env.DB, now);
  if (rolled.hotels > 0)
    log.info(
      `calendars rolled forward: ${rolled.hotels} hotel(s), ${rolled.nights} hotel-night(s), ${rolled.trips} round trips, ${rolled.rowsWritten} rows written`,
    );
  // E-invoices: a failure here never stops the rest of the pass (the queue keeps the orders for the next one).
  try {
    const invoices = await runInvoiceQueue(einvoiceDeps(env, rawEnv), () => now, INVOICES_PER_RUN);
    if (invoices.looked > 0) log.info(`e-invoices: ${invoices.looked} order(s) looked after`);
  } catch (error) {
    log.error("e-invoice queue", error);
  }
  await deliverMail(env, log, { limit: 50 });
  return expired;
}
