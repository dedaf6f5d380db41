// Audit 57's real runs (test/fixtures/real-audit57): a Python DEBUG log rotated by date in a session (Python's TimedRotatingFileHandler, logrotate's dateext), given as its files; and the names that must not be taken for one log's pieces.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit57/', import.meta.url));
type Side = 'client' | 'server' | undefined;
const run = (inputs: [string, Side][]) => analyze({ inputs: inputs.map(([path, side]) => ({ path: path.startsWith('/') ? path : `${DIR}${path}`, side })), onDiagnostic: () => {} });
const codes = (r: AnalysisResult) => [...r.attempts.flatMap((a) => a.findings.map((f) => f.code)), ...r.findings.map((f) => f.code)];
const tools = (r: AnalysisResult) => r.attempts.filter((a) => a.method === 'tools/call').map((a) => `${a.tool} ${a.outcome}`);

interface Truth { label?: string; name?: string; ok?: boolean; isError?: boolean; error?: string }
/** What the application's SDK calls got (truth-client.ndjson), in the outcome each must have: a raise here was the hop's 503. */
function truth(dir: string): string[] {
  const lines = readFileSync(`${DIR}${dir}/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Truth);
  return lines.filter((t) => t.name !== undefined).map((t) => `${t.name} ${!t.ok ? 'HTTP_ERROR' : t.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'}`);
}
/** The run's pieces of its client log, as `ls` lists them (the current file, app.log, first). */
const pieces = (dir: string) => readdirSync(`${DIR}${dir}`).filter((f) => f.startsWith('app.log')).sort().map((f) => `${dir}/${f}`);

describe('a Python DEBUG log rotated by date inside a session (Python SDK 2.3.0 client, SDK 1.32.2 server, a hop\'s 503)', () => {
  for (const [dir, how] of [['py-timed', "TimedRotatingFileHandler(when='S'): app.log.2026-12-06_09-34-12 ..."], ['py-logrotate', 'logrotate dateext, dateformat -%Y%m%d-%s, copytruncate: app.log-20261206-1796549661 ...']] as const) {
    it(`${how}: given as its files in any order, one session, every call as the app saw it, nothing unanswered at the seams`, async () => {
      const files = pieces(dir);
      expect(files.length).toBeGreaterThan(3);
      // As the shell expands `--client app.log*` (the first file the client's, the rest plain), reversed, and all --client.
      for (const inputs of [files.map((f, i): [string, Side] => [f, i === 0 ? 'client' : undefined]), [...files].reverse().map((f): [string, Side] => [f, 'client'])]) {
        const r = await run(inputs);
        expect(tools(r)).toEqual(truth(dir));
        expect(new Set(r.attempts.map((a) => a.session)).size).toBe(1);
        expect(r.attempts.map((a) => a.method).slice(0, 2)).toEqual(['initialize', 'tools/list']);
        // The 503'd charge and the app's retry of it are one call.
        const charge = r.attempts.filter((a) => a.tool === 'charge');
        expect(charge.map((a) => `${a.call}#${a.attempt}`)).toEqual([`${charge[0]!.call}#1`, `${charge[0]!.call}#2`]);
        expect(codes(r)).not.toContain('ORPHAN_RESPONSE');
        expect(r.attempts.map((a) => a.outcome)).not.toContain('UNANSWERED');
        expect(r.summary.notes.join('\n')).toMatch(/one log and its rotated files \(by their names: the dates in them, the current file last\)/);
      }
    });

    it(`${how}: joined with the server's log, every attempt has both views`, async () => {
      const r = await run([...pieces(dir).map((f): [string, Side] => [f, 'client']), [`${dir}/server.ndjson`, 'server']]);
      expect(tools(r)).toEqual(truth(dir));
      // The 503 came from the hop in front of the server: the server never saw that POST; every other attempt is joined.
      expect(r.attempts.filter((a) => !a.serverOutcome && a.outcome !== 'HTTP_ERROR')).toEqual([]);
    });
  }

  it('near miss: the files given as separate logs (the current file as --server) are no series', async () => {
    const files = pieces('py-timed');
    const r = await run(files.map((f, i): [string, Side] => [f, i === 0 ? 'server' : 'client']));
    expect(r.summary.notes.join('\n')).not.toMatch(/one log and its rotated files/);
  });
});

describe("a server app that logs each request twice with an asynchronous step between (SDK 1.32.2, six calls at once)", () => {
  const LOG = 'ts-applog-async/server-app.log';
  const calls = (r: AnalysisResult) => r.attempts.filter((a) => a.method === 'tools/call').map((a) => `${a.id} ${a.tool} ${a.outcome} #${a.attempt}`);

  it("its log alone: each request once although other requests' lines come between its two lines; the real re-send stays two", async () => {
    const r = await run([[LOG, 'server']]);
    // What the app's calls got (truth-client.ndjson): twelve calls at once in two rounds, a raw re-send of id 999, and
    // lookup A-1 again (a call of its own).
    const truthLines = readFileSync(`${DIR}ts-applog-async/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Truth);
    expect(truthLines.filter((t) => t.name !== undefined).every((t) => t.ok && !t.isError)).toBe(true);
    expect(r.attempts.filter((a) => a.method === 'tools/call')).toHaveLength(truthLines.filter((t) => t.name !== undefined).length);
    expect(r.attempts.map((a) => a.outcome).filter((o) => o !== 'TOOL_SUCCESS' && o !== 'SUCCESS')).toEqual([]);
    expect(codes(r)).not.toContain('UNSAFE_RETRY');
    expect(codes(r)).not.toContain('ID_REUSED');
    // The raw POST of id 999 twice is one call's two attempts; lookup A-1 again is a call of its own.
    expect(calls(r).filter((c) => c.startsWith('999 '))).toEqual(['999 lookup TOOL_SUCCESS #1', '999 lookup TOOL_SUCCESS #2']);
    expect(r.attempts.filter((a) => a.attempt > 1).map((a) => a.id)).toEqual([999]);
    expect(r.summary.inputs[0]!.cannotShow?.join('\n') ?? r.summary.notes.join('\n')).toMatch(/logs a request it received twice/);
  });

  it('near miss: the handler\'s line of a request 5 s after the middleware\'s (no log call of one receipt is so late) is a request received again', async () => {
    const lines = readFileSync(`${DIR}${LOG}`, 'utf8').trim().split('\n');
    const at = lines.findIndex((l) => l.includes('"mcp message received"') && l.includes('"id":14'));
    const moved = JSON.parse(lines[at]!) as { time: number };
    moved.time += 5000;
    const dir = mkdtempSync(join(tmpdir(), 'audit57-'));
    try {
      const file = join(dir, 'server-app.log');
      // Only the lines of id 14 (its middleware line, its handler line 5 s later, its answer after that).
      const own = lines.filter((l) => l.includes('"id":14') && l !== lines[at]).map((l) => JSON.parse(l) as { time: number; msg: string });
      for (const l of own) if (l.msg === 'mcp message sent') l.time += 5000;
      writeFileSync(file, [own[0], moved, own[1]].map((l) => JSON.stringify(l)).join('\n') + '\n');
      const r = await run([[file, 'server']]);
      expect(calls(r)).toEqual(['14 lookup UNANSWERED #1', '14 lookup TOOL_SUCCESS #2']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the SDK 1.32.2 client finds the server down at a call (fetch: connect ECONNREFUSED), then calls again on a new client', () => {
  const DOWN = 'ts-down-call';

  it("its log alone: the refused charge is NO_RESPONSE and its retry carries no UNSAFE_RETRY (nothing was sent; the charge ran once)", async () => {
    const r = await run([[`${DOWN}/client.ndjson`, 'client']]);
    const charge = r.attempts.filter((a) => a.tool === 'charge');
    expect(charge.map((a) => `${a.outcome} #${a.attempt}`)).toEqual(['NO_RESPONSE #1', 'TOOL_SUCCESS #2']);
    expect(charge[0]!.detail.why).toMatch(/connect ECONNREFUSED/);
    expect(codes(r)).not.toContain('UNSAFE_RETRY');
    // What the tools did: charge once.
    const ran = readFileSync(`${DIR}${DOWN}/truth-server.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool?: string });
    expect(ran.filter((t) => t.tool === 'charge')).toHaveLength(1);
    // Joined with the server's log (both processes'), as before: not seen by the server, no UNSAFE_RETRY.
    expect(codes(await run([[`${DOWN}/client.ndjson`, 'client'], [`${DOWN}/server.ndjson`, 'server']]))).not.toContain('UNSAFE_RETRY');
  });

  it('near miss: the same log with a reset after connecting (read ECONNRESET) keeps UNSAFE_RETRY: the request may have reached the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit57-'));
    try {
      const file = join(dir, 'client.ndjson');
      writeFileSync(file, readFileSync(`${DIR}${DOWN}/client.ndjson`, 'utf8').replace(/connect ECONNREFUSED 127\.0\.0\.1:\d+/g, 'read ECONNRESET'));
      const r = await run([[file, 'client']]);
      expect(r.attempts.find((a) => a.tool === 'charge')!.detail.why).toMatch(/read ECONNRESET/);
      expect(codes(r)).toContain('UNSAFE_RETRY');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
