// Seventh audit (test/fixtures/real-audit7): the Python SDK's MCPServer (mcp 2.3.0) behind the fourth and fifth audits' hops, with the SDK 1.32.2 client (sdk-*) and the v2 client 2.4.0 (v2-*), and what mcp-triage must say of each against what the caller got and the server's tools ran (observed.json). The recordings are committed; node test/real-audit7/record.mjs re-records them (needs dist/ and /work/py-venv).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordingRunner, triageCli, type CliRun, type RecordingView as View } from '../helpers/triage-cli.js';
import { toolCalls as calls } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit7/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; findings: Finding[]; detail?: { why?: string; errorCode?: number; errorMessage?: string }; notSeenByServer?: boolean; protocolVersion?: string;
}
interface SessionFinding { type: 'finding'; code: string; severity: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok: boolean; ms: number; summary?: { content?: { text: string }[]; isError?: boolean }; error?: { name: string; message: string; code?: number | string; status?: number } }
interface Observed { era?: string; steps: Step[]; onerror: { message: string }[]; notes: Record<string, number[]>[]; serverRan: string[] }

const SDK = [
  'empty-200-json', 'duplicate-response-sse', 'error-then-result-same-id', 'batch-of-one-response', 'string-id-response', 'html-in-sse-after-head',
  '502-after-run', 'http-429-retry-after', 'abort-between-progress', 'session-expired-restart', 'response-on-get-stream', 'session-header-stripped',
  'tool-mcperror-retry',
].map((s) => `sdk-${s}`);
const V2 = [
  'empty-200-json', 'batch-of-one-response', 'string-id-response', 'html-in-sse-after-head', '502-after-run', 'abort-between-progress',
  'sse-duplicate-response', 'sse-error-then-result-same-id', 'sse-html-after-head', 'tool-mcperror-retry',
].map((s) => `v2-${s}`);
const VIEWS: View[] = ['both', 'client', 'server'];
const run: (s: string, view?: View) => Run = recordingRunner<Attempt, SessionFinding>(DIR);
const codes = (a: Attempt) => a.findings.map((f) => f.code).sort();
const allCodes = (r: Run) => [...r.attempts.flatMap((a) => a.findings.map((f) => f.code)), ...r.findings.map((f) => f.code)].sort();
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const step = (s: string, label: RegExp) => observed(s).steps.find((x) => label.test(x.step))!;
const message = (a: Attempt, code: string) => a.findings.find((f) => f.code === code)?.message;
const text = (st: Step) => st.summary?.content?.[0]?.text;

describe('seventh audit: every recording', () => {
  it.each([...SDK, ...V2])('%s: read whole in each view, nothing unusable, the protocol version the client used', (s) => {
    const v2 = s.startsWith('v2-');
    // the v2 client negotiated 2026-07-28 with the Python server (server/discover, no sessions); SDK 1.32.2 2025-11-25
    if (s !== 'sdk-session-header-stripped') expect(observed(s).era).toBe(v2 ? '2026-07-28' : '2025-11-25');
    for (const view of VIEWS) {
      const r = run(s, view);
      expect(r.code === 0 || r.code === 1, view).toBe(true);
      expect(r.unusable, view).toBe(0);
      for (const a of r.attempts) expect(a.protocolVersion, view).toBe(v2 ? '2026-07-28' : '2025-11-25');
      if (v2) for (const a of r.attempts) expect(a.session, view).toBeNull();
      if (s !== 'sdk-session-header-stripped') expect(calls(r).length, view).toBeGreaterThan(0);
    }
  });

  it.each([...SDK, ...V2])('%s: the terminal report (the default format) is written whole', (s) => {
    const p = spawnSync(process.execPath, [BIN, '--client', `${DIR}${s}/client.ndjson`, '--server', `${DIR}${s}/server.ndjson`], { encoding: 'utf8', timeout: 30_000 });
    expect(p.status === 0 || p.status === 1).toBe(true);
    expect(p.stderr).toBe('');
    expect(p.stdout).toMatch(/^mcp-triage [\d.]+: \d+ attempts? in \d+ calls?/);
  });
});

