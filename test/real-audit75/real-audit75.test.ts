// Audit 75: mcpsnoop 0.22.0's JSON export (export -T json) read as a document (test/fixtures/real-audit73/*/export.json, test/fixtures/real-audit75), held to the same run's trace JSONL and to what the app saw (observed.json).
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const A73 = 'test/fixtures/real-audit73/';
const A75 = 'test/fixtures/real-audit75/';
const RUNS73 = readdirSync(A73).filter((d) => !d.includes('.'));

type Row = { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; call: string; attempt: number; findings: { code: string }[]; detail?: { why?: string; errorCode?: number } };
type Step = { label?: string; ok?: unknown; error?: { name: string; message: string; code?: number } };
type Inputs = { used: number; skipped: number; unusable: number; lines: number; formats: Record<string, number>; reasons: Record<string, number>; cannotShow?: string[] }[];

async function run(...paths: string[]) {
  const r = await analyze({ inputs: paths.map((path) => ({ path })) });
  const summary = r.summary as unknown as { inputs: Inputs; notes: string[] };
  return { rows: r.attempts as unknown as Row[], inputs: summary.inputs, notes: summary.notes ?? [] };
}

/** An attempt without where it was read (the export's line numbers are not the trace's). */
const strip = (rows: Row[]) => JSON.stringify(rows, (k, v) => (k === 'sources' ? undefined : v));
const steps = (dir: string): Step[] => (JSON.parse(readFileSync(`${dir}/observed.json`, 'utf8')) as Step[]).filter((s) => s.label !== undefined && !s.label.startsWith('terminate') && !s.label.startsWith('list tools') && !s.label.startsWith('connect'));
const tmp = () => mkdtempSync(`${tmpdir()}/a75-`);

