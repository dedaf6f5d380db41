// Rotated pieces of one log given as several inputs (app.log.3, app.log.2, app.log.1, app.log): which input goes on from which, and the lines a piece repeats at its start of the piece before it (an overlap at the seam).
import type { Line } from './lines.js';

/** A piece's name: the current file (`app.log`, `app.log.gz`) or a rotated one (`app.log.1`, `app.log.2.gz`). */
const PIECE = /^(.+?)(?:\.(\d{1,4}))?(\.gz)?$/i;

/** Line fingerprints of a piece's end kept for the next piece to be matched against. */
const TAIL_LINES = 4096;

/** What one piece hands the next: its text formats' state (the session, the requests in flight) and its last lines. */
export class Seam {
  /** The adapters' state (AdapterContext.state), shared by every piece of the series: read as one file. */
  readonly state = new Map<string, unknown>();
  /** Fingerprints of the last TAIL_LINES lines read, oldest first (the piece before the one being read). */
  private tail: string[] = [];
  /** The piece being read: its last TAIL_LINES fingerprints, a ring (`at` is where the next one goes). */
  private next: string[] = [];
  private at = 0;
  /** The name of the piece whose end `tail` holds. */
  private tailOf: string | undefined;

  /**
   * A piece's lines, its first ones marked skipped (`rotation-overlap`) where they repeat, in order and to the last
   * line, the end of the piece before it (copytruncate's overlap: lines written while the file was copied are in both
   * files). Lines are held while they may be such a repeat (at most TAIL_LINES), then passed on. Calls onOverlap once
   * with the number of lines so read once, when there are any.
   */
  async *lines(name: string, source: AsyncIterable<Line[]>, onOverlap: (lines: number, of: string) => void): AsyncGenerator<Line[]> {
    const tail = this.tail;
    const tailOf = this.tailOf;
    this.tail = [];
    this.next = [];
    this.at = 0;
    this.tailOf = name;
    /** Where in `tail` the lines read so far may start (every candidate still alive), or undefined once settled. */
    let starts: number[] | undefined = tail.length > 0 ? undefined : [];
    const held: Line[] = [];
    let matched = 0;
    for await (const batch of source) {
      const out: Line[] = [];
      for (const line of batch) {
        this.remember(line);
        if (starts !== undefined && starts.length === 0 && held.length === 0) {
          out.push(line);
          continue;
        }
        const f = fingerprint(line);
        if (starts === undefined) {
          // The first line: every place in the tail it repeats is a candidate start.
          starts = [];
          if (f !== undefined) for (let i = 0; i < tail.length; i++) if (tail[i] === f) starts.push(i);
        } else if (f === undefined) starts = [];
        else starts = starts.filter((s) => tail[s + held.length] === f);
        if (starts.length === 0) {
          out.push(...held, line);
          held.length = 0;
          continue;
        }
        held.push(line);
        // A candidate that reached the tail's last line: the held lines are the overlap.
        if (starts.some((s) => s + held.length === tail.length)) {
          for (const h of held) out.push('overLimit' in h ? h : { ...h, skipped: 'rotation-overlap' });
          matched = held.length;
          held.length = 0;
          starts = [];
        }
      }
      if (out.length) yield out;
    }
    if (held.length) yield held.splice(0);
    // This piece's last lines are what the next one is matched against.
    this.tail = this.next.length < TAIL_LINES ? this.next : [...this.next.slice(this.at), ...this.next.slice(0, this.at)];
    this.next = [];
    if (matched > 0) onOverlap(matched, tailOf!);
  }

  private remember(line: Line): void {
    const f = fingerprint(line);
    if (f === undefined) return;
    if (this.next.length < TAIL_LINES) this.next.push(f);
    else {
      this.next[this.at] = f;
      this.at = (this.at + 1) % TAIL_LINES;
    }
  }
}

/** A line's fingerprint: its length and a 32-bit FNV-1a of its text; undefined for a line too long to keep or a blank one. */
function fingerprint(line: Line): string | undefined {
  if ('overLimit' in line || line.text.trim() === '') return undefined;
  const text = line.text;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${text.length}:${h >>> 0}`;
}

/** One input's place in a rotated series: the input it goes on from (read before it), and whether it is the series' last. */
export interface Piece {
  after?: number;
  last: boolean;
  seam: Seam;
  /** The series' first (oldest) input: the whole series is analyzed as that input. */
  head: number;
  /** The series' inputs, oldest first. */
  series: number[];
}

/**
 * Inputs that are pieces of one rotated log: the current file (`app.log`) given with one or more of its rotated files
 * (`app.log.1`, `app.log.2.gz`: Python's RotatingFileHandler and logrotate name them so), in one folder, of the same
 * side. Oldest first (the highest number), the current file last, whatever the order given. Other inputs: undefined.
 */
export function rotationSeries(inputs: { path: string; side?: string | undefined }[]): (Piece | undefined)[] {
  const groups = new Map<string, { index: number; n: number }[]>();
  inputs.forEach((input, index) => {
    if (input.path === '-') return;
    const m = PIECE.exec(input.path);
    if (!m) return;
    const key = `${input.side ?? ''}|${m[1]}`;
    const n = m[2] === undefined ? 0 : Number(m[2]);
    const group = groups.get(key) ?? [];
    if (!group.some((g) => g.n === n)) group.push({ index, n });
    groups.set(key, group);
  });
  const out: (Piece | undefined)[] = inputs.map(() => undefined);
  for (const group of groups.values()) {
    if (group.length < 2 || !group.some((g) => g.n === 0)) continue;
    group.sort((a, b) => b.n - a.n);
    const seam = new Seam();
    const series = group.map((g) => g.index);
    group.forEach((g, i) => {
      out[g.index] = { ...(i > 0 ? { after: group[i - 1]!.index } : {}), last: i === group.length - 1, seam, head: group[0]!.index, series };
    });
  }
  return out;
}
