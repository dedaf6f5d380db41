// The sixtieth audit (test/fixtures/real-audit60): the Python SDK 2.3.0 client's own DEBUG log against the MCP test
// kitchen (test/real-audit56/kitchen.mjs), read alone as a judge hands it over, held to what the app saw
// (observed.json). Three fixes: an application/json answer the log shows read whole is "answered, the body not in the
// log" (not "no response in the log"), and the same call after it is linked as its retry; a bare 503 that httpcore's
// head proves (no Content-Type, Content-Length: 0) gets the bare-status why, which now carries the status and its
// reason phrase; a call the client gave up on at its timeout whose answer came later is what the client saw
// (STREAM_INCOMPLETE), the late answer kept in the why. node test/real-audit60/record.mjs re-records them.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, triageCli, type CliRun, type ReportAttempt, type ReportFinding } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit60/', import.meta.url));
const A32 = fileURLToPath(new URL('../fixtures/real-audit32/', import.meta.url));
const A59 = fileURLToPath(new URL('../fixtures/real-audit59/', import.meta.url));
const BARE = /^HTTP 503 Service Unavailable: a bare status line \(no body, no Content-Type\): not an answer of the MCP handler/;
const SERVER_TOO = "the server's log has it too: sent on the server's side, not by a hop between";
const ANSWERED = /^answered: HTTP 200, Content-Type "application\/json" \(httpcore's head at line \d+\), its body read to the end \(line \d+\); the Python SDK's DEBUG log does not hold a JSON body/;

type Attempt = ReportAttempt & { detail?: { why?: string; errorCode?: number }; serverOutcome?: string };
type Run = CliRun<Attempt, ReportFinding>;
interface Step { step: string; ok?: boolean; error?: { code?: number } }
const observed = (c: string) => JSON.parse(readFileSync(`${DIR}${c}/observed.json`, 'utf8')) as { steps: Step[]; kitchen: { wire?: string }[] };
const client = (c: string): Run => triageCli<Attempt, ReportFinding>(['--client', `${DIR}${c}/client.log`]);
const both = (c: string): Run => triageCli<Attempt, ReportFinding>(['--client', `${DIR}${c}/client.log`, '--server', `${DIR}${c}/server.ndjson`]);
const calls = (r: Run) => r.attempts.filter((a) => a.method === 'tools/call');
const codes = (r: Run) => [...r.findings, ...r.attempts.flatMap((a) => a.findings)].map((f) => f.code);
/** The app's tries per call, from its own steps ("call 2 try 1", "call 2 try 2"): [[1], [1, 2]]. */
const tries = (c: string) => {
  const per = new Map<string, number[]>();
  for (const s of observed(c).steps) {
    const m = /^call (\d+) try (\d+)$/.exec(s.step);
    if (m) per.set(m[1]!, [...(per.get(m[1]!) ?? []), Number(m[2])]);
  }
  return [...per.values()];
};
const chains = (r: Run) => {
  const per = new Map<string, number[]>();
  for (const a of calls(r)) per.set(a.call, [...(per.get(a.call) ?? []), a.attempt]);
  return [...per.values()];
};
const report = (format: string, args: string[]) => spawnSync(process.execPath, [BIN, '--format', format, ...args], { encoding: 'utf8', timeout: 30_000 }).stdout;

describe('the Python DEBUG log alone: an application/json answer read whole is answered, its body not in the log', () => {
  const JSON_CASES = ['py-jsonrpc-32603-2', 'py-jsonrpc-32602', 'py-modern-jsonrpc-32603-2', 'py-modern-baseline'];
  it.each(JSON_CASES)('%s: each call the kitchen answered as JSON says so (status, Content-Type, the body read), not "no response"', (c) => {
    const r = client(c);
    const json = calls(r).filter((a) => a.outcome === 'UNANSWERED');
    // every injected JSON-RPC error, and on 2026-07-28 every answer (the v2 server answers as JSON)
    expect(json.length).toBeGreaterThanOrEqual(observed(c).kitchen.filter((e) => e.wire === 'jsonrpc_error').length);
    if (c.startsWith('py-modern-')) expect(json).toHaveLength(calls(r).length);
    for (const a of json) expect(a.detail?.why, `${c} id ${a.id}`).toMatch(ANSWERED);
  });

  it('py-jsonrpc-32603-2 (and audit 59\'s py-jsonrpc-32603-3): a JSON answer where the server answered the rest on SSE streams is likely the injector\'s, and the app\'s re-call after it is attempt 2 of that call', () => {
    for (const c of ['py-jsonrpc-32603-2']) {
      const r = client(c);
      expect(chains(r)).toEqual(tries(c));
      const retry = calls(r).find((a) => a.attempt === 2)!;
      expect(retry.retryOrigin?.origin).toBe('unknown');
      const first = calls(r).find((a) => a.call === retry.call && a.attempt === 1)!;
      expect(first.detail?.why).toMatch(ANSWERED);
      expect(first.detail?.why).toContain("this transport's server answered its other requests on SSE streams, so a JSON answer is likely a layer's in front of its handler");
    }
    const r59 = triageCli<Attempt, ReportFinding>(['--client', `${A59}py-jsonrpc-32603-3/client.log`]);
    expect(chains(r59)).toEqual([[1], [1], [1, 2]]);
  });

  it('near misses: where every answer is JSON (2026-07-28, a JSON-mode server) nothing tells an error from a result: no call is linked by it', () => {
    // the app's re-call after the -32603 is not linked (a limit: the log cannot tell), and no JSON answer reads as odd
    const modern = client('py-modern-jsonrpc-32603-2');
    expect(chains(modern)).toEqual([[1], [1], [1], [1]]);
    for (const a of calls(modern)) expect(a.detail?.why).not.toContain('SSE streams');
    // the same call made again after a JSON result (the nineteenth audit's add after a restart, "retry-new-client";
    // audit 45's echo calls): calls of their own, as before
    const s2 = triageCli<Attempt, ReportFinding>(['--client', fileURLToPath(new URL('../fixtures/real-audit19/s2-python/client.log', import.meta.url))]);
    expect(calls(s2).every((a) => a.attempt === 1)).toBe(true);
    const a45 = triageCli<Attempt, ReportFinding>(['--client', fileURLToPath(new URL('../fixtures/real-audit45/py-py-2026-json/client-debug.log', import.meta.url))]);
    expect(calls(a45).filter((a) => a.tool === 'echo' && a.outcome === 'UNANSWERED').every((a) => a.attempt === 1)).toBe(true);
  });

  it('near misses: a call not retried (-32602, the next call has other arguments) and three JSON answers to different calls stay calls of their own, with no finding', () => {
    for (const c of ['py-jsonrpc-32602', 'py-modern-baseline']) {
      const r = client(c);
      expect(chains(r), c).toEqual(tries(c));
      expect(codes(r), c).toEqual([]);
    }
  });

  it('with the server\'s log the answers are the server\'s, as before: the -32603, and the retry linked', () => {
    for (const c of ['py-jsonrpc-32603-2', 'py-modern-jsonrpc-32603-2']) {
      const r = both(c);
      const bad = calls(r).filter((a) => a.outcome === 'JSONRPC_ERROR');
      expect(bad.map((a) => a.detail?.errorCode), c).toEqual([-32603]);
      expect(chains(r), c).toEqual(tries(c));
    }
  });

  it('near miss: an answer on an SSE stream (the SDK 1.32.2 server\'s) is logged and read as before', () => {
    const r = client('py-jsonrpc-32603-2');
    expect(calls(r).filter((a) => a.outcome === 'TOOL_SUCCESS')).toHaveLength(2);
  });
});

describe('the Python DEBUG log\'s bare 503', () => {
  it('httpcore\'s head with no Content-Type and Content-Length: 0 (Kestrel\'s, as the real kitchen sends it): the bare-status why, with its reason phrase', () => {
    const r = client('py-status-call-503-cl0');
    const bad = calls(r).filter((a) => a.outcome === 'HTTP_ERROR');
    expect(bad).toHaveLength(1);
    expect(bad[0]!.detail?.why).toMatch(BARE);
    expect(bad[0]!.detail?.why).toContain('the Python SDK gives its caller -32603 "Server returned an error response"');
    expect(chains(r)).toEqual(tries('py-status-call-503-cl0'));
    // with the server's log, which has the 503 too: the server's side sent it
    expect(report('markdown', ['--client', `${DIR}py-status-call-503-cl0/client.log`, '--server', `${DIR}py-status-call-503-cl0/server.ndjson`])).toContain(SERVER_TOO);
  });

  it('near miss: the same 503 sent chunked with no Content-Length (Node\'s): the log does not prove the body empty, httpx\'s status line is the why', () => {
    for (const c of [`${DIR}py-status-call-503-chunked/client.log`, `${A59}py-status-call-503/client.log`]) {
      const bad = triageCli<Attempt, ReportFinding>(['--client', c]).attempts.filter((a) => a.outcome === 'HTTP_ERROR');
      expect(bad.length, c).toBeGreaterThan(0);
      for (const a of bad) expect(a.detail?.why, c).toMatch(/^HTTP 503 Service Unavailable \(httpx's "HTTP Request:" line\)/);
    }
  });

  it('a bare 429 with Retry-After (the second audit\'s fault hop): one why says the status, that it is bare, and the Retry-After', () => {
    const r = triageCli<Attempt, ReportFinding>(['--client', fileURLToPath(new URL('../fixtures/real-audit2/http-errors-hop/client.ndjson', import.meta.url))]);
    // (its other 429 has a body, "rate_limited": not bare)
    const e429 = r.attempts.filter((a) => a.status === 429 && !a.detail?.why?.startsWith('the body says'));
    expect(e429).toHaveLength(1);
    for (const a of e429) expect(a.detail?.why).toMatch(/^HTTP 429 Too Many Requests: a bare status line \(no body, no Content-Type\): .*; Retry-After \d+(\.\d+)? s$/);
  });

  it('the TypeScript client\'s and the proxy\'s bare 503 (fifty-ninth audit) now lead with the status and its reason phrase', () => {
    const r = triageCli<Attempt, ReportFinding>(['--client', `${A59}ts-status-call-503/client.ndjson`]);
    const bad = r.attempts.filter((a) => a.outcome === 'HTTP_ERROR');
    expect(bad.length).toBeGreaterThan(0);
    for (const a of bad) expect(a.detail?.why).toMatch(BARE);
  });
});

describe('a call the client gave up on at its timeout, whose answer came later', () => {
  it('the Python DEBUG log alone: the first try is what the app saw (not TOOL_SUCCESS), the late answer in its why, among the attempts that did not succeed', () => {
    const c = 'py-baseline-delay';
    expect(observed(c).steps.find((s) => s.step === 'call 1 try 1')!.ok).toBe(false);
    const r = client(c);
    const [first, second] = calls(r);
    expect(first!.outcome).toBe('STREAM_INCOMPLETE');
    expect(first!.detail?.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.8\d s after sending it, before any response came: its caller got the Python SDK's own timeout, MCPError -32001 "Request 'tools\/call' timed out" \(the cancellation's reason "timed out after 0\.8s": [^)]*\), not a result; the server's TOOL_SUCCESS answer came 0\.\d\d s after that/);
    expect(second!.outcome).toBe('TOOL_SUCCESS');
    expect(chains(r)).toEqual([[1, 2]]);
    const cancelled = first!.findings.find((f) => f.code === 'CANCELLED')!;
    expect(cancelled.message).toContain('its TOOL_SUCCESS result came after that, when the client had given up on it');
    expect(codes(r)).not.toContain('NO_FINAL_RESULT');
    const text = report('table', [`${DIR}${c}/client.log`]);
    expect(text.slice(text.indexOf('Attempts that did not succeed'))).toContain('STREAM_INCOMPLETE');
  });

  it('with the server\'s log: the server\'s TOOL_SUCCESS is its serverOutcome, and no SIDE_DIVERGENCE (the client got that answer, late)', () => {
    const r = both('py-baseline-delay');
    const first = calls(r)[0]!;
    expect(first.outcome).toBe('STREAM_INCOMPLETE');
    expect(first.serverOutcome).toBe('TOOL_SUCCESS');
    expect(codes(r)).not.toContain('SIDE_DIVERGENCE');
  });

  it('the same run logged with logging\'s default format (BASIC_FORMAT, no times): the lines put the answer after the cancellation, so the first try is what the app saw and the re-call its attempt 2', () => {
    const c = 'py-baseline-delay-basic';
    expect(observed(c).steps.find((s) => s.step === 'call 1 try 1')!.ok).toBe(false);
    expect(readFileSync(`${DIR}${c}/client.log`, 'utf8')).toMatch(/^DEBUG:asyncio:/);
    const r = client(c);
    const [first, second] = calls(r);
    expect(first!.outcome).toBe('STREAM_INCOMPLETE');
    expect(first!.detail?.why).toMatch(/^the client cancelled it \(notifications\/cancelled, line \d+\) before any response came: its caller got the Python SDK's own timeout, MCPError -32001 "Request 'tools\/call' timed out" \(the cancellation's reason "timed out after 0\.8s": [^)]*\), not a result; the server's TOOL_SUCCESS answer came after that \(line \d+; the log has no times\), when the client had given up on it/);
    expect(second!.outcome).toBe('TOOL_SUCCESS');
    expect(chains(r)).toEqual(tries(c));
    expect(first!.findings.find((f) => f.code === 'CANCELLED')!.message).toContain('its TOOL_SUCCESS result came after that, when the client had given up on it');
    // The timed log of the same run says the same.
    expect(calls(client('py-baseline-delay')).map((a) => a.outcome)).toEqual(calls(r).map((a) => a.outcome));
    // Given with the server's log: the server's TOOL_SUCCESS is its serverOutcome, no SIDE_DIVERGENCE.
    const b = triageCli<Attempt, ReportFinding>(['--client', `${DIR}${c}/client.log`, '--server', `${DIR}${c}/server.ndjson`]);
    expect(calls(b)[0]).toMatchObject({ outcome: 'STREAM_INCOMPLETE', serverOutcome: 'TOOL_SUCCESS' });
    expect(codes(b)).not.toContain('SIDE_DIVERGENCE');
  });

  it('near miss: an untimed log\'s call cancelled with no answer after it stays unanswered (the twenty-fifth audit\'s BASIC_FORMAT log, which leaves JSON answers out)', () => {
    const r = triageCli<Attempt, ReportFinding>(['--client', fileURLToPath(new URL('../fixtures/real-audit25/py-json/python-debug-basic.log', import.meta.url))]);
    const cancelled = r.attempts.filter((a) => a.findings.some((f) => f.code === 'CANCELLED'));
    expect(cancelled.map((a) => a.outcome)).toEqual(['UNANSWERED']);
  });

  it('the TypeScript SDK\'s timeout race (thirty-second audit): a call whose answer came after its cancellation is the timeout its app got; one answered first stays TOOL_SUCCESS', () => {
    const truth = readFileSync(`${A32}ts-timeout-race/truth-client.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { ok: boolean });
    const r = triageCli<Attempt, ReportFinding>(['--client', `${A32}ts-timeout-race/client.ndjson`]);
    const tc = calls(r).filter((a) => a.tool === 'slow');
    expect(tc.map((a) => a.outcome === 'TOOL_SUCCESS')).toEqual(truth.map((t) => t.ok));
  });
});
