// The MCP test kitchen's status sequence (test/fixtures/real-kitchen): every POST takes the next status, a bare status
// line for a non-2xx; SDK 1.32.2 client and server, an application that reconnects and re-calls. What mcp-triage must
// say of each against what the application saw (observed.json). node test/real-kitchen/record.mjs re-records them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordingRunner, type CliRun, type RecordingView as View } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-kitchen/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt { method: string; status: number | null; outcome: string; serverOutcome?: string; call: string; attempt: number; findings: Finding[]; retryOrigin?: { origin: string; how: string } }
type Run = CliRun<Attempt, Finding>;
interface Observed { statusCodes: number[]; steps: { step: string; ok: boolean; error?: { code?: number } }[] }

const SCENARIOS = ['initialize-503', 'initialized-503', 'call-503-then-200', 'call-503-forever', 'py-initialize-503', 'py-initialized-503', 'v2-discover-503', 'v2-call-503-then-200'];
const run = recordingRunner<Attempt, Finding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const shape = (r: Run) => r.attempts.map((a) => `${a.method} ${a.status} ${a.outcome} ${a.call}#${a.attempt}`);
const codes = (r: Run) => [...r.findings, ...r.attempts.flatMap((a) => a.findings)].map((f) => f.code).sort();

describe('the test kitchen\'s status sequence', () => {
  it.each(SCENARIOS)('%s: read whole in each view, every POST the application saw fail is a failure', (s) => {
    const failedSteps = observed(s).steps.filter((x) => !x.ok).length;
    for (const view of ['both', 'client', 'server'] as View[]) {
      const r = run(s, view);
      expect(r.unusable, view).toBe(0);
      // a failed connect is a failed initialize or (for the TypeScript client, not the Python one) a refused
      // notification; a failed call is an HTTP_ERROR tools/call
      const failedAttempts = r.attempts.filter((a) => a.outcome === 'HTTP_ERROR').length;
      const refused = r.findings.filter((f) => f.code === 'NOTIFICATION_REFUSED').length;
      expect(failedAttempts + (s.startsWith('py-') ? 0 : refused), view).toBe(failedSteps);
    }
  });

  it('initialize-503: the first initialize is an HTTP_ERROR, the application\'s second one its retry, of unknown origin', () => {
    expect(observed('initialize-503').steps.map((x) => x.ok)).toEqual([false, true, true, true]);
    const r = run('initialize-503');
    expect(shape(r).slice(0, 2)).toEqual(['initialize 503 HTTP_ERROR c1#1', 'initialize 200 SUCCESS c1#2']);
    expect(r.attempts[1]!.retryOrigin).toEqual({ origin: 'unknown', how: 'a new request with the same method (initialize) and params; nothing in the logs says who sent it' });
    expect(codes(r)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('initialized-503: the refused notifications/initialized is named once, an error (the session never became usable), with the new session the client began; no attempt failed', () => {
    expect(observed('initialized-503').steps[0]).toMatchObject({ step: 'connect 1', ok: false, error: { code: 503 } });
    for (const view of ['both', 'client', 'server'] as View[]) {
      const r = run('initialized-503', view);
      expect(r.attempts.map((a) => a.outcome), view).toEqual(['SUCCESS', 'SUCCESS', 'TOOL_SUCCESS', 'TOOL_SUCCESS']);
      expect(r.findings, view).toHaveLength(1);
      expect(r.findings[0], view).toMatchObject({ code: 'NOTIFICATION_REFUSED', severity: 'error' });
      expect(r.findings[0]!.message, view).toMatch(/^session [0-9a-f-]{36}: HTTP 503 to its notifications\/initialized, a POST with no request in it: it was not accepted, so the session never became usable \(the TypeScript SDK's connect\(\), 1\.x and v2, throws on that refusal, and no request worked in this session after it\); the client began a new session \(initialize\) after it$/);
    }
  });

  it('the Python SDK client: a 503 to initialize fails connect and the retry is linked; a 503 to notifications/initialized is ignored, and the finding says the session went on', () => {
    expect(observed('py-initialize-503').steps[0]).toMatchObject({ step: 'connect 1', ok: false, error: { name: 'MCPError' } });
    expect(shape(run('py-initialize-503')).slice(0, 2)).toEqual(['initialize 503 HTTP_ERROR c1#1', 'initialize 200 SUCCESS c1#2']);
    expect(observed('py-initialized-503').steps.every((x) => x.ok)).toBe(true);
    for (const view of ['both', 'client', 'server'] as View[]) {
      const r = run('py-initialized-503', view);
      expect(r.attempts.every((a) => a.outcome === 'SUCCESS' || a.outcome === 'TOOL_SUCCESS'), view).toBe(true);
      expect(r.findings.map((f) => f.code), view).toEqual(['NOTIFICATION_REFUSED']);
      expect(r.findings[0]!.message, view).toMatch(/: HTTP 503 to its notifications\/initialized, a POST with no request in it: it was not accepted \(the TypeScript SDK's connect\(\) throws on that\); the session went on$/);
      // the Python client went on and its requests worked: the session was usable, so a warning, not an error
      expect(r.findings[0]!.severity, view).toBe('warning');
    }
  });

  it('the v2 packages on 2026-07-28: a 503 to the server/discover probe fails connect and the second probe is its retry; a 503 to a call is an HTTP_ERROR attempt re-sent by the application', () => {
    expect(observed('v2-discover-503').steps[0]).toMatchObject({ step: 'connect 1', ok: false, error: { code: 'ERA_NEGOTIATION_FAILED', status: 503 } });
    for (const view of ['both', 'client', 'server'] as View[]) {
      expect(shape(run('v2-discover-503', view)), view).toEqual(['server/discover 503 HTTP_ERROR c1#1', 'server/discover 200 SUCCESS c1#2', 'tools/call 200 TOOL_SUCCESS c2#1', 'tools/call 200 TOOL_SUCCESS c3#1']);
      expect(shape(run('v2-call-503-then-200', view)), view).toEqual(['server/discover 200 SUCCESS c1#1', 'tools/call 503 HTTP_ERROR c2#1', 'tools/call 200 TOOL_SUCCESS c2#2', 'tools/call 200 TOOL_SUCCESS c3#1']);
    }
    // the probe's id is the same string each time, as every new v2 client's first request has it
    expect(run('v2-discover-503').attempts[1]!.retryOrigin?.how).toMatch(/^server\/discover again with the same id "server-discover-probe-1", as a new client's first request has it/);
    expect(codes(run('v2-discover-503'))).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    expect(codes(run('v2-call-503-then-200'))).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('call-503-then-200 and call-503-forever: the 503s are HTTP_ERROR attempts of one call, re-sent by the application; no notification refused', () => {
    expect(shape(run('call-503-then-200')).slice(2)).toEqual(['tools/call 503 HTTP_ERROR c3#1', 'tools/call 200 TOOL_SUCCESS c3#2']);
    expect(shape(run('call-503-forever')).slice(2)).toEqual(['tools/call 503 HTTP_ERROR c3#1', 'tools/call 503 HTTP_ERROR c3#2', 'tools/call 503 HTTP_ERROR c3#3']);
    for (const s of ['call-503-then-200', 'call-503-forever', 'initialize-503']) expect(codes(run(s)), s).not.toContain('NOTIFICATION_REFUSED');
  });
});
