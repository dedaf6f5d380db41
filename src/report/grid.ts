// Box-drawn terminal tables: columns sized by display width (colour codes, wide and zero-width characters), every row ruled.

/** SGR colour codes (all that the reports paint with) and any other CSI sequence: they take no columns. */
const CSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const CSI_AT = /\u001b\[[0-9;?]*[ -/]*[@-~]/y;
/** Characters that take no column of their own: marks that combine with the one before, joiners, variation selectors. */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufe00-\ufe0f]/u;
/** Pictographs a terminal draws two columns wide. */
const EMOJI = /\p{Emoji_Presentation}/u;

/** Code points of the East Asian Wide and Fullwidth blocks (CJK, kana, Hangul, fullwidth forms): two columns each. */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) || // Hangul Jamo leading consonants
    (cp >= 0x2e80 && cp <= 0x303e) || // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
    (cp >= 0x3041 && cp <= 0x33ff) || // kana, bopomofo, Hangul compatibility Jamo, kanbun, CJK strokes, enclosed CJK
    (cp >= 0x3400 && cp <= 0x4dbf) || // CJK extension A
    (cp >= 0x4e00 && cp <= 0x9fff) || // CJK unified ideographs
    (cp >= 0xa000 && cp <= 0xa4cf) || // Yi
    (cp >= 0xa960 && cp <= 0xa97f) || // Hangul Jamo extended A
    (cp >= 0xac00 && cp <= 0xd7a3) || // Hangul syllables
    (cp >= 0xf900 && cp <= 0xfaff) || // CJK compatibility ideographs
    (cp >= 0xfe10 && cp <= 0xfe19) || // vertical forms
    (cp >= 0xfe30 && cp <= 0xfe6f) || // CJK compatibility forms, small form variants
    (cp >= 0xff00 && cp <= 0xff60) || // fullwidth forms
    (cp >= 0xffe0 && cp <= 0xffe6) || // fullwidth signs
    (cp >= 0x1b000 && cp <= 0x1b2ff) || // kana supplement and extensions
    (cp >= 0x1f200 && cp <= 0x1f2ff) || // enclosed ideographic supplement
    (cp >= 0x20000 && cp <= 0x3fffd) // CJK extensions B and later, planes 2 and 3
  );
}

/**
 * Code units that are one column with no test of their own: Latin-1 and Latin Extended up to the combining marks,
 * dashes, quotes and the ellipsis, the rest of General Punctuation before its invisible operators, arrows, and the box
 * drawing, block and geometric shapes the tables are drawn with (up to U+25FC: U+25FD is an emoji). Every table line
 * is measured, so its rules must not cost a regular expression per character (150,000 rows took 5 s).
 */
function plainNarrow(unit: number): boolean {
  return (
    (unit >= 0xa0 && unit <= 0x2ff) ||
    (unit >= 0x2010 && unit <= 0x2027) ||
    (unit >= 0x2030 && unit <= 0x205e) ||
    (unit >= 0x2190 && unit <= 0x21ff) ||
    (unit >= 0x2500 && unit <= 0x25fc)
  );
}

/** How many columns one code point takes: 0 for controls and marks that combine, 2 for wide characters and emoji. */
export function codePointWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 0;
  const ch = String.fromCodePoint(cp);
  if (ZERO_WIDTH.test(ch)) return 0;
  return isWide(cp) || EMOJI.test(ch) ? 2 : 1;
}

/** How many terminal columns a string takes. */
export function displayWidth(s: string): number {
  const text = s.includes('\u001b') ? s.replace(CSI, '') : s;
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if ((unit >= 0x20 && unit < 0x7f) || plainNarrow(unit)) {
      width++; // printable ASCII and the table's own rules: the common cases, without the checks below
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    width += codePointWidth(cp);
  }
  return width;
}

/** How a column may give up width when the table is wider than allowed. */
export interface ColumnFit {
  /** The narrowest the column becomes. */
  min: number;
  /** wrap (default): onto more lines, at spaces (a word too long is broken after / _ - , ; : or else anywhere); tail: each line shortened from the left, keeping its end (a path, `file:line`). */
  mode?: 'wrap' | 'tail';
  /** When the column would be narrower than this, it leaves the table: each of its cells becomes a line across the table under its row, after the column's name. */
  spill?: number;
  /**
   * A wrapping column gives no more than down to this while the other wrapping columns give; then down to min (a session
   * id kept whole as long as can be). A tail column gives down to it along with the wrapping columns (evidence shortened
   * to the end that tells its files apart before a finding's code is broken after its `_`), then down to min.
   */
  keep?: number;
  /** With spill: a column that names its row (a session id) goes above the row when it leaves the table, not under it, and leaves after the others. */
  above?: boolean;
}

