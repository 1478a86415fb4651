/**
 * The contract's public content reads (spec §7): GET only, the same answer for every guest of a
 * hotel in a language (menus, room classes, facilities, promotions, news, attractions, sister
 * hotels, preferences). Availability, prices, carts, orders and members are never among them.
 * The edge cache keeps their answers (app/platform/edge/content-cache.server.ts, decision 026), and
 * the client keeps what it read from those answers (below, decision 130).
 */
import { MemoryCache } from "~/lib/memory";

/** The content reads, by their contract path. */
export const CONTENT_READS: ReadonlySet<string> = new Set([
  "/api/custom/menu",
  "/api/ota/room/list",
  "/api/facility/get_all",
  "/api/promotion/all_types",
  "/api/promotion/info",
  "/api/promotion/actives",
  "/api/announcement/actives",
  "/api/attraction/actives",
  "/api/hotel/list_by_tag",
  "{master}/hotels/preferences",
]);

/** The same reads by the path of their URL on the built-in back end ({master} is /master). */
export const CONTENT_URL_PATHS: ReadonlySet<string> = new Set([...CONTENT_READS].map((path) => path.replace(/^\{master\}/, "/master")));

/** Freezes a value and everything in it: a kept answer is shared by every request of the instance. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Answers larger than this are read afresh each time rather than kept. */
const MAX_KEPT_CHARS = 256 * 1024;

/**
 * Content answers as the client validated them, keyed by the contract path and the answer's very
 * text: the same text always reads the same (JSON.parse and the path's schema are pure), so a kept
 * value is never older than the answer the transport gave. The edge cache decides how fresh an
 * answer is; this only spares a page parsing and checking the same menu, lists and facilities on
 * every request (four of them around every page). Frozen: a caller that changed one would change
 * it for every later request, so any attempt throws instead.
 */
export class KeptAnswers {
  /**
   * Bounded by count and by the text of their keys (each kept answer's own text, beside the edge
   * cache's 4 MB of bodies): a Worker has 128 MB, and its heap reaches about 50 MB around a burst
   * of confirmation PDFs (decision 112).
   */
  private readonly memory = new MemoryCache<{ value: unknown; chars: number }>(200, {
    maxBytes: 2 * 1024 * 1024,
    sizeOf: (entry) => entry.chars,
  });

  private static key(path: string, text: string): string {
    return `${path}\n${text}`;
  }

  /** The value kept for this text of an answer to `path`, if any (`{ value }`: a kept value may be anything). */
  get(path: string, text: string): { value: unknown } | undefined {
    if (text.length > MAX_KEPT_CHARS) return undefined;
    return this.memory.get(KeptAnswers.key(path, text))?.value;
  }

  /** Keeps the value read from this text, frozen, and returns it so; an answer too large to keep is returned as it is. */
  set<T>(path: string, text: string, value: T): T {
    if (text.length > MAX_KEPT_CHARS) return value;
    const frozen = deepFreeze(value);
    this.memory.set(KeptAnswers.key(path, text), { value: frozen, chars: text.length }, 0);
    return frozen;
  }
}
