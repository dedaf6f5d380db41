// Telling a newest-first input (log-platform exports: gcloud logging read, logcli, search pages) from an oldest-first one by its first lines' times.

/** Lines looked at before the order is settled, at most; and their text, at most (the lines are held meanwhile). */
export const PROBE_LINES = 2000;
export const PROBE_BYTES = 8 << 20;
/** Steps one way that settle the order early, when the other way has at most a quarter as many. */
const EARLY_STEPS = 16;

export type InputOrder = 'oldest-first' | 'newest-first';

/**
 * Counts, over consecutive lines with a time, how often time goes forward and how often it goes back. An input whose
 * times mostly go back (at least four steps back for each step forward) is newest first; anything
 * else is read as written, and the join's order tolerance handles the rest.
 */
export class OrderProbe {
  private last: number | undefined;
  private forward = 0;
  private back = 0;
  lines = 0;
  private bytes = 0;

  /** The time of one line (its first record's), or undefined when it has none; and the line's length. */
  note(ts: number | undefined, length = 0): void {
    this.lines++;
    this.bytes += length;
    if (ts === undefined) return;
    if (this.last !== undefined) {
      if (ts > this.last) this.forward++;
      else if (ts < this.last) this.back++;
    }
    this.last = ts;
  }

  /** The order once it is clear, or undefined while it is not (and the probe has lines left). */
  settled(): InputOrder | undefined {
    if (this.back >= EARLY_STEPS && this.back >= 4 * this.forward) return 'newest-first';
    if (this.forward >= EARLY_STEPS && this.forward >= 4 * this.back) return 'oldest-first';
    return this.lines >= PROBE_LINES || this.bytes >= PROBE_BYTES ? this.verdict() : undefined;
  }

  /** The order from what was seen (at the end of a short input, or after PROBE_LINES lines or PROBE_BYTES of them). */
  verdict(): InputOrder {
    return this.back > 0 && this.back >= 4 * this.forward ? 'newest-first' : 'oldest-first';
  }
}
