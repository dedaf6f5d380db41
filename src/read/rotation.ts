// Rotated pieces of one log given as several inputs (app.log.3 ... app.log, app.log-20261206, app.log.2026-12-06): which input goes on from which, and the lines a piece repeats at its start of the piece before it (an overlap at the seam).
import type { Line } from './lines.js';

/** A piece's name: the current file (`app.log`, `app.log.gz`) or a rotated one (`app.log.1`, `app.log.2.gz`). */
const PIECE = /^(.+?)(?:\.(\d{1,4}))?(\.gz)?$/i;
/**
 * A date in a rotated file's name: logrotate's `dateext` (`-%Y%m%d` by default; `-%Y%m%d%H` hourly; `-%Y%m%d-%s` to
 * rotate more than once a day), Python's TimedRotatingFileHandler (`2026-12-06`, `2026-12-06_09`, `..._09-34`,
 * `..._09-34-12`), winston-daily-rotate-file's and log4j's date patterns (`2026-12-06`, `2026-12-06-09`).
 */
const STAMP = String.raw`(\d{4})-?(\d{2})-?(\d{2})(?:[-_T]?\d{2}(?:[-:]?\d{2}){0,2})?(?:-\d{9,11})?`;
/** The date after the current file's name: `app.log-20261206`, `app.log.2026-12-06_09-34-12`, `app.log-20261206.gz`. */
const DATED_AFTER = new RegExp(String.raw`^(.+?)[.-](${STAMP})(\.gz)?$`, 'i');
/** The date before the name's extension: `app-20261206.log` (logrotate's `extension .log`), `client-2026-12-06.ndjson.gz`. */
const DATED_BEFORE_EXT = new RegExp(String.raw`^(.+?)[-_.](${STAMP})(\.[a-z][a-z0-9]{0,9})(\.gz)?$`, 'i');

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
  /** How their names order them: by number (`.1`, `.2`) or by date. */
  by: 'number' | 'date';
}

/** Where one input's name puts it in its log's rotation: its log (the current file's name) and its order. */
interface Place {
  /** The current file's name (its folder kept): the pieces of one log share it. */
  log: string;
  /** Numbered pieces (`.1`, `.2`: 0 for the current file) or dated ones (the date's digits). */
  kind: 'numbered' | 'dated';
  /** Oldest first: the date's digits, or the number's distance from the current file (higher is older). */
  order: string;
}

/** A dated piece's place: the date must be one (a month 01-12, a day 01-31), else the name is no rotation's. */
function datedPlace(path: string): Place | undefined {
  for (const [re, name] of [[DATED_AFTER, (m: RegExpExecArray) => m[1]!], [DATED_BEFORE_EXT, (m: RegExpExecArray) => `${m[1]}${m[6]}`]] as const) {
    const m = re.exec(path);
    if (!m) continue;
    const month = Number(m[4]);
    const day = Number(m[5]);
    if (month < 1 || month > 12 || day < 1 || day > 31) continue;
    return { log: name(m), kind: 'dated', order: m[2]!.replace(/\D/g, '') };
  }
  return undefined;
}

function placeOf(path: string): Place | undefined {
  const dated = datedPlace(path);
  if (dated) return dated;
  const m = PIECE.exec(path);
  if (!m) return undefined;
  // The current file sorts last among numbered pieces (a number's rank: 9999 - n, padded).
  return { log: m[1]!, kind: 'numbered', order: m[2] === undefined ? 'current' : String(9999 - Number(m[2])).padStart(4, '0') };
}

/**
 * Inputs that are pieces of one rotated log, in one folder: the current file (`app.log`) given with
 * one or more of its numbered files (`app.log.1`, `app.log.2.gz`: Python's RotatingFileHandler and logrotate name them
 * so), oldest first (the highest number); or two or more files named by date (`app.log-20261206`, logrotate's
 * `dateext`; `app.log.2026-12-06_09-34-12`, Python's TimedRotatingFileHandler; `app-2026-12-06.log`), oldest first by
 * their dates, with or without the current file (last): a daily log has none. The order given does not matter, nor a
 * side given to some pieces only; a log whose pieces are named both ways, or given as two sides, is no series. Other
 * inputs: undefined.
 */
export function rotationSeries(inputs: { path: string; side?: string | undefined }[]): (Piece | undefined)[] {
  const groups = new Map<string, { index: number; order: string; kind: Place['kind'] | 'current'; side: string | undefined }[]>();
  inputs.forEach((input, index) => {
    if (input.path === '-') return;
    const place = placeOf(input.path);
    if (!place) return;
    const kind = place.order === 'current' ? 'current' : place.kind;
    const group = groups.get(place.log) ?? [];
    if (!group.some((g) => g.order === place.order)) group.push({ index, order: place.order, kind, side: input.side });
    groups.set(place.log, group);
  });
  const out: (Piece | undefined)[] = inputs.map(() => undefined);
  for (const group of groups.values()) {
    const kinds = new Set(group.map((g) => g.kind));
    if (group.length < 2 || (kinds.has('numbered') && kinds.has('dated'))) continue;
    // Pieces given with different sides are not one log's (a piece given without one, `--client app.log.2 app.log.1
    // app.log` as the shell expands it, takes the others').
    if (new Set(group.map((g) => g.side).filter((side) => side !== undefined)).size > 1) continue;
    // Numbered pieces are one log's only with the current file; dated ones also without it.
    if (!kinds.has('dated') && !kinds.has('current')) continue;
    group.sort((a, b) => (a.kind === 'current' ? 1 : b.kind === 'current' ? -1 : a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    const seam = new Seam();
    const series = group.map((g) => g.index);
    group.forEach((g, i) => {
      out[g.index] = { ...(i > 0 ? { after: group[i - 1]!.index } : {}), last: i === group.length - 1, seam, head: group[0]!.index, series, by: kinds.has('dated') ? 'date' : 'number' };
    });
  }
  return out;
}
