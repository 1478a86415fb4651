/**
 * D1 read replication (docs/decisions/028). The built-in back end reads through a D1 session: the
 * first read may go to the nearest replica, and every later read of the request sees at least what
 * the earlier ones saw. A guest who changed something (an order, a cancellation) keeps the session's
 * bookmark in a cookie, so the next page they load reads a copy that already has their own write.
 * Where the binding has no sessions (an older runtime), the database is used as it is.
 */
import type { Logger } from "~/platform/log.server";
import { readCookie } from "~/lib/cookie-header";

export const BOOKMARK_COOKIE = "d1_bookmark";
/** A bookmark as D1 writes them (hex groups joined by dashes); anything else is ignored. */
const BOOKMARK = /^[0-9a-f]{1,16}(?:-[0-9a-f]{1,64}){1,7}$/i;
/** Read-your-writes only matters for the pages right after a write. */
const BOOKMARK_MAX_AGE_SECONDS = 600;

export interface ReplicaSession {
  /** The database to read and write through for this request. */
  db: D1Database;
  /** The bookmark the cookie carried (null when none or unreadable). */
  incoming: string | null;
  /** The session's bookmark now (after this request's reads and writes); null without sessions. */
  bookmark: () => string | null;
}

/** The bookmark the guest's cookie carries; anything else (not a bookmark, not %-decodable) reads as none. */
export function readBookmark(request: Request): string | null {
  const value = readCookie(request.headers.get("cookie"), BOOKMARK_COOKIE);
  return value !== null && BOOKMARK.test(value) ? value : null;
}

export function openReplicaSession(db: D1Database, request: Request, log: Logger): ReplicaSession {
  const incoming = readBookmark(request);
  if (typeof db.withSession !== "function") return { db, incoming, bookmark: () => null };
  let session: D1DatabaseSession;
  try {
    session = db.withSession(incoming ?? "first-unconstrained");
  } catch (error) {
    log.warn("D1 bookmark refused, reading without it", error);
    session = db.withSession("first-unconstrained");
  }
  return {
    // A session answers prepare and batch like the database, which is all the back end uses.
    db: session as unknown as D1Database,
    incoming,
    bookmark: () => session.getBookmark(),
  };
}

/** The Set-Cookie that carries a new bookmark to the guest's next requests, or null when nothing changed. */
export function bookmarkSetCookie(session: ReplicaSession): string | null {
  const bookmark = session.bookmark();
  if (!bookmark || bookmark === session.incoming || !BOOKMARK.test(bookmark)) return null;
  return `${BOOKMARK_COOKIE}=${encodeURIComponent(bookmark)}; Max-Age=${BOOKMARK_MAX_AGE_SECONDS}; Path=/; HttpOnly; Secure; SameSite=Lax`;
}
