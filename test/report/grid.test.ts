// The box-drawn tables: the same bytes cli-table3 (the renderer they replaced, kept as a test oracle) draws, widths that hold for wide, combining and coloured text, and fitting to a width.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointWidth, displayWidth, Grid, keepTail, tailColumn, wrapColumn, wrapText, type ColumnFit } from '../../src/report/grid.js';

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

  it('takes its shortcut for the table rules and Latin text only where the full test gives one column too (every code point)', () => {
    const differ: string[] = [];
    for (let cp = 0; cp <= 0x3ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue; // lone surrogates are no code points
      if (displayWidth(String.fromCodePoint(cp)) !== codePointWidth(cp)) differ.push(cp.toString(16));
    }
    expect(differ).toEqual([]);
    // the shortcut's own characters, checked against what a terminal draws
    expect(displayWidth('┌─┬─┐│├┼┤└┴┘')).toBe(12);
    expect(displayWidth('café – “naïve” … → ±½')).toBe(21);
    expect(displayWidth('\u25fd')).toBe(2); // ◽ just past the geometric shapes the shortcut takes: an emoji
    expect(displayWidth('\u0300')).toBe(0); // the first combining mark, just past Latin Extended
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

const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
function fitted(head: string[], rows: string[][], width: number, fit: (ColumnFit | undefined)[]): string[] {
  const g = new Grid(head, { width, fit });
  for (const r of rows) g.push(r);
  return g.toString().split('\n');
}
const WHY = 'not seen by the server: the body says: 503 Service Unavailable from the gateway in front of it';

describe('wrapText and keepTail', () => {
  it('breaks at spaces, a word too long after / _ - , ; : and else anywhere, never wider than asked', () => {
    expect(wrapText('the client closed the stream', 12)).toEqual(['the client', 'closed the', 'stream']);
    expect(wrapText('notifications/cancelled INVALID_TOOL_RESULT', 14)).toEqual(['notifications/', 'cancelled', 'INVALID_TOOL_', 'RESULT']);
    expect(wrapText('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapText('建立工單建立', 5).map(displayWidth)).toEqual([4, 4, 4]);
    expect(wrapText('', 5)).toEqual(['']);
  });

  it('keeps the end of a path, which tells two files of one name apart', () => {
    expect(keepTail('test/fixtures/real-audit/timeout-then-retry/client.ndjson:1', 36)).toBe('…/timeout-then-retry/client.ndjson:1');
    expect(keepTail('test/fixtures/real-audit/timeout-then-retry/client.ndjson', 20)).not.toBe(keepTail('test/fixtures/real-audit/timeout-then-abort/client.ndjson', 20));
  });
});

describe('Grid fitted to a width', () => {
  it('wraps a free-text column onto more lines in its cell instead of cutting it', () => {
    const lines = fitted(['outcome', 'why'], [['HTTP_ERROR', WHY]], 40, [undefined, wrapColumn(16)]);
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
    expect(displayWidth(lines[0]!)).toBeLessThanOrEqual(40);
    const why = lines.slice(3, -1).map((l) => l.split('│')[2]!.trim()).join(' ');
    expect(why).toBe(WHY); // every word is there, in order
    expect(lines[3]).toMatch(/^│ HTTP_ERROR │ not seen by the server: +│$/);
  });

  it('when one column leaving is not enough, the next too-narrow one leaves as well: both under their row, in column order', () => {
    const head = ['outcome', 'claimed', 'why', 'layer'];
    const lines = fitted(head, [['HTTP_ERROR', 'JSONRPC_ERROR', WHY, 'transport'], ['TOOL_ERROR', '', 'short', 'application']], 44, [undefined, wrapColumn(7, 14), wrapColumn(16, 36), undefined]);
    expect(new Set(lines.map(displayWidth))).toEqual(new Set([displayWidth(lines[0]!)]));
    expect(displayWidth(lines[0]!)).toBeLessThanOrEqual(44);
    expect(lines[1]).toMatch(/^│ outcome +│ layer +│$/);
    const text = lines.join('\n');
    expect(text).toContain('│ claimed: JSONRPC_ERROR');
    expect(text.indexOf('claimed: JSONRPC_ERROR')).toBeLessThan(text.indexOf('why: not seen'));
    expect(text).toContain('│ why: short'); // a row with no claim has no empty claimed line
    expect(text).not.toContain('claimed: \n');
    expect(text.match(/claimed:/g)).toHaveLength(1);
  });

  it('leaves a table that fits alone, and takes from the widest column first', () => {
    expect(fitted(['a', 'b'], [['x', 'y']], 80, [wrapColumn(1), wrapColumn(1)])).toEqual(grid(['a', 'b'], [['x', 'y']]).split('\n'));
    const lines = fitted(['message', 'evidence'], [[WHY, 'samples/client.ndjson:8']], 60, [wrapColumn(20), tailColumn(20)]);
    expect(lines[3]).toContain('samples/client.ndjson:8'); // the narrower column kept its width
    expect(displayWidth(lines[0]!)).toBeLessThanOrEqual(60);
  });

  it('a column with keep gives down to it while the other wrapping columns give, and further only after them', () => {
    const id = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601';
    const label = 'input#1 (no session id; samples/capture.har.ndjson)';
    const fit = [{ mode: 'wrap', min: 19, keep: 36 } as ColumnFit, wrapColumn(6)];
    // Room for the id and the name after its `/`: the label wraps to the id's width, the name keeps its parts.
    const roomy = fitted(['session', 'client'], [[id, 'acme-agent/2.4.1'], [label, '']], 56, fit);
    expect(roomy[3]).toMatch(/^│ a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601 │ acme-agent\/ +│$/);
    expect(roomy.join('\n')).toMatch(/│ input#1 \(no session id; +│/);
    // Less: the other column is at its min, and only then does the id wrap.
    const tight = fitted(['session', 'client'], [[id, 'acme-agent/2.4.1']], 40, fit);
    expect(tight[3]).toMatch(/^│ a3f1c2d4-5b6e-4f70-[^│]*│ acme-/);
  });

  it('breaks `client+server` after its `+`', () => {
    expect(wrapText('client+server', 10)).toEqual(['client+', 'server']);
  });

  it('shortens a tail column from the left: the file name and line stay', () => {
    const ev = 'test/fixtures/real-audit/timeout-then-retry/client.ndjson:1\ntest/fixtures/real-audit/timeout-then-retry/server.ndjson:3';
    const lines = fitted(['code', 'evidence'], [['UNSAFE_RETRY', ev]], 45, [undefined, tailColumn(20)]);
    const shown = lines.slice(3, 5).map((l) => l.split('│')[2]!.trim());
    expect(shown).toEqual(['…hen-retry/client.ndjson:1', '…hen-retry/server.ndjson:3']);
    expect(displayWidth(lines[0]!)).toBeLessThanOrEqual(45);
  });

  it('puts a column too narrow for its text under its row, across the table, after the column name', () => {
    const lines = fitted(['time', 'outcome', 'why'], [['09:12:01.000', 'HTTP_ERROR', WHY], ['09:12:02.000', 'TOOL_ERROR', '']], 50, [undefined, undefined, wrapColumn(16, 36)]);
    expect(lines).toEqual([
      '┌──────────────┬────────────┐',
      '│ time         │ outcome    │',
      '├──────────────┼────────────┤',
      '│ 09:12:01.000 │ HTTP_ERROR │',
      '├──────────────┴────────────┤',
      '│ why: not seen by the      │',
      '│ server: the body says:    │',
      '│ 503 Service Unavailable   │',
      '│ from the gateway in front │',
      '│ of it                     │',
      '├──────────────┬────────────┤',
      '│ 09:12:02.000 │ TOOL_ERROR │', // no why: no line under it
      '└──────────────┴────────────┘',
    ]);
  });

  it('puts a column that names its row (above) across the table over its row, and one that does not under it', () => {
    const id = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601';
    const rows = [[id, '09:12:01.000', 'HTTP_ERROR', WHY], ['b7e2', '09:12:02.000', 'TOOL_ERROR', ''], ['', '09:12:03.000', 'SUCCESS', '']];
    const lines = fitted(['session', 'time', 'outcome', 'why'], rows, 50, [{ mode: 'wrap', min: 7, spill: 36, above: true }, undefined, undefined, wrapColumn(16, 36)]);
    expect(lines).toEqual([
      '┌──────────────┬────────────┐',
      '│ time         │ outcome    │',
      '├──────────────┴────────────┤',
      '│ session:                  │',
      '│ a3f1c2d4-5b6e-4f70-8a91-  │',
      '│ b2c3d4e5f601              │',
      '├──────────────┬────────────┤',
      '│ 09:12:01.000 │ HTTP_ERROR │',
      '├──────────────┴────────────┤',
      '│ why: not seen by the      │',
      '│ server: the body says:    │',
      '│ 503 Service Unavailable   │',
      '│ from the gateway in front │',
      '│ of it                     │',
      '├───────────────────────────┤',
      '│ session: b7e2             │',
      '├──────────────┬────────────┤',
      '│ 09:12:02.000 │ TOOL_ERROR │',
      '├──────────────┼────────────┤',
      '│ 09:12:03.000 │ SUCCESS    │', // no name: no line over it
      '└──────────────┴────────────┘',
    ]);
    // Wide enough, the column stays in the table.
    expect(fitted(['session', 'time', 'outcome', 'why'], rows, 200, [{ mode: 'wrap', min: 7, spill: 36, above: true }, undefined, undefined, wrapColumn(16, 36)])[3]).toMatch(/^│ a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601 │ 09:12:01\.000 │/);
  });

  it('closes a colour at the end of each wrapped line and opens it again on the next (the borders stay plain)', () => {
    const red = '\u001b[31mSTREAM_INCOMPLETE then HTTP_ERROR\u001b[0m';
    const lines = fitted(['n', 'outcome'], [['1', red]], 20, [undefined, wrapColumn(8)]);
    const cells = lines.slice(3, -1).map((l) => l.slice(l.lastIndexOf('│', l.length - 2) + 1, -1));
    expect(cells.length).toBeGreaterThan(1);
    for (const c of cells) expect(c.trim()).toMatch(/^\u001b\[31m.*\u001b\[0m$/);
    expect(plain(cells.join(' ')).replace(/ +/g, ' ').trim()).toBe('STREAM_INCOMPLETE then HTTP_ERROR');
  });

  it('for generated tables and widths: a rectangle, no wider than asked when the columns can give enough, no character lost', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '/', '_', '-', ':', '工', 'e\u0301'), minLength: 1, maxLength: 30 });
    const text = fc.array(word, { maxLength: 8 }).map((w) => w.join(' '));
    const table = fc.integer({ min: 1, max: 5 }).chain((cols) =>
      fc.tuple(
        fc.array(text, { minLength: cols, maxLength: cols }),
        fc.array(fc.array(text, { minLength: cols, maxLength: cols }), { maxLength: 5 }),
        fc.array(fc.option(fc.integer({ min: 2, max: 12 }).map((min) => wrapColumn(min)), { nil: undefined }), { minLength: cols, maxLength: cols }),
        fc.integer({ min: 40, max: 160 }),
      ),
    );
    fc.assert(
      fc.property(table, ([head, rows, fit, width]) => {
        const lines = fitted(head, rows, width, fit);
        expect(new Set(lines.map(displayWidth)).size).toBe(1);
        const natural = grid(head, rows).split('\n')[0]!;
        const least = fit.reduce((sum, f, c) => sum + (f ? Math.min(f.min, displayWidth(natural.split('┬')[c]!) - 2) : displayWidth(natural.split('┬')[c]!) - 2), 0) + 3 * fit.length + 1;
        expect(displayWidth(lines[0]!)).toBeLessThanOrEqual(Math.max(width, least, 2 * fit.length + 1 + 3 * fit.length));
        const chars = (s: string) => plain(s).replace(/[\s│┌┐└┘├┤┬┴┼─]/g, '');
        expect(chars(lines.join(''))).toHaveLength(chars(grid(head, rows)).length);
      }),
      { numRuns: 300 },
    );
  });
});
