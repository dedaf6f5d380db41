// Audit 50's real runs (test/fixtures/real-audit50): the same record twice (doubled loggers, a log given twice, overlapping rotated files and export pages) read once, and real second requests still seen.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit50/', import.meta.url));
type Side = 'client' | 'server' | undefined;
const run = (inputs: [string, Side][]) => analyze({ inputs: inputs.map(([path, side]) => ({ path: path.startsWith('/') ? path : `${DIR}${path}`, side })), onDiagnostic: () => {} });
const rows = (r: AnalysisResult) => r.attempts.map((a) => `${a.id} ${a.method}${a.tool ? ` ${a.tool}` : ''} ${a.outcome} ${a.call}#${a.attempt}`);
const codes = (r: AnalysisResult) => [...r.attempts.flatMap((a) => a.findings.map((f) => f.code)), ...r.findings.map((f) => f.code)];
const notes = (r: AnalysisResult) => [...r.summary.notes, ...r.summary.inputs.flatMap((i) => i.cannotShow ?? [])].join('\n');
const truthCalls = (dir: string) => readFileSync(`${DIR}${dir}/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { name?: string }).filter((t) => typeof t.name === 'string').length;

// What the app did in py-once (and every py-* run): initialize, tools/list, lookup ok, explode isError, charge 503
// then the app's retry ok (one call, two attempts), lookup ok.
const ONCE = ['1 initialize SUCCESS c1#1', '2 tools/list SUCCESS c2#1', '3 tools/call lookup TOOL_SUCCESS c3#1', '4 tools/call explode TOOL_ERROR c4#1', '5 tools/call charge HTTP_ERROR c5#1', '6 tools/call charge TOOL_SUCCESS c5#2', '7 tools/call lookup TOOL_SUCCESS c6#1'];

let tmp: string | undefined;
const copyOf = (path: string, name: string) => {
  tmp ??= mkdtempSync(join(tmpdir(), 'audit50-'));
  const to = join(tmp, name);
  copyFileSync(`${DIR}${path}`, to);
  return to;
};
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('a Python DEBUG log configured twice (Python SDK 2.3.0 client, SDK 1.32.2 server)', () => {
  it('the control run (logging configured once) reads as the app saw it', async () => {
    const r = await run([['py-once/client-debug.log', 'client']]);
    expect(rows(r)).toEqual(ONCE);
    expect(r.attempts.filter((a) => a.method === 'tools/call')).toHaveLength(truthCalls('py-once'));
  });

  it('basicConfig(level=DEBUG) plus a StreamHandler on "mcp" in another format: each record once, the copies skipped and said', async () => {
    const r = await run([['py-stream-twofmt/client-debug.log', 'client']]);
    expect(rows(r)).toEqual(ONCE);
    expect(notes(r)).toMatch(/writes records twice in two formats/);
    const input = r.summary.inputs[0]!;
    expect(input.lines).toBe(input.used + input.blank + input.skipped + input.unusable);
    // With the server's view, each call joins its server side once.
    const both = await run([['py-stream-twofmt/client-debug.log', 'client'], ['py-stream-twofmt/server.ndjson', 'server']]);
    expect(rows(both)).toEqual(ONCE);
    expect(codes(both)).not.toContain('SIDE_DIVERGENCE');
  });

  it('the same format twice (the StreamHandler with basicConfig\'s format) was already read once, and stays so', async () => {
    expect(rows(await run([['py-stream-same/client-debug.log', 'client']]))).toEqual(ONCE);
  });

  it('near miss: in the two-format log, a real second call with the same arguments is still a call of its own', async () => {
    const r = await run([['py-twofmt-twice/client-debug.log', 'client']]);
    const lookups = r.attempts.filter((a) => a.tool === 'lookup');
    expect(lookups.map((a) => `${a.id} ${a.outcome} ${a.call}#${a.attempt}`)).toEqual(['3 TOOL_SUCCESS c3#1', '7 TOOL_SUCCESS c6#1', '8 TOOL_SUCCESS c7#1']);
    expect(r.attempts.filter((a) => a.method === 'tools/call')).toHaveLength(truthCalls('py-twofmt-twice'));
  });
});

