// Audit 73's real captures (test/fixtures/real-audit73): mcpsnoop 0.22.0's HAR and OTLP exports and its live OTLP stream (a local sink's file, as a Collector's file exporter writes it), judged against what the client app saw (observed.json).
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit73/';
const RUNS = readdirSync(DIR).filter((d) => !d.includes('.'));
const SECRETS = ['otlp-audit73-secret', 'sk-audit73-api-key'];

type Row = { id: unknown; method: string; tool: string | null; outcome: string; call: string; attempt: number; ts?: string; scope?: string; findings: { code: string }[]; detail?: { why?: string; errorCode?: number } };
type Step = { label?: string; ok?: unknown; error?: { name: string; message: string; code?: number } };

const steps = (run: string): Step[] => (JSON.parse(readFileSync(`${DIR}${run}/observed.json`, 'utf8')) as Step[]).filter((s) => s.label !== undefined && !s.label.startsWith('terminate') && !s.label.startsWith('list tools') && !s.label.startsWith('connect'));

async function run(file: string) {
  const r = await analyze({ inputs: [{ path: `${DIR}${file}` }] });
  const rows = r.attempts as unknown as Row[];
  const summary = r.summary as unknown as { inputs: { used: number; skipped: number; unusable: number; formats: Record<string, number>; cannotShow?: string[] }[] };
  return { rows, calls: rows.filter((x) => x.method === 'tools/call' || x.method === 'prompts/get'), inputs: summary.inputs, all: JSON.stringify(r) };
}

/** What the app saw, as the export can show it: a JSON-RPC error; a timeout or an HTTP error with no JSON-RPC body reads as no response (UNANSWERED). */
function outcomeOf(s: Step): string {
  if (s.ok && typeof s.ok === 'object' && 'isError' in s.ok) return (s.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  if (s.error?.name === 'McpError' && s.error.code === -32601) return 'JSONRPC_ERROR';
  if (s.error) return 'UNANSWERED';
  throw new Error(`unexpected step ${JSON.stringify(s)}`);
}

/** The calls the HAR export holds: http-server-down's call refused with mcpsnoop's own 502 is not in it at all (a known gap). */
const harSteps = (name: string) => steps(name).filter((s) => !(name === 'http-server-down' && s.error));

describe("real-audit73: mcpsnoop's HAR export (export -T har)", () => {
  it.each(RUNS)('%s: every call reads as what the app got, with no entry skipped or unusable', async (name) => {
    const { calls, inputs } = await run(`${name}/export.har`);
    expect(inputs[0]!.skipped).toBe(0);
    expect(inputs[0]!.unusable).toBe(0);
    expect(calls.map((c) => c.outcome)).toEqual(harSteps(name).map(outcomeOf));
  });
  it('the JSON-RPC error keeps its code; the isError result of a thrown tool is the tool\'s error', async () => {
    const { calls } = await run('http-calls/export.har');
    expect(calls.find((c) => c.method === 'prompts/get')!.detail!.errorCode).toBe(-32601);
    expect(calls.find((c) => c.tool === 'crash')!.outcome).toBe('TOOL_ERROR');
  });
  it('the app\'s retry after a timeout (stdio: a cancelled entry; HTTP: a pending one) is linked to the first attempt', async () => {
    for (const name of ['stdio-calls', 'http-timeout-retry']) {
      const { calls } = await run(`${name}/export.har`);
      const slow = calls.filter((c) => c.tool === 'slow_report').slice(-2);
      expect(slow.map((c) => c.attempt)).toEqual([1, 2]);
      expect(slow[0]!.call).toBe(slow[1]!.call);
    }
    const { calls } = await run('stdio-calls/export.har');
    expect(calls.some((c) => c.findings.some((f) => f.code === 'CANCELLED'))).toBe(true);
  });
  it('says what the export cannot show (no HTTP status: a 401 or a lost session reads as no response)', async () => {
    const { inputs, calls } = await run('http-session-lost/export.har');
    expect(inputs[0]!.cannotShow!.join(' ')).toMatch(/mcpsnoop's HAR export is not HTTP/);
    expect(calls.find((c) => c.outcome === 'UNANSWERED')!.detail!.why).toMatch(/keeps no HTTP status/);
  });
  it('a near miss: a HAR entry of real HTTP is still read as an exchange', async () => {
    const entry = { startedDateTime: '2026-12-07T03:00:00.000Z', time: 5, request: { method: 'POST', url: 'http://127.0.0.1:9650/mcp', httpVersion: 'HTTP/1.1', headers: [{ name: 'content-type', value: 'application/json' }], postData: { mimeType: 'application/json', text: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_order"}}' } }, response: { status: 500, statusText: 'Internal Server Error', headers: [], content: { mimeType: 'text/plain', text: 'boom' } } };
    const { harEntryFormat } = await import('../../src/formats/har-entry.js');
    const recs = harEntryFormat.toRecords(entry as never, {} as never) as { kind: string; status?: number }[];
    expect(recs.map((r) => [r.kind, r.status])).toEqual([['exchange', 500]]);
  });
});

describe("real-audit73: mcpsnoop's OTLP, streamed live to a collector (--otlp-endpoint) and exported", () => {
  it.each(RUNS)('%s: the sink file: every completed call reads as what the app got', async (name) => {
    const { calls, inputs, all } = await run(`${name}/otlp-sink.ndjson`);
    expect(inputs[0]!.skipped).toBe(0);
    // the live stream sends completed calls only; a JSON-RPC error's span keeps no code: UNANSWERED, and its why says so
    const want = steps(name).filter((s) => s.ok).map(outcomeOf);
    expect(calls.filter((c) => c.method === 'tools/call').map((c) => c.outcome)).toEqual(want);
    for (const c of calls.filter((x) => x.method === 'prompts/get')) expect(c.detail!.why).toMatch(/JSON-RPC error answered it/);
    for (const s of SECRETS) expect(all).not.toContain(s);
  });
  it('a cancelled call of the export (jq -c: the export is one pretty-printed document) reads as cancelled, its retry linked', async () => {
    const { analyze: a } = await import('../../src/index.js');
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const f = `${mkdtempSync(`${tmpdir()}/a73-`)}/export.otlp.ndjson`;
    writeFileSync(f, JSON.stringify(JSON.parse(readFileSync(`${DIR}stdio-calls/export.otlp.json`, 'utf8'))) + '\n');
    const rows = (await a({ inputs: [{ path: f }] })).attempts as unknown as Row[];
    const slow = rows.filter((c) => c.tool === 'slow_report');
    expect(slow.map((c) => c.outcome)).toEqual(['TOOL_SUCCESS', 'UNANSWERED', 'TOOL_SUCCESS']);
    expect(slow[1]!.findings.map((x) => x.code)).toContain('CANCELLED');
    expect(slow[2]!.call).toBe(slow[1]!.call);
  });
  it('a near miss: a span with rpc.system "mcp" but no mcpsnoop.call.state is not read as mcpsnoop\'s', async () => {
    const { otlpFormat } = await import('../../src/formats/otlp.js');
    const line = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [{ traceId: '7f5e764e7777ec4190e709e1965f9784', spanId: '31ff8c71234e8027', name: 'tools/call', kind: 'SPAN_KIND_CLIENT', startTimeUnixNano: '1796614386704786392', endTimeUnixNano: '1796614386736446821', attributes: [{ key: 'rpc.system', value: { stringValue: 'mcp' } }, { key: 'rpc.method', value: { stringValue: 'tools/call' } }], status: {} }] }] }] };
    expect(otlpFormat.toRecords(line as never, {} as never)).toEqual([]);
  });
});

