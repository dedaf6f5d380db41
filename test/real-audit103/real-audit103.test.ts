// Audit 103's real captures (test/fixtures/real-audit103): several logs of ONE side of the same calls given with one flag (a log without times beside a timed one; three client logs, with and without a session), read as one attempt per request, a real re-post still two.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const DIR = `${ROOT}test/fixtures/real-audit103/`;
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;
interface Step { app: string; step: string; ok?: { isError: boolean } | string; threw?: unknown }
interface Observed { steps: Step[]; serverRan: string[]; gate: { id: unknown }[]; reposts: { id: unknown; by: string }[]; views: Record<string, string> }
interface Attempt { id: unknown; method: string; tool: string | null; outcome: string; call: string; attempt: number; findings: { code: string }[]; sources: { file: string; line: number }[] }
interface Summary { attempts: number; calls: number; retries: number; notes: string[] }

const observed = (scenario: string) => JSON.parse(readFileSync(f(scenario, 'observed.json'), 'utf8')) as Observed;

/**
 * The tools/call attempts the wire carried, as outcomes, from what the app got: the gate's 503 is an attempt of its
 * own (HTTP_ERROR); where something re-posted it under the same id the step got the re-post's answer, else it threw
 * and the app called again.
 */
function wireOutcomes(o: Observed): string[] {
  let gated = false;
  return o.steps.filter((s) => s.step !== 'connect').flatMap((s) => {
    if (s.threw !== undefined) {
      gated = true;
      return ['HTTP_ERROR'];
    }
    const own = (s.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
    if (!gated && s.step.startsWith('lookup_order') && o.reposts.length > 0) {
      gated = true;
      return ['HTTP_ERROR', own];
    }
    return [own];
  });
}

async function run(args: string[]) {
  const r = await cli(['--format', 'json', ...args]);
  expect(r.code).not.toBe(2);
  const out = JSON.parse(r.stdout) as { attempts: Attempt[]; findings: { code: string }[]; summary: Summary };
  return { ...out, calls: out.attempts.filter((a) => a.method === 'tools/call'), codes: [...out.findings, ...out.attempts.flatMap((a) => a.findings)].map((x) => x.code) };
}
const files = (a: Attempt) => [...new Set(a.sources.map((s) => s.file.split('/').pop()!))].sort();
const shape = (r: Awaited<ReturnType<typeof run>>) => r.calls.map((a) => `${String(a.id)} ${a.tool} ${a.outcome} attempt ${a.attempt}`);

// [scenario, the logs given with --client (the first: the capture compared with), what tells the case]
const MERGED: [string, string[], string][] = [
  ['py-untimed', ['proxy.ndjson', 'client.log'], "the Python SDK's DEBUG log without times beside the recording proxy's capture"],
  ['ts-three', ['capture.ndjson', 'app-fetch.log', 'proxy.ndjson'], 'three logs of an SDK 1.32.2 client in a session'],
  ['v2-three', ['capture.ndjson', 'app-fetch.log', 'proxy.ndjson'], 'three logs of a v2 2.4.0 client without a session (the proxy records the target it forwards to)'],
];

describe.each(MERGED)('real-audit103 %s: %s given with --client (%s)', (scenario, logs) => {
  const o = observed(scenario);
  const args = logs.flatMap((l) => ['--client', f(scenario, l)]);

  it('one tools/call attempt per request the wire carried, each with what the app got and the lines of every log', async () => {
    for (const l of logs) expect(o.views[l]).toMatch(/^client/);
    const r = await run(args);
    expect(r.calls.map((a) => a.outcome)).toEqual(wireOutcomes(o));
    for (const a of r.calls) expect(files(a)).toEqual([...logs].sort());
    expect(r.codes).not.toContain('ID_REUSED');
    expect(r.codes).not.toContain('UNSAFE_RETRY');
  });

  it('the 503 and the request after it are one call (the re-post or the app\'s call again), the only retry; as the capture alone says', async () => {
    const r = await run(args);
    const alone = await run(['--client', f(scenario, logs[0]!)]);
    const failed = r.calls.findIndex((a) => a.outcome === 'HTTP_ERROR');
    expect(o.gate).toHaveLength(1);
    expect([r.calls[failed + 1]!.call, r.calls[failed + 1]!.attempt]).toEqual([r.calls[failed]!.call, 2]);
    expect(r.calls.filter((a) => a.attempt > 1)).toHaveLength(o.gate.length);
    expect(r.summary.retries).toBe(alone.summary.retries);
    expect(shape(r)).toEqual(shape(alone));
  });

  it('the logs are said once, with the number of requests more than one of them shows', async () => {
    const r = await run(args);
    const paths = logs.map((l) => f(scenario, l));
    const notes = r.summary.notes.filter((n) => n.includes("logs of the client's side of the same"));
    expect(notes).toHaveLength(1);
    for (const p of paths) expect(notes[0]).toContain(p);
    const merged = r.attempts.filter((a) => files(a).length > 1).length;
    expect(notes[0]).toMatch(logs.length === 2 ? new RegExp(`are two logs of the client's side of the same ${merged} requests`) : new RegExp(`are three logs of the client's side of the same calls: ${merged} requests more than one of them shows`));
    expect(r.summary.notes.some((n) => n.includes('the same traffic given twice'))).toBe(false);
  });
});

describe('real-audit103 py-untimed-hop-repost: a hop between the untimed DEBUG log and the capture re-posts the 503 under the same id', () => {
  const o = observed('py-untimed-hop-repost');
  const args = ['--client', f('py-untimed-hop-repost', 'client.log'), '--client', f('py-untimed-hop-repost', 'proxy.ndjson')];

  it('the re-posted POST only the capture shows stays an attempt of its own; its re-post, which both logs show, is attempt 2 of the call', async () => {
    expect(o.reposts).toHaveLength(1);
    expect(o.gate[0]!.id).toBe(o.reposts[0]!.id);
    const r = await run(args);
    expect(r.calls.map((a) => a.outcome)).toEqual(wireOutcomes(o));
    const failed = r.calls.find((a) => a.outcome === 'HTTP_ERROR')!;
    expect(failed.id).toBe(o.reposts[0]!.id);
    expect(files(failed)).toEqual(['proxy.ndjson']);
    const next = r.calls[r.calls.indexOf(failed) + 1]!;
    expect(next.id).toBe(failed.id);
    expect(files(next)).toEqual(['client.log', 'proxy.ndjson']);
    expect([next.call, next.attempt]).toEqual([failed.call, 2]);
    for (const a of r.calls.filter((x) => x !== failed)) expect(files(a)).toEqual(['client.log', 'proxy.ndjson']);
    expect(r.codes).not.toContain('UNSAFE_RETRY');
  });
});

describe('real-audit24/py given whole: the Python DEBUG log without times, its timed copy, and two server logs (recorded by audit 24)', () => {
  const dir = `${ROOT}test/fixtures/real-audit24/py/`;
  const all = ['har-entries.ndjson', 'proxy.ndjson', 'python-debug-basic.log', 'python-debug.log', 'server-pino.jsonl', 'server.ndjson', 'traces.jsonl'].map((n) => `${dir}${n}`);

  it('each request is one row with the lines of both client logs, and the server logs join those rows, not rows of their own', async () => {
    const r = await run(all);
    const withFile = (n: string) => r.attempts.filter((a) => files(a).includes(n));
    // The recording proxy's capture (read apart: it says no side) has one row per request the wire carried.
    const requests = withFile('proxy.ndjson').length;
    expect(requests).toBeGreaterThan(0);
    expect(withFile('python-debug-basic.log')).toHaveLength(requests);
    for (const a of withFile('python-debug-basic.log')) expect(files(a)).toContain('python-debug.log');
    for (const a of [...withFile('server.ndjson'), ...withFile('server-pino.jsonl')]) expect(files(a)).toContain('python-debug-basic.log');
  });
});

describe('real-audit88/v2-py-router given whole: one v2 client\'s recordingFetch log and the recording proxy\'s, two stateless servers behind it (recorded by audit 88)', () => {
  const dir = `${ROOT}test/fixtures/real-audit88/v2-py-router/`;
  const o = JSON.parse(readFileSync(`${dir}observed.json`, 'utf8')) as { readOnly: Record<string, boolean>; endpoints: Record<string, string> };

  it('the two logs\' views of a request are one row, and a retry is judged by its own server\'s tools/list: UNSAFE_RETRY on the server whose tool is not read-only only', async () => {
    const r = await run(['--client', `${dir}client.ndjson`, '--client', `${dir}proxy.ndjson`]);
    const retries = r.calls.filter((a) => a.attempt > 1);
    expect(retries.length).toBeGreaterThan(0);
    // Each retry's row holds both logs' lines (the proxy's record names the server it forwarded to, its Host header the client's URL).
    for (const a of retries) expect(files(a)).toEqual(['client.ndjson', 'proxy.ndjson']);
    const pathOf = (a: Attempt) => new URL((a as Attempt & { endpoint: string }).endpoint).pathname;
    for (const [server, readOnly] of Object.entries(o.readOnly)) {
      const path = new URL(o.endpoints[server]!).pathname;
      const mine = retries.filter((a) => pathOf(a) === path);
      expect(mine, server).toHaveLength(1);
      expect(mine[0]!.findings.some((f) => f.code === 'UNSAFE_RETRY'), server).toBe(!readOnly);
    }
  });
});
