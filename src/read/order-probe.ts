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
  private readonly starts = new Steps();
  /**
   * The same over the ends of whole exchanges (a HAR entry: start + duration). A writer that puts each exchange down
   * when it ends (a HAR-lines proxy) lists them in end order, their starts going back and forth with concurrent calls;
   * such a file exported newest first (a log platform's intake order) runs back in end time.
   */
  private readonly ends = new Steps();
  lines = 0;
  private bytes = 0;

  /** The time of one line (its first record's), or undefined when it has none; and the line's length; and its end, for a whole exchange. */
  note(ts: number | undefined, length = 0, end?: number): void {
    this.lines++;
    this.bytes += length;
    if (ts === undefined) return;
    this.starts.step(ts);
    if (end !== undefined) this.ends.step(end);
  }

  /** The order once it is clear, or undefined while it is not (and the probe has lines left). */
  settled(): InputOrder | undefined {
    if (this.starts.clearlyBack() || this.ends.clearlyBack()) return 'newest-first';
    // (Only the starts settle it early as written: a file written as each exchange ended, its starts going back and
    // forth, is then held whole up to PROBE_LINES or PROBE_BYTES, and put back in start order there at no extra cost.)
    if (this.starts.clearlyForward()) return 'oldest-first';
    return this.lines >= PROBE_LINES || this.bytes >= PROBE_BYTES ? this.verdict() : undefined;
  }

  /** The order from what was seen (at the end of a short input, or after PROBE_LINES lines or PROBE_BYTES of them). */
  verdict(): InputOrder {
    return this.starts.mostlyBack() || (!this.starts.mostlyForward() && this.ends.mostlyBack()) ? 'newest-first' : 'oldest-first';
  }
}

/** Steps between consecutive times: how often they went forward and how often back. */
class Steps {
  private last: number | undefined;
  private forward = 0;
  private back = 0;

  step(t: number): void {
    if (this.last !== undefined) {
      if (t > this.last) this.forward++;
      else if (t < this.last) this.back++;
    }
    this.last = t;
  }

  clearlyBack(): boolean {
    return this.back >= EARLY_STEPS && this.back >= 4 * this.forward;
  }

  clearlyForward(): boolean {
    return this.forward >= EARLY_STEPS && this.forward >= 4 * this.back;
  }

  mostlyBack(): boolean {
    return this.back > 0 && this.back >= 4 * this.forward;
  }

  mostlyForward(): boolean {
    return this.forward > 0 && this.forward >= 4 * this.back;
  }
}
