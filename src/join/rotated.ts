// Rotated logs: an input whose recorder's records another input showed first (same xid prefix, or the same request line at the same millisecond) is that log's next file or a copy of it.

/** Recorders' xids: `<random prefix>-<n>`, n counting up for the recorder's whole life. */
const RECORDER_XID = /^(.+)-(\d{1,15})$/;
/** Recorders' requests remembered with their time, to know them again: copies come at the same time, so close by. */
const RECENT = 4096;

/** Request lines of logs without recorder xids remembered, to know them again in another input. */
const RECENT_LINES = 256;

/** An input read as another's log because it repeats that log's records: said once. */
export interface RepeatedLog {
  input: number;
  owner: number;
  /** The recorder's xid repeated, or where the first line repeated is. */
  xid?: string;
  line?: { file: string; line: number };
}

/** A request line's fingerprint: its length and a 32-bit FNV-1a of its text (a window of them, not the lines). */
function lineHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${text.length}:${h >>> 0}`;
}

/**
 * Tells which inputs are pieces of one log (rotated, or split by hand) so they are analyzed as one: the calls of a
 * log without session ids are told apart by their input (`input#N`), and a retry in the next file would otherwise be
 * another caller's new call. Proof is the recorder's own: a request whose xid has the prefix of another input's (same
 * side) with a counter past every one that prefix has shown. A copy of a log (the same file given twice, a rotated
 * pair or export pages that overlap) repeats a request the first showed, the same xid at the same time to the
 * millisecond: that recorder's records again, joined too, so that each record seen twice is a duplicated row
 * (DUPLICATE_RECORD), counted once. Other recorders draw other prefixes (a 2-byte prefix two recorders may share:
 * their counters do not meet at the same millisecond). Memory: one entry per recorder, and the last 4096 requests.
 */
export class RotatedInputs {
  /** `side|prefix` -> the input that showed it first (as resolved) and the highest counter seen. */
  private readonly recorders = new Map<string, { input: number; n: number }>();
  /** `side|xid` of the last RECENT requests of every recorder -> their time and the input that showed it first. */
  private readonly recent = new Map<string, { ts: number | undefined; input: number }>();
  private readonly logOf = new Map<number, number>();
  /** Inputs joined for repeating another's records, in the order found. */
  readonly repeated: RepeatedLog[] = [];
  /** `side|time|line hash` of recent request lines without xids -> the input that wrote it. */
  private readonly lines = new Map<string, number>();

  /**
   * A request line with no recorder xid (a Python DEBUG log, an app's own log): byte for byte one that another input of
   * the same side showed, its time to the millisecond in it, is that log's line again (the log given twice, a rotated
   * pair or export pages that overlap): the input is read as that log's from there on. Requests only. (Two processes'
   * logs that write a byte-identical request line in the same millisecond, such as two clients' `initialize` started
   * together by one harness, are taken for one log so.)
   */
  sameLine(input: number, side: string, ts: number | undefined, raw: string | undefined, src: { file: string; line: number }): number {
    const own = this.logOf.get(input) ?? input;
    if (ts === undefined || raw === undefined) return own;
    const key = `${side}|${ts}|${lineHash(raw)}`;
    const first = this.lines.get(key);
    if (first === undefined) {
      this.lines.set(key, own);
      if (this.lines.size > RECENT_LINES) this.lines.delete(this.lines.keys().next().value!);
      return own;
    }
    const owner = this.logOf.get(first) ?? first;
    if (owner === own || this.logOf.has(input)) return own;
    this.logOf.set(input, owner);
    this.repeated.push({ input, owner, line: src });
    return owner;
  }

  /** The input a record of `input` is analyzed as; learns from request records. */
  log(input: number, kind: string, side: string, xid: unknown, ts?: number): number {
    const own = this.logOf.get(input) ?? input;
    if (kind !== 'request' || typeof xid !== 'string') return own;
    const m = RECORDER_XID.exec(xid);
    if (!m) return own;
    const key = `${side}|${m[1]}`;
    const n = Number(m[2]);
    const seen = this.recorders.get(key);
    const rkey = `${side}|${xid}`;
    if (!seen) {
      if (this.recorders.size < 100_000) this.recorders.set(key, { input: own, n });
      this.learn(rkey, ts, input);
      return own;
    }
    const owner = this.logOf.get(seen.input) ?? seen.input;
    const before = this.recent.get(rkey);
    if (owner !== own && !this.logOf.has(input) && (n > seen.n || (before !== undefined && before.ts === ts))) {
      this.logOf.set(input, owner);
      if (n <= seen.n) this.repeated.push({ input, owner, xid });
      else seen.n = n;
      this.learn(rkey, ts, input);
      return owner;
    }
    if (owner === own) {
      // An input joined to this log as its next part (its counter went on) that showed this very request first, at the
      // same time: it repeats this log's records (export pages that overlap, read newest first), said as a copy is.
      if (before !== undefined && ts !== undefined && before.ts === ts && before.input !== input && this.logOf.get(before.input) === own && !this.repeated.some((r) => r.input === before.input)) this.repeated.push({ input: before.input, owner: own, xid });
      if (n > seen.n) seen.n = n;
      this.learn(rkey, ts, input);
    }
    return own;
  }

  private learn(rkey: string, ts: number | undefined, input: number): void {
    if (this.recent.has(rkey)) return;
    this.recent.set(rkey, { ts, input });
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value!);
  }
}