describe('one log given twice, or overlapping pieces of one log', () => {
  it("the recorder's NDJSON given twice (a copy): read as one log, each record seen twice DUPLICATE_RECORD, no ID_REUSED", async () => {
    for (const side of ['client', undefined] as const) {
      const r = await run([['py-once/proxy.ndjson', side], [copyOf('py-once/proxy.ndjson', 'proxy-copy.ndjson'), side]]);
      expect(rows(r)).toEqual(ONCE);
      expect(codes(r)).toContain('DUPLICATE_RECORD');
      expect(codes(r)).not.toContain('ID_REUSED');
      expect(r.summary.notes.join('\n')).toMatch(/proxy-copy\.ndjson repeats records of .*proxy\.ndjson \(the same recorder's request "99e4-1"/);
    }
  });

  it('a rotated pair that overlaps (proxy.ndjson.1 ends with lines proxy.ndjson starts with): one log', async () => {
    const r = await run([['copies/proxy.ndjson.1', 'client'], ['copies/proxy.ndjson', 'client']]);
    expect(rows(r)).toEqual(ONCE);
    expect(codes(r)).not.toContain('ID_REUSED');
    // (Audit 54: named as one log's files, they are read as one file, the overlap once at the seam, counted as skipped.)
    expect(r.summary.notes.join('\n')).toMatch(/proxy\.ndjson: its first 12 lines repeat the last 12 lines of .*proxy\.ndjson\.1/);
    expect(codes(r)).not.toContain('DUPLICATE_RECORD');
  });

  it('a Loki export fetched in two pages that overlap, with the server log: one log, joined to the server once', async () => {
    const r = await run([['copies/loki-page1.jsonl', 'client'], ['copies/loki-page2.jsonl', 'client'], ['py-once/server.ndjson', 'server']]);
    expect(rows(r)).toEqual(ONCE);
    expect(codes(r)).not.toContain('ID_REUSED');
  });

  it('the Python DEBUG log given twice: read as one log (its request lines, byte for byte at the same millisecond)', async () => {
    const r = await run([['py-once/client-debug.log', 'client'], [copyOf('py-once/client-debug.log', 'client-debug-copy.log'), 'client']]);
    expect(rows(r)).toEqual(ONCE);
    expect(codes(r)).not.toContain('ID_REUSED');
    expect(r.summary.notes.join('\n')).toMatch(/client-debug-copy\.log repeats records of .*client-debug\.log \(.*client-debug-copy\.log:3 is a request line of it/);
  });
});

describe('near misses: real second requests and the two views stay as they are', () => {
  const RESEND = ['0 initialize SUCCESS c1#1', '1 tools/call lookup TOOL_SUCCESS c2#1', '2 tools/call charge HTTP_ERROR c3#1', '2 tools/call charge TOOL_SUCCESS c3#2', '3 tools/call lookup TOOL_SUCCESS c4#1'];

  it("an app's re-send of the same body with the same id after a 503 is a second attempt, also beside a copy of the log", async () => {
    const alone = await run([['ts-resend-same-id/client.ndjson', 'client']]);
    expect(rows(alone)).toEqual(RESEND);
    const copied = await run([['ts-resend-same-id/client.ndjson', 'client'], [copyOf('ts-resend-same-id/client.ndjson', 'client-copy.ndjson'), 'client']]);
    expect(rows(copied)).toEqual(RESEND);
    expect(codes(copied)).toContain('DUPLICATE_RECORD');
    expect(codes(copied)).not.toContain('ID_REUSED');
  });

  it("the client's and the server's logs of the same requests are two views, joined, not copies", async () => {
    const r = await run([['ts-resend-same-id/client.ndjson', 'client'], ['ts-resend-same-id/server.ndjson', 'server']]);
    expect(rows(r)).toEqual(RESEND);
    expect(codes(r)).not.toContain('DUPLICATE_RECORD');
    expect(r.summary.notes.join('\n')).not.toMatch(/repeats records of/);
    const py = await run([['py-once/client-debug.log', 'client'], ['py-once/server.ndjson', 'server']]);
    expect(rows(py)).toEqual(ONCE);
    expect(py.summary.notes.join('\n')).not.toMatch(/repeats records of/);
  });

  it('two different recorders of the same traffic (the proxy and the server) are not one log', async () => {
    const r = await run([['py-once/proxy.ndjson', 'client'], ['py-once/server.ndjson', 'server']]);
    expect(rows(r)).toEqual(ONCE);
    expect(codes(r)).not.toContain('DUPLICATE_RECORD');
  });
});

describe("a server app that logs each message it receives twice (middleware and handler; JSON lines as pino writes them)", () => {
  it('the doubled lines of a request in a session, in one millisecond, are one request each, the 503 is the client\'s alone', async () => {
    const r = await run([['ts-applog-twice/client-debug.log', 'client'], ['ts-applog-twice/server-app.log', 'server']]);
    const calls = r.attempts.filter((a) => a.method === 'tools/call');
    expect(calls.map((a) => `${a.id} ${a.tool} ${a.outcome} ${a.serverOutcome ?? '-'}`)).toEqual(['3 lookup TOOL_SUCCESS TOOL_SUCCESS', '4 explode TOOL_ERROR TOOL_ERROR', '5 charge HTTP_ERROR -', '6 charge TOOL_SUCCESS TOOL_SUCCESS', '7 lookup TOOL_SUCCESS TOOL_SUCCESS']);
    // (Audit 54: the handler's line is read as the middleware's line's copy, counted as skipped, no longer DUPLICATE_RECORD.)
    expect(notes(r)).toMatch(/logs a request it received twice/);
    expect(codes(r)).not.toContain('UNSAFE_RETRY');
  });
});
