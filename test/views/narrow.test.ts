// The sessions and timeline views at 80 and 60 columns: no line wider, and every value of the wide tables still there, row by row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/helpers.js';
import { displayWidth } from '../../src/report/grid.js';
import { readTables, rowText, squeeze, type TextTable } from './grid-text.js';
import { CASES, DIR, expand } from './wide-cases.mjs'; // plain JS, also run by hand to write the expectations

interface Case { name: string; args: string[] }
const cases = (CASES as Case[]).map((c) => [c.name, c] as const);
const wideOf = (name: string) => readFileSync(join(DIR as string, `${name}.txt`), 'utf8');
const run = async (c: Case, columns: number) => {
  const r = await cli(expand(c.args) as string[], { env: { COLUMNS: String(columns) } });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};

/** Every line of each wide cell (without white space) is somewhere in the same row of the narrow table. */
function expectSameValues(wide: TextTable, narrow: TextTable, what: string): void {
  expect(narrow.rows.length, what).toBe(wide.rows.length);
  wide.rows.forEach((row, i) => {
    const shown = rowText(narrow.rows[i]!);
    const values = [...row.above, ...row.cells.flat(), ...row.under].map(squeeze).filter(Boolean);
    for (const v of values) expect(shown, `${what}, row ${i + 1}: ${v}`).toContain(v);
  });
}

describe.each([80, 60])('at COLUMNS=%i', (columns) => {
  it.each(cases)('%s: no line is wider, every value of the wide tables is in its row, the text around them is all there', async (name, c) => {
    const out = await run(c, columns);
    const over = out.split('\n').filter((l) => displayWidth(l) > columns);
    expect(over, `${name}: lines wider than ${columns}`).toEqual([]);
    const wide = readTables(wideOf(name), ['session']);
    const narrow = readTables(out, ['session']);
    expect(narrow.tables.length).toBe(wide.tables.length);
    wide.tables.forEach((t, k) => expectSameValues(t, narrow.tables[k]!, `${name}, table ${k + 1}`));
    // The header, the filters, the legend and the notes: wrapped at spaces, not a word lost.
    expect(squeeze(narrow.outside.join(''))).toBe(squeeze(wide.outside.join('')));
  });
});

describe('the narrow layouts', () => {
  const START = CASES[0] as Case; // sessions of `npm start`'s inputs
  const A3F1 = (CASES as Case[]).find((c) => c.name === 'samples-timeline-a3f1')!;

  it('sessions: each id whole on one line above its row when the table cannot hold it, the failures under it', async () => {
    const out = await run(START, 60);
    const ids = ['a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601', 'b7e2d9a0-1c3f-4e58-9b6d-0a1b2c3d4e5f', 'c4d5e6f7-0819-4a2b-9c3d-4e5f60718293', 'd5e6f708-192a-4b3c-8d4e-5f6071829304'];
    for (const id of ids) expect(out).toMatch(new RegExp(`^│ session: ${id} +│$`, 'm'));
    const { tables } = readTables(out, ['session']);
    const first = tables[0]!.rows[0]!;
    expect(first.above).toEqual(['session: a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601']);
    expect(first.cells.map((c) => c.filter(Boolean).join(' '))).toEqual(['acme-agent/ 2.4.1 tickets-mcp/ 3.1.0', '2025-11-25 client+ server', '16 attempts 4 retries 6 errors 7 warnings 1 info', '2026-10-17 09:12:00.000 09:18:40.005 6 min 40 s']);
    expect(first.under.slice(0, 2)).toEqual(['failed: 10', '4 HTTP_ERROR']);
    expect(tables[0]!.rows.find((r) => r.above[0]?.startsWith('session: c4d5'))!.under).toEqual(['failed: 0', 'never usable (HTTP 503 to notifications/initialized)']);
  });

  it('sessions: the id stays in its column while the other columns can give (120 columns)', async () => {
    const { tables } = readTables(await run(START, 120), ['session']);
    expect(tables[0]!.head.map((h) => h.join(' ').trim())).toEqual(['session', 'client / server', 'protocol / sides', 'counts', 'first / last / span']);
    expect(tables[0]!.rows[0]!.cells[0]![0]).toBe('a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601');
    expect(tables[0]!.rows[0]!.under.slice(0, 2)).toEqual(['failed: 10', '4 HTTP_ERROR']);
  });

  it('timeline: time, offset and ms stacked, id over call, the two views in one cell, SSE and notes under the row', async () => {
    const { tables } = readTables(await run(A3F1, 80));
    expect(tables[0]!.head.map((h) => h.filter(Boolean).join(' '))).toEqual(['time / offset / ms', 'id / call', 'method / tool', 'client view / server view']);
    const export6 = tables[0]!.rows.find((r) => r.cells[1]![0] === '6')!;
    expect(export6.cells.map((c) => c.filter(Boolean))).toEqual([['09:12:03.000', '+3.0 s', '15000 ms'], ['6', 'c6#1'], ['tools/call', 'export_report'], ['200 STREAM_INCOMPLETE', '200 TOOL_SUCCESS']]);
    expect(export6.under[0]).toBe('SSE: 1 event, 1 progress, stream aborted');
    expect(export6.under[1]).toMatch(/^notes: cancelled by the client; /);
    const notSeen = tables[0]!.rows.find((r) => r.cells[1]![0] === '3')!;
    expect(notSeen.cells[3]!.filter(Boolean)).toEqual(['503 HTTP_ERROR', 'not seen by server']);
  });

  it('timeline: a session without SSE or notes has no column for them', async () => {
    const probe = (CASES as Case[]).find((c) => c.name === 'samples-timeline-probe')!;
    const { tables } = readTables(await run(probe, 60));
    expect(tables[0]!.head).toHaveLength(4);
  });

  it('keeps the colours, closed at the end of every wrapped line', async () => {
    const color = (CASES as Case[]).find((c) => c.name === 'samples-timeline-a3f1-color')!;
    const out = await run(color, 60);
    expect(out).toMatch(/\u001b\[31m503 HTTP_ERROR|503 \u001b\[31mHTTP_ERROR/);
    for (const line of out.split('\n').filter((l) => l.startsWith('│'))) {
      const opened = (line.match(/\u001b\[(?!0?m)[0-9;]*m/g) ?? []).length;
      if (opened) expect(line, line).toMatch(/\u001b\[0?m[^\u001b]*$/);
    }
  });
});