describe('seventh audit: the fourth audit\'s hops on the Python server\'s answers', () => {
  it.each(['sdk-empty-200-json', 'v2-empty-200-json'])('%s: the caller got "Unexpected end of JSON input" (the tool ran); STREAM_INCOMPLETE, NO_FINAL_RESULT; joined, SIDE_DIVERGENCE', (s) => {
    expect(step(s, /empties/).error).toMatchObject({ name: 'SyntaxError', message: 'Unexpected end of JSON input' });
    expect(observed(s).serverRan).toEqual(['invoice 1001', 'lookup 1002']);
    const [a, after] = calls(run(s));
    expect([a!.outcome, a!.serverOutcome, a!.detail?.why, codes(a!)]).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS', 'empty response body', ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']]);
    expect(message(a!, 'SIDE_DIVERGENCE')).toMatch(/the server sent a final result the client never got$/);
    expect([after!.outcome, after!.findings]).toEqual(['TOOL_SUCCESS', []]);
    expect(allCodes(run(s, 'server'))).toEqual([]);
  });

  it('sdk-duplicate-response-sse: the caller got the first result (onerror: unknown message ID); TOOL_SUCCESS and ORPHAN_RESPONSE, from the CRLF events of the Python server', () => {
    expect(text(step('sdk-duplicate-response-sse', /twice/))).toBe('invoice for order 1001 sent');
    expect(observed('sdk-duplicate-response-sse').onerror[0]!.message).toMatch(/^Received a response for an unknown message ID/);
    expect(readFileSync(`${DIR}sdk-duplicate-response-sse/client.ndjson`, 'utf8')).toContain('invoice for order 1001 FAILED');
    for (const view of ['both', 'client'] as View[]) {
      const a = calls(run('sdk-duplicate-response-sse', view))[0]!;
      expect([a.outcome, codes(a)], view).toEqual(['TOOL_SUCCESS', ['ORPHAN_RESPONSE']]);
      expect(message(a, 'ORPHAN_RESPONSE'), view).toMatch(/a second response, which a client drops as unknown$/);
    }
    expect(allCodes(run('sdk-duplicate-response-sse', 'server'))).toEqual([]);
  });

  it('sdk-error-then-result-same-id: the caller got McpError -32603; JSONRPC_ERROR, ORPHAN_RESPONSE for the result, SIDE_DIVERGENCE joined', () => {
    expect(step('sdk-error-then-result-same-id', /error, then/).error).toMatchObject({ name: 'McpError', code: -32603 });
    const a = calls(run('sdk-error-then-result-same-id'))[0]!;
    expect([a.outcome, a.serverOutcome, a.detail?.errorCode, codes(a)]).toEqual(['JSONRPC_ERROR', 'TOOL_SUCCESS', -32603, ['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']]);
  });

  it.each(['sdk-batch-of-one-response', 'v2-batch-of-one-response'])('%s: the TypeScript client took the result from the array; TOOL_SUCCESS without findings, the why names the batch of one', (s) => {
    expect(text(step(s, /batch of one/))).toBe('order 1001: shipped');
    const a = calls(run(s))[0]!;
    expect([a.outcome, a.serverOutcome, a.findings]).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS', []]);
    expect(a.detail?.why).toMatch(/^the response came inside a JSON array \(a batch of one\).*the TypeScript SDK takes it, the Python SDK fails on it/);
    expect(calls(run(s, 'server'))[0]!.detail?.why).toBeUndefined();
  });

  it.each(['sdk-string-id-response', 'v2-string-id-response'])('%s: the caller got the result; INVALID_ENVELOPE and ORPHAN_RESPONSE that say the TypeScript SDK takes such an id', (s) => {
    expect(text(step(s, /string/))).toBe('order 1001: shipped');
    const a = calls(run(s))[0]!;
    expect([a.outcome, a.serverOutcome, codes(a)]).toEqual(['INVALID_ENVELOPE', 'TOOL_SUCCESS', ['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']]);
    expect(a.detail?.why).toMatch(/the same value as a string, which a client that matches ids by Number\(\) \(the TypeScript SDK, 1\.x and v2\)/);
    // a log with sessions (1.32.2) says "its session"; 2026-07-28 has none
    expect(message(a, 'ORPHAN_RESPONSE')).toMatch(s.startsWith('sdk-') ? /matches no request sent in its session/ : /in the same log \(there is no session\)/);
  });

  it('sdk-html-in-sse-after-head: the caller waited for its 1.5 s timeout, then cancelled; STREAM_INCOMPLETE, NO_FINAL_RESULT, the page quoted, CANCELLED', () => {
    const st = step('sdk-html-in-sse-after-head', /502 page/);
    expect(st.error).toMatchObject({ name: 'McpError', code: -32001 });
    expect(st.ms).toBeGreaterThanOrEqual(1500);
    for (const view of ['both', 'client'] as View[]) {
      const a = calls(run('sdk-html-in-sse-after-head', view))[0]!;
      expect([a.outcome, codes(a)], view).toEqual(['STREAM_INCOMPLETE', ['CANCELLED', 'NO_FINAL_RESULT']]);
      expect(a.detail?.why, view).toMatch(/an error page written into it\?\): "502 Bad Gateway"$/);
    }
  });

  it('v2-html-in-sse-after-head: on 2026-07-28 the Python server answered application/json, so the page is the JSON body: MALFORMED_JSON quoting it, the caller a SyntaxError', () => {
    expect(step('v2-html-in-sse-after-head', /502 page/).error).toMatchObject({ name: 'SyntaxError' });
    const a = calls(run('v2-html-in-sse-after-head'))[0]!;
    expect([a.outcome, a.serverOutcome, codes(a)]).toEqual(['MALFORMED_JSON', 'TOOL_SUCCESS', ['SIDE_DIVERGENCE']]);
    expect(a.detail?.why).toMatch(/; it says: "502 Bad Gateway"$/);
  });
});

