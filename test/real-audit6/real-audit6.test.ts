// Sixth audit (test/fixtures/real-audit6): the v2 packages (client and server 2.4.0, protocol 2026-07-28) behind the fourth and fifth audits' hops, and what mcp-triage must say of each against what the caller got (observed.json). The recordings are committed; node test/real-audit6/record.mjs re-records them (needs dist/).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordingRunner, triageCli, type CliRun, type RecordingView as View } from '../helpers/triage-cli.js';
import { toolCalls as calls, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit6/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; findings: Finding[]; detail?: { why?: string; errorCode?: number }; notSeenByServer?: boolean; protocolVersion?: string;
}
interface SessionFinding { type: 'finding'; code: string; severity: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok: boolean; ms?: number; summary?: { content?: { text: string }[]; isError?: boolean }; error?: { name: string; message: string; code?: number | string; status?: number } }
interface Observed { era: string; steps: Step[]; onerror: { message: string }[]; notes: Record<string, number[]>[]; serverRan: string[] }

const SCENARIOS = [
  'empty-200-json', 'duplicate-response-sse', 'error-then-result-same-id', 'batch-of-one-response', 'string-id-response', 'html-in-sse-after-head',
  '502-after-run', 'http-429-retry-after', 'abort-between-progress', 'tool-errors-json', 'timeout-then-retry',
  'py-502-after-run', 'py-429-retry-after', 'py-timeout-then-retry',
  'py-empty-200-json', 'py-duplicate-response-sse', 'py-error-then-result-same-id', 'py-batch-of-one-response', 'py-string-id-response', 'py-html-in-sse-after-head',
  'py-abort-between-progress', 'py-tool-errors-json', 'py-hop-cuts-stream',
];
const VIEWS: View[] = ['both', 'client', 'server'];
const run: (s: string, view?: View) => Run = recordingRunner<Attempt, SessionFinding>(DIR);
const codes = (a: Attempt) => a.findings.map((f) => f.code).sort();
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const step = (s: string, label: RegExp) => observed(s).steps.find((x) => label.test(x.step))!;
const message = (a: Attempt, code: string) => a.findings.find((f) => f.code === code)?.message;

describe('sixth audit: every recording', () => {
  it.each(SCENARIOS)('%s: 2026-07-28 without sessions; read whole in each view, nothing unusable, no crash', (s) => {
    expect(observed(s).era).toBe('2026-07-28');
    for (const view of VIEWS) {
      const r = run(s, view);
      expect(r.code === 0 || r.code === 1, view).toBe(true);
      expect(r.unusable, view).toBe(0);
      expect(calls(r).length, view).toBeGreaterThan(0);
      for (const a of r.attempts) expect([a.session, a.protocolVersion], view).toEqual([null, '2026-07-28']);
    }
  });

  it.each(SCENARIOS)('%s: the terminal report (the default format) is written whole', (s) => {
    const p = spawnSync(process.execPath, [BIN, '--client', `${DIR}${s}/client.ndjson`, '--server', `${DIR}${s}/server.ndjson`], { encoding: 'utf8', timeout: 30_000 });
    expect(p.status === 0 || p.status === 1).toBe(true);
    expect(p.stderr).toBe('');
    expect(p.stdout).toMatch(/^mcp-triage [\d.]+: \d+ attempts? in \d+ calls?/);
  });
});

