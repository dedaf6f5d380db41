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

/** How close (ms) a bodiless server line's start and a client POST's start must come, once shifted, to count as one POST. */
const LINE_MATCH_MS = 50;
/** Below this (ms) an offset of such lines is left alone: the join takes them within a second of the client's times. */
const LINE_MATTER_MS = 500;

/** The number of `lines` (sorted) that have a start in `posts` (sorted) within LINE_MATCH_MS once moved back by `d`. */
function linesMatched(posts: number[], lines: number[], d: number): number {
  let n = 0;
  let j = 0;
  for (const t of lines) {
    const at = t - d;
    while (j < posts.length && posts[j]! < at - LINE_MATCH_MS) j++;
    if (j < posts.length && posts[j]! <= at + LINE_MATCH_MS) n++;
  }
  return n;
}

/**
 * The offset (ms) of a server's bodiless lines (the MCP test kitchen's request log and observations: no JSON-RPC id,
 * only when each POST started) from the client's POSTs: the shift, within `skewMs`, that lines up the most line starts
 * with POST starts (each within 50 ms). Undefined unless at least three and most of the lines inside the client's time
 * span line up, no other shift lines up as many, and it is large enough to matter (half a second).
 */
export function estimateLineOffset(posts: number[], lines: number[], skewMs: number): { offset: number; matched: number; of: number } | undefined {
  if (posts.length < 3 || lines.length < 3) return undefined;
  posts = [...posts].sort((a, b) => a - b);
  lines = [...lines].sort((a, b) => a - b);
  // every difference of a line's start and a POST's start within --skew, counted in 10 ms buckets
  const buckets = new Map<number, number>();
  let lo = 0;
  let pairs = 0;
  for (const t of lines) {
    while (lo < posts.length && posts[lo]! < t - skewMs) lo++;
    for (let j = lo; j < posts.length && posts[j]! <= t + skewMs && pairs < 4_000_000; j++, pairs++) {
      const b = Math.round((t - posts[j]!) / 10);
      buckets.set(b, (buckets.get(b) ?? 0) + 1);
    }
  }
  // the candidates: the fullest 100 ms spans of differences, at most eight, each scored by the lines it lines up
  const spans = [...buckets.keys()].map((b) => {
    let n = 0;
    for (let k = -5; k <= 5; k++) n += buckets.get(b + k) ?? 0;
    return { b, n };
  }).sort((x, y) => y.n - x.n || Math.abs(x.b) - Math.abs(y.b));
  const picked: number[] = [];
  for (const s of spans) {
    if (picked.length >= 8) break;
    if (picked.every((p) => Math.abs(p - s.b) > 10)) picked.push(s.b);
  }
  const scored = picked.map((b) => ({ offset: b * 10, matched: linesMatched(posts, lines, b * 10) })).sort((x, y) => y.matched - x.matched || Math.abs(x.offset) - Math.abs(y.offset));
  const best = scored[0];
  if (!best || best.matched < 3 || (scored[1] && scored[1].matched >= best.matched)) return undefined;
  // the lines whose shifted start falls within the client's span: most of them must line up
  const inside = lines.filter((t) => t - best.offset >= posts[0]! - LINE_MATCH_MS && t - best.offset <= posts[posts.length - 1]! + LINE_MATCH_MS).length;
  if (best.matched * 2 < inside) return undefined;
  if (Math.abs(best.offset) < LINE_MATTER_MS) return undefined;
  // finer than the 10 ms buckets: the shift within 60 ms of it, to the millisecond, that puts each line nearest after a
  // POST's start (a server gets a request after its client sent it: a line before its POST costs three times as much)
  let offset = best.offset;
  let least = Infinity;
  for (let d = best.offset - 60; d <= best.offset + 60; d++) {
    let cost = 0;
    let k = 0;
    for (const t of lines) {
      const at = t - d;
      while (k + 1 < posts.length && posts[k + 1]! <= at) k++;
      const after = at - posts[k]!;
      const next = k + 1 < posts.length ? posts[k + 1]! - at : Infinity;
      cost += Math.min(after >= 0 ? after : 3 * -after, 3 * next, LINE_MATCH_MS);
    }
    if (cost < least) [least, offset] = [cost, d];
  }
  return { offset, matched: best.matched, of: inside };
}
