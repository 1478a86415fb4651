/**
 * Sign-in attempts are limited per account (hotel and email) and per address: after too many
 * failures in the window, further attempts are refused, the right password included, until the
 * window has passed. Failures are recorded; successes are not.
 */
export const WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

/** The client's address: Cloudflare's header in production, "local" in local development. */
export function clientAddress(request: Request): string {
  return (request.headers.get("cf-connecting-ip") ?? "local").slice(0, 64);
}

export async function isLimited(db: D1Database, hotelId: number, email: string, ip: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - WINDOW_MINUTES * 60_000).toISOString();
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM login_failures WHERE hotel_id = ?1 AND email = ?2 AND at > ?4) AS account,
              (SELECT COUNT(*) FROM login_failures WHERE ip = ?3 AND at > ?4) AS address`,
    )
    .bind(hotelId, email, ip, since)
    .first<{ account: number; address: number }>();
  return (row?.account ?? 0) >= MAX_FAILURES_PER_ACCOUNT || (row?.address ?? 0) >= MAX_FAILURES_PER_ADDRESS;
}

export async function recordFailure(db: D1Database, hotelId: number, email: string, ip: string, now: Date): Promise<void> {
  const old = new Date(now.getTime() - 24 * 60 * 60_000).toISOString();
  await db.batch([
    db.prepare("INSERT INTO login_failures (hotel_id, email, ip, at) VALUES (?, ?, ?, ?)").bind(hotelId, email, ip, now.toISOString()),
    db.prepare("DELETE FROM login_failures WHERE at < ?").bind(old),
  ]);
}