describe('seventh audit: a proxy recording the server\'s side cannot tell who closed the connection', () => {
  // Before: the recording proxy in front of the Python server (side server) saw the hop close its connection 0.01 s
  // in, and the server's log alone said "the client closed the stream 0.01 s after sending it, before any response
  // came, and sent no notifications/cancelled", while the client waited 1.5 s for its timeout and then sent
  // notifications/cancelled (CANCELLED in the same attempt said so). On 2026-07-28 it said "the client closed".
  it('sdk-html-in-sse-after-head, the server\'s log alone: the connection closed, naming no closer, not "the client closed the stream"', () => {
    const a = calls(run('sdk-html-in-sse-after-head', 'server'))[0]!;
    expect([a.outcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', ['CANCELLED', 'NO_FINAL_RESULT']]);
    expect(a.detail?.why).toMatch(/^the connection closed 0\.01 s after the request came, before the response was sent \(the server's log cannot tell the client from something between them\); the client's notifications\/cancelled came 1\.5\d s after the close$/);
    expect(message(a, 'CANCELLED')).toMatch(/the client sent notifications\/cancelled for it after 1\.5\d s/);
  });

  it('v2-abort-between-progress, the server\'s log alone: the connection closed (the cancellation on 2026-07-28), who closed it unknown', () => {
    const a = calls(run('v2-abort-between-progress', 'server'))[0]!;
    expect([a.outcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
    expect(a.detail?.why).toMatch(/^the connection closed 0\.\d\d s after the request came, before the response was sent \(on 2026-07-28 that is how a client cancels; the server's log cannot tell the client from something between them\); 2 SSE events went out before that$/);
    expect(message(a, 'CANCELLED')).toMatch(/the server's log cannot tell whether the client or something between them closed it\)$/);
  });

  it('must not change: the client\'s own log (and the joined view) still says the client closed the stream', () => {
    for (const view of ['both', 'client'] as View[]) {
      const a = calls(run('v2-abort-between-progress', view))[0]!;
      expect(a.detail?.why, view).toMatch(/^the client closed the stream 0\.\d\d s after sending it, before any response came \(on 2026-07-28 that is the cancellation\)/);
    }
  });
});

describe('seventh audit: the fifth audit\'s hops', () => {
  it.each(['sdk-502-after-run', 'v2-502-after-run'])('%s: the server ran each tool twice; SIDE_DIVERGENCE on each 502, UNSAFE_RETRY on the destructive refund only', (s) => {
    expect(observed(s).serverRan).toEqual(['refund 1001', 'refund 1001', 'lookup 1001', 'lookup 1001']);
    expect(step(s, /^refund_order 1001 \(server ran/).error).toMatchObject(s.startsWith('v2') ? { name: 'SdkHttpError', status: 502 } : { name: 'StreamableHTTPError', code: 502 });
    const [refund, refundRetry, lookup, lookupRetry] = calls(run(s));
    for (const x of [refund!, lookup!]) expect([x.status, x.outcome, x.serverOutcome, x.detail?.why, codes(x)]).toEqual([502, 'HTTP_ERROR', 'TOOL_SUCCESS', 'the body says: 502 Bad Gateway', ['SIDE_DIVERGENCE']]);
    expect([refundRetry!.call, refundRetry!.attempt, codes(refundRetry!)]).toEqual([refund!.call, 2, ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']]);
    expect(message(refundRetry!, 'UNSAFE_RETRY')).toMatch(/the server view shows the earlier attempt ran to its result \(TOOL_SUCCESS\)/);
    expect([lookupRetry!.call, lookupRetry!.attempt, codes(lookupRetry!)]).toEqual([lookup!.call, 2, ['RETRY_ORIGIN_AMBIGUOUS']]);
    // the client's log alone: a warning that the refund may have run; the server's alone: four calls, nothing linked
    expect(calls(run(s, 'client'))[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('warning');
    expect(calls(run(s, 'server')).map((a) => [a.outcome, a.attempt, a.findings.length])).toEqual([['TOOL_SUCCESS', 1, 0], ['TOOL_SUCCESS', 1, 0], ['TOOL_SUCCESS', 1, 0], ['TOOL_SUCCESS', 1, 0]]);
  });

  it('sdk-http-429-retry-after: two 429s the server never saw, then the result; three attempts of one call, RETRY_AFTER_IGNORED on the early retry only', () => {
    expect(observed('sdk-http-429-retry-after').serverRan).toEqual(['invoice 1001']);
    expect(observed('sdk-http-429-retry-after').steps.slice(1).map((x) => x.ok)).toEqual([false, false, true]);
    const r = calls(run('sdk-http-429-retry-after'));
    expect(r.map((a) => [a.status, a.outcome, a.attempt, !!a.notSeenByServer])).toEqual([[429, 'HTTP_ERROR', 1, true], [429, 'HTTP_ERROR', 2, true], [200, 'TOOL_SUCCESS', 3, false]]);
    expect(codes(r[1]!)).toEqual(['RETRY_AFTER_IGNORED', 'RETRY_ORIGIN_AMBIGUOUS']);
    expect(codes(r[2]!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('sdk-session-expired-restart: the Python server restarted; 404 "Session not found" (-32600), the app re-initialized and re-called; SESSION_EXPIRED in every view, no UNSAFE_RETRY', () => {
    expect(observed('sdk-session-expired-restart').serverRan).toEqual(['invoice 1001', 'invoice 1002']);
    expect(step('sdk-session-expired-restart', /old session/).error).toMatchObject({ code: 404 });
    for (const view of VIEWS) {
      const r = run('sdk-session-expired-restart', view);
      const [, expired, again] = calls(r);
      expect([expired!.status, expired!.outcome, expired!.detail?.errorCode, expired!.detail?.errorMessage], view).toEqual([404, 'HTTP_ERROR', -32600, 'Session not found']);
      expect([again!.call, again!.attempt, again!.outcome, codes(again!)], view).toEqual([expired!.call, 2, 'TOOL_SUCCESS', ['RETRY_ORIGIN_AMBIGUOUS']]);
      expect(r.findings.map((f) => [f.code, /the client re-initialized and retried the call$/.test(f.message)]), view).toEqual([['SESSION_EXPIRED', true]]);
    }
  });

  it('sdk-response-on-get-stream: the hop moved the response to the GET stream; the SDK took it; TOOL_SUCCESS, the why says it came on the GET stream and (joined) that the server wrote it on the POST\'s', () => {
    expect(text(step('sdk-response-on-get-stream', /GET stream/))).toBe('invoice for order 1001 sent');
    const a = calls(run('sdk-response-on-get-stream'))[0]!;
    expect([a.outcome, a.findings]).toEqual(['TOOL_SUCCESS', []]);
    expect(a.detail?.why).toMatch(/^the response came on the session's standalone GET stream .*the server's log has it on the POST's own stream: something between them moved it$/);
    expect(calls(run('sdk-response-on-get-stream', 'server'))[0]!.detail?.why).toBeUndefined();
  });
});

describe('seventh audit: the session id a hop dropped, on the Python server', () => {
  // Before: the Python server answers the sessionless notifications/initialized 400 "Bad Request: Missing session ID"
  // and sets a new Mcp-Session-Id on that 400; the exchange took that session as its own, and the report said
  // SESSION_EXPIRED "HTTP 400 to a POST ..., which carried the session id ...: the server no longer knows the session"
  // in every view, though the POST carried none: the client never had the session id.
  it('sdk-session-header-stripped: connect() threw 400 twice; NOTIFICATION_REFUSED ×2 that say the POST carried no Mcp-Session-Id, no SESSION_EXPIRED', () => {
    const o = observed('sdk-session-header-stripped');
    expect(o.steps.map((x) => [x.step, x.ok, x.error?.code])).toEqual([['connect 1', false, 400], ['connect 2', false, 400]]);
    expect(o.serverRan).toEqual([]);
    // the wire: the notification carried no session id, the 400 set one
    const recs = readFileSync(`${DIR}sdk-session-header-stripped/client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; xid: string; status?: number; send?: { method?: string }; requestHeaders?: Record<string, string>; responseHeaders?: Record<string, string> });
    const note = recs.find((r) => r.send?.method === 'notifications/initialized')!;
    expect(note.requestHeaders?.['mcp-session-id']).toBeUndefined();
    expect(recs.find((r) => r.kind === 'response' && r.xid === note.xid)).toMatchObject({ status: 400, responseHeaders: { 'mcp-session-id': expect.any(String) } });
    for (const view of ['both', 'client'] as View[]) {
      const r = run('sdk-session-header-stripped', view);
      expect(allCodes(r), view).toEqual(['NOTIFICATION_REFUSED', 'NOTIFICATION_REFUSED']);
      for (const f of r.findings) expect(f.message, view).toMatch(/^traffic without a session: HTTP 400 to its notifications\/initialized, a POST with no request in it \(saying "Bad Request: Missing session ID"\): it was not accepted, so the session never became usable .*; the POST carried no Mcp-Session-Id: the client did not have the session id the server asks for/);
    }
    // joined, each initialize names the session id the server set and the client's view lacks
    for (const a of run('sdk-session-header-stripped').attempts) expect(a.detail?.why).toMatch(/^the server's response set Mcp-Session-Id "[0-9a-f]{32}", which the client's view of it lacks: something between them removed the header/);
    // the server's log alone: each refused POST came just after an initialize response that set a session id no request
    // carried back, which is all that log can tell (not whether the id reached the client)
    const server = run('sdk-session-header-stripped', 'server');
    expect(allCodes(server)).toEqual(['NOTIFICATION_REFUSED', 'NOTIFICATION_REFUSED']);
    server.findings.forEach((f, i) => {
      expect(f.message).toMatch(/^traffic without a session: HTTP 400 to its notifications\/initialized, a POST with no request in it \(saying "Bad Request: Missing session ID"\): it was not accepted .*; the POST carried no Mcp-Session-Id, though the server had set one \([0-9a-f]{32}\) in its initialize response \d+ ms before and no request had carried it back since: the id was lost on its way to the client .* or the client did not send it; the server's log cannot tell which, the client's can; /);
      expect(f.message).toContain(`had set one (${server.attempts[i]!.session})`);
    });
  });

  it('must not fire: the same 400 to a notification that carried the session id is still SESSION_EXPIRED', () => {
    // the recording with the session id put on the notification's request, as a client that had it would send it
    const sid = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    const lines = readFileSync(`${DIR}sdk-session-header-stripped/client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const xids = new Set(lines.filter((r) => (r.send as { method?: string } | undefined)?.method === 'notifications/initialized').map((r) => r.xid));
    const changed = lines.map((r) => {
      if (!xids.has(r.xid)) return r;
      const out = { ...r, session: sid };
      if (r.kind === 'request') out.requestHeaders = { ...(r.requestHeaders as object), 'mcp-session-id': sid };
      if (r.kind === 'response') out.responseHeaders = { ...(r.responseHeaders as object), 'mcp-session-id': sid };
      return out;
    });
    const file = join(mkdtempSync(join(tmpdir(), 'audit7-')), 'client.ndjson');
    writeFileSync(file, changed.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const r = triageCli<Attempt, SessionFinding>(['--client', file]);
    expect(allCodes(r)).toContain('SESSION_EXPIRED');
    expect(allCodes(r)).not.toContain('NOTIFICATION_REFUSED');
    expect(r.findings.find((f) => f.code === 'SESSION_EXPIRED')!.message).toMatch(/which carried the session id, saying "Bad Request: Missing session ID": the server no longer knows the session but answered 400 where the spec asks 404/);
  });
});

describe('seventh audit: an abort between progress notifications', () => {
  it('sdk-abort-between-progress: the caller aborted after 2 progress notifications; the Python server cancelled the tool and answered -32800; JSONRPC_ERROR with CANCELLED ("it stopped the request")', () => {
    const o = observed('sdk-abort-between-progress');
    expect(step('sdk-abort-between-progress', /aborted/).error).toMatchObject({ name: 'McpError', code: -32001, message: 'MCP error -32001: Error: user pressed stop' });
    expect(o.serverRan).toEqual(['export 2026-11 cancelled at step 3', 'export 2026-11 done']);
    expect(o.notes[0]).toEqual({ progressSeenBeforeAbort: [1, 2] });
    for (const view of VIEWS) {
      const [a, again] = calls(run('sdk-abort-between-progress', view));
      expect([a!.outcome, a!.detail?.errorCode, codes(a!)], view).toEqual(['JSONRPC_ERROR', -32800, ['CANCELLED']]);
      expect(message(a!, 'CANCELLED'), view).toMatch(/with the reason "Error: user pressed stop" .*the server then answered it with -32800 \(Request cancelled\) \d+\.\d\d s after that: it stopped the request without a result, but what the tool had done by then \(or shields from cancellation, as a commit\) is done$/);
      expect([again!.call, again!.attempt, again!.outcome], view).toEqual([a!.call, 2, 'TOOL_SUCCESS']);
    }
    expect(codes(calls(run('sdk-abort-between-progress'))[1]!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
  });

  // Before: the client's log alone gave the re-call no UNSAFE_RETRY: a JSON-RPC error there proved no run, although
  // two progress notifications for the request had come (the tool ran to step 3). The same abort against the
  // TypeScript server (real-audit5, which sends no -32800) had its warning.
  it('sdk-abort-between-progress, the client\'s log alone: the re-call is UNSAFE_RETRY (warning), the progress that came being the evidence', () => {
    const again = calls(run('sdk-abort-between-progress', 'client'))[1]!;
    expect(codes(again)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
    const f = again.findings.find((x) => x.code === 'UNSAFE_RETRY')!;
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/retried after JSONRPC_ERROR \(HTTP 200\), which the client had cancelled itself: it has no annotations.*; the earlier attempt was running: 2 progress notifications came for it before it ended$/);
  });

  it('a -32603 without progress in the client\'s log alone (real-audit5-py/py-server-mcperror-retry) is a possible run since audit 44 (an internal error: the server failed while handling it), a warning; so is the -32602 the tool raised there, with valid arguments', () => {
    const d = `${FIXTURES}real-audit5-py/py-server-mcperror-retry/`;
    const r = triageCli<Attempt, SessionFinding>(['--client', `${d}client.ndjson`]);
    expect(calls(r).map((a) => [a.tool, a.outcome, codes(a)])).toEqual([
      ['refund_order', 'JSONRPC_ERROR', []], ['refund_order', 'TOOL_SUCCESS', ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']],
      ['reserve_stock', 'JSONRPC_ERROR', []], ['reserve_stock', 'TOOL_SUCCESS', ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']], ['lookup_order', 'TOOL_SUCCESS', []],
    ]);
    expect(calls(r)[3]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('warning');
    expect(calls(r)[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('warning');
  });

  it('v2-abort-between-progress: v2 closed the stream (the 2026-07-28 cancellation) and the Python server cancelled the tool at step 3; STREAM_INCOMPLETE with CANCELLED in every view, the re-call UNSAFE_RETRY', () => {
    expect(step('v2-abort-between-progress', /aborted/).error).toMatchObject({ name: 'SdkError', message: 'Error: user pressed stop' });
    expect(observed('v2-abort-between-progress').serverRan).toEqual(['export 2026-11 cancelled at step 3', 'export 2026-11 done']);
    for (const view of VIEWS) {
      const [a, again] = calls(run('v2-abort-between-progress', view));
      expect([a!.outcome, codes(a!)], view).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
      expect([again!.call, again!.attempt, codes(again!)], view).toEqual([a!.call, 2, ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']]);
    }
    expect(message(calls(run('v2-abort-between-progress', 'client'))[1]!, 'UNSAFE_RETRY')).toMatch(/the earlier attempt was running: 2 progress notifications came for it before it ended$/);
  });
});

describe('seventh audit: the SSE hops on 2026-07-28 (the Python server answers SSE once the tool sends progress)', () => {
  it('v2-sse-duplicate-response: the caller got the first result after 6 progress notifications; TOOL_SUCCESS, ORPHAN_RESPONSE "there is no session"', () => {
    expect(text(step('v2-sse-duplicate-response', /twice/))).toBe('report for 2026-11 exported');
    expect(observed('v2-sse-duplicate-response').notes[0]).toEqual({ progressSeen: [1, 2, 3, 4, 5, 6] });
    expect(observed('v2-sse-duplicate-response').onerror.map((e) => e.message.slice(0, 45))).toEqual(['Received a response for an unknown message ID']);
    for (const view of ['both', 'client'] as View[]) {
      const a = calls(run('v2-sse-duplicate-response', view))[0]!;
      expect([a.outcome, codes(a)], view).toEqual(['TOOL_SUCCESS', ['ORPHAN_RESPONSE']]);
      expect(message(a, 'ORPHAN_RESPONSE'), view).toMatch(/in the same log \(there is no session\) had been answered or had ended: a second response/);
    }
    expect(allCodes(run('v2-sse-duplicate-response', 'server'))).toEqual([]);
  });

  it('v2-sse-error-then-result-same-id: the caller got ProtocolError -32603 (the progress after it went to onerror); JSONRPC_ERROR, ORPHAN_RESPONSE; joined, SIDE_DIVERGENCE', () => {
    expect(step('v2-sse-error-then-result-same-id', /error, then/).error).toMatchObject({ name: 'ProtocolError', code: -32603, message: 'upstream timeout' });
    expect(observed('v2-sse-error-then-result-same-id').notes[0]).toEqual({ progressSeen: [] });
    const a = calls(run('v2-sse-error-then-result-same-id'))[0]!;
    expect([a.outcome, a.serverOutcome, a.detail?.errorCode, codes(a)]).toEqual(['JSONRPC_ERROR', 'TOOL_SUCCESS', -32603, ['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']]);
    // The six steps after the error (which ended the request for the client: it reported each as an unknown token) are
    // PROGRESS_UNMATCHED in the client's log; in the server's, they came before its result.
    expect(run('v2-sse-error-then-result-same-id').findings.map((f) => f.message)).toEqual([expect.stringMatching(/^traffic without a session: notifications\/progress for token 1 \(6 notifications\) came in the same millisecond as, and after, the response to tools\/call id 1 \(export_report/)]);
    expect(allCodes(run('v2-sse-error-then-result-same-id', 'server'))).not.toContain('PROGRESS_UNMATCHED');
  });

  // Before: joined, the call was STREAM_INCOMPLETE on both sides with NO_FINAL_RESULT and nothing more, although the
  // server's log shows its connection closed 0.16 s in (which the Python server took for the cancellation: the tool
  // stopped) while the client's stream ended with the page and the client waited for its timeout: the server's
  // CANCELLED of its own log was dropped, and nothing said something between them closed the server's side.
  it('v2-sse-html-after-head: the hop closed the server\'s connection, which the Python server took for the cancellation (the tool stopped); the caller timed out; joined, SIDE_DIVERGENCE says something between them closed it', () => {
    const st = step('v2-sse-html-after-head', /502 page/);
    expect(st.error).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT' });
    expect(st.ms).toBeGreaterThanOrEqual(1500);
    expect(observed('v2-sse-html-after-head').serverRan[0]).toMatch(/^export 2026-11 cancelled at step \d$/);
    const a = calls(run('v2-sse-html-after-head'))[0]!;
    expect([a.outcome, a.serverOutcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', 'STREAM_INCOMPLETE', ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']]);
    expect(a.detail?.why).toMatch(/an error page written into it\?\): "502 Bad Gateway"$/);
    expect(message(a, 'SIDE_DIVERGENCE')).toBe("tools/call export_report id 1: the server's connection closed before it sent the response, which on 2026-07-28 it takes for the client's cancellation (its SDK aborts the request's signal; whether the tool's work stopped, the log cannot show), but the client did not close its stream (it ended without the response): something between them closed it; both sides logged HTTP 200 STREAM_INCOMPLETE");
    // each log alone: the client's has the page, the server's the closed connection read as a cancellation
    expect(codes(calls(run('v2-sse-html-after-head', 'client'))[0]!)).toEqual(['NO_FINAL_RESULT']);
    const s = calls(run('v2-sse-html-after-head', 'server'))[0]!;
    expect([s.outcome, codes(s)]).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
    expect(message(s, 'CANCELLED')).toMatch(/the server's log cannot tell whether the client or something between them closed it\)$/);
  });

  it('must not fire: the client closed the stream itself (v2-abort-between-progress), or the protocol is 2025-11-25, where a closed connection is no cancellation (sdk-html-in-sse-after-head)', () => {
    expect(codes(calls(run('v2-abort-between-progress'))[0]!)).toEqual(['CANCELLED']);
    expect(codes(calls(run('sdk-html-in-sse-after-head'))[0]!)).toEqual(['CANCELLED', 'NO_FINAL_RESULT']);
  });
});

describe('seventh audit: a -32602 the tool raised, then the app calls again', () => {
  // reserve_stock holds the stock, then raises MCPError(-32602) once; the app calls again and the stock is held twice.
  // The Python server sends that error in HTTP 200 on 2025-11-25 and in HTTP 400 on 2026-07-28. Before: the 400 read as
  // a refusal (nothing ran), so the retry had no UNSAFE_RETRY in any view; and the client's log alone never gave one
  // after a JSON-RPC error, even one the tool raised.
  const ran = (s: string) => observed(s).serverRan.filter((x) => x.startsWith('reserve '));
  const reserve = (r: Run) => calls(r).filter((a) => a.tool === 'reserve_stock');

  it.each(['sdk-tool-mcperror-retry', 'v2-tool-mcperror-retry'])('%s: the retry is an UNSAFE_RETRY in every view: an error with the server\'s view, a warning from the client\'s alone', (s) => {
    const status = s.startsWith('v2-') ? 400 : 200;
    expect(step(s, /raises -32602/).error).toMatchObject({ code: -32602, message: expect.stringContaining('warehouse rejected the reservation of 1001') });
    expect(text(step(s, /app retry/))).toBe('stock for order 1001 reserved');
    // the tool ran for the refused first call too (the number is refused before it), then for both calls of 1001
    expect(ran(s)).toEqual(['reserve 1001', 'reserve 1001']);
    for (const view of VIEWS) {
      const [bad, first, again] = reserve(run(s, view));
      // the number for the string argument: the server's own check, an isError result, no tool run
      expect([bad!.outcome, bad!.detail?.why], view).toEqual(['TOOL_ERROR', undefined]);
      expect([first!.status, first!.outcome, first!.detail?.errorCode], view).toEqual([status, status === 400 ? 'HTTP_ERROR' : 'JSONRPC_ERROR', -32602]);
      expect(first!.detail?.why, view).toMatch(/^the arguments keep the tool's inputSchema \(tools\/list\): no check of the request refused them, the error came once the tool ran/);
      if (status === 400) expect(first!.detail?.why, view).toMatch(/the server sent it in HTTP 400 \(the Python SDK's server does so on 2026-07-28\)$/);
      expect([again!.call, again!.attempt, codes(again!)], view).toEqual([first!.call, 2, ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']]);
      const unsafe = again!.findings.find((f) => f.code === 'UNSAFE_RETRY')!;
      expect(unsafe.severity, view).toBe(view === 'client' ? 'warning' : 'error');
      expect(unsafe.message, view).toMatch(view === 'client'
        ? /the earlier attempt's -32602 came from the tool as it ran \(its arguments keep the tool's inputSchema: no check of the request refused them\)$/
        : /the server view shows the earlier attempt reached the server, and its -32602 came from the tool as it ran/);
    }
  });

  /** The recording with its lines rewritten (the must-not cases are the same traffic with one thing changed). */
  const edited = (s: string, side: 'client' | 'server', edit: (text: string) => string) => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-audit7-'));
    const file = join(dir, `${side}.ndjson`);
    writeFileSync(file, edit(readFileSync(`${DIR}${s}/${side}.ndjson`, 'utf8')));
    return triageCli<Attempt, SessionFinding>([`--${side}`, file]);
  };

  it('must not: the same 400 with a message that refuses the arguments, or with arguments that break the schema, is a refusal: no UNSAFE_RETRY', () => {
    const refused = edited('v2-tool-mcperror-retry', 'client', (t) => t.replaceAll('warehouse rejected the reservation of 1001 after holding it', 'Invalid arguments for tool reserve_stock'));
    const [, first, again] = reserve(refused);
    expect([first!.status, first!.detail?.errorMessage, first!.detail?.why]).toEqual([400, 'Invalid arguments for tool reserve_stock', undefined]);
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    // orderId 1001 sent as a number in both calls (the refused first call keeps its own number 5)
    const broken = edited('v2-tool-mcperror-retry', 'client', (t) => t.replaceAll('"orderId":"1001"', '"orderId":1001'));
    const [, first2, again2] = reserve(broken);
    expect([first2!.status, first2!.detail?.why]).toEqual([400, undefined]);
    expect(codes(again2!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });
});
