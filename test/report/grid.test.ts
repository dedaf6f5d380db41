// The box-drawn tables: the same bytes cli-table3 (the renderer they replaced, kept as a test oracle) draws, and widths that hold for wide, combining and coloured text.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayWidth, Grid } from '../../src/report/grid.js';

type CliTable = { push(row: string[]): void; toString(): string };
const Table = createRequire(import.meta.url)('cli-table3') as new (o: object) => CliTable;
/** cli-table3 with the options the reports used. */
function oracle(head: string[], rows: string[][]): string {
  const t = new Table({ head, style: { head: [], border: [], compact: false }, wordWrap: false });
  for (const r of rows) t.push(r);
  return t.toString();
}
function grid(head: string[], rows: string[][]): string {
  const g = new Grid(head);
  for (const r of rows) g.push(r);
  return g.toString();
}

describe('displayWidth', () => {
  it.each([
    ['', 0],
    ['tools/call', 10],
    ['\u001b[31mHTTP_ERROR\u001b[0m', 10], // colour codes take no column
    ['\u001b[1m\u001b[0m', 0],
    ['建立工單', 8], // CJK: two columns each
    ['ﾃｽﾄ', 3], // halfwidth katakana: one column
    ['ＡＢ', 4], // fullwidth Latin
    ['한글', 4],
    ['e\u0301', 1], // e + combining acute
    ['a\u200db', 2], // zero-width joiner
    ['🚀', 2],
    ['✓', 1], // a symbol drawn one column wide
    ['tab\there', 7], // control characters take none (the reports replace them before this)
  ])('%j is %i columns', (s, w) => {
    expect(displayWidth(s)).toBe(w);
  });
});

describe('Grid', () => {
  it('draws a header-only table, a ruled body and empty cells as cli-table3 did', () => {
    expect(grid(['a', 'b'], [])).toBe('┌───┬───┐\n│ a │ b │\n└───┴───┘');
    expect(grid(['method', 'n'], [['tools/call', '3'], ['', '']])).toBe(
      ['┌────────────┬───┐', '│ method     │ n │', '├────────────┼───┤', '│ tools/call │ 3 │', '├────────────┼───┤', '│            │   │', '└────────────┴───┘'].join('\n'),
    );
  });

  it('pads a short row and spreads a cell with line breaks over several lines', () => {
    const out = grid(['k', 'v'], [['only'], ['x', 'one\ntwo']]).split('\n');
    expect(out[3]).toBe('│ only │     │');
    expect(out.slice(5, 7)).toEqual(['│ x    │ one │', '│      │ two │']);
  });

  it('sizes columns by what the terminal shows: colour codes, CJK and combining marks', () => {
    const out = grid(['\u001b[1mtool\u001b[0m', 'outcome'], [['建立工單', '\u001b[31mHTTP_ERROR\u001b[0m'], ['cafe\u0301', 'ok']]);
    const lines = out.split('\n').map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''));
    const widths = new Set(lines.map((l) => displayWidth(l)));
    expect(widths.size).toBe(1); // every line of the box is equally wide on screen
    expect(lines[3]).toBe('│ 建立工單 │ HTTP_ERROR │');
  });

  it('draws exactly what cli-table3 draws, for generated tables', () => {
    // Characters both renderers measure alike: ASCII, CJK, Hangul, fullwidth forms, combining marks, colour codes.
    const piece = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '/', '_', '-', ':', '.', '#'), maxLength: 12 }),
      fc.string({ unit: fc.constantFrom('工', '單', '한', 'Ａ', 'か', '、'), maxLength: 4 }),
      fc.constantFrom('e\u0301', '\u001b[31mred\u001b[0m', '\u001b[1mbold\u001b[0m', ''),
    );
    const text = fc.array(piece, { maxLength: 3 }).map((p) => p.join(''));
    const table = fc.integer({ min: 1, max: 5 }).chain((cols) =>
      fc.tuple(fc.array(text, { minLength: cols, maxLength: cols }), fc.array(fc.array(text, { minLength: cols, maxLength: cols }), { maxLength: 6 })),
    );
    fc.assert(
      fc.property(table, ([head, rows]) => {
        expect(grid(head, rows)).toBe(oracle(head, rows));
      }),
      { numRuns: 300 },
    );
  });
});