describe('sixth audit: the fourth audit\'s hops in front of the v2 client', () => {
  it('empty-200-json: the caller got "Unexpected end of JSON input"; STREAM_INCOMPLETE with NO_FINAL_RESULT, SIDE_DIVERGENCE joined', () => {
    expect(step('empty-200-json', /hop/).error).toMatchObject({ name: 'SyntaxError', message: 'Unexpected end of JSON input' });
    const [a, after] = calls(run('empty-200-json'));
    expect([a!.outcome, a!.serverOutcome, a!.detail?.why, codes(a!)]).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS', 'empty response body', ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']]);
    expect([after!.outcome, after!.findings]).toEqual(['TOOL_SUCCESS', []]);
    expect(codes(calls(run('empty-200-json', 'client'))[0]!)).toEqual(['NO_FINAL_RESULT']);
    expect(calls(run('empty-200-json', 'server')).map((x) => [x.outcome, x.findings.length])).toEqual([['TOOL_SUCCESS', 0], ['TOOL_SUCCESS', 0]]);
  });

  it('duplicate-response-sse: the caller got the first result (onerror: unknown message ID); TOOL_SUCCESS and ORPHAN_RESPONSE for the second', () => {
    expect(step('duplicate-response-sse', /twice/).summary?.content?.[0]?.text).toBe('invoice for order 1001 sent');
    expect(observed('duplicate-response-sse').onerror[0]!.message).toMatch(/^Received a response for an unknown message ID/);
    for (const view of ['both', 'client'] as View[]) {
      const a = calls(run('duplicate-response-sse', view))[0]!;
      expect([a.outcome, codes(a)], view).toEqual(['TOOL_SUCCESS', ['ORPHAN_RESPONSE']]);
    }
    expect(allCodes(run('duplicate-response-sse', 'server'))).toEqual([]);
  });

  it('error-then-result-same-id: the caller got ProtocolError -32603; JSONRPC_ERROR, ORPHAN_RESPONSE for the result, SIDE_DIVERGENCE joined', () => {
    expect(step('error-then-result-same-id', /error, then/).error).toMatchObject({ name: 'ProtocolError', code: -32603, message: 'upstream timeout' });
    const a = calls(run('error-then-result-same-id'))[0]!;
    expect([a.outcome, a.serverOutcome, a.detail?.errorCode, codes(a)]).toEqual(['JSONRPC_ERROR', 'TOOL_SUCCESS', -32603, ['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']]);
  });

  it('batch-of-one-response: the v2 client took the result from the array; TOOL_SUCCESS without findings, the why names the batch of one', () => {
    expect(step('batch-of-one-response', /batch of one/).summary?.content?.[0]?.text).toBe('order 1001: shipped');
    const a = calls(run('batch-of-one-response', 'client'))[0]!;
    expect([a.outcome, a.findings]).toEqual(['TOOL_SUCCESS', []]);
    expect(a.detail?.why).toMatch(/^the response came inside a JSON array \(a batch of one\) although the request was sent alone.*the TypeScript SDK takes it/);
    expect(calls(run('batch-of-one-response', 'server'))[0]!.detail?.why).toBeUndefined();
  });

  it('html-in-sse-after-head: the v2 caller waited for its timeout (no cancellation on the wire); STREAM_INCOMPLETE, NO_FINAL_RESULT, the page quoted, no CANCELLED', () => {
    expect(step('html-in-sse-after-head', /502 page/).error).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT' });
    const a = calls(run('html-in-sse-after-head'))[0]!;
    expect([a.outcome, a.serverOutcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS', ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']]);
    expect(a.detail?.why).toMatch(/an error page written into it\?\): "502 Bad Gateway"$/);
    // the server wrote its whole result: nothing of a closed connection, nor of a cancellation, in its view
    const s = calls(run('html-in-sse-after-head', 'server'))[0]!;
    expect([s.outcome, s.findings]).toEqual(['TOOL_SUCCESS', []]);
  });
});