interface GridOptions {
  /** Widest the table may be, in terminal columns; without it every column takes its widest cell. */
  width?: number;
  /** By column: how it may shrink (undefined: it keeps its widest cell). */
  fit?: (ColumnFit | undefined)[];
}

/** Table width when stdout is no terminal and COLUMNS is unset (a pipe, a file, a CI log). */
export const DEFAULT_WIDTH = 160;
/** Narrowest table width honoured: below it tables are laid out for this many columns. */
const MIN_WIDTH = 40;

/** Narrower than this, a free-text column (a why, a message, notes) is better as lines under its rows (ColumnFit.spill). */
export const SPILL_BELOW = 36;

export const wrapColumn = (min: number, spill?: number): ColumnFit => ({ min, mode: 'wrap', ...(spill !== undefined ? { spill } : {}) });
export const tailColumn = (min: number, keep?: number): ColumnFit => ({ min, mode: 'tail', ...(keep !== undefined ? { keep } : {}) });
/** A column headed or filled by names like STREAM_INCOMPLETE: they wrap after "_" (STREAM_ / INCOMPLETE), never inside a word. */
export const underscoreColumn = (names: readonly string[]): ColumnFit => wrapColumn(maxOf(-Infinity, names.flatMap((n) => n.split(/(?<=_)/).map((p) => p.length))));

/**
 * The largest of the values, and at least `floor`: a loop, as `Math.max(...values)` over a table's rows overflows the
 * stack once there are some 100,000 of them (a `timeline` of a long session, `sessions` of a busy day).
 */
export function maxOf(floor: number, values: Iterable<number>): number {
  let most = floor;
  for (const v of values) if (v > most) most = v;
  return most;
}

interface Line {
  text: string;
  width: number;
}

/** A table of text cells in a box: a header row, then rows, with a rule between every two. Cells may hold colour codes. */
export class Grid {
  private readonly rows: string[][] = [];

  constructor(private readonly head: string[], private readonly opts: GridOptions = {}) {}

  push(row: string[]): void {
    this.rows.push(row);
  }

  toString(): string {
    const all = [this.head, ...this.rows];
    const columns = maxOf(0, all.map((r) => r.length));
    // A cell's lines (a cell with a newline spans several), each with its width.
    let cells = all.map((r) => Array.from({ length: columns }, (_, c) => (r[c] ?? '').split('\n').map(measured)));
    let widths = columnWidths(cells);
    /** Columns that left the table, in their order: their cells go under their rows. */
    const spills: { at: number; head: string; texts: string[]; above: boolean }[] = [];
    if (this.opts.width !== undefined && this.opts.fit) {
      const limit = Math.max(MIN_WIDTH, this.opts.width);
      let fit = this.opts.fit;
      let columnsLeft = Array.from({ length: columns }, (_, c) => c); // the original index of each column still in the table
      let targets = shrink(widths, fit, limit);
      for (;;) {
        const spilling = (f: ColumnFit | undefined, c: number) => f?.spill !== undefined && targets[c]! < f.spill && targets[c]! < widths[c]!;
        // A column that names its row (above) leaves last: the others may make room for it.
        let s = fit.findIndex((f, c) => !f?.above && spilling(f, c));
        if (s === -1) s = fit.findIndex(spilling);
        if (s === -1) break;
        // Too narrow for its text: the column leaves the table, its cells go under their rows (Grid.spillLines); the
        // others are fitted again, and one more may leave when it is still too narrow.
        const from = columnsLeft[s]!;
        spills.push({ at: from, head: this.head[from] ?? '', texts: this.rows.map((r) => r[from] ?? ''), above: fit[s]!.above === true });
        const keep = (_: unknown, c: number) => c !== s;
        cells = cells.map((row) => row.filter(keep));
        fit = fit.filter(keep);
        widths = widths.filter(keep);
        columnsLeft = columnsLeft.filter(keep);
        targets = shrink(widths, fit, limit);
        spills.sort((a, b) => a.at - b.at);
      }
      if (targets.some((w, c) => w < widths[c]!)) {
        cells = cells.map((row) => row.map((lines, c) => (targets[c]! < widths[c]! ? fitLines(lines, targets[c]!, fit[c]!) : lines)));
        widths = columnWidths(cells);
      }
    }
    const inner = tableWidth(widths) - 4;
    const rule = (left: string, mid: string, right: string) => left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right;
    const out = [rule('┌', '┬', '┐')];
    let spanned = false; // the row before ended with a line across the table
    const across = (s: (typeof spills)[number], r: number) => {
      for (const line of spillLines(s.head, s.texts[r - 1]!, inner)) out.push(`│ ${line.text}${' '.repeat(Math.max(0, inner - line.width))} │`);
    };
    cells.forEach((row, r) => {
      const over = r > 0 ? spills.filter((s) => s.above && s.texts[r - 1]) : [];
      if (over.length > 0) {
        // The row's name across the table above it: `session: a3f1c2d4-...`.
        out.push(spanned ? `├${'─'.repeat(inner + 2)}┤` : rule('├', '┴', '┤'));
        for (const s of over) across(s, r);
        out.push(rule('├', '┬', '┤'));
      } else if (r > 0) out.push(spanned ? rule('├', '┬', '┤') : rule('├', '┼', '┤'));
      const height = maxOf(1, row.map((lines) => lines.length));
      for (let l = 0; l < height; l++) {
        out.push(`│${row.map((lines, c) => ` ${lines[l]?.text ?? ''}${' '.repeat(widths[c]! - (lines[l]?.width ?? 0))} `).join('│')}│`);
      }
      const under = r > 0 ? spills.filter((s) => !s.above && s.texts[r - 1]) : [];
      spanned = under.length > 0;
      if (!spanned) return;
      out.push(rule('├', '┴', '┤'));
      for (const s of under) across(s, r);
    });
    out.push(spanned ? `└${'─'.repeat(inner + 2)}┘` : rule('└', '┴', '┘'));
    return out.join('\n');
  }
}

