// Box-drawn terminal tables: columns sized by display width (colour codes, wide and zero-width characters), every row ruled.

/** SGR colour codes (all that the reports paint with) and any other CSI sequence: they take no columns. */
const CSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
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

/** How many terminal columns a string takes. */
export function displayWidth(s: string): number {
  const text = s.includes('\u001b') ? s.replace(CSI, '') : s;
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit < 0x7f) {
      width++; // printable ASCII: the common case, without the checks below
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) continue;
    const ch = String.fromCodePoint(cp);
    if (ZERO_WIDTH.test(ch)) continue;
    width += isWide(cp) || EMOJI.test(ch) ? 2 : 1;
  }
  return width;
}

/** A table of text cells in a box: a header row, then rows, with a rule between every two. Cells may hold colour codes. */
export class Grid {
  private readonly rows: string[][] = [];

  constructor(private readonly head: string[]) {}

  push(row: string[]): void {
    this.rows.push(row);
  }

  toString(): string {
    const all = [this.head, ...this.rows];
    const columns = Math.max(0, ...all.map((r) => r.length));
    // A cell's lines (a cell with a newline spans several), each with its width.
    const cells = all.map((r) => Array.from({ length: columns }, (_, c) => (r[c] ?? '').split('\n').map((text) => ({ text, width: displayWidth(text) }))));
    const widths = Array.from({ length: columns }, (_, c) => Math.max(0, ...cells.map((r) => Math.max(...r[c]!.map((l) => l.width)))));
    const rule = (left: string, mid: string, right: string) => left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right;
    const out = [rule('┌', '┬', '┐')];
    cells.forEach((row, r) => {
      if (r > 0) out.push(rule('├', '┼', '┤'));
      const height = Math.max(1, ...row.map((lines) => lines.length));
      for (let l = 0; l < height; l++) {
        out.push(`│${row.map((lines, c) => ` ${lines[l]?.text ?? ''}${' '.repeat(widths[c]! - (lines[l]?.width ?? 0))} `).join('│')}│`);
      }
    });
    out.push(rule('└', '┴', '┘'));
    return out.join('\n');
  }
}
