import { isSettled, settling, valueOf, type Settling } from "@/lib/core/settling";

/**
 * A least-recently-used cache bounded by total size (e.g. bytes). Values in flight are shared as
 * promises, so concurrent requests for the same key share one computation; once computed, the
 * value itself is kept (lib/core/settling.ts: a kept promise would keep its request alive).
 */
export class SizedLru<V> {
  private entries = new Map<string, { value: Settling<V>; size: number }>();
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
      return valueOf(hit.value);
    }
    const created = create();
    const entry = { value: settling(created, () => this.entries.get(key) === entry && this.entries.delete(key)), size: 0 };
    this.entries.set(key, entry);
    created.then(
      (v) => {
        if (this.entries.get(key) !== entry) return;
        entry.size = this.sizeOf(v);
        this.total += entry.size;
        this.evict();
      },
      () => {},
    );
    return created;
  }

  private evict() {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxSize) break;
      if (!isSettled(entry.value)) continue; // still rendering
      this.entries.delete(key);
      this.total -= entry.size;
    }
  }

  clear() {
    this.entries.clear();
    this.total = 0;
  }
}
