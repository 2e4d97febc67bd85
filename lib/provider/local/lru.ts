/**
 * A least-recently-used cache bounded by total size (e.g. bytes). Values in flight are cached as
 * promises, so concurrent requests for the same key share one computation.
 */
export class SizedLru<V> {
  private entries = new Map<string, { value: Promise<V>; size: number }>();
  private total = 0;

  constructor(
    private readonly maxSize: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get size() {
    return this.total;
  }

  getOrCreate(key: string, create: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const entry = { value: create(), size: 0 };
    this.entries.set(key, entry);
    entry.value.then(
      (v) => {
        if (this.entries.get(key) !== entry) return;
        entry.size = this.sizeOf(v);
        this.total += entry.size;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.value;
  }

  private evict() {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxSize) break;
      if (entry.size === 0) continue; // still rendering
      this.entries.delete(key);
      this.total -= entry.size;
    }
  }

  clear() {
    this.entries.clear();
    this.total = 0;
  }
}
