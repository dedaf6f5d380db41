// Whole JSON array documents (an MCP Inspector export, `jq` output): streamed item by item, pretty or on one line, cut or broken.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { looksLikeJsonArrayDocument } from '../../src/read/har-head.js';

const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const HISTORY = fileURLToPath(new URL('../../samples/formats/inspector-history.json', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-array-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Row { type: string; id?: unknown; outcome?: string; sources?: { line: number }[]; inputs?: { mode: string; lines: number; used: number; unusable: number; brokenAt?: string }[] }
function run(args: string[], input?: Buffer) {
  const r = spawnSync(process.execPath, [BIN, '--format', 'ndjson', ...args], { input, encoding: 'buffer', timeout: 30_000 });
  const rows = r.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
  return { attempts: rows.filter((x) => x.type === 'attempt'), summary: rows.find((x) => x.type === 'summary')!, stderr: r.stderr.toString('utf8'), code: r.status };
}
const outcomes = (rows: Row[]) => rows.map((a) => `${String(a.id)} ${a.outcome}`);
const WANT = ['1 SUCCESS', '2 TOOL_SUCCESS', '3 JSONRPC_ERROR', '4 TOOL_ERROR'];

describe('JSON array documents', () => {
  it('are told from line-oriented input by their first line', () => {
    expect(looksLikeJsonArrayDocument('[\n  {"a": 1},\n')).toBe(true);
    expect(looksLikeJsonArrayDocument('\uFEFF  [{\n"a": 1}]')).toBe(true);
    expect(looksLikeJsonArrayDocument('[1,2\n{"a":1}\n')).toBe(false); // a broken first line is a broken line
    expect(looksLikeJsonArrayDocument('[{"a":1}]\n[{"a":2}]\n')).toBe(false); // each line is a whole array
    expect(looksLikeJsonArrayDocument('{"a":1}\n')).toBe(false);
    expect(looksLikeJsonArrayDocument(`[${'{"a":1},'.repeat(600)}`)).toBe(false); // no line end in sight: read as a line
  });

  it('a pretty-printed array is read item by item, each placed at the line it starts on', () => {
    const r = run([HISTORY]);
    expect(r.code).toBe(0);
    expect(outcomes(r.attempts)).toEqual(WANT);
    const text = readFileSync(HISTORY, 'utf8').split('\n');
    for (const a of r.attempts) expect(text[a.sources![0]!.line - 1]).toBe('  {');
    expect(r.summary.inputs![0]).toMatchObject({ mode: 'array', lines: 6, used: 6, unusable: 0 });
  });

  it('the same array on one line, and gzipped on stdin, give the same calls', () => {
    const one = join(dir, 'one-line.json');
    writeFileSync(one, JSON.stringify(JSON.parse(readFileSync(HISTORY, 'utf8'))));
    expect(outcomes(run([one]).attempts)).toEqual(WANT);
    expect(outcomes(run(['-'], gzipSync(readFileSync(HISTORY))).attempts)).toEqual(WANT);
  });

  it('a document cut short keeps every complete item and says where it broke; a non-object item is unusable', () => {
    const text = readFileSync(HISTORY, 'utf8');
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, text.slice(0, text.indexOf('"msg-6"')));
    const r = run([cut]);
    expect(outcomes(r.attempts)).toEqual(WANT.slice(0, 3));
    expect(r.stderr).toMatch(/cut\.json:\d+: JSON array document ends early, inside the item that starts at line \d+ \(truncated file\?\): 5 complete items read/);
    const odd = join(dir, 'odd.json');
    writeFileSync(odd, '[\n  42,\n  {"direction":"request","origin":"client","timestamp":"2026-03-01T10:00:00Z","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}\n]\n');
    const o = run([odd]);
    expect(o.stderr).toMatch(/odd\.json:2: array item 1 is JSON number, not an object record/);
    expect(o.summary.inputs![0]).toMatchObject({ lines: 2, used: 1, unusable: 1 });
  });

  it('a line holding an array of known records is read as a page; an array of anything else is one unusable line', () => {
    const file = join(dir, 'arrays.ndjson');
    const batch = [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'b' } }];
    const answers = [{ jsonrpc: '2.0', id: 1, result: { content: [] } }, { jsonrpc: '2.0', id: 2, result: { content: [], isError: true } }];
    writeFileSync(file, [JSON.stringify(batch), JSON.stringify(answers), '[{},{}]', '[1,2]'].join('\n'));
    const r = run([file]);
    expect(outcomes(r.attempts)).toEqual(['1 TOOL_SUCCESS', '2 TOOL_ERROR']);
    expect(r.summary.inputs![0]).toMatchObject({ lines: 4, used: 2, unusable: 2 });
    expect(r.stderr).toMatch(/arrays\.ndjson:3: line is JSON array, not an object record/);
  });

  it('a bare JSON scalar line says which JSON type it is; a line that is no JSON still says so', () => {
    const file = join(dir, 'scalars.ndjson');
    writeFileSync(file, ['42', '"text"', 'null', 'true', '-5e3', 'nope', '-- marker'].join('\n') + '\n');
    const r = run([file]);
    expect(r.summary.diagnostics!.byCode).toEqual({ 'not-an-object': 5, 'invalid-json': 2 });
    for (const [n, type] of [[1, 'number'], [2, 'string'], [3, 'null'], [4, 'boolean'], [5, 'number']] as const) expect(r.stderr).toContain(`scalars.ndjson:${n}: line is JSON ${type}, not an object record\n`);
    expect(r.stderr).toContain('scalars.ndjson:6: line is not JSON and matches no text log format\n');
  });
});
