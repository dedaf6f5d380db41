// Estimating how far a server log's clock is from the client log's, from requests both logs show near their start.
import type { CanonicalRecord } from '../schema/record.js';

interface TimedRecord {
  rec: CanonicalRecord;
  ts: number | undefined;
}

/** Keys (session, id with type, method) of the JSON-RPC requests a record carries, for matching across logs. */
function requestKeys(rec: CanonicalRecord): string[] {
  let body: unknown;
  let session: string | null | undefined = rec.session;
  if (rec.kind === 'exchange' || rec.kind === 'request') {
    if (rec.method.toUpperCase() !== 'POST') return [];
    body = rec.send;
    if (body === undefined && rec.sendText !== undefined) {
      try {
        body = JSON.parse(rec.sendText);
      } catch {
        return [];
      }
    }
    if (session === undefined && rec.requestHeaders) {
      for (const k of Object.keys(rec.requestHeaders)) if (k.toLowerCase() === 'mcp-session-id') session = rec.requestHeaders[k];
    }
  } else if (rec.kind === 'message' && rec.direction === 'c2s') body = rec.message;
  else return [];
  const out: string[] = [];
  for (const m of Array.isArray(body) ? body : [body]) {
    if (typeof m !== 'object' || m === null) continue;
    const { id, method } = m as { id?: unknown; method?: unknown };
    if (typeof method !== 'string' || method === 'initialize' || (typeof id !== 'string' && typeof id !== 'number')) continue;
    out.push(`${session ?? ''}|${typeof id}:${String(id)}|${method}`);
  }
  return out;
}

/**
 * The offset (ms) to subtract from `other`'s times to put them on `base`'s clock: the median difference of the
 * requests both show, when at least `minPairs` pair up and it is large enough to matter; else undefined.
 */
export function estimateOffset(base: TimedRecord[], other: TimedRecord[], minPairs = 3, matterMs = 2000): number | undefined {
  const first = new Map<string, number>();
  for (const r of base) {
    if (r.ts === undefined) continue;
    for (const k of requestKeys(r.rec)) if (!first.has(k)) first.set(k, r.ts);
  }
  const diffs: number[] = [];
  const used = new Set<string>();
  for (const r of other) {
    if (r.ts === undefined) continue;
    for (const k of requestKeys(r.rec)) {
      const t = first.get(k);
      if (t !== undefined && !used.has(k)) {
        used.add(k);
        diffs.push(r.ts - t);
      }
    }
  }
  if (diffs.length < minPairs) return undefined;
  diffs.sort((a, b) => a - b);
  const median = diffs[diffs.length >> 1]!;
  return Math.abs(median) >= matterMs ? median : undefined;
}
