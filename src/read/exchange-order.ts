// Whole exchanges (a HAR entry) are timed at their start, yet a capture that writes each when it ends lists them in end order: put them back in start order within --order-tolerance, or the longest exchange seen.
import type { CanonicalRecord } from '../schema/record.js';

/** The longest exchange whose lateness is waited for: a GET stream open for a whole session is not. */
export const LONGEST_HELD_MS = 60_000;
/** At most this many exchanges are held (oldest released first): a fast log with long streams must not fill memory. */
export const MOST_HELD = 20_000;

interface Timed {
  ts: number | undefined;
  rec: CanonicalRecord;
}

/**
 * Holds each whole-exchange record until the input's times have passed its start by `toleranceMs` (or, once an
 * exchange came later than that, by the longest exchange seen so far if longer, up to LONGEST_HELD_MS; at most
 * MOST_HELD records), and releases the
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
  // A writer that puts each exchange down when it ends lists one that lasted d ms up to d ms after those that started
  // later: once an exchange has come later than the tolerance (a long GET stream written when it closed), the hold is
  // the longest exchange seen, when that is longer. Not before: holding records longer costs memory and collection
  // time on every log whose exchanges end in a few milliseconds' disorder.
  let longest = 0;
  let lateSeen = false;
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
      if (item.rec.kind === 'exchange') {
        const d = (item.rec as { durationMs?: unknown }).durationMs;
        if (typeof d === 'number' && d > longest) longest = Math.min(d, LONGEST_HELD_MS);
        if (ts < maxTs - toleranceMs) lateSeen = true;
      }
      const hold = lateSeen ? Math.max(toleranceMs, longest) : toleranceMs;
      if (ts < maxTs - hold) {
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
        if (held.length > MOST_HELD) out.push(held.shift()!);
      } else {
        releaseUpTo(ts, out);
        out.push(item);
      }
    }
    releaseUpTo(maxTs - (lateSeen ? Math.max(toleranceMs, longest) : toleranceMs), out);
    if (out.length) yield out;
  }
  if (held.length) yield held.splice(0);
}
