// The MCP test kitchen's other fault scenarios (test/fixtures/real-audit56), emulated in front of real SDK servers and
// recorded with real clients behind an application that re-calls: what mcp-triage says of each attempt, in each view
// (client, server, both, the recording proxy), against what the application saw (observed.json). Two fixes: a request
// re-posted after a bare 401 with the same credentials is of unknown origin, not surely "the SDK's auth retry", and an
// OAuth token POST (form-encoded) refused with 404 is no refused notification. node test/real-audit56/record.mjs re-records them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedPairs, triageCli, type CliRun, type ReportAttempt, type ReportFinding } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit56/', import.meta.url));
type Run = CliRun<ReportAttempt, ReportFinding>;
interface Step { step: string; ok?: boolean; isError?: boolean; action?: string; error?: { code?: number | string; status?: number; name?: string; message?: string } }
interface Observed { client: string; scenario: string; steps: Step[]; kitchen: Record<string, unknown>[] }

const observed = (c: string) => JSON.parse(readFileSync(`${DIR}${c}/observed.json`, 'utf8')) as Observed;
const cache = new Map<string, Run>();
type View = 'both' | 'client' | 'server' | 'proxy';
function run(c: string, view: View = 'both'): Run {
  const key = `${c}|${view}`;
  let r = cache.get(key);
  if (!r) {
    const f = (n: string) => `${DIR}${c}/${n}.ndjson`;
    const args = { both: ['--client', f('client'), '--server', f('server')], client: ['--client', f('client')], server: ['--server', f('server')], proxy: ['--client', f('proxy')] }[view];
    r = triageCli<ReportAttempt, ReportFinding>(args);
    cache.set(key, r);
  }
  return r;
}
const calls = (r: Run) => r.attempts.filter((a) => a.method === 'tools/call');
const shape = (r: Run) => calls(r).map((a) => `${a.status} ${a.outcome}`);
const codes = (r: Run) => [...r.findings, ...r.attempts.flatMap((a) => a.findings)].map((f) => f.code).sort();
const tsViews = (c: string): View[] => (c.startsWith('py-') ? ['both', 'client', 'server'] : ['both', 'client', 'server', 'proxy']);
/** What the application's call steps came to, as the attempts of tools/call should show them (the client's view). */
function expected(o: Observed): string[] {
  return o.steps.filter((s) => s.step.startsWith('call ')).map((s) => {
    if (s.ok) return s.isError ? '200 TOOL_ERROR' : '200 TOOL_SUCCESS';
    const code = s.error?.code;
    if (code === 429 || code === 400 || s.error?.status === 429) return `${code === 400 ? 400 : 429} HTTP_ERROR`;
    // the v2 client's SdkError for a non-2xx; the Python SDK's MCPError -32603 for any HTTP error status (here only 429s)
    if (code === 'CLIENT_HTTP_NOT_IMPLEMENTED' || s.error?.message === 'Server returned an error response') return '429 HTTP_ERROR';
    return typeof code === 'number' && code < 0 && code !== -32001 ? '200 JSONRPC_ERROR' : 'timeout';
  });
}