/**
 * A table drawn in its wide layout (one column per field) when that fits `width`, else in its narrow one (fields that
 * belong together stacked in one cell), which keeps every value and needs fewer columns and borders.
 */
export function widestFirst(width: number, wide: () => Grid, narrow: () => Grid): string {
  const text = wide().toString();
  const limit = Math.max(MIN_WIDTH, width);
  return text.split('\n').some((l) => displayWidth(l) > limit) ? narrow().toString() : text;
}

/** A report's lines around its tables (a header, notes) wrapped at spaces to `width`; a table's own lines are kept as drawn. */
export function wrapAround(text: string, width: number): string {
  const limit = Math.max(MIN_WIDTH, width);
  return text.split('\n').flatMap((l) => (/^[┌│├└]/.test(l) || displayWidth(l) <= limit ? [l] : wrapText(l, limit))).join('\n');
}

/** Columns a table takes with these column widths, borders and padding included. */
const tableWidth = (widths: number[]): number => widths.reduce((a, b) => a + b, 0) + 3 * widths.length + 1;

/** A spilled cell as lines across the table, labelled with its column's header: `why: the client closed ...`. */
function spillLines(head: string, text: string, width: number): Line[] {
  return text.split('\n').flatMap((t, i) => carryColour(wrapText(i === 0 ? `${head}: ${t}` : t, width))).map(measured);
}

const measured = (text: string): Line => ({ text, width: displayWidth(text) });

function columnWidths(cells: Line[][][]): number[] {
  return Array.from({ length: cells[0]?.length ?? 0 }, (_, c) => maxOf(0, cells.map((r) => maxOf(-Infinity, r[c]!.map((l) => l.width)))));
}

/**
 * Column widths for a table at most `limit` wide. Wrapping loses nothing and shortening loses the start of a path, so
 * the wrapping columns give first, down to the width below which they would spill (or that they keep), and with them
 * the shortening columns that say what they keep; then every column that may shrink gives, down to its min. Within a
 * round the widest column gives first.
 */
function shrink(natural: number[], fit: (ColumnFit | undefined)[], limit: number): number[] {
  const first = fit.map((f) => (!f ? undefined : f.mode !== 'tail' ? Math.max(f.min, f.spill ?? 0, f.keep ?? 0) : f.keep !== undefined ? Math.max(f.min, f.keep) : undefined));
  // Before such a shortening column gives, the wrapping ones give down to ROOM_BEFORE_TAIL: evidence stays whole while
  // the message beside it has that much room.
  const roomy = fit.some((f) => f?.mode === 'tail' && f.keep !== undefined)
    ? giveWidth(natural, fit.map((f, c) => (f && f.mode !== 'tail' ? Math.max(first[c]!, Math.min(natural[c]!, ROOM_BEFORE_TAIL)) : undefined)), limit)
    : natural;
  return giveWidth(giveWidth(roomy, first, limit), fit.map((f) => f?.min), limit);
}

/** How wide a wrapping column stays before a shortening column that says what it keeps gives (ColumnFit.keep). */
const ROOM_BEFORE_TAIL = 60;

