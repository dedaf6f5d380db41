// Audit 96's real captures (test/fixtures/real-audit96): which side an HTTP logger's log of full URLs is (a Fetch-API server's logger, Hono's or a route handler's, against a client's fetch logger and Python's httpx hooks), read without --client/--server.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const DIR = `${ROOT}test/fixtures/real-audit96/`;
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;
interface Step { app: string; step: string; ok?: { isError: boolean } | string; threw?: unknown }
interface Observed { steps: Step[]; serverRan: string[]; views: Record<string, string> }
interface Attempt { method: string; tool: string | null; outcome: string; status: number | null; side?: string; serverOutcome?: string; call: string; attempt: number; sources: { file: string; line: number }[] }
interface Input { name: string; side?: string; sideAssumed?: boolean }

const observed = (scenario: string) => JSON.parse(readFileSync(f(scenario, 'observed.json'), 'utf8')) as Observed;
/** What each tool step of the app got, as an outcome (every step of these recordings got a result). */
const stepOutcomes = (o: Observed) => o.steps.filter((s) => s.step !== 'connect').map((s) => ((s.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'));
/** The file of a scenario that observed.json names as the given side's view. */
const viewOf = (scenario: string, side: string) => f(scenario, Object.entries(observed(scenario).views).find(([, s]) => s === side)![0]);
/** The file of a scenario that is an HTTP logger's log (not a recorder's .ndjson). */
const loggerOf = (scenario: string) => f(scenario, Object.keys(observed(scenario).views).find((n) => !n.endsWith('.ndjson'))!);

async function run(args: string[]) {
  const r = await cli(['--format', 'json', ...args]);
  expect(r.code).not.toBe(2);
  const out = JSON.parse(r.stdout) as { attempts: Attempt[]; findings: { code: string }[]; summary: { notes: string[]; inputs: Input[] } };
  const calls = out.attempts.filter((a) => a.method === 'tools/call');
  return { ...out, calls, notes: out.summary.notes, inputs: out.summary.inputs };
}
const shape = (a: Attempt[]) => a.map((x) => [x.method, x.tool, x.outcome, x.status, x.side ?? null, x.serverOutcome ?? null, x.call, x.attempt]);
const input = (inputs: Input[], file: string) => inputs.find((i) => i.name === file)!;
const noteOf = (notes: string[], name: string, words: string) => notes.filter((n) => n.startsWith(`${name}:`) && n.includes(words));
const CALLER_NOTE = 'but also what only the server that received each request knows';

const tmp = mkdtempSync(join(tmpdir(), 'audit96-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
/** A scenario's HTTP log with each line's object changed by `edit` (one evidence taken away), written to a temporary file. */
function edited(scenario: string, name: string, edit: (line: Record<string, unknown>) => void): string {
  const out = join(tmp, `${scenario}-${name}`);
  const lines = readFileSync(loggerOf(scenario), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const l of lines) edit(l);
  writeFileSync(out, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return out;
}

describe('real-audit96: a Fetch-API server\'s own log of full URLs beside the client\'s log is the server\'s view', () => {
  for (const scenario of ['hono-beside-client', 'route-handler-proxy']) {
    it(`${scenario}: plain, the server's logger (full URLs with the caller's address) is read as the server's view and joined, the same report as with the flags`, async () => {
      const o = observed(scenario);
      const [client, server] = [viewOf(scenario, 'client'), viewOf(scenario, 'server')];
      const plain = await run([client, server]);
      const flags = await run(['--client', client, '--server', server]);
      expect(input(plain.inputs, server)).toMatchObject({ side: 'server', sideAssumed: true });
      expect(shape(plain.attempts)).toEqual(shape(flags.attempts));
      expect(plain.calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
      expect(plain.calls.every((a) => a.side === 'client' && a.serverOutcome === a.outcome)).toBe(true);
      expect(noteOf(plain.notes, server, CALLER_NOTE)).toHaveLength(1);
      expect(noteOf(plain.notes, server, 'it may be a second log')).toHaveLength(0);
    });
  }

  it('each sign alone is enough: the caller\'s address without hop headers, or a proxy\'s X-Forwarded-For without the address; neither leaves it without a side, and the note names the flags', async () => {
    const client = viewOf('route-handler-proxy', 'client');
    const noIp = edited('route-handler-proxy', 'no-ip.log', (l) => { delete l.ip; });
    const noHop = edited('route-handler-proxy', 'no-hop.log', (l) => { const h = l.headers as Record<string, string>; for (const k of Object.keys(h)) if (k.startsWith('x-forwarded-')) delete h[k]; });
    const neither = edited('route-handler-proxy', 'neither.log', (l) => { delete l.ip; const h = l.headers as Record<string, string>; for (const k of Object.keys(h)) if (k.startsWith('x-forwarded-')) delete h[k]; });
    for (const file of [noIp, noHop]) {
      const r = await run([client, file]);
      expect(input(r.inputs, file)).toMatchObject({ side: 'server', sideAssumed: true });
    }
    const r = await run([client, neither]);
    expect(input(r.inputs, neither).side).toBeUndefined();
    const note = noteOf(r.notes, neither, 'it may be a second log of the client\'s side');
    expect(note).toHaveLength(1);
    expect(note[0]).toContain(`give it as --server ${neither} and the others as --client ${client}`);
  });
});

describe('real-audit96: a log\'s last lines are read too', () => {
  it('a client\'s recordingFetch log after a start-up section longer than 64 KiB states the client\'s side by its last lines: the route log without its signs beside it is then a possible second client log', async () => {
    const long = join(tmp, 'long-start.ndjson');
    writeFileSync(long, `${'orders-app starting: loading settings, warming caches, checking the database\n'.repeat(1000)}${readFileSync(viewOf('route-handler-proxy', 'client'), 'utf8')}`);
    const bare = edited('route-handler-proxy', 'bare.log', (l) => { delete l.ip; const h = l.headers as Record<string, string>; for (const k of Object.keys(h)) if (k.startsWith('x-forwarded-')) delete h[k]; });
    const r = await run([long, bare]);
    expect(input(r.inputs, bare).side).toBeUndefined();
    const note = noteOf(r.notes, bare, 'it may be a second log of the client\'s side');
    expect(note).toHaveLength(1);
    expect(note[0]).toContain(`carries the same sessions as ${long}`);
  });
});

describe('real-audit96 hono-server-two-logs: the Hono logger beside recordingHandler\'s log, both the server\'s', () => {
  const o = observed('hono-server-two-logs');
  const hono = f('hono-server-two-logs', 'hono-access.log');
  const handler = f('hono-server-two-logs', 'mcp-handler.ndjson');

  it('the Hono log is not joined to the server\'s own log as the client\'s view: no side, a note, and each log\'s calls reported from it alone with what the app got', async () => {
    expect(o.views['hono-access.log']).toBe('server');
    const r = await run([hono, handler]);
    expect(input(r.inputs, hono).side).toBeUndefined();
    expect(r.calls.filter((a) => a.side === 'client')).toEqual([]);
    const note = noteOf(r.notes, hono, 'it may be a second log of the server\'s side of the same calls');
    expect(note).toHaveLength(1);
    expect(note[0]).toContain(`carries the same sessions as ${handler}`);
    for (const file of [hono, handler]) {
      const own = r.calls.filter((a) => a.sources.every((s) => s.file === file));
      expect(own.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    }
  });
});

describe('real-audit96 must-nots: a client\'s own log of full URLs stays the client\'s view beside the server\'s log', () => {
  for (const scenario of ['client-fetch-v2', 'py-httpx-hooks']) {
    it(`${scenario}: the client's logger (the headers it sent${scenario === 'py-httpx-hooks' ? ', Host among them' : ''}; no caller's address) is the client's view, joined, as with the flags`, async () => {
      const o = observed(scenario);
      const [client, server] = [viewOf(scenario, 'client'), viewOf(scenario, 'server')];
      const plain = await run([client, server]);
      const flags = await run(['--client', client, '--server', server]);
      expect(input(plain.inputs, client)).toMatchObject({ side: 'client', sideAssumed: true });
      expect(shape(plain.attempts)).toEqual(shape(flags.attempts));
      expect(plain.calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
      expect(plain.calls.every((a) => a.side === 'client' && a.serverOutcome === a.outcome)).toBe(true);
      expect(plain.notes.some((n) => n.includes(CALLER_NOTE))).toBe(false);
    });
  }

  it('py-httpx-hooks: the log holds a Host header (httpx sends one), and it is still no sign of the server', () => {
    const first = JSON.parse(readFileSync(f('py-httpx-hooks', 'py-http.log'), 'utf8').split('\n')[0]!) as { request_headers: Record<string, string> };
    expect(first.request_headers.host).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});
