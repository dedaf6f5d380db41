// Whole exchanges (a HAR entry) are timed at their start, yet a capture that writes each when it ends lists them in end order: put them back in start order within --order-tolerance.
import type { CanonicalRecord } from '../schema/record.js';

interface Timed {
  ts: number | undefined;
  rec: CanonicalRecord;
}

/**
 * Holds each whole-exchange record until the input's times have passed its start by `toleranceMs`, and releases the
 * held ones in start order (stable). A streaming HAR writer appends an SSE exchange when its stream ends, after the
 * shorter exchanges that started later (its `notifications/cancelled`, the retry); read in file order, the
 * cancellation came before the request it cancels. Other records pass through at once, after the held exchanges that
 * started before them; an untimed record, or one further back than the tolerance (which the analysis then reports),
 * releases everything held. An input in start order (a DevTools export) comes
 * out as it went in.
 */
export async function* startOrdered<T extends Timed>(batches: AsyncIterable<T[]>, toleranceMs: number): AsyncGenerator<T[]> {
  const held: T[] = [];
  let maxTs = -Infinity;
  const releaseUpTo = (limit: number, out: T[]) => {
    let n = 0;
    while (n < held.length && held[n]!.ts! <= limit) n++;
    if (n > 0) for (const item of held.splice(0, n)) out.push(item);
  };
  for await (const batch of batches) {
    if (batch.length === 0) {
      yield batch;
      continue;
    }
    const out: T[] = [];
    for (const item of batch) {
      const ts = item.ts;
      if (ts === undefined) {
        releaseUpTo(Infinity, out);
        out.push(item);
        continue;
      }
      if (ts < maxTs - toleranceMs) {
        // A jump back beyond the tolerance is not put right here: the analysis says the input is not time-ordered.
        releaseUpTo(Infinity, out);
        out.push(item);
        continue;
      }
      if (ts > maxTs) maxTs = ts;
      if (item.rec.kind === 'exchange') {
        // After every held one with the same or an earlier start (entries mostly come in order: an append).
        let i = held.length;
        while (i > 0 && held[i - 1]!.ts! > ts) i--;
        held.splice(i, 0, item);
      } else {
        releaseUpTo(ts, out);
        out.push(item);
      }
    }
    releaseUpTo(maxTs - toleranceMs, out);
    if (out.length) yield out;
  }
  if (held.length) yield held.splice(0);
}