describe("real-audit73: mcpsnoop's exports that are not logs", () => {
  // (export.json is read since audit 75: test/real-audit75)
  it.each(['export.html', 'export.txt'])('http-calls/%s: nothing read from it, nothing made up', async (file) => {
    const { rows, inputs } = await run(`http-calls/${file}`);
    expect(rows).toEqual([]);
    expect(inputs[0]!.used).toBe(0);
  });
});

describe("real-audit73: mcpsnoop's OTLP export read as it is written (one pretty-printed document)", () => {
  const strip = (rows: Row[]) => JSON.stringify(rows, (k, v) => (k === 'sources' ? undefined : v));
  it.each(RUNS)('%s/export.otlp.json: each resourceSpans item read as a line, the same attempts as the document on one line', async (name) => {
    const { rows, inputs } = await run(`${name}/export.otlp.json`);
    expect(inputs[0]!.unusable).toBe(0);
    expect(inputs[0]!.formats).toHaveProperty('otlp');
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const f = `${mkdtempSync(`${tmpdir()}/a73-`)}/one-line.json`;
    writeFileSync(f, JSON.stringify(JSON.parse(readFileSync(`${DIR}${name}/export.otlp.json`, 'utf8'))) + '\n');
    const oneLine = (await analyze({ inputs: [{ path: f }] })).attempts as unknown as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expect(strip(rows)).toBe(strip(oneLine));
  });
  it('near miss: a pretty-printed document whose first key is another list is still refused line by line, saying why', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const f = `${mkdtempSync(`${tmpdir()}/a73-`)}/other.json`;
    writeFileSync(f, JSON.stringify({ resourceMetrics: JSON.parse(readFileSync(`${DIR}http-calls/export.otlp.json`, 'utf8')).resourceSpans }, null, 2) + '\n');
    const r = await analyze({ inputs: [{ path: f }] });
    expect(r.attempts).toEqual([]);
    expect((r.summary as unknown as { inputs: { unusable: number }[] }).inputs[0]!.unusable).toBeGreaterThan(0);
  });
});