describe('the test kitchen\'s errors.jsonrpc_error, errors.tool_error and rate limiter: each call as the application saw it', () => {
  const CASES = ['ts-jsonrpc-default', 'ts-jsonrpc-internal-2', 'v2-jsonrpc-32000', 'v2-jsonrpc-internal-2', 'py-jsonrpc-default', 'py-jsonrpc-internal-2', 'ts-tool-error', 'v2-tool-error-2', 'py-tool-error', 'ts-rate-limit', 'v2-rate-limit', 'py-rate-limit', 'ts-body-too-large'];
  it.each(CASES)('%s: the client\'s view (and the proxy\'s) shows every call step the application saw, in order', (c) => {
    const want = expected(observed(c));
    for (const view of tsViews(c).filter((v) => v !== 'server')) {
      const r = run(c, view);
      expect(r.unusable, view).toBe(0);
      expect(shape(r), view).toEqual(want);
    }
  });

  it('the injected JSON-RPC error is the attempt\'s outcome on both sides, its code as configured (-32602 by default, -32603, -32000), and the re-call is linked to it', () => {
    for (const [c, code] of [['ts-jsonrpc-default', -32602], ['py-jsonrpc-default', -32602], ['ts-jsonrpc-internal-2', -32603], ['v2-jsonrpc-internal-2', -32603], ['py-jsonrpc-internal-2', -32603], ['v2-jsonrpc-32000', -32000]] as const) {
      const bad = calls(run(c)).findIndex((a) => a.outcome === 'JSONRPC_ERROR');
      const a = calls(run(c));
      expect(a[bad], c).toMatchObject({ serverOutcome: 'JSONRPC_ERROR', detail: { errorCode: code } });
      expect(a[bad + 1]!.call, c).toBe(a[bad]!.call);
      expect(a[bad + 1]!.attempt, c).toBe(2);
      // -32602 refused the request before anything ran: no UNSAFE_RETRY; -32603 and -32000 may have run (the logs cannot
      // tell that the kitchen answered before the SDK saw the request)
      expect(codes(run(c)).includes('UNSAFE_RETRY'), c).toBe(code !== -32602);
    }
  });

  it('errors.tool_error: the Nth invocation is a TOOL_ERROR in every view, no retry, no finding', () => {
    for (const c of ['ts-tool-error', 'v2-tool-error-2', 'py-tool-error']) {
      for (const view of tsViews(c)) {
        const r = run(c, view);
        expect(calls(r).filter((a) => a.outcome === 'TOOL_ERROR'), `${c} ${view}`).toHaveLength(1);
        expect(codes(r), `${c} ${view}`).toEqual([]);
      }
    }
  });

  it('the rate limiter\'s 429 never reaches the server\'s log (as the kitchen\'s observations): the server view shows only the calls that got through', () => {
    for (const c of ['ts-rate-limit', 'v2-rate-limit', 'py-rate-limit']) {
      const ok = observed(c).steps.filter((s) => s.step.startsWith('call ') && s.ok).length;
      expect(calls(run(c, 'server')).map((a) => a.outcome), c).toEqual(Array(ok).fill('TOOL_SUCCESS'));
      expect(calls(run(c)).filter((a) => a.status === 429).every((a) => a.serverOutcome === undefined), c).toBe(true);
    }
  });
});

describe('the test kitchen\'s elicitation.approval and compat.sdk_v2 ticket tool', () => {
  it('2026-07-28 (v2 and Python clients): each call is an input_required round and its follow-up, accept a result, decline and cancel isError; no retry, no finding', () => {
    for (const c of ['v2-elicitation', 'py-elicitation-modern']) {
      const actions = observed(c).steps.filter((s) => s.action).map((s) => s.action);
      for (const view of tsViews(c)) {
        const r = run(c, view);
        expect(shape(r), `${c} ${view}`).toEqual(actions.flatMap((x) => ['200 INPUT_REQUIRED', x === 'accept' ? '200 TOOL_SUCCESS' : '200 TOOL_ERROR']));
        const followUps = calls(r).filter((a) => a.attempt === 2);
        expect(followUps.every((a) => a.retryOrigin?.origin === 'none'), `${c} ${view}`).toBe(true);
        expect(codes(r), `${c} ${view}`).toEqual([]);
      }
    }
  });

  it('2025-11-25: no MRTR, so the tool answers isError with elicitationOutcome "unsupported"', () => {
    for (const c of ['ts-elicitation-legacy', 'py-elicitation-legacy']) {
      expect(observed(c).steps.filter((s) => s.step.startsWith('call ')).every((s) => s.ok && s.isError), c).toBe(true);
      for (const view of tsViews(c)) expect(calls(run(c, view)).every((a) => a.outcome === 'TOOL_ERROR'), `${c} ${view}`).toBe(true);
    }
  });

  it('simulate_ticket_close_mrtr: upfront is one result; mrtr and cancelled are an input_required round and a normal result; guidance (2025-11-25) a normal result', () => {
    for (const view of tsViews('v2-ticket')) {
      expect(shape(run('v2-ticket', view)), view).toEqual(['200 TOOL_SUCCESS', '200 INPUT_REQUIRED', '200 TOOL_SUCCESS', '200 INPUT_REQUIRED', '200 TOOL_SUCCESS']);
      expect(codes(run('v2-ticket', view)), view).toEqual([]);
    }
    expect(observed('ts-ticket-legacy').steps[1]).toMatchObject({ ok: true, isError: false });
    expect(shape(run('ts-ticket-legacy'))).toEqual(['200 TOOL_SUCCESS', '200 TOOL_SUCCESS']);
  });
});