describe('sixth audit: a response id that differs only in type, to the v2 client', () => {
  // Before: the why and the orphan named only "the TypeScript SDK 1.x", although the v2 client (its Protocol looks the
  // response up by Number(id), as 1.x) gave its caller the result; and the orphan said "in its session" on a protocol
  // that has none.
  it('string-id-response: the v2 caller got the result; INVALID_ENVELOPE, and the why and the orphan name v2 among the clients that take it', () => {
    expect(step('string-id-response', /string/).summary?.content?.[0]?.text).toBe('order 1001: shipped');
    const a = calls(run('string-id-response'))[0]!;
    expect([a.outcome, a.serverOutcome, codes(a)]).toEqual(['INVALID_ENVELOPE', 'TOOL_SUCCESS', ['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']]);
    expect(a.detail?.why).toBe('response id "1" is not the request id 1: the same value as a string, which a client that matches ids by Number() (the TypeScript SDK, 1.x and v2) or reads a string of digits as the number (the Python SDK) takes as the answer and one that compares ids with their type drops');
    expect(message(a, 'ORPHAN_RESPONSE')).toBe('response with id "1" on the exchange of tools/call lookup_order id 1 matches no request sent in the same log (there is no session): it is this request\'s id as a string, which the TypeScript SDK (1.x and v2) and the Python SDK take as its answer');
  });

  it('a log with sessions (real-audit4/string-id-response, SDK 1.32.2) still says "in its session"', () => {
    const r = triageCli<Attempt, SessionFinding>(['--client', `${FIXTURES}real-audit4/string-id-response/client.ndjson`]);
    const a = calls(r)[0]!;
    expect(a.session).not.toBeNull();
    expect(message(a, 'ORPHAN_RESPONSE')).toMatch(/matches no request sent in its session: it is this request's id as a string/);
  });
});

describe('sixth audit: the fifth audit\'s hops', () => {
  it('502-after-run: the server ran each tool twice; SIDE_DIVERGENCE on each 502, UNSAFE_RETRY on the destructive refund only', () => {
    expect(observed('502-after-run').serverRan).toEqual(['refund 1001', 'refund 1001', 'lookup 1001', 'lookup 1001']);
    expect(step('502-after-run', /^refund_order 1001 \(server ran/).error).toMatchObject({ name: 'SdkHttpError', status: 502 });
    const [refund, refundRetry, lookup, lookupRetry] = calls(run('502-after-run'));
    for (const x of [refund!, lookup!]) {
      expect([x.status, x.outcome, x.serverOutcome, x.detail?.why, codes(x)]).toEqual([502, 'HTTP_ERROR', 'TOOL_SUCCESS', 'the body says: 502 Bad Gateway', ['SIDE_DIVERGENCE']]);
    }
    expect([refundRetry!.call, refundRetry!.attempt, codes(refundRetry!)]).toEqual([refund!.call, 2, ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']]);
    expect(message(refundRetry!, 'UNSAFE_RETRY')).toMatch(/the server view shows the earlier attempt ran to its result \(TOOL_SUCCESS\)/);
    expect([lookupRetry!.call, lookupRetry!.attempt, codes(lookupRetry!)]).toEqual([lookup!.call, 2, ['RETRY_ORIGIN_AMBIGUOUS']]);
    // the client's log alone: a warning that the refund may have run
    const c = calls(run('502-after-run', 'client'));
    expect(c[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('warning');
  });

  it('http-429-retry-after: two 429s the server never saw, then the result; three attempts of one call, RETRY_AFTER_IGNORED on the early retry only', () => {
    expect(observed('http-429-retry-after').serverRan).toEqual(['invoice 1001']);
    const r = calls(run('http-429-retry-after'));
    expect(r.map((a) => [a.status, a.outcome, a.attempt, !!a.notSeenByServer])).toEqual([[429, 'HTTP_ERROR', 1, true], [429, 'HTTP_ERROR', 2, true], [200, 'TOOL_SUCCESS', 3, false]]);
    expect(new Set(r.map((a) => a.call)).size).toBe(1);
    expect(codes(r[1]!)).toEqual(['RETRY_AFTER_IGNORED', 'RETRY_ORIGIN_AMBIGUOUS']);
    expect(codes(r[2]!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('tool-errors-json: v2 turns a thrown ProtocolError and a thrown Error into isError results; TOOL_ERROR ×3 and the unknown tool JSONRPC_ERROR -32602, in every view', () => {
    expect(observed('tool-errors-json').steps.slice(1, 4).map((x) => x.summary?.isError)).toEqual([true, true, true]);
    expect(step('tool-errors-json', /no_such_tool/).error).toMatchObject({ name: 'ProtocolError', code: -32602 });
    for (const view of VIEWS) {
      expect(calls(run('tool-errors-json', view)).map((a) => [a.tool, a.outcome, a.findings.length]), view).toEqual([
        ['validate_quantity', 'TOOL_ERROR', 0], ['charge_card', 'TOOL_ERROR', 0], ['sync_inventory', 'TOOL_ERROR', 0], ['no_such_tool', 'JSONRPC_ERROR', 0], ['lookup_order', 'TOOL_SUCCESS', 0],
      ]);
    }
  });
});

describe('sixth audit: the v2 client closes the stream (2026-07-28 cancellation), then the app calls again', () => {
  it('abort-between-progress: the caller aborted after 2 progress notifications and the tool stopped; joined and client: STREAM_INCOMPLETE with CANCELLED, no NO_FINAL_RESULT; the re-call UNSAFE_RETRY', () => {
    expect(step('abort-between-progress', /aborted/).error).toMatchObject({ name: 'SdkError', message: 'Error: user pressed stop' });
    expect(observed('abort-between-progress').serverRan).toEqual(['export 2026-11 stopped at step 3', 'export 2026-11 done']);
    for (const view of ['both', 'client'] as View[]) {
      const [a, again] = calls(run('abort-between-progress', view));
      expect([a!.outcome, codes(a!)], view).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
      expect(a!.detail?.why, view).toMatch(/^the client closed the stream 0\.\d\d s after sending it, before any response came \(on 2026-07-28 that is the cancellation\); 2 SSE events came before that$/);
      expect([again!.call, again!.attempt, codes(again!)], view).toEqual([a!.call, 2, ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']]);
    }
  });

  // Before: the server's log alone read the closed stream as a server failure, NO_FINAL_RESULT "200 is not success",
  // with no CANCELLED, and a closed request before any head as a bare NO_RESPONSE; on 2026-07-28 the closed stream is
  // the cancellation (the v2 server aborted the tool's signal: it stopped at step 3).
  it('abort-between-progress, the server\'s log alone: CANCELLED, not NO_FINAL_RESULT; the why says the connection closed', () => {
    const [a, again] = calls(run('abort-between-progress', 'server'));
    expect([a!.outcome, codes(a!)]).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
    expect(a!.detail?.why).toMatch(/^the connection closed 0\.\d\d s after the request came, before the response was sent \(on 2026-07-28 that is how a client cancels; the server's log cannot tell the client from something between them\); 2 SSE events went out before that$/);
    expect(message(a!, 'CANCELLED')).toMatch(/^tools\/call export_report id 1: the connection closed after 0\.\d\d s before the result was sent \(on 2026-07-28 closing the stream is the cancellation; the server's log cannot tell whether the client or something between them closed it\)$/);
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
  });

  it('timeout-then-retry: the v2 client timed out (300 ms) before any head; NO_RESPONSE with CANCELLED in every view; the retry UNSAFE_RETRY', () => {
    expect(step('timeout-then-retry', /timeout 300/).error).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT' });
    expect(observed('timeout-then-retry').serverRan).toEqual(['slow_report 800 aborted', 'slow_report 800 done']);
    for (const view of VIEWS) {
      const [a, again] = calls(run('timeout-then-retry', view));
      expect([a!.status, a!.outcome, codes(a!)], view).toEqual([null, 'NO_RESPONSE', ['CANCELLED']]);
      expect([again!.call, again!.attempt, again!.outcome], view).toEqual([a!.call, 2, 'TOOL_SUCCESS']);
      expect(codes(again!), view).toContain('UNSAFE_RETRY');
    }
    expect(calls(run('timeout-then-retry', 'server'))[0]!.detail?.why).toMatch(/^the connection closed 0\.\d\d s after the request came, before a response was sent \(on 2026-07-28 that is how a client cancels/);
  });

  it('real-v2/timeout-sse-stream-closed, the server\'s log alone: CANCELLED, not NO_FINAL_RESULT', () => {
    const r = triageCli<Attempt, SessionFinding>(['--server', `${FIXTURES}real-v2/timeout-sse-stream-closed.server.ndjson`]);
    const a = calls(r).find((x) => x.tool === 'slow_report')!;
    expect([a.outcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
  });

  it('must not fire before 2026-07-28: a 2025-11-25 server\'s stream cut by a hop (real-audit2/resume-cut-before-event) keeps NO_FINAL_RESULT and its why', () => {
    const r = triageCli<Attempt, SessionFinding>(['--server', `${FIXTURES}real-audit2/resume-cut-before-event/server.ndjson`]);
    const a = calls(r)[0]!;
    expect(a.outcome).toBe('STREAM_INCOMPLETE');
    expect(codes(a)).toContain('NO_FINAL_RESULT');
    expect(a.detail?.why).toMatch(/^SSE stream ended \(aborted\) after 2 events without the response/);
    expect(a.findings.map((f) => f.message).join('\n')).not.toMatch(/the connection closed/);
  });
});

describe('sixth audit: the Python client (mcp 2.3.0, auto mode) through the same hops to the v2 server', () => {
  it('py-502-after-run: the caller got MCPError -32603 for each 502 (the server ran each tool twice); HTTP_ERROR 502 with SIDE_DIVERGENCE, UNSAFE_RETRY on the refund only', () => {
    expect(observed('py-502-after-run').serverRan).toEqual(['refund 1001', 'refund 1001', 'lookup 1001', 'lookup 1001']);
    expect(step('py-502-after-run', /^refund_order 1001 \(server ran/).error).toMatchObject({ name: 'MCPError', code: -32603, message: 'Server returned an error response' });
    const [refund, refundRetry, lookup, lookupRetry] = calls(run('py-502-after-run'));
    for (const x of [refund!, lookup!]) expect([x.status, x.outcome, x.serverOutcome, x.detail?.why, codes(x)]).toEqual([502, 'HTTP_ERROR', 'TOOL_SUCCESS', 'the body says: 502 Bad Gateway', ['SIDE_DIVERGENCE']]);
    expect([refundRetry!.attempt, codes(refundRetry!)]).toEqual([2, ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']]);
    expect(refundRetry!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('error');
    expect([lookupRetry!.attempt, codes(lookupRetry!)]).toEqual([2, ['RETRY_ORIGIN_AMBIGUOUS']]);
  });

  it('py-429-retry-after: the caller got MCPError -32603 twice, then the result; three attempts of one call, the 429s not seen by the server, RETRY_AFTER_IGNORED on the early retry only', () => {
    expect(observed('py-429-retry-after').steps.slice(1).map((x) => x.ok)).toEqual([false, false, true]);
    const r = calls(run('py-429-retry-after'));
    expect(r.map((a) => [a.status, a.outcome, a.attempt, !!a.notSeenByServer])).toEqual([[429, 'HTTP_ERROR', 1, true], [429, 'HTTP_ERROR', 2, true], [200, 'TOOL_SUCCESS', 3, false]]);
    expect(codes(r[1]!)).toEqual(['RETRY_AFTER_IGNORED', 'RETRY_ORIGIN_AMBIGUOUS']);
    expect(codes(r[2]!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('py-timeout-then-retry: the Python client closed the connection at 0.3 s (MCPError -32001) and the v2 tool saw its signal; NO_RESPONSE with CANCELLED in every view, the retry UNSAFE_RETRY', () => {
    expect(step('py-timeout-then-retry', /timeout 300/).error).toMatchObject({ name: 'MCPError', code: -32001 });
    expect(observed('py-timeout-then-retry').serverRan).toEqual(['slow_report 800 aborted', 'slow_report 800 done']);
    for (const view of VIEWS) {
      const [a, again] = calls(run('py-timeout-then-retry', view));
      expect([a!.status, a!.outcome, codes(a!)], view).toEqual([null, 'NO_RESPONSE', ['CANCELLED']]);
      expect([again!.attempt, again!.outcome], view).toEqual([2, 'TOOL_SUCCESS']);
      expect(codes(again!), view).toContain('UNSAFE_RETRY');
    }
    expect(message(calls(run('py-timeout-then-retry', 'server'))[0]!, 'CANCELLED')).toMatch(/the connection closed after 0\.\d\d s before the result was sent/);
  });
});

describe('sixth audit: the Python client (mcp 2.3.0, auto mode) on the fourth audit\'s hops and the abort, to the v2 server', () => {
  it('py-empty-200-json: the caller got -32700 "Failed to parse JSON response" (the server ran the tool); STREAM_INCOMPLETE with NO_FINAL_RESULT, SIDE_DIVERGENCE joined', () => {
    const st = step('py-empty-200-json', /empties/);
    expect(st.error).toMatchObject({ name: 'MCPError', code: -32700 });
    expect(st.error!.message).toMatch(/^Failed to parse JSON response/);
    expect(observed('py-empty-200-json').serverRan).toEqual(['invoice 1001', 'lookup 1001']);
    const [a, after] = calls(run('py-empty-200-json'));
    expect([a!.outcome, a!.serverOutcome, a!.detail?.why, codes(a!)]).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS', 'empty response body', ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']]);
    expect([after!.outcome, after!.findings]).toEqual(['TOOL_SUCCESS', []]);
    expect(codes(calls(run('py-empty-200-json', 'client'))[0]!)).toEqual(['NO_FINAL_RESULT']);
    expect(allCodes(run('py-empty-200-json', 'server'))).toEqual([]);
  });

  it('py-duplicate-response-sse: the caller got the first result and logged nothing; TOOL_SUCCESS and ORPHAN_RESPONSE for the second, nothing in the server\'s view', () => {
    expect(step('py-duplicate-response-sse', /twice/).summary?.content?.[0]?.text).toBe('invoice for order 1001 sent');
    for (const view of ['both', 'client'] as View[]) {
      const a = calls(run('py-duplicate-response-sse', view))[0]!;
      expect([a.outcome, codes(a)], view).toEqual(['TOOL_SUCCESS', ['ORPHAN_RESPONSE']]);
      expect(message(a, 'ORPHAN_RESPONSE'), view).toMatch(/in the same log \(there is no session\) had been answered or had ended: a second response/);
    }
    expect(allCodes(run('py-duplicate-response-sse', 'server'))).toEqual([]);
  });

  it('py-error-then-result-same-id: the caller got MCPError -32603 "upstream timeout" although the tool ran; JSONRPC_ERROR, ORPHAN_RESPONSE for the result, SIDE_DIVERGENCE joined', () => {
    expect(step('py-error-then-result-same-id', /error, then/).error).toMatchObject({ name: 'MCPError', code: -32603, message: 'upstream timeout' });
    expect(observed('py-error-then-result-same-id').serverRan[0]).toBe('invoice 1001');
    const a = calls(run('py-error-then-result-same-id'))[0]!;
    expect([a.outcome, a.serverOutcome, a.detail?.errorCode, codes(a)]).toEqual(['JSONRPC_ERROR', 'TOOL_SUCCESS', -32603, ['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']]);
    expect(calls(run('py-error-then-result-same-id', 'server'))[0]!.outcome).toBe('TOOL_SUCCESS');
  });

  it('py-batch-of-one-response: the Python caller failed (-32700) where the v2 caller took the result; INVALID_ENVELOPE naming the Python client, SIDE_DIVERGENCE joined', () => {
    expect(step('py-batch-of-one-response', /batch of one/).error).toMatchObject({ name: 'MCPError', code: -32700 });
    for (const view of ['both', 'client'] as View[]) {
      const a = calls(run('py-batch-of-one-response', view))[0]!;
      expect(a.outcome, view).toBe('INVALID_ENVELOPE');
      expect(a.detail?.why, view).toMatch(/^the response came inside a JSON array \(a batch of one\).*the client \(User-Agent "python-httpx2\/2\.13\.1": the Python SDK's HTTP client\) reads one object and fails on it/);
    }
    expect(codes(calls(run('py-batch-of-one-response'))[0]!)).toEqual(['SIDE_DIVERGENCE']);
    // the same hop to the v2 client (batch-of-one-response) stays a success: the outcome follows the client
    expect(calls(run('batch-of-one-response', 'client'))[0]!.outcome).toBe('TOOL_SUCCESS');
  });

  it('py-string-id-response: the Python caller took "3" for 3; INVALID_ENVELOPE whose why says this client takes it, the orphan without a session', () => {
    expect(step('py-string-id-response', /string/).summary?.content?.[0]?.text).toBe('order 1001: shipped');
    const a = calls(run('py-string-id-response'))[0]!;
    expect([a.outcome, a.serverOutcome, codes(a)]).toEqual(['INVALID_ENVELOPE', 'TOOL_SUCCESS', ['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']]);
    expect(a.detail?.why).toMatch(/the same value as a string, which this client \(User-Agent "python-httpx2\/2\.13\.1": the Python SDK, which reads a string of digits as the number\) takes as the answer/);
    expect(message(a, 'ORPHAN_RESPONSE')).toMatch(/matches no request sent in the same log \(there is no session\)/);
  });

  it('py-html-in-sse-after-head: the Python caller failed at once (-32000, no timeout) where the v2 caller waited 1.5 s; STREAM_INCOMPLETE, NO_FINAL_RESULT, the page quoted, no CANCELLED', () => {
    const st = step('py-html-in-sse-after-head', /502 page/);
    expect(st.error).toMatchObject({ name: 'MCPError', code: -32000, message: 'SSE stream ended without a response' });
    expect(st.ms).toBeLessThan(1000);
    for (const view of ['both', 'client'] as View[]) {
      const a = calls(run('py-html-in-sse-after-head', view))[0]!;
      expect(codes(a), view).toEqual(view === 'both' ? ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE'] : ['NO_FINAL_RESULT']);
      expect([a.outcome, a.detail?.why], view).toEqual(['STREAM_INCOMPLETE', 'SSE stream ended after 0 events without the response; the stream carried text that is no SSE field, which an SSE client ignores (an error page written into it?): "502 Bad Gateway"']);
    }
    const s = calls(run('py-html-in-sse-after-head', 'server'))[0]!;
    expect([s.outcome, s.findings]).toEqual(['TOOL_SUCCESS', []]);
  });

  it('py-abort-between-progress: the app cancelled its task after progress 2 (CancelledError); the Python client closed the stream and the v2 tool stopped; STREAM_INCOMPLETE with CANCELLED in every view, the re-call UNSAFE_RETRY', () => {
    const o = observed('py-abort-between-progress');
    expect(step('py-abort-between-progress', /task cancelled/).error).toMatchObject({ name: 'CancelledError' });
    expect(o.notes[0]).toEqual({ progressSeenBeforeAbort: [1, 2] });
    expect(o.serverRan).toEqual(['export 2026-11 stopped at step 3', 'export 2026-11 done']);
    for (const view of VIEWS) {
      const [a, again] = calls(run('py-abort-between-progress', view));
      expect([a!.outcome, codes(a!)], view).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
      expect(a!.detail?.why, view).toMatch(view === 'server' ? /^the connection closed 0\.\d\d s after the request came, before the response was sent \(on 2026-07-28 that is how a client cancels/ : /^the client closed the stream 0\.\d\d s after sending it, before any response came \(on 2026-07-28 that is the cancellation\); 2 SSE events came before that$/);
      expect([again!.call, again!.attempt, again!.outcome, codes(again!)], view).toEqual([a!.call, 2, 'TOOL_SUCCESS', ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']]);
    }
  });

  it('py-tool-errors-json: the Python caller got the same isError results and -32602 as the v2 caller; TOOL_ERROR ×3 and JSONRPC_ERROR in every view, no findings', () => {
    expect(observed('py-tool-errors-json').steps.slice(1, 4).map((x) => x.summary?.isError)).toEqual([true, true, true]);
    expect(step('py-tool-errors-json', /no_such_tool/).error).toMatchObject({ name: 'MCPError', code: -32602 });
    for (const view of VIEWS) {
      expect(calls(run('py-tool-errors-json', view)).map((a) => [a.tool, a.outcome, a.findings.length]), view).toEqual([
        ['validate_quantity', 'TOOL_ERROR', 0], ['charge_card', 'TOOL_ERROR', 0], ['sync_inventory', 'TOOL_ERROR', 0], ['no_such_tool', 'JSONRPC_ERROR', 0], ['lookup_order', 'TOOL_SUCCESS', 0],
      ]);
    }
  });
});

describe('sixth audit: a hop that loses its connections mid-stream, the server\'s view by a recording proxy (side server)', () => {
  // Before: the server's recording proxy saw its peer (the hop) close and the server's view said "the client closed the
  // stream 0.34 s after sending it ... (on 2026-07-28 that is the cancellation)" and CANCELLED "the client closed the
  // response ... often after its local timeout", although the Python client closed nothing: it got -32000 when the hop
  // cut its stream. The v2 server did take the closed connection for a cancellation (its tool stopped at step 3).
  it('py-hop-cuts-stream: the caller got -32000 (no cancellation of its own); the client\'s and joined views: NO_FINAL_RESULT, no CANCELLED (joined, SIDE_DIVERGENCE: the hop closed the server\'s connection); the server\'s: CANCELLED naming no closer', () => {
    const o = observed('py-hop-cuts-stream');
    expect(step('py-hop-cuts-stream', /cuts the stream/).error).toMatchObject({ name: 'MCPError', code: -32000, message: 'SSE stream ended without a response' });
    expect(o.notes[0]).toEqual({ progressSeenBeforeCut: [1, 2] });
    expect(o.serverRan).toEqual(['export 2026-11 stopped at step 3', 'export 2026-11 done', 'lookup 1001']);
    for (const view of ['both', 'client'] as View[]) {
      const [a, again] = calls(run('py-hop-cuts-stream', view));
      // joined, the server's connection closed while the client's stream did not: something between them closed it
      const expected = view === 'both' ? ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE'] : ['NO_FINAL_RESULT'];
      expect([a!.outcome, codes(a!), a!.detail?.why], view).toEqual(['STREAM_INCOMPLETE', expected, 'SSE stream ended (error) after 2 events without the response']);
      expect([again!.call, again!.attempt, codes(again!)], view).toEqual([a!.call, 2, ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']]);
    }
    const s = calls(run('py-hop-cuts-stream', 'server'))[0]!;
    expect([s.outcome, codes(s)]).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
    expect(s.detail?.why).toMatch(/^the connection closed 0\.\d\d s after the request came, before the response was sent \(on 2026-07-28 that is how a client cancels; the server's log cannot tell the client from something between them\); 2 SSE events went out before that$/);
    expect(message(s, 'CANCELLED')).toMatch(/^tools\/call export_report id 3: the connection closed after 0\.\d\d s before the result was sent \(on 2026-07-28 closing the stream is the cancellation; the server's log cannot tell whether the client or something between them closed it\)$/);
  });

  it('must not: a recording proxy on the client\'s side (py-abort-between-progress) or without a side (real-audit3/v2-client-close-in-flight), where the client did close, still says the client closed the stream', () => {
    expect(calls(run('py-abort-between-progress', 'client'))[0]!.detail?.why).toMatch(/^the client closed the stream 0\.\d\d s after sending it, before any response came \(on 2026-07-28 that is the cancellation\)/);
    const r = triageCli<Attempt, SessionFinding>([`${FIXTURES}real-audit3/v2-client-close-in-flight/proxy.ndjson`]);
    const slow = calls(r).find((a) => a.tool === 'slow_report')!;
    expect(slow.detail?.why).toMatch(/^the client closed the stream 0\.1\d s after sending it, before any response came \(on 2026-07-28 that is the cancellation\)/);
    expect(message(slow, 'CANCELLED')).toMatch(/the client closed the response/);
  });
});

