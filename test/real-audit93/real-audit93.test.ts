// Audit 93's real captures (test/fixtures/real-audit93): two logs of ONE side of the same calls given with the same flag (an app's own log and a capture of that client; a server's recording and its request logger), read as one attempt per request.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const DIR = `${ROOT}test/fixtures/real-audit93/`;
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;
interface Step { app: string; step: string; ok?: { isError: boolean } | string; threw?: unknown }
interface Observed { steps: Step[]; serverRan: string[]; gate: { id: unknown }[]; reposts: { id: unknown }[]; views: Record<string, string> }
interface Attempt { id: unknown; method: string; tool: string | null; outcome: string; serverOutcome?: string; call: string; attempt: number; findings: { code: string }[]; sources: { file: string; line: number }[] }
interface Summary { attempts: number; calls: number; retries: number; byOutcome: Record<string, number>; notes: string[] }

const observed = (scenario: string) => JSON.parse(readFileSync(f(scenario, 'observed.json'), 'utf8')) as Observed;

/**
 * The tools/call attempts the wire carried, as outcomes, from what the app got: the gate's 503 is an attempt of its
 * own (HTTP_ERROR), re-posted under the same id where the app's fetch re-posts (then the step got the re-post's answer).
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
const files = (a: Attempt) => [...new Set(a.sources.map((s) => s.file.split('/').pop()))].sort();

const CLIENT_PAIRS: [string, string, string][] = [
  ['ts-client', 'capture.ndjson', 'app-fetch.log'],
  ['py-client', 'proxy.ndjson', 'client.log'],
  ['v2-sessionless', 'capture.ndjson', 'app-fetch.log'],
];

describe.each(CLIENT_PAIRS)('real-audit93 %s: --client %s --client %s (two logs of the client\'s side of the same calls)', (scenario, capture, appLog) => {
  const o = observed(scenario);
  const args = ['--client', f(scenario, capture), '--client', f(scenario, appLog)];

  it('one attempt per request the wire carried, each with what the app got, and the lines of both logs', async () => {
    expect(o.views[capture]).toBe('client');
    expect(o.views[appLog]).toBe('client');
    const r = await run(args);
    expect(r.calls.map((a) => a.outcome)).toEqual(wireOutcomes(o));
    for (const a of r.calls) expect(files(a)).toEqual([appLog, capture].sort());
    // As many calls as the app made (a step that threw and the app's call again are one call), one retry: the gate's.
    expect(r.summary.calls).toBe(o.steps.filter((s) => s.step !== 'connect' && s.threw === undefined).length + (r.attempts.length - r.calls.length));
    expect(r.summary.retries).toBe(o.gate.length);
  });

  it('no ID_REUSED, and no request is a re-post of itself: the only retry is the one after the 503, in its call', async () => {
    const r = await run(args);
    expect(r.codes).not.toContain('ID_REUSED');
    const failed = r.calls.findIndex((a) => a.outcome === 'HTTP_ERROR');
    const next = r.calls[failed + 1]!;
    expect([next.call, next.attempt]).toEqual([r.calls[failed]!.call, 2]);
    expect(r.calls.filter((a) => a.attempt > 1)).toHaveLength(1);
  });

  it('the same report as the capture alone, and a note that says the two logs were taken as one', async () => {
    const both = await run(args);
    const alone = await run(['--client', f(scenario, capture)]);
    const note = both.summary.notes.filter((n) => n.includes('two logs of the client\'s side of the same'));
    expect(note).toHaveLength(1);
    // Without a session, a request whose two views do not start and end together to 5 ms is reported from each log,
    // and the note says how many (v2's server/discover probe: the fetch logger ends it at the headers).
    const unsure = Number(/; (\d+) requests? without a session id in one may be/.exec(note[0]!)?.[1] ?? 0);
    expect(unsure).toBe(both.attempts.filter((a) => files(a).length === 1).length / 2);
    expect(note[0]).toContain(`same ${both.attempts.length - 2 * unsure} request`);
    expect([both.summary.attempts - unsure, both.summary.calls - unsure, both.summary.retries]).toEqual([alone.summary.attempts, alone.summary.calls, alone.summary.retries]);
    const outcomes = (r: typeof both) => r.calls.map((a) => a.outcome);
    expect(outcomes(both)).toEqual(outcomes(alone));
    expect(both.summary.notes.some((n) => n.includes('the same traffic given twice'))).toBe(false);
  });
});

describe('real-audit93 ts-client-inner-repost: the re-post happens between the two logs (the capture shows one POST, the fetch log both)', () => {
  const o = observed('ts-client-inner-repost');
  const capture = f('ts-client-inner-repost', 'capture.ndjson');
  const fetchLog = f('ts-client-inner-repost', 'app-fetch.log');

  it('the re-post the fetch log alone shows is still an attempt of its own, and the retry of its call; the capture\'s POST is the answered one', async () => {
    expect(o.reposts).toHaveLength(1);
    const r = await run(['--client', capture, '--client', fetchLog]);
    expect(r.calls.map((a) => a.outcome)).toEqual(wireOutcomes(o));
    const failed = r.calls.find((a) => a.outcome === 'HTTP_ERROR')!;
    expect(files(failed)).toEqual(['app-fetch.log']);
    const next = r.calls[r.calls.indexOf(failed) + 1]!;
    expect(next.id).toBe(failed.id);
    expect(files(next)).toEqual(['app-fetch.log', 'capture.ndjson']);
    expect([next.call, next.attempt]).toEqual([failed.call, 2]);
    expect(r.codes).not.toContain('ID_REUSED');
  });
});

describe('real-audit93 ts-server: the server\'s recordingMiddleware log and Express\'s own request logger, both given with --server, beside the client\'s', () => {
  const o = observed('ts-server');
  const client = f('ts-server', 'client.ndjson');
  const handler = f('ts-server', 'mcp-handler.ndjson');
  const express = f('ts-server', 'express-access.log');

  it('each request is one attempt with the client\'s view and the server\'s, the server\'s from both logs', async () => {
    expect(o.views['express-access.log']).toBe('server');
    const r = await run(['--client', client, '--server', handler, '--server', express]);
    expect(r.calls.map((a) => a.outcome)).toEqual(wireOutcomes(o));
    expect(r.calls.map((a) => a.serverOutcome)).toEqual(wireOutcomes(o));
    for (const a of r.attempts) expect(files(a)).toEqual(['client.ndjson', 'express-access.log', 'mcp-handler.ndjson']);
    expect(r.codes).not.toContain('ID_REUSED');
  });

  it('the two server logs alone: one attempt per request, no ID_REUSED, the note names the server\'s side', async () => {
    const r = await run(['--server', handler, '--server', express]);
    expect(r.calls.map((a) => a.outcome)).toEqual(wireOutcomes(o));
    expect(r.codes).not.toContain('ID_REUSED');
    expect(r.summary.notes.filter((n) => n.includes('two logs of the server\'s side of the same'))).toHaveLength(1);
  });
});
