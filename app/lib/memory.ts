/**
 * The Worker instance's own memory in front of the Cache API (decisions 027, 046). Each Cache API
 * read is a call out of the isolate and a body to parse again; an instance serving a hotel keeps
 * the few answers and pages it reads most (keys carry the hotel's versions, so an import never
 * meets an old entry) and asks the Cache API only when it has none or only a copy past its fresh
 * window. Bounded by a number of entries and, when given, by their size: past either, the least
 * recently used entries go.
 */
export class MemoryCache<T> {
  private readonly entries = new Map<string, { value: T; storedAt: number; size: number }>();
  private bytes = 0;

  constructor(
    private readonly limit: number,
    private readonly budget: { maxBytes: number; sizeOf: (value: T) => number } | null = null,
  ) {}

  /** The value kept under `key` with when it was stored (ms since the epoch), if any. */
  get(key: string): { value: T; storedAt: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently used last: the first key is the one to drop.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { value: entry.value, storedAt: entry.storedAt };
  }

  set(key: string, value: T, storedAt: number): void {
    this.delete(key);
    const size = this.budget ? this.budget.sizeOf(value) : 0;
    this.entries.set(key, { value, storedAt, size });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limit && (!this.budget || this.bytes <= this.budget.maxBytes)) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }
}
