/**
 * The Worker instance's own memory in front of the Cache API (decision 046). Each Cache API read
 * is a call out of the isolate and a body to parse again; an instance serving a hotel keeps the
 * few answers it reads most (keys carry the content version, so an import never meets an old
 * entry) and asks the Cache API only when it has none or has only a copy past its fresh window.
 * Bounded: past `limit` entries the least recently used one goes.
 */
export class MemoryCache<T> {
  private readonly entries = new Map<string, { value: T; storedAt: number }>();

  constructor(private readonly limit: number) {}

  /** The value kept under `key` with when it was stored (ms since the epoch), if any. */
  get(key: string): { value: T; storedAt: number } | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last: the first key is the one to drop.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, value: T, storedAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt });
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
