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
  // p1 written after p2, which started later: this log is written in end order.
  const endOrder = [exchange('p2', -900, 10), exchange('p1', -1_000, 200)];

  it('a GET stream of 8 s, written when it ended after exchanges that started up to 7 s later, comes back in start order', async () => {
    // The 20 s exchange before it tells the reader such long exchanges occur in this log.
    const items = [...endOrder, exchange('slow', 0, 20_000), exchange('a', 21_000, 50), exchange('b', 25_000, 50), exchange('c', 28_000, 50), exchange('get', 20_000, 8_000), exchange('d', 40_000, 50)];
    const { order } = await run(items);
    expect(order).toEqual(['p1', 'p2', 'slow', 'get', 'a', 'b', 'c', 'd']);
  });

  it('must not: a log in start order (a DevTools export) is not held longer for its long exchanges', async () => {
    const items = [exchange('slow', 0, 20_000), exchange('a', 21_000, 50), exchange('b', 25_000, 50), exchange('c', 28_000, 50), exchange('d', 40_000, 50)];
    const { order, releasedAfter } = await run(items);
    expect(order).toEqual(['slow', 'a', 'b', 'c', 'd']);
    // a was released as soon as the input passed 21 + 5 s (at c), not 20 s later.
    expect(releasedAfter.get('a')).toBe(4);
    // In end order, the same log holds a until the input has passed 21 + 20 s (at the end).
    expect((await run([...endOrder, ...items])).releasedAfter.get('a')).toBe(7);
  });

  it('must not: with only short exchanges seen, one 10 s back is released at once, for the analysis to report (the tolerance alone)', async () => {
    const items = [exchange('a', 0, 100), exchange('b', 12_000, 100), exchange('c', 14_000, 100), exchange('late', 3_000, 100), exchange('d', 30_000, 100)];
    const { order } = await run(items);
    // b and c were released before late came (12 and 14 s are past 3 + 5 + 0.1 s): late is out of order, as written.
    expect(order.indexOf('late')).toBeGreaterThan(order.indexOf('c'));
  });

  it('waits for the longest exchange seen up to a minute only: a stream of 10 minutes does not hold the log back for 10 minutes', async () => {
    const items = [...endOrder, exchange('long', 0, 600_000)];
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
    const items = [...endOrder, exchange('long', 0, 60_000)];
    // All within one second: none is released by time before the end.
    for (let i = 1; i <= n; i++) items.push(exchange(`x${i}`, 1 + i / 100, 1));
    const { order, releasedAfter } = await run(items);
    expect(order).toHaveLength(n + 3);
    expect(order.slice(0, 5)).toEqual(['p1', 'p2', 'long', 'x1', 'x2']);
    // The first was released as soon as more than MOST_HELD were held, long before the input ended.
    expect(releasedAfter.get('p1')).toBe(MOST_HELD + 1);
    expect(releasedAfter.get(`x${n}`)).toBe(n + 3);
  });
});
