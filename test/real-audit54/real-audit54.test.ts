// Audit 54's real runs (test/fixtures/real-audit54, with audit 50's): Python logs in the cookbook's formats written twice, a Python log rotated in a session (given as its files, or overlapping), and a server app that logs each request twice; the near misses that must stay as they were.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit54/', import.meta.url));
const A50 = fileURLToPath(new URL('../fixtures/real-audit50/', import.meta.url));
type Side = 'client' | 'server' | undefined;
const run = (inputs: [string, Side][]) => analyze({ inputs: inputs.map(([path, side]) => ({ path: path.startsWith('/') ? path : `${DIR}${path}`, side })), onDiagnostic: () => {} });
const rows = (r: AnalysisResult) => r.attempts.map((a) => `${a.id} ${a.method}${a.tool ? ` ${a.tool}` : ''} ${a.outcome} ${a.call}#${a.attempt}`);
const codes = (r: AnalysisResult) => [...r.attempts.flatMap((a) => a.findings.map((f) => f.code)), ...r.findings.map((f) => f.code)];
const notes = (r: AnalysisResult) => [...r.summary.notes, ...r.summary.inputs.flatMap((i) => i.cannotShow ?? [])].join('\n');
const sessions = (r: AnalysisResult) => new Set(r.attempts.map((a) => a.session));
const truthCalls = (dir: string) => readFileSync(`${DIR}${dir}/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { name?: string }).filter((t) => typeof t.name === 'string').length;

// Every py-* run (audit 50's pycli.py calls): initialize, tools/list, lookup ok, explode isError, charge 503 from the
// hop then the app's retry ok (one call, two attempts), lookup ok.
const ONCE = ['1 initialize SUCCESS c1#1', '2 tools/list SUCCESS c2#1', '3 tools/call lookup TOOL_SUCCESS c3#1', '4 tools/call explode TOOL_ERROR c4#1', '5 tools/call charge HTTP_ERROR c5#1', '6 tools/call charge TOOL_SUCCESS c5#2', '7 tools/call lookup TOOL_SUCCESS c6#1'];
// py-rotating (scenario "long"): the same, then twelve lookups B-0..B-11 (ids 8-19), each a call of its own.
const LONG = [...ONCE, ...Array.from({ length: 12 }, (_, i) => `${8 + i} tools/call lookup TOOL_SUCCESS c${7 + i}#1`)];

describe("a Python DEBUG log in the logging cookbook's formats (Python SDK 2.3.0 client, SDK 1.32.2 server)", () => {
  it('"%(name)s - %(levelname)s - %(message)s" written twice (two root handlers): each record once, the 503 kept', async () => {
    const r = await run([[`${A50}py-nolead-double/client-debug.log`, 'client']]);
    expect(rows(r)).toEqual(ONCE);
    expect(notes(r)).toMatch(/writes its lines twice/);
    const input = r.summary.inputs[0]!;
    expect(input.unusable).toBe(0);
    expect(input.lines).toBe(input.used + input.blank + input.skipped + input.unusable);
  });

  it('that format once: asyncio\'s "Using selector" first line is no unusable line', async () => {
    const r = await run([['py-nolead-once/client-debug.log', 'client']]);
    expect(rows(r)).toEqual(ONCE);
    expect(r.summary.inputs[0]!.unusable).toBe(0);
  });

  it('"%(asctime)s - %(name)s - %(levelname)s - %(message)s", once and twice, reads as the app saw it (as before)', async () => {
    expect(rows(await run([['py-dash-once/client-debug.log', 'client']]))).toEqual(ONCE);
    expect(rows(await run([['py-dash-double/client-debug.log', 'client']]))).toEqual(ONCE);
  });

  it('near miss: in the doubled no-time log, a real second lookup with the same arguments is a call of its own', async () => {
    const r = await run([['py-nolead-twice/client-debug.log', 'client']]);
    const lookups = r.attempts.filter((a) => a.tool === 'lookup');
    expect(lookups.map((a) => `${a.id} ${a.outcome} ${a.call}#${a.attempt}`)).toEqual(['3 TOOL_SUCCESS c3#1', '7 TOOL_SUCCESS c6#1', '8 TOOL_SUCCESS c7#1']);
    expect(r.attempts.filter((a) => a.method === 'tools/call')).toHaveLength(truthCalls('py-nolead-twice'));
  });
});

describe("a Python DEBUG log rotated inside a session (RotatingFileHandler, maxBytes 15000, backupCount 3)", () => {
  const pieces = ['app.log.3', 'app.log.2', 'app.log.1', 'app.log'].map((f) => `py-rotating/${f}`);

  it('given as its four files, oldest first or in any order: one session, no request twice, nothing unanswered at the seams', async () => {
    for (const order of [pieces, [...pieces].reverse()]) {
      const r = await run(order.map((p) => [p, 'client']));
      expect(rows(r)).toEqual(LONG);
      expect(sessions(r).size).toBe(1);
      expect(codes(r)).not.toContain('ORPHAN_RESPONSE');
      expect(r.summary.notes.join('\n')).toMatch(/app\.log\.3, .*app\.log\.2, .*app\.log\.1, .*app\.log: one log and its rotated files/);
      expect(r.attempts.filter((a) => a.method === 'tools/call')).toHaveLength(truthCalls('py-rotating')); // each SDK call the app made, the 503 one too
    }
  });

  it('the four files cat-ed in that order into one: the same (as before this audit)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'audit54-'));
    try {
      const whole = join(tmp, 'app-all.log');
      writeFileSync(whole, pieces.map((p) => readFileSync(`${DIR}${p}`, 'utf8')).join(''));
      const r = await run([[whole, 'client']]);
      expect(rows(r)).toEqual(LONG);
      expect(sessions(r).size).toBe(1);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('the four files with the server\'s view: each call joined once', async () => {
    const r = await run([...pieces.map((p): [string, Side] => [p, 'client']), ['py-rotating/server.ndjson', 'server']]);
    expect(rows(r)).toEqual(LONG);
    expect(codes(r)).not.toContain('SIDE_DIVERGENCE');
    expect(r.attempts.filter((a) => a.serverOutcome !== undefined && a.serverOutcome !== null)).toHaveLength(18);
  });

  it("audit 50's overlapping rotated pair (client-debug.log.1 ends with 21 lines client-debug.log starts with): read once", async () => {
    const r = await run([[`${A50}copies/client-debug.log.1`, 'client'], [`${A50}copies/client-debug.log`, 'client']]);
    expect(rows(r)).toEqual(ONCE);
    expect(codes(r)).not.toContain('ORPHAN_RESPONSE');
    expect(r.summary.notes.join('\n')).toMatch(/client-debug\.log: its first 21 lines repeat the last 21 lines of .*client-debug\.log\.1/);
    const later = r.summary.inputs[1]!;
    expect(later.skipped).toBeGreaterThanOrEqual(21);
    expect(later.lines).toBe(later.used + later.blank + later.skipped + later.unusable);
  });

  it('near miss: two processes\' logs (two runs\' client logs, not named as one log\'s files) stay two', async () => {
    const r = await run([['py-dash-once/client-debug.log', 'client'], ['py-nolead-once/client-debug.log', 'client']]);
    expect(sessions(r).size).toBe(2);
    expect(r.attempts).toHaveLength(14);
    expect(r.summary.notes.join('\n')).not.toMatch(/rotated files/);
  });
});

describe('a server app that logs each request twice (middleware and handler; pino JSON lines; SDK 1.32.2)', () => {
  it("the initialize logged before and after its session was made (42 ms apart) is one request, not a re-send", async () => {
    const r = await run([[`${A50}ts-applog-twice/server-app.log`, 'server']]);
    expect(r.attempts.filter((a) => a.method === 'initialize').map((a) => `${a.outcome} ${a.call}#${a.attempt}`)).toEqual(['SUCCESS c1#1']);
    expect(codes(r)).not.toContain('RETRY_POLICY');
    expect(codes(r)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
    expect(notes(r)).toMatch(/logs a request it received twice/);
  });

  it("with the client's Python log: one initialize, no CALL_NEVER_SENT, the 503 the client's alone", async () => {
    const r = await run([[`${A50}ts-applog-twice/client-debug.log`, 'client'], [`${A50}ts-applog-twice/server-app.log`, 'server']]);
    expect(rows(r)).toEqual(ONCE);
    expect(codes(r)).not.toContain('CALL_NEVER_SENT');
  });

  it("near miss: the SDK's own re-send of the same id after a 401 (OAuth re-authorization) stays a second attempt; a second lookup with the same arguments a call of its own", async () => {
    const r = await run([['ts-applog-auth-resend/server-app.log', 'server']]);
    // The tool calls read as before this audit's change (the 401 is not in the app's log: the first send is UNANSWERED).
    expect(rows(r).filter((x) => x.includes('tools/call'))).toEqual(['1 tools/call lookup TOOL_SUCCESS c2#1', '2 tools/call charge UNANSWERED c3#1', '2 tools/call charge TOOL_SUCCESS c3#2', '3 tools/call lookup TOOL_SUCCESS c4#1']);
    expect(rows(r)[0]).toBe('0 initialize SUCCESS c1#1');
  });
});