describe('baseline slower than the client\'s request timeout', () => {
  it('the timed-out call is CANCELLED by the client and its re-call is linked; the server view tells whether the tool ran to its result (1.x and Python: yes, v2: the closed stream aborted it)', () => {
    for (const c of ['ts-timeout', 'v2-timeout', 'py-timeout']) {
      const o = observed(c);
      expect(o.steps.filter((s) => s.step.startsWith('call ')).map((s) => s.ok), c).toEqual([false, true]);
      const ranToEnd = o.kitchen.filter((e) => e.invocation === 1 && e.phase === 'return').length === 1;
      const [first, second] = calls(run(c));
      // (a result that came after the client's cancellation reached no caller: the attempt is what the client saw, the
      // server's result its serverOutcome; sixtieth audit)
      expect(first!.outcome, c).toBe(ranToEnd ? 'STREAM_INCOMPLETE' : 'NO_RESPONSE');
      if (ranToEnd) expect(first!.serverOutcome, c).toBe('TOOL_SUCCESS');
      expect(first!.findings.map((f) => f.code), c).toEqual(['CANCELLED']);
      expect(second!.call, c).toBe(first!.call);
      expect(second!.findings.map((f) => `${f.code} ${f.severity}`), c).toEqual(['RETRY_ORIGIN_AMBIGUOUS warning', 'UNSAFE_RETRY error']);
    }
  });
});

describe('the PAT check\'s bare 401 (no WWW-Authenticate): the application reconnects, the SDK does not', () => {
  const CASES = ['ts-auth-missing', 'ts-auth-provider', 'v2-auth-bad', 'v2-auth-token', 'v2-auth-oauth', 'v2-auth-token-retry', 'py-auth-bad'];
  const SAME = /^same id re-posted after HTTP 401 with the same credentials \(its Authorization unchanged, or none again\): a client library's retry after a hook that got no new token \(the v2 SDK's onUnauthorized retries once so\) or the application sending it again \(a new client's first request has the same id\); nothing in the logs says which$/;
  it.each(CASES)('%s: each connect is a failed first request; the repeats carry the same credentials, so they are no sure SDK auth retry', (c) => {
    const o = observed(c);
    expect(o.steps.filter((s) => s.step.startsWith('connect') && !s.ok)).toHaveLength(3);
    // the v2 SDK re-posts once after its onUnauthorized hook (which has no new token for a PAT): two POSTs a connect
    const posts = 3 * (1 + o.steps.filter((s) => s.step === 'onUnauthorized').length / 3);
    for (const view of tsViews(c).filter((v) => v !== 'server')) {
      const r = run(c, view);
      expect(r.attempts.map((a) => `${a.status} ${a.outcome}`), view).toEqual(Array(posts).fill('401 HTTP_ERROR'));
      for (const a of r.attempts.slice(1)) {
        expect(a.retryOrigin?.origin, view).toBe('unknown');
        expect(a.retryOrigin?.how, view).toMatch(SAME);
      }
      expect(r.findings.map((f) => f.code), view).toEqual(['CALL_NEVER_SENT']);
    }
    // the 401 is answered before the kitchen's observations: the server's log is empty
    expect(run(c, 'server').attempts).toEqual([]);
  });

  it('ts-auth-provider: the SDK\'s OAuth discovery and its form-encoded token POST (404 here) are no refused MCP notification', () => {
    expect(readFileSync(`${DIR}ts-auth-provider/client.ndjson`, 'utf8')).toMatch(/"url":"http:\/\/127\.0\.0\.1:\d+\/token".*"content-type":"application\/x-www-form-urlencoded"/);
    expect(codes(run('ts-auth-provider', 'client'))).not.toContain('NOTIFICATION_REFUSED');
    expect(codes(run('ts-auth-provider', 'proxy'))).not.toContain('NOTIFICATION_REFUSED');
  });

  it('near misses: the SDK\'s real auth retry (a new token) is still the SDK\'s, and a JSON POST with a broken body is still a refused POST', () => {
    const real = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
    const r = triageCli<ReportAttempt, ReportFinding>(['--client', `${real}auth-401-same-id-retry.client.ndjson`]);
    expect(r.attempts.filter((a) => a.retryOrigin).map((a) => a.retryOrigin!.how)).toEqual(["same id re-posted after HTTP 401: the SDK's auth retry"]);
    const servers = recordedPairs<ReportAttempt, ReportFinding>(fileURLToPath(new URL('../fixtures/real-servers/', import.meta.url)));
    expect(servers('tmcp-raw-requests').findings.find((f) => f.code === 'NOTIFICATION_REFUSED')!.message).toMatch(/HTTP 400 to a body that is not JSON/);
  });
});
