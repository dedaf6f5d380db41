// Keeping the first N rows of a table in the table's own order while everything streams by: a bounded max-heap.

/**
 * The `limit` items that come first in `before` order among all offered, and how many were offered. Memory is the
 * limit, not the stream: an item that sorts after the last one kept is only counted. Ties keep the earlier offer when
 * `before` breaks them by an offer sequence number (as every caller here does).
 */
export class TopRows<T> {
  /** A max-heap: items[0] is the kept item that sorts last (the first to go when a better one comes). */
  private items: T[] = [];
  /** Every item offered, kept or not. */
  total = 0;

  constructor(readonly limit: number, private readonly before: (a: T, b: T) => boolean) {}

  offer(item: T): void {
    this.total++;
    if (this.limit <= 0) return;
    const a = this.items;
    if (a.length < this.limit) {
      a.push(item);
      this.up(a.length - 1);
    } else if (this.before(item, a[0]!)) {
      a[0] = item;
      this.down(0);
    }
  }

  /** Count an item that no table will print (nothing is kept). */
  count(): void {
    this.total++;
  }

  /** The kept items, first first. */
  sorted(): T[] {
    return [...this.items].sort((x, y) => (this.before(x, y) ? -1 : this.before(y, x) ? 1 : 0));
  }

  get size(): number {
    return this.items.length;
  }

  private up(i: number): void {
    const a = this.items;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(a[p]!, a[i]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const a = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.before(a[m]!, a[l]!)) m = l;
      if (r < a.length && this.before(a[m]!, a[r]!)) m = r;
      if (m === i) return;
      [a[i], a[m]] = [a[m]!, a[i]!];
      i = m;
    }
  }
}
