// Records logged within the same millisecond put back in the order they happened, where the log lost it (sorted exports).
import type { CanonicalRecord } from '../schema/record.js';

/** Where a record stands in its exchange: request, response head, SSE events, end (claims and others after). */
function tieRank(r: CanonicalRecord): number {
  switch (r.kind) {
    case 'request':
    case 'exchange':
      return 0;
    case 'response':
      return 1;
    case 'event':
      return 2;
    case 'end':
      return 3;
    default:
      return 4;
  }
}

/** The exchange a split record belongs to, or the JSON-RPC id a message carries, to tell what depends on what. */
function tieKey(r: CanonicalRecord): string | undefined {
  if (r.kind === 'request' || r.kind === 'response' || r.kind === 'event' || r.kind === 'end') return `x:${r.xid}`;
  if (r.kind === 'message' && typeof r.message === 'object' && r.message !== null && !Array.isArray(r.message)) {
    const id = (r.message as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? `m:${typeof id}:${id}` : undefined;
  }
  return undefined;
}

/** Must `later` come before `earlier`? Only when it is the same exchange's earlier step, or the request a message answers. */
function goesBefore(later: CanonicalRecord, earlier: CanonicalRecord): boolean {
  const key = tieKey(later);
  if (key === undefined || key !== tieKey(earlier)) return false;
  if (later.kind === 'message' && earlier.kind === 'message') {
    const isRequest = (m: unknown) => typeof m === 'object' && m !== null && 'method' in m;
    return isRequest(later.message) && !isRequest(earlier.message);
  }
  return tieRank(later) < tieRank(earlier);
}

/**
 * Records with the same time put in the order they happened. Log platforms sort exports by time, and records of one
 * exchange logged within the same millisecond may come back in any order; a response read before its own request
 * would be lost. Only a record of the same exchange (or the request a message answers) is moved, and only within a
 * run of equal times, so records of different calls keep the order of the input and a batch in order costs one
 * comparison per record.
 */
export function settleTies<T extends { ts: number | undefined; rec: CanonicalRecord }>(items: T[]): T[] {
  for (let i = 1; i < items.length; i++) {
    const ts = items[i]!.ts;
    if (ts === undefined || ts !== items[i - 1]!.ts) continue;
    const item = items[i]!;
    // The earliest record of the run (looking back at most TIE_SCAN records) that this one must precede.
    let target = i;
    for (let j = i - 1; j >= 0 && j >= i - TIE_SCAN && items[j]!.ts === ts; j--) if (goesBefore(item.rec, items[j]!.rec)) target = j;
    if (target === i) continue;
    for (let j = i; j > target; j--) items[j] = items[j - 1]!;
    items[target] = item;
  }
  return items;
}

/** How far back in a run of equal times a record is compared (logs with whole-second times have long runs). */
const TIE_SCAN = 64;