/** Widths narrowed until the table fits in `limit`: the widest column with a floor gives, down to its floor. */
function giveWidth(natural: number[], floors: (number | undefined)[], limit: number): number[] {
  const widths = [...natural];
  let over = tableWidth(widths) - limit;
  while (over > 0) {
    const open = widths.map((_, i) => i).filter((i) => floors[i] !== undefined && widths[i]! > floors[i]!);
    if (open.length === 0) break;
    const c = open.reduce((a, i) => (widths[i]! > widths[a]! ? i : a));
    // The widest column gives, in one step down to the next widest (or its floor), or by one column on a tie.
    const next = Math.max(floors[c]!, ...open.filter((i) => i !== c).map((i) => widths[i]!));
    const step = Math.max(1, Math.min(over, widths[c]! - next));
    widths[c]! -= step;
    over -= step;
  }
  return widths;
}

/** A cell's lines made at most `width` wide, by its column's mode. */
function fitLines(lines: Line[], width: number, fit: ColumnFit): Line[] {
  if (fit.mode === 'tail') return lines.map((l) => (l.width > width ? measured(keepTail(l.text, width)) : l));
  return lines.flatMap((l) => (l.width > width ? carryColour(wrapText(l.text, width)).map(measured) : [l]));
}

/** A string's pieces: each escape sequence (no width) and each code point, with its width. */
function pieces(s: string): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < s.length; ) {
    CSI_AT.lastIndex = i;
    const sequence = s.charCodeAt(i) === 0x1b ? CSI_AT.exec(s)?.[0] : undefined;
    const text = sequence ?? String.fromCodePoint(s.codePointAt(i)!);
    out.push({ text, width: sequence ? 0 : displayWidth(text) });
    i += text.length;
  }
  return out;
}

/** The end of a line, as much as fits in `width` columns after an ellipsis: `…/timeout-then-retry/client.ndjson:1`. */
export function keepTail(text: string, width: number): string {
  const parts = pieces(text);
  let w = 1;
  let i = parts.length;
  while (i > 0 && w + parts[i - 1]!.width <= width) w += parts[--i]!.width;
  return `…${parts.slice(i).map((p) => p.text).join('')}`;
}

/** Characters after which a word too long for its line is broken first. */
const BREAK_AFTER = /^[/_\-,;:+]$/;

/** A line of text as lines at most `width` columns wide, broken at spaces; a longer word is broken too. */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  let lineWidth = 0;
  for (const word of text.split(/(?<= )/)) {
    const w = displayWidth(word);
    const core = displayWidth(word.trimEnd());
    if (lineWidth + core <= width) {
      line += word;
      lineWidth += w;
      continue;
    }
    if (line) out.push(line.trimEnd());
    [line, lineWidth] = ['', 0];
    const parts = core <= width ? [word] : breakWord(word, width);
    out.push(...parts.slice(0, -1));
    line = parts.at(-1)!;
    lineWidth = displayWidth(line);
  }
  if (line.trimEnd() || out.length === 0) out.push(line.trimEnd());
  return out;
}

/**
 * A word wider than `width` in pieces that fit, cut after a preferred character when one is in the piece: after a `/`
 * when one is in the piece's second half (a path wraps between its folders), else after the last preferred one.
 */
function breakWord(word: string, width: number): string[] {
  const out: string[] = [];
  let piece = '';
  let w = 0;
  let soft = -1; // where the piece may be cut (just after a preferred character)
  let slash = -1; // just after the piece's last `/`
  for (const p of pieces(word)) {
    while (w > 0 && p.width > 0 && w + p.width > width) {
      const at = slash > 0 && slash < piece.length && displayWidth(piece.slice(0, slash)) * 2 >= width ? slash : soft > 0 && soft < piece.length ? soft : piece.length;
      out.push(piece.slice(0, at));
      piece = piece.slice(at);
      w = displayWidth(piece);
      soft = -1;
      slash = -1;
    }
    piece += p.text;
    w += p.width;
    if (BREAK_AFTER.test(p.text)) soft = piece.length;
    if (p.text === '/') slash = piece.length;
  }
  out.push(piece);
  return out;
}

const SGR = /\u001b\[[0-9;]*m/g;

/** Lines of a wrapped cell, each closing the colour it leaves open and the next reopening it (the border stays plain). */
function carryColour(lines: string[]): string[] {
  let open = '';
  return lines.map((l) => {
    const text = open + l;
    for (const m of l.matchAll(SGR)) open = /^\u001b\[0?m$/.test(m[0]) ? '' : open + m[0];
    return open ? `${text}\u001b[0m` : text;
  });
}