describe("real-audit75: mcpsnoop's JSON export reads as the same run's trace JSONL", () => {
  it.each(RUNS73)('real-audit73 %s: export.json gives the attempts of trace.jsonl, every event used', async (name) => {
    const ex = await run(`${A73}${name}/export.json`);
    const tr = await run(`${A73}${name}/trace.jsonl`);
    expect(ex.rows.length).toBeGreaterThan(0);
    expect(strip(ex.rows)).toBe(strip(tr.rows));
    expect(ex.inputs[0]!.formats).toHaveProperty('mcpsnoop');
    // every event but mcpsnoop's own 502s (to no request it read) is used, as in the trace
    expect(ex.inputs[0]!.unusable).toBe(tr.inputs[0]!.unusable);
  });

  it('what the app saw: results, isError, the JSON-RPC error with its code', async () => {
    const { rows } = await run(`${A73}http-calls/export.json`);
    const calls = rows.filter((r) => r.method === 'tools/call' || r.method === 'prompts/get');
    const want = steps(`${A73}http-calls`).map((s) => (s.ok && typeof s.ok === 'object' && 'isError' in s.ok ? ((s.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS') : 'JSONRPC_ERROR'));
    expect(calls.map((c) => c.outcome)).toEqual(want);
    expect(calls.find((c) => c.method === 'prompts/get')!.detail!.errorCode).toBe(-32601);
  });

  it('the HTTP statuses the HAR export loses: the 401 is HTTP_ERROR, the lost session\'s 404 HTTP_ERROR saying "Session not found"', async () => {
    const auth = await run(`${A73}http-401/export.json`);
    const refused = steps(`${A73}http-401`).length; // the app's one call worked; its refused connect is the 401'd initialize
    expect(refused).toBe(1);
    expect(auth.rows[0]).toMatchObject({ method: 'initialize', status: 401, outcome: 'HTTP_ERROR' });
    expect(auth.rows[0]!.detail!.why).toMatch(/invalid_token/);
    const lost = await run(`${A73}http-session-lost/export.json`);
    const app = steps(`${A73}http-session-lost`);
    expect(app.map((s) => (s.error ? s.error.code : 'ok'))).toEqual(['ok', 404, 'ok']);
    expect(lost.rows.filter((r) => r.method === 'tools/call').map((r) => [r.status, r.outcome])).toEqual([[200, 'TOOL_SUCCESS'], [404, 'HTTP_ERROR'], [200, 'TOOL_SUCCESS']]);
    expect(lost.rows.find((r) => r.status === 404)!.detail!.why).toMatch(/Session not found/);
  });

  it('the HAR export of the same runs reads those as UNANSWERED (what the JSON export adds)', async () => {
    const har = await run(`${A73}http-401/export.har`);
    expect(har.rows[0]).toMatchObject({ method: 'initialize', outcome: 'UNANSWERED' });
  });

  it('the stdio session: the cancelled call and its retry, as the trace has them', async () => {
    const { rows } = await run(`${A73}stdio-calls/export.json`);
    const slow = rows.filter((r) => r.tool === 'slow_report');
    expect(slow.map((r) => r.outcome)).toEqual(['TOOL_SUCCESS', 'UNANSWERED', 'TOOL_SUCCESS']);
    expect(slow[1]!.findings.map((f) => f.code)).toContain('CANCELLED');
    expect(slow[2]!.call).toBe(slow[1]!.call);
  });

  it('says what the export leaves out', async () => {
    const { inputs } = await run(`${A73}http-calls/export.json`);
    expect(inputs[0]!.cannotShow!.join(' ')).toMatch(/JSON export .*keeps no TCP connection/);
  });
});

describe("real-audit75: audit 72's traces re-exported with -T json (stderr lines, a stray stdout line, two sessions, a restart)", () => {
  const FROM72 = readdirSync(`${A75}from-audit72`);
  it.each(FROM72)('%s: the export gives the attempts of the trace, and its unusable frames', async (name) => {
    const ex = await run(`${A75}from-audit72/${name}/export.json`);
    const tr = await run(`test/fixtures/real-audit72/${name}/snoop.jsonl`);
    expect(ex.rows.length).toBeGreaterThan(0);
    expect(strip(ex.rows)).toBe(strip(tr.rows));
    expect(ex.inputs[0]!.used).toBe(tr.inputs[0]!.used);
    expect(ex.inputs[0]!.reasons).toEqual(tr.inputs[0]!.reasons);
    // the trace's meta frame is the one line the export leaves out
    expect(ex.inputs[0]!.skipped).toBe(tr.inputs[0]!.skipped - 1);
  });
});

describe('real-audit75 http-concurrent-lost: two requests in flight when id-less 404s come', () => {
  const D = `${A75}http-concurrent-lost`;
  it('the trace ties each 404 by its connection; the export, which keeps none, ties neither (one of the three 404s was a GET\'s)', async () => {
    const tr = await run(`${D}/trace.jsonl`);
    const ex = await run(`${D}/export.json`);
    const app = steps(D);
    expect(app.filter((s) => s.error).map((s) => s.error!.code)).toEqual([404, 404]);
    expect(tr.rows.filter((r) => r.status === 404).map((r) => r.outcome)).toEqual(['HTTP_ERROR', 'HTTP_ERROR']);
    expect(ex.rows.filter((r) => r.status === 404)).toEqual([]);
    expect(ex.rows.filter((r) => r.id === 3 || r.id === 4).map((r) => r.outcome)).toEqual(['UNANSWERED', 'UNANSWERED']);
    // the three id-less 404s are said (why those calls read unanswered), not dropped
    expect(ex.inputs[0]!.unusable).toBe(3);
    const diags = (await analyze({ inputs: [{ path: `${D}/export.json` }] })).summary as unknown as { diagnostics: { first: { message: string }[] } };
    expect(diags.diagnostics.first[0]!.message).toMatch(/404 without a JSON-RPC id .*while 2 requests of the run were unanswered \(ids 3, 4\).*keeps no connection/);
    // every other attempt the same as the trace's: the calls sent together before the restart, answered by id
    const strip404 = (rows: Row[]) => strip(rows.filter((r) => r.id !== 3 && r.id !== 4 && !(r.tool === 'lookup_order' && r.attempt === 2)));
    expect(strip404(ex.rows)).toBe(strip404(tr.rows));
    expect(ex.rows.filter((r) => r.id === 1 || r.id === 2).slice(0, 2).map((r) => r.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR']);
  });
  it('near miss: the one request in flight (real-audit73 http-session-lost) is still tied', async () => {
    const { rows } = await run(`${A73}http-session-lost/export.json`);
    expect(rows.filter((r) => r.status === 404).length).toBe(1);
  });
});

describe('real-audit75: the same capture given twice', () => {
  it('the JSON export beside its own trace JSONL: the join\'s "same requests" note', async () => {
    const { notes, rows } = await run(`${A73}http-calls/trace.jsonl`, `${A73}http-calls/export.json`);
    expect(rows.length).toBe(14);
    expect(notes.join('\n')).toMatch(/trace\.jsonl and .*export\.json show the same 7 requests/);
  });
  it.each(['http-calls', 'stdio-calls', 'http-session-lost'])('%s: the JSON export beside the HAR export of the same run: said once', async (name) => {
    const { notes } = await run(`${A73}${name}/export.json`, `${A73}${name}/export.har`);
    const said = notes.filter((n) => n.includes('two renderings of one mcpsnoop capture'));
    expect(said.length).toBe(1);
    expect(said[0]).toMatch(/give one of them/);
  });
  it.each(['http-calls', 'stdio-calls', 'http-401'])('%s: the trace JSONL beside the HAR export of the same run: said once (before: nothing)', async (name) => {
    const { notes } = await run(`${A73}${name}/trace.jsonl`, `${A73}${name}/export.har`);
    expect(notes.filter((n) => n.includes('two renderings of one mcpsnoop capture')).length).toBe(1);
  });
  it('near miss: a trace split in two files, and a trace given with its copy, get no such note', async () => {
    const lines = readFileSync(`${A73}http-calls/trace.jsonl`, 'utf8').split('\n');
    const d = tmp();
    writeFileSync(`${d}/a.jsonl`, lines.slice(0, 8).join('\n') + '\n');
    writeFileSync(`${d}/b.jsonl`, lines.slice(8).join('\n'));
    writeFileSync(`${d}/copy.jsonl`, lines.join('\n'));
    for (const pair of [[`${d}/a.jsonl`, `${d}/b.jsonl`], [`${A73}http-calls/trace.jsonl`, `${d}/copy.jsonl`]]) {
      const { notes } = await run(...pair);
      expect(notes.join('\n')).not.toMatch(/two renderings of one mcpsnoop capture/);
    }
  });
  it('near miss: two runs\' exports together are no repeat', async () => {
    for (const pair of [[`${A73}http-calls/trace.jsonl`, `${A73}http-401/export.har`], [`${A73}http-calls/export.json`, `${A73}http-401/export.har`], [`${A73}http-calls/export.json`, `${A73}http-timeout-retry/export.json`], [`${A73}http-session-lost/export.json`, `${A75}http-concurrent-lost/export.har`]]) {
      const { notes } = await run(...pair);
      expect(notes.join('\n')).not.toMatch(/two renderings of one mcpsnoop capture|show the same/);
    }
  });
});

describe("real-audit75: mcpsnoop's html and text exports are refused by name", () => {
  it.each(['export.html', 'export.txt'])('http-calls/%s: one unusable line that says to export with -T json or har', async (file) => {
    const { rows, inputs } = await run(`${A73}http-calls/${file}`);
    expect(rows).toEqual([]);
    expect(inputs[0]!.lines).toBe(1);
    expect(inputs[0]!.reasons).toEqual({ 'mcpsnoop-export': 1 });
  });
  it('near miss: a text file whose first line only starts like the text export is read line by line', async () => {
    const f = `${tmp()}/notes.txt`;
    writeFileSync(f, 'mcpsnoop session notes (orders)\nnothing here\n');
    const { inputs } = await run(f);
    expect(inputs[0]!.reasons['mcpsnoop-export']).toBeUndefined();
    expect(inputs[0]!.lines).toBe(2);
  });
});

describe("real-audit75: the JSON export is streamed, not loaded", () => {
  it('a cut export: the events before the cut are read, the cut said', async () => {
    const text = readFileSync(`${A73}http-calls/export.json`, 'utf8');
    const at = text.indexOf('"seq": 12,');
    const f = `${tmp()}/cut.json`;
    writeFileSync(f, text.slice(0, at));
    const r = await analyze({ inputs: [{ path: f }] });
    const rows = r.attempts as unknown as Row[];
    expect(rows.filter((x) => x.method === 'tools/call').map((x) => x.outcome)).toEqual(['TOOL_SUCCESS', 'UNANSWERED']);
    expect((r.summary as unknown as { diagnostics: { byCode: Record<string, number> } }).diagnostics.byCode).toHaveProperty('json-broken');
  });
  it('near miss: a trace frame that says export "json" but has its conn_id is read as the trace', async () => {
    const { mcpsnoopFormat } = await import('../../src/formats/mcpsnoop.js');
    const state = new Map<string, unknown>();
    const ctx = { state } as never;
    const base = { session_id: 's', seq: 1, ts: '2026-12-07T03:00:00Z', transport: 'http', conn_id: '127.0.0.1:1', export: 'json' };
    mcpsnoopFormat.toRecords({ ...base, direction: 'c2s', raw: { jsonrpc: '2.0', id: 7, method: 'tools/call' } } as never, ctx);
    mcpsnoopFormat.toRecords({ ...base, seq: 2, direction: 'c2s', conn_id: '127.0.0.1:2', raw: { jsonrpc: '2.0', id: 8, method: 'tools/call' } } as never, ctx);
    // two requests open, but on its own connection the 404 is id 7's (the trace's rule), not left untied (the export's)
    const out = mcpsnoopFormat.toRecords({ ...base, seq: 3, direction: 's2c', status: 404 } as never, ctx) as { message: { id?: unknown } }[];
    expect(out[0]!.message.id).toBe(7);
  });
});
