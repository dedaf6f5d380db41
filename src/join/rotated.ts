// Rotated logs: an input whose recorder's records another input showed first (same xid prefix) is that log's next file or a copy of it.

/** Recorders' xids: `<random prefix>-<n>`, n counting up for the recorder's whole life. */
const RECORDER_XID = /^(.+)-(\d{1,15})$/;

/**
 * Tells which inputs are pieces of one log (rotated, or split by hand) so they are analyzed as one: the calls of a
 * log without session ids are told apart by their input (`input#N`), and a retry in the next file would otherwise be
 * another caller's new call. Proof is the recorder's own: a request whose xid has the prefix of another input's (same
 * side) with a counter past every one that prefix has shown. A copy of a log (the same file given twice, a rotated
 * pair or export pages that overlap) repeats the counters: the same recorder's records again, joined too, so that each
 * record seen twice is a duplicated row (DUPLICATE_RECORD), counted once. Other recorders draw other prefixes.
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
    if (owner !== own && !this.logOf.has(input)) {
      // Further on: the log's next file. A counter it showed already: the same recorder's records again (a copy of
      // the log, or a rotated pair or export pages that overlap), read as that log's so that a record seen twice is
      // the duplicated row it is (DUPLICATE_RECORD), not a second request.
      this.logOf.set(input, owner);
      if (n > seen.n) seen.n = n;
      return owner;
    }
    if (owner === own && n > seen.n) seen.n = n;
    return own;
  }
}
