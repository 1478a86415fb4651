/**
 * Sends what the outbox holds (decision 041): after the response (waitUntil) of any request that
 * may have queued mail, and from the scheduled handler for retries. Each message is claimed by one
 * conditional UPDATE (two deliveries running at once never send it twice); a failure is retried
 * with back-off (1, 2, 4, 8, 16, 32 minutes), then the message is marked failed. A new message is
 * due at once (whatever the clocks of the Worker and the database say).
 */
import { CONFIRMATION_FILE_NAME } from "~/domain/order-paths";
import type { AppEnv } from "~/platform/env.server";
import type { Logger } from "~/platform/log.server";
import { buildConfirmationPdf, documentTexts } from "~/documents/confirmation-pdf";
import { loadFontsFor, loadLogo } from "~/documents/fonts.server";
import { composePending, confirmationFor, type MailDeps } from "~/backend/mail/compose.server";
import type { OutboxRow } from "~/backend/mail/outbox.server";
import { mailerFromEnv, type Mailer, type OutgoingMail } from "~/backend/mail/transports.server";

export const MAX_ATTEMPTS = 6;

/** How long to wait after the n-th failed attempt. */
export function retryDelayMs(attempts: number): number {
  return 2 ** Math.max(0, attempts - 1) * 60_000;
}

export interface DeliveryOptions {
  mailer?: Mailer;
  now?: Date;
  limit?: number;
}

async function attachments(env: AppEnv, deps: MailDeps, row: OutboxRow, log: Logger): Promise<OutgoingMail["attachments"]> {
  if (row.kind !== "order_confirmation" || !env.ASSETS) return [];
  try {
    const found = await confirmationFor(deps, row);
    if (!found) return [];
    const assets = env.ASSETS;
    const logo = await loadLogo(assets, found.logo, log);
    // Only the fonts this text needs are fetched and kept (decision 112).
    const pdf = await buildConfirmationPdf(found.content, await loadFontsFor(assets, documentTexts(found.content, logo)), logo);
    return [{ filename: CONFIRMATION_FILE_NAME, contentType: "application/pdf", content: pdf }];
  } catch (error) {
    // The email still carries the PDF's link: better sent without the file than not at all.
    log.error("confirmation PDF not attached", row.id, error);
    return [];
  }
}

/** The delivery this isolate is running after responses, and whether more mail was queued meanwhile. */
let running: Promise<number> | null = null;
let queuedMeanwhile = false;

/** Passes one delivery makes for mail queued while it runs; what is left waits for the Cron Trigger. */
const MAX_PASSES = 5;

/**
 * Delivery after a response (waitUntil): one at a time per isolate. A request that queues mail
 * while a delivery runs asks the running one for another pass instead of starting its own, which
 * would render and try the same rows again (under 50 orders at once, every response rendered the
 * same 20 messages). That request waits on nothing: a promise of another request is never awaited.
 */
export function deliverMailSoon(env: AppEnv, log: Logger): Promise<number> {
  if (running) {
    queuedMeanwhile = true;
    return Promise.resolve(0);
  }
  const loop = async () => {
    let sent = 0;
    let passes = 0;
    do {
      queuedMeanwhile = false;
      sent += await deliverMail(env, log);
      passes += 1;
    } while (queuedMeanwhile && passes < MAX_PASSES);
    return sent;
  };
  running = loop().finally(() => {
    running = null;
  });
  return running;
}

/** Renders and sends the messages that are due; returns how many were sent. */
export async function deliverMail(env: AppEnv, log: Logger, options: DeliveryOptions = {}): Promise<number> {
  const now = options.now ?? new Date();
  const deps: MailDeps = { db: env.DB, signingSecret: env.SESSION_SECRET, now, log, assets: env.ASSETS };
  let mailer: Mailer | null;
  try {
    mailer = options.mailer ?? mailerFromEnv(env);
    await composePending(deps);
  } catch (error) {
    log.error("mail delivery could not start", error);
    return 0;
  }
  // The outbox transport: messages are rendered and stay queued in D1, read at /dev/outbox.
  if (!mailer) return 0;
  const { results } = await env.DB.prepare(
    `SELECT * FROM mail_outbox WHERE status = 'queued' AND subject IS NOT NULL AND (attempts = 0 OR next_attempt_at <= ?) ORDER BY id LIMIT ?`,
  )
    .bind(now.toISOString(), options.limit ?? 10)
    .all<OutboxRow>();
  let sent = 0;
  for (const row of results) {
    const attempt = row.attempts + 1;
    const claim = await env.DB.prepare(
      "UPDATE mail_outbox SET attempts = ?, next_attempt_at = ? WHERE id = ? AND status = 'queued' AND attempts = ?",
    )
      .bind(attempt, new Date(now.getTime() + retryDelayMs(attempt)).toISOString(), row.id, row.attempts)
      .run();
    if (claim.meta.changes !== 1) continue;
    try {
      const { id } = await mailer.send({
        from: env.MAIL_FROM,
        to: row.to_address,
        subject: row.subject ?? "",
        text: row.text_body ?? "",
        html: row.html_body ?? "",
        attachments: await attachments(env, deps, row, log),
      });
      await env.DB.prepare("UPDATE mail_outbox SET status = 'sent', sent_at = ?, provider_id = ?, last_error = '' WHERE id = ?")
        .bind(now.toISOString(), `${mailer.name}:${id}`, row.id)
        .run();
      sent += 1;
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      log.warn("mail not sent", row.id, `attempt ${attempt}`, message);
      await env.DB.prepare(
        "UPDATE mail_outbox SET last_error = ?, status = CASE WHEN attempts >= ? THEN 'failed' ELSE 'queued' END WHERE id = ?",
      )
        .bind(message, MAX_ATTEMPTS, row.id)
        .run();
    }
  }
  return sent;
}
