// Audit 92's real captures (test/fixtures/real-audit92): bundles of plain logs a team hands over (two logs of one side, a gateway's beside both sides, two clients, another run's log, a foreign JSON log), read without --client/--server.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const DIR = `${ROOT}test/fixtures/real-audit92/`;
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;
interface Step { app: string; step: string; ok?: { isError: boolean } | string; threw?: unknown }
interface Observed { steps: Step[]; serverRan: string[]; views: Record<string, string>; foreignLines?: number }
interface Attempt { method: string; tool: string | null; outcome: string; side?: string; serverOutcome?: string; client?: string; session: string | null; sources: { file: string; line: number }[] }
interface Input { name: string; side?: string; sideAssumed?: boolean; unusable: number }

const observed = (scenario: string) => JSON.parse(readFileSync(f(scenario, 'observed.json'), 'utf8')) as Observed;
/** What each tool step of an app got, as an outcome (every step of these recordings got a result). */
const stepOutcomes = (o: Observed, app?: string) => o.steps.filter((s) => s.step !== 'connect' && (app === undefined || s.app === app)).map((s) => ((s.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'));

async function run(args: string[]) {
  const r = await cli(['--format', 'json', ...args]);
  expect(r.code).not.toBe(2);
  const out = JSON.parse(r.stdout) as { attempts: Attempt[]; findings: { code: string }[]; summary: { attempts: number; notes: string[]; inputs: Input[] } };
  const calls = out.attempts.filter((a) => a.method === 'tools/call');
  return { ...out, calls, notes: out.summary.notes, inputs: out.summary.inputs, stderr: r.stderr };
}
const from = (a: Attempt, file: string) => a.sources.some((s) => s.file === file);
const input = (inputs: Input[], file: string) => inputs.find((i) => i.name === file)!;
const noteOf = (notes: string[], name: string, words: string) => notes.filter((n) => n.startsWith(`${name}:`) && n.includes(words));

describe('real-audit92 client-two-logs: the app\'s recordingFetch log and its own fetch logger (full URLs), both the client\'s view', () => {
  const o = observed('client-two-logs');
  const app = f('client-two-logs', 'app.ndjson');
  const fetchLog = f('client-two-logs', 'app-fetch.log');

  it('the fetch log is not read as the server\'s view of the same calls: no call has a server\'s view, and a note says why and what to give', async () => {
    expect(o.views['app-fetch.log']).toBe('client');
    const r = await run([fetchLog, app]);
    expect(r.calls.filter((a) => a.serverOutcome !== undefined)).toEqual([]);
    expect(input(r.inputs, fetchLog).side).toBeUndefined();
    const note = noteOf(r.notes, fetchLog, 'it may be a second log of the client\'s side of the same calls');
    expect(note).toHaveLength(1);
    expect(note[0]).toContain(`carries the same sessions as ${app}`);
    expect(note[0]).toContain(`give it as --server ${fetchLog} and the others as --client ${app}`);
    // (the generic "third view" note is not said beside it)
    expect(r.notes.some((n) => n.startsWith(`${fetchLog} carries the same sessions`))).toBe(false);
  });

  it('every request of each log is reported once from it: the fetch log\'s calls are not merged into the client log\'s (none vanishes), each with what the app got', async () => {
    const r = await run([fetchLog, app]);
    for (const file of [app, fetchLog]) {
      const own = r.calls.filter((a) => from(a, file));
      expect(own.every((a) => a.sources.every((s) => s.file === file))).toBe(true);
      expect(own.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    }
  });
});

describe('real-audit92 server-two-logs: Express\'s own request logger (paths) and recordingMiddleware\'s log, both the server\'s view', () => {
  const o = observed('server-two-logs');
  const express = f('server-two-logs', 'express-access.log');
  const handler = f('server-two-logs', 'mcp-handler.ndjson');

  it('the Express log is not put in the server\'s view beside the server\'s own log: no ID_REUSED from the same requests twice, a note says why', async () => {
    expect(o.views['express-access.log']).toBe('server');
    const r = await run([express, handler]);
    expect(r.findings.filter((x) => x.code === 'ID_REUSED')).toEqual([]);
    expect(input(r.inputs, express).side).toBeUndefined();
    expect(noteOf(r.notes, express, 'it may be a second log of the server\'s side of the same calls')).toHaveLength(1);
    for (const file of [handler, express]) expect(r.calls.filter((a) => from(a, file)).map((a) => a.outcome)).toEqual(stepOutcomes(o));
  });
});

describe('real-audit92 must-nots: an HTTP logger\'s log beside the other side\'s log still takes the other side', () => {
  it('the fetch log (full URLs) beside a server\'s log is the client\'s view; the Express log (paths) beside a client\'s log the server\'s; no "second log" note', async () => {
    const a = await run([f('client-two-logs', 'app-fetch.log'), f('server-two-logs', 'mcp-handler.ndjson')]);
    expect(input(a.inputs, f('client-two-logs', 'app-fetch.log'))).toMatchObject({ side: 'client', sideAssumed: true });
    const b = await run([f('server-two-logs', 'express-access.log'), f('client-two-logs', 'app.ndjson')]);
    expect(input(b.inputs, f('server-two-logs', 'express-access.log'))).toMatchObject({ side: 'server', sideAssumed: true });
    for (const r of [a, b]) expect(r.notes.some((n) => n.includes('second log of the'))).toBe(false);
  });
});

describe('real-audit92 bundles whose records state their sides', () => {
  it('gateway-both: the client\'s and the server\'s logs joined, each call once with both views; the gateway\'s 2xx lines give nothing to a call', async () => {
    const o = observed('gateway-both');
    const r = await run(['gateway-both/app.ndjson', 'gateway-both/access.log', 'gateway-both/mcp-handler.ndjson'].map((x) => `${DIR}${x}`));
    expect(r.calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    expect(r.calls.every((a) => a.side === 'client' && a.serverOutcome === a.outcome)).toBe(true);
    expect(r.calls).toHaveLength(o.serverRan.length);
  });

  it('two-clients: each app\'s calls joined to the one server\'s log, told apart by client', async () => {
    const o = observed('two-clients');
    const r = await run(['app-a.ndjson', 'app-b.ndjson', 'mcp-handler.ndjson'].map((x) => f('two-clients', x)));
    for (const app of ['app-a', 'app-b']) expect(r.calls.filter((a) => a.client?.startsWith(`audit92-${app}@`)).map((a) => a.outcome)).toEqual(stepOutcomes(o, app));
    expect(r.calls.every((a) => a.serverOutcome === a.outcome)).toBe(true);
    expect(r.calls).toHaveLength(o.serverRan.length);
  });

  it('other-run: this run\'s calls joined; the earlier run\'s, of another session, the client\'s view only, none lost', async () => {
    const o = observed('other-run');
    const earlier = f('other-run', 'app-yesterday.ndjson');
    const r = await run([earlier, f('other-run', 'app.ndjson'), f('other-run', 'mcp-handler.ndjson')]);
    const old = r.calls.filter((a) => from(a, earlier));
    expect(old.map((a) => a.outcome)).toEqual(stepOutcomes(o, 'app (earlier run)'));
    expect(old.every((a) => a.serverOutcome === undefined)).toBe(true);
    const now = r.calls.filter((a) => !from(a, earlier));
    expect(now.map((a) => a.outcome)).toEqual(stepOutcomes(o, 'app'));
    expect(now.every((a) => a.serverOutcome === a.outcome)).toBe(true);
  });

  it('foreign-json: the metrics log takes no part and is not dropped silently: each line an input problem at file:line, the calls joined', async () => {
    const o = observed('foreign-json');
    const metrics = f('foreign-json', 'metrics.log');
    const r = await run([f('foreign-json', 'app.ndjson'), metrics, f('foreign-json', 'mcp-handler.ndjson')]);
    expect(input(r.inputs, metrics).unusable).toBe(o.foreignLines);
    for (let line = 1; line <= o.foreignLines!; line++) expect(r.stderr).toContain(`${metrics}:${line}: record in no known format`);
    expect(r.calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    expect(r.calls.every((a) => a.serverOutcome === a.outcome)).toBe(true);
  });
});
