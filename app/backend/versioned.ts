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

const frozen = <T>(value: T): T =>
  (Array.isArray(value) ? Object.freeze(value.map((row: unknown) => Object.freeze(row))) : Object.freeze(value)) as T;

/**
 * `read()`'s result under `key` (which must name the hotel and its content version). `keeps` says
 * whether a result may be kept: one read at another version than the key names is used once and
 * not kept.
 */
export function remembered<T>(key: string, read: () => Promise<T>, keeps: (value: T) => boolean = () => true): Promise<T> {
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    const reading = read().then(frozen);
    value = reading;
    memo.set(key, reading);
    reading.then(
      (result) => {
        if (!keeps(result) && memo.get(key) === reading) memo.delete(key);
      },
      () => memo.delete(key),
    );
    if (memo.size > MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  }
  return value;
}

/**
 * The rows `statement` reads for `hotel`, kept under its content version. They are read in one
 * batch (one transaction, so one replica's state) with the version they belong to, and kept only
 * when that is the version the caller named: a lagging replica's older rows are used once, never
 * kept under a newer version.
 */
export async function versionedRows<T>(
  db: D1Database,
  hotel: VersionedHotel,
  kind: string,
  statement: D1PreparedStatement,
): Promise<readonly T[]> {
  const { rows } = await remembered(
    `${kind} ${hotel.id} ${hotel.content_version}`,
    async () => {
      const [version, read] = await db.batch([db.prepare("SELECT content_version FROM hotels WHERE id = ?").bind(hotel.id), statement]);
      return {
        version: (version?.results[0] as { content_version?: number } | undefined)?.content_version ?? null,
        rows: frozen((read?.results ?? []) as T[]),
      };
    },
    (result) => result.version === hotel.content_version,
  );
  return rows;
}
