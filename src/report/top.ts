// Keeping the first N rows of a table in the table's own order while everything streams by: a bounded heap.
import { MinHeap } from '../join/heap.js';

/**
 * The `limit` items that come first in `before` order among all offered, and how many were offered. Memory is the
 * limit, not the stream: an item that sorts after the last one kept is only counted. Ties keep the earlier offer when
 * `before` breaks them by an offer sequence number (as every caller here does).
 */
export class TopRows<T> {
  /** The kept items, the one that sorts last on top (the first to go when a better one comes). */
  private heap: MinHeap<T>;
  /** Every item offered, kept or not. */
  total = 0;

  constructor(readonly limit: number, private readonly before: (a: T, b: T) => boolean) {
    this.heap = new MinHeap((a, b) => before(b, a));
  }

  offer(item: T): void {
    this.total++;
    if (this.limit <= 0) return;
    if (this.heap.size < this.limit) this.heap.push(item);
    else if (this.before(item, this.heap.peek()!)) {
      this.heap.pop();
      this.heap.push(item);
    }
  }

  /** Count an item that no table will print (nothing is kept). */
  count(): void {
    this.total++;
  }

  /** The kept items, first first. */
  sorted(): T[] {
    return this.heap.values().sort((x, y) => (this.before(x, y) ? -1 : this.before(y, x) ? 1 : 0));
  }

  get size(): number {
    return this.heap.size;
  }
}
