// Tests for startOrdered: whole exchanges written when they end are put back in start order, held for the tolerance plus the longest exchange seen, within bounds.
import { describe, expect, it } from 'vitest';
import { LONGEST_HELD_MS, MOST_HELD, startOrdered } from '../../src/read/exchange-order.js';
import type { CanonicalRecord } from '../../src/schema/record.js';

type Item = { ts: number; rec: CanonicalRecord; name: string };
const exchange = (name: string, start: number, durationMs: number): Item => ({ ts: start, name, rec: { v: 1, kind: 'exchange', ts: start, durationMs } as unknown as CanonicalRecord });

/** Feeds the items one batch each, as a reader would; returns the names in the order released, with the batch each came out after. */
async function run(items: Item[], toleranceMs = 5_000): Promise<{ order: string[]; releasedAfter: Map<string, number> }> {
  async function* batches() {
    for (const it of items) yield [it];
  }
  const order: string[] = [];
  const releasedAfter = new Map<string, number>();
  let fed = 0;
  const counted = (async function* () {
    for await (const b of batches()) {
      fed++;
      yield b;
    }
  })();
  for await (const out of startOrdered(counted, toleranceMs)) {
    for (const x of out) {
      order.push(x.name);
      releasedAfter.set(x.name, fed);
    }
  }
  return { order, releasedAfter };
}

describe('startOrdered', () => {
  // p1 written after p2, which started later: this log is written in end order (within the tolerance).
  const endOrder = [exchange('p2', -900, 10), exchange('p1', -1_000, 200)];
  // A GET stream of 8 s written when it ended, after exchanges that started up to 7 s later: later than the tolerance.
  const firstLate = [exchange('slow', 0, 20_000), exchange('a', 21_000, 50), exchange('b', 25_000, 50), exchange('c', 28_000, 50), exchange('get', 20_000, 8_000)];

  it('the first exchange later than the tolerance goes among those still held; from then on the hold is the longest exchange seen, and a later one comes back in start order', async () => {
    const items = [...endOrder, ...firstLate, exchange('d', 40_000, 50), exchange('e', 41_000, 50), exchange('f', 45_000, 50), exchange('get2', 39_000, 9_000), exchange('g', 70_000, 50)];
    const { order } = await run(items);
    // a (21 s) had gone when the first GET came; the second GET is put before every exchange that started after it.
    expect(order).toEqual(['p1', 'p2', 'slow', 'a', 'get', 'b', 'c', 'get2', 'd', 'e', 'f', 'g']);
  });

  it('must not: a log whose exchanges are in start order, or in end order within the tolerance, is held for the tolerance only, whatever its exchanges last', async () => {
    const items = [exchange('slow', 0, 20_000), exchange('a', 21_000, 50), exchange('b', 25_000, 50), exchange('c', 28_000, 50), exchange('d', 40_000, 50)];
    for (const list of [items, [...endOrder, ...items]]) {
      const { order, releasedAfter } = await run(list);
      expect(order.slice(-5)).toEqual(['slow', 'a', 'b', 'c', 'd']);
      // a was released as soon as the input passed 21 + 5 s (at c), not 20 s later.
      expect(releasedAfter.get('a')).toBe(list.length - 1);
    }
  });

  it('must not: with only short exchanges seen, one 10 s back is released at once, for the analysis to report (the tolerance alone)', async () => {
    const items = [exchange('a', 0, 100), exchange('b', 12_000, 100), exchange('c', 14_000, 100), exchange('late', 3_000, 100), exchange('d', 30_000, 100)];
    const { order } = await run(items);
    // b and c were released before late came (12 and 14 s are past 3 + 5 + 0.1 s): late is out of order, as written.
    expect(order.indexOf('late')).toBeGreaterThan(order.indexOf('c'));
  });

  it('waits for the longest exchange seen up to a minute only: a stream of 10 minutes does not hold the log back for 10 minutes', async () => {
    const items = [...endOrder, exchange('long', 0, 600_000), exchange('late', -10_000, 100)];
    for (let t = 1_000; t <= 200_000; t += 1_000) items.push(exchange(`x${t}`, t, 10));
    const { releasedAfter } = await run(items);
    // x1000 is released once the input has passed 1 s + 60 s, not at the end.
    const fedWhenReleased = releasedAfter.get('x1000')!;
    const tsThen = items[fedWhenReleased - 1]!.ts;
    expect(tsThen).toBeGreaterThanOrEqual(1_000 + LONGEST_HELD_MS);
    expect(tsThen).toBeLessThan(1_000 + LONGEST_HELD_MS + 2_000);
  });

  it(`holds at most ${MOST_HELD} exchanges: past that the oldest go first, in start order`, async () => {
    const n = MOST_HELD + 500;
    const items = [...endOrder, exchange('long', 0, 60_000), exchange('late', -10_000, 100)];
    // (late came 10 s late: the hold is the minute of long.) All within a second: none is released by time before the end.
    for (let i = 1; i <= n; i++) items.push(exchange(`x${i}`, 1 + i / 100, 1));
    const { order, releasedAfter } = await run(items);
    expect(order).toHaveLength(n + 4);
    expect(order.slice(0, 6)).toEqual(['late', 'p1', 'p2', 'long', 'x1', 'x2']);
    // The first was released as soon as more than MOST_HELD were held, long before the input ended.
    expect(releasedAfter.get('late')).toBe(MOST_HELD + 1);
    expect(releasedAfter.get(`x${n}`)).toBe(n + 4);
  });
});
