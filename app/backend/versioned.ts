/**
 * What changes only with an import of a hotel file, kept per Worker instance (decision 046).
 *
 * The hotel row, its room classes and its rate plans are written by the import alone (the app
 * writes only availability, orders and members), and the import's last statement bumps the hotel's
 * content version (migration 0003, decision 026). Every call reads that version anyway, so an
 * instance keeps what it read under the version and reads it again only when the version moves:
 * the next call after an import sees the new file. Anything else that ever changes these tables
 * must bump `hotels.content_version` in the same batch.
 *
 * Kept as promises (concurrent callers share one read; a failed read is forgotten) of frozen rows,
 * at most MEMO_LIMIT entries (a few per hotel), the oldest dropped first.
 */

/** A hotel as seen by these reads: its id and the content version its last import set. */
export type VersionedHotel = { id: number; content_version: number };

const memo = new Map<string, Promise<unknown>>();
const MEMO_LIMIT = 512;

const frozen = <T>(value: T): T => (Array.isArray(value) ? Object.freeze(value.map((row: unknown) => Object.freeze(row))) : Object.freeze(value)) as T;

/** `read()`'s result under `key` (which must name the hotel and its content version). */
export function remembered<T>(key: string, read: () => Promise<T>): Promise<T> {
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = read().then(frozen);
    memo.set(key, value);
    value.catch(() => memo.delete(key));
    if (memo.size > MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  }
  return value;
}
