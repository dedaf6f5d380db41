// Rotated logs: an input whose recorder goes on from another input's (same xid prefix, counter further on) is that log's next file.

/** Recorders' xids: `<random prefix>-<n>`, n counting up for the recorder's whole life. */
const RECORDER_XID = /^(.+)-(\d{1,15})$/;

/**
 * Tells which inputs are pieces of one log (rotated, or split by hand) so they are analyzed as one: the calls of a
 * log without session ids are told apart by their input (`input#N`), and a retry in the next file would otherwise be
 * another caller's new call. Proof is the recorder's own: a request whose xid has the prefix of another input's (same
 * side) with a counter past every one that prefix has shown. A copy of a log (the same file given twice) repeats
 * the counters, and other recorders draw other prefixes, so neither is joined.
 */
export class RotatedInputs {
  /** `side|prefix` -> the input that showed it first (as resolved) and the highest counter seen. */
  private readonly recorders = new Map<string, { input: number; n: number }>();
  private readonly logOf = new Map<number, number>();

  /** The input a record of `input` is analyzed as; learns from request records. */
  log(input: number, kind: string, side: string, xid: unknown): number {
    const own = this.logOf.get(input) ?? input;
    if (kind !== 'request' || typeof xid !== 'string') return own;
    const m = RECORDER_XID.exec(xid);
    if (!m) return own;
    const key = `${side}|${m[1]}`;
    const n = Number(m[2]);
    const seen = this.recorders.get(key);
    if (!seen) {
      if (this.recorders.size < 100_000) this.recorders.set(key, { input: own, n });
      return own;
    }
    const owner = this.logOf.get(seen.input) ?? seen.input;
    if (owner !== own && n > seen.n && !this.logOf.has(input)) {
      this.logOf.set(input, owner);
      seen.n = n;
      return owner;
    }
    if (owner === own && n > seen.n) seen.n = n;
    return own;
  }
}
