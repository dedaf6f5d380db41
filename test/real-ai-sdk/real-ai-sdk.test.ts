// Real traffic of the Vercel AI SDK's MCP client (@ai-sdk/mcp 2.0.99, test/fixtures/real-ai-sdk) against the SDK 1.32.2 server, and what mcp-triage says of it.
// The recordings are committed; re-recording needs the AI SDK (see test/fixtures/real-ai-sdk/README.md). These tests do not.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, recordedPairs } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-ai-sdk/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string;
  serverOutcome?: string; call: string; attempt: number; ts: string; durationMs?: number; retryOrigin?: { origin: string; how: string }; findings: Finding[];
  notSeenByServer?: boolean; sse?: { events: number; serverRequests: number }; detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; message: string }
interface Step { step: string; ok: boolean; got?: { text?: string; isError?: boolean; protocolVersion?: string }; error?: { name: string; message: string; code?: number; statusCode?: number } }
interface Observed { steps: Step[]; uncaught: { error: { message: string } }[]; unhandledRejections: unknown[] }
interface Rec { kind: string; xid: string; method?: string; requestHeaders?: Record<string, string>; send?: { method?: string; id?: unknown }; end?: string; error?: string }

const both = recordedPairs<Attempt, SessionFinding>(DIR);
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const step = (s: string, label: RegExp) => observed(s).steps.find((x) => label.test(x.step))!;
const records = (s: string, side = 'client') => readFileSync(`${DIR}${s}/${side}.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Rec);
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));
const ms = (a: Attempt) => Date.parse(a.ts);

describe('every AI SDK recording', () => {
  it('has the scenarios the README lists', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
  });

  it.each(scenarios)('%s: read whole (client and server view), analyzed without error, and listed by `sessions`', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
    const p = spawnSync(process.execPath, [BIN, 'sessions', '--format', 'json', '--client', `${DIR}${scenario}/client.ndjson`, '--server', `${DIR}${scenario}/server.ndjson`], { encoding: 'utf8' });
    expect(p.status).toBe(0);
    const sessions = (JSON.parse(p.stdout) as { sessions: { client: string }[] }).sessions;
    expect(sessions.length).toBeGreaterThan(0);
    // Every session is the AI SDK's: it names itself "ai-sdk-mcp-client" (in initialize, and in the probe's _meta).
    expect(new Set(sessions.map((s) => s.client))).toEqual(new Set(['ai-sdk-mcp-client/1.0.0']));
  });
});

describe('what the AI SDK client does on the wire (Streamable HTTP)', () => {
  it('probes with server/discover (2026-07-28) first; the 1.32.2 server refuses it with 400 and the client falls back to initialize (2025-11-25): no finding', () => {
    const r = both('baseline');
    const [probe, init] = r.attempts;
    expect(probe).toMatchObject({ method: 'server/discover', id: 0, status: 400, outcome: 'HTTP_ERROR', session: null });
    expect(init).toMatchObject({ method: 'initialize', id: 1, outcome: 'SUCCESS' });
    const sent = records('baseline').filter((x) => x.kind === 'request');
    expect(sent[0]!.requestHeaders).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
    const initReq = sent.find((x) => x.send?.method === 'initialize')!;
    expect(initReq.requestHeaders!['mcp-protocol-version']).toBe('2025-11-25');
    expect(initReq.requestHeaders!['user-agent']).toMatch(/^ai-sdk\/2\.0\.99 /);
    // the probe's 400 reaches the app only through onUncaughtError, twice
    expect(observed('baseline').uncaught.filter((u) => /HTTP 400/.test(u.error.message))).toHaveLength(2);
  });

  it('baseline: tools() (tools/list), a call through its execute and direct calls all succeed, and close() DELETEs the session: no findings', () => {
    const r = both('baseline');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome} ${a.serverOutcome}`)).toEqual(['lookup_order TOOL_SUCCESS TOOL_SUCCESS', 'send_invoice TOOL_SUCCESS TOOL_SUCCESS']);
    expect(allCodes(r)).toEqual([]);
    expect(records('baseline').filter((x) => x.kind === 'request').at(-1)).toMatchObject({ method: 'DELETE' });
  });

  it('tool-error: isError results are returned to the caller, not thrown (callTool and tools() execute alike): TOOL_ERROR, no findings', () => {
    const r = both('tool-error');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['validate_quantity TOOL_ERROR', 'validate_quantity TOOL_ERROR', 'crash TOOL_ERROR']);
    expect(observed('tool-error').steps.filter((s) => /validate_quantity|crash/.test(s.step)).map((s) => [s.ok, s.got?.isError])).toEqual([[true, true], [true, true], [true, true]]);
    expect(allCodes(r)).toEqual([]);
  });

  it('jsonrpc-error: the server\'s JSON-RPC errors (unknown prompt, unknown resource) are thrown with their code and never retried, even with maxRetries 2', () => {
    const r = both('jsonrpc-error');
    const errors = r.attempts.filter((a) => a.outcome === 'JSONRPC_ERROR');
    expect(errors.map((a) => `${a.method} ${a.detail?.errorCode}`)).toEqual(['prompts/get -32602', 'resources/read -32602']);
    expect(step('jsonrpc-error', /^getPrompt no_such_prompt/).error).toMatchObject({ name: 'MCPClientError', code: -32602 });
    // the SDK 1.32.2 McpServer answers an unknown tool and bad arguments with isError results, not JSON-RPC errors
    expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_ERROR', 'TOOL_ERROR', 'TOOL_SUCCESS']);
    expect(r.attempts.every((a) => a.attempt === 1)).toBe(true);
    expect(allCodes(r)).toEqual([]);
  });

  it('http-500-jsonrpc-body: a 500 carrying a JSON-RPC error is HTTP_ERROR with the error\'s code kept; the caller got only the JSON-RPC error and the AI SDK did not retry it', () => {
    const r = both('http-500-jsonrpc-body');
    const [failed, after] = calls(r);
    expect(failed).toMatchObject({ tool: 'send_invoice', status: 500, outcome: 'HTTP_ERROR', notSeenByServer: true, detail: { errorCode: -32603, errorMessage: 'Internal error: upstream timed out' } });
    expect(after).toMatchObject({ tool: 'lookup_order', outcome: 'TOOL_SUCCESS', attempt: 1 });
    const err = step('http-500-jsonrpc-body', /^callTool send_invoice/).error!;
    expect(err).toMatchObject({ code: -32603, message: 'Internal error: upstream timed out' });
    expect(err.statusCode).toBeUndefined();
    expect(allCodes(r)).toEqual([]);
  });

  it('http-503-app-retry: the AI SDK does not retry by default; the app\'s noted retry is linked, origin app, no warning', () => {
    const r = both('http-503-app-retry');
    const [first, again] = calls(r);
    expect(first).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true, detail: { why: 'the body says: upstream unavailable' } });
    expect(again).toMatchObject({ outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(step('http-503-app-retry', /503 from the hop/).error).toMatchObject({ statusCode: 503 });
    // the 503 came from the hop: nothing ran, no UNSAFE_RETRY for the unannotated send_invoice
    expect(allCodes(r)).toEqual([]);
  });

  it('http-503-sdk-retry: with maxRetries 2 the AI SDK retries itself, new ids, after 2 s and 4 s; nothing on the wire says who retried (unknown), and the growing delays are no RETRY_POLICY', () => {
    const r = both('http-503-sdk-retry');
    const chain = calls(r);
    expect(chain.map((a) => `${a.id} ${a.status} ${a.call}#${a.attempt}`)).toEqual([`2 503 ${chain[0]!.call}#1`, `3 503 ${chain[0]!.call}#2`, `4 200 ${chain[0]!.call}#3`]);
    const gaps = [ms(chain[1]!) - ms(chain[0]!), ms(chain[2]!) - ms(chain[1]!)];
    expect(gaps[0]).toBeGreaterThanOrEqual(1900);
    expect(gaps[0]).toBeLessThan(2600);
    expect(gaps[1]).toBeGreaterThanOrEqual(3900);
    expect(gaps[1]).toBeLessThan(4600);
    expect(chain.slice(1).map((a) => a.retryOrigin?.origin)).toEqual(['unknown', 'unknown']);
    expect(chain.slice(1).map(codes)).toEqual([['RETRY_ORIGIN_AMBIGUOUS'], ['RETRY_ORIGIN_AMBIGUOUS']]);
    expect(step('http-503-sdk-retry', /maxRetries 2/)).toMatchObject({ ok: true, got: { text: 'order 1001: shipped' } });
    // no Retry-After was sent: no RETRY_AFTER_IGNORED here
    expect(allCodes(r)).not.toContain('RETRY_AFTER_IGNORED');
  });

  it('http-429-retry-after: the AI SDK\'s retry comes after its own 2 s, not the 3 s the 429 asked for: RETRY_AFTER_IGNORED', () => {
    const r = both('http-429-retry-after');
    const [limited, retry] = calls(r);
    expect(limited).toMatchObject({ status: 429, outcome: 'HTTP_ERROR', notSeenByServer: true });
    expect(retry).toMatchObject({ outcome: 'TOOL_SUCCESS', call: limited!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(retry!.findings.find((f) => f.code === 'RETRY_AFTER_IGNORED')?.message).toMatch(/retried 2\.0\d s after HTTP 429 asked to wait 3\.00 s \(Retry-After\)/);
    expect(codes(retry!)).not.toContain('RETRY_POLICY');
  });

  it('session-expired-404: the AI SDK drops the session id on the 404 and sends its next call without one (400); the app\'s new client probes again, and that probe is no retry of the first', () => {
    const r = both('session-expired-404');
    const [, expired, sessionless, resent] = calls(r);
    expect(expired).toMatchObject({ tool: 'send_invoice', status: 404, outcome: 'HTTP_ERROR', attempt: 1 });
    expect(sessionless).toMatchObject({ tool: 'lookup_order', status: 400, outcome: 'HTTP_ERROR', session: null, detail: { errorMessage: 'Bad Request: No valid session ID provided' } });
    expect(resent).toMatchObject({ tool: 'send_invoice', outcome: 'TOOL_SUCCESS', call: expired!.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(resent!.session).not.toBe(expired!.session);
    expect(step('session-expired-404', /old session: 404/).error).toMatchObject({ statusCode: 404, message: expect.stringContaining('The MCP session expired') });
    expect(step('session-expired-404', /no session id now/).error).toMatchObject({ statusCode: 400 });
    const probes = r.attempts.filter((a) => a.method === 'server/discover');
    expect(probes.map((a) => [a.attempt, codes(a)])).toEqual([[1, []], [1, []]]);
    expect(probes[0]!.call).not.toBe(probes[1]!.call);
    expect(r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => [f.session, f.message])).toEqual([[expired!.session, expect.stringMatching(/HTTP 404 to tools\/call send_invoice id 3 that carried the session id; the client re-initialized and retried the call$/)]]);
    expect(allCodes(r).filter((c) => c !== 'SESSION_EXPIRED')).toEqual([]);
  });

  it('sse-cut-no-resume: a POST stream cut before the result is not resumed and the call hangs until the app\'s timeout, with no notifications/cancelled: STREAM_INCOMPLETE, NO_FINAL_RESULT', () => {
    const r = both('sse-cut-no-resume');
    const [cut, after] = calls(r);
    expect(cut).toMatchObject({ tool: 'slow_report', status: 200, outcome: 'STREAM_INCOMPLETE' });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT']);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(step('sse-cut-no-resume', /stream cut/).error).toMatchObject({ message: 'Request timed out after 1500ms' });
    const sent = records('sse-cut-no-resume').filter((x) => x.kind === 'request');
    expect(sent.filter((x) => x.send?.method === 'notifications/cancelled' || x.requestHeaders?.['last-event-id'])).toEqual([]);
  });

  it('sse-server-close-event-store: the server closes the POST stream after its priming event; the AI SDK never resumes a POST stream, so the stored result is lost: the why says no GET asked for it', () => {
    const r = both('sse-server-close-event-store');
    const [closed] = calls(r);
    expect(closed).toMatchObject({ tool: 'export_archive', status: 200, outcome: 'STREAM_INCOMPLETE' });
    expect(closed!.detail?.why).toMatch(/its events carried ids, yet no GET with the last of them \(Last-Event-ID\) asked for the rest$/);
    expect(codes(closed!)).toEqual(['NO_FINAL_RESULT']);
    expect(records('sse-server-close-event-store').filter((x) => x.requestHeaders?.['last-event-id'])).toEqual([]);
    expect(step('sse-server-close-event-store', /export_archive/).error).toMatchObject({ message: 'Request timed out after 2000ms' });
  });

  it('socket-destroyed: "fetch failed" is not among the errors maxRetries retries: one NO_RESPONSE attempt, no retry, no finding', () => {
    const r = both('socket-destroyed');
    const [lost, after] = calls(r);
    expect(lost).toMatchObject({ tool: 'send_invoice', status: null, outcome: 'NO_RESPONSE', notSeenByServer: true, attempt: 1 });
    expect(lost!.detail?.why).toMatch(/other side closed/);
    expect(after).toMatchObject({ tool: 'lookup_order', outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(step('socket-destroyed', /connection destroyed/).error).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect(allCodes(r)).toEqual([]);
  });

  it('timeout-abort: a request timeout and an AbortSignal only abort the fetch: the client view ends aborted, the why says the client closed the stream and did not cancel, and nothing claims a divergence', () => {
    const r = both('timeout-abort');
    const [timedOut, aborted, after] = calls(r);
    expect(timedOut).toMatchObject({ tool: 'slow_report', outcome: 'STREAM_INCOMPLETE', serverOutcome: 'STREAM_INCOMPLETE' });
    for (const a of [timedOut!, aborted!]) expect(a.detail?.why).toMatch(/^the client closed the stream 0\.3\d s after sending it, before any response came, and sent no notifications\/cancelled$/);
    // two different calls (other arguments): neither is a retry
    expect([timedOut!.attempt, aborted!.attempt, after!.attempt]).toEqual([1, 1, 1]);
    // On 2025-11-25 closing the stream is no cancellation: NO_FINAL_RESULT stays; no CANCELLED, no SIDE_DIVERGENCE.
    expect([codes(timedOut!), codes(aborted!)]).toEqual([['NO_FINAL_RESULT'], ['NO_FINAL_RESULT']]);
    const ends = records('timeout-abort').filter((x) => x.kind === 'end' && /timed out|stop/.test(x.error ?? ''));
    expect(ends.map((x) => [x.end, x.error])).toEqual([['aborted', 'Request timed out after 300ms'], ['aborted', 'user pressed stop']]);
    expect(observed('timeout-abort').steps.filter((s) => !s.ok).map((s) => s.error!.message)).toEqual(['Request timed out after 300ms', 'Request was aborted']);
  });

  it('elicitation: the server\'s elicitation/create rides the call\'s stream and the AI SDK POSTs the answer (id 0 again); roots/list, which it does not support, gets -32601 and the tool reports it', () => {
    const r = both('elicitation');
    const [approve, confirm] = calls(r);
    expect(approve).toMatchObject({ tool: 'approve_refund', outcome: 'TOOL_SUCCESS', sse: { serverRequests: 1 } });
    expect(confirm).toMatchObject({ tool: 'confirm_refund', outcome: 'TOOL_ERROR', sse: { serverRequests: 2 } });
    expect(step('elicitation', /confirm_refund/).got?.text).toMatch(/Unsupported request method: roots\/list/);
    const answers = records('elicitation').filter((x) => x.kind === 'request' && x.send && x.send.method === undefined).map((x) => x.send!.id);
    expect(answers).toEqual([0, 1, 2]);
    expect(allCodes(r)).toEqual([]);
  });
});

describe('against a 2026-07-28 server (the v2 SDK 2.4.0): the probe succeeds', () => {
  const modern = (s: string) => records(s).filter((x) => x.kind === 'request');

  it('modern-baseline: no initialize, no session, no GET stream, no DELETE; every request carries Mcp-Method (and Mcp-Name for a call) and its _meta; outcomes as the caller saw them', () => {
    const r = both('modern-baseline');
    expect(r.attempts.map((a) => `${a.method} ${a.id} ${a.session} ${a.outcome}`)).toEqual([
      'server/discover 0 null SUCCESS', 'tools/list 1 null SUCCESS', 'tools/call 2 null TOOL_SUCCESS', 'tools/call 3 null TOOL_ERROR', 'tools/call 4 null JSONRPC_ERROR',
    ]);
    expect(modern('modern-baseline').every((x) => x.method === 'POST' && x.requestHeaders!['mcp-protocol-version'] === '2026-07-28' && !('mcp-session-id' in x.requestHeaders!))).toBe(true);
    expect(modern('modern-baseline').filter((x) => x.send?.method === 'tools/call').map((x) => x.requestHeaders!['mcp-name'])).toEqual(['lookup_order', 'validate_quantity', 'no_such_tool']);
    expect(step('modern-baseline', /no_such_tool/).error).toMatchObject({ code: -32602 });
    expect(allCodes(r)).toEqual([]);
  });

  it('modern-mrtr: input_required is answered with the elicitation handler and the call sent again with a new id: a continuation, not a retry', () => {
    const r = both('modern-mrtr');
    expect(calls(r).map((a) => `${a.tool} ${a.id} ${a.outcome} ${a.call}#${a.attempt} ${a.retryOrigin?.origin ?? ''}`)).toEqual([
      `approve_refund 1 INPUT_REQUIRED ${calls(r)[0]!.call}#1 `, `approve_refund 2 TOOL_SUCCESS ${calls(r)[0]!.call}#2 none`,
      `queue_export 3 INPUT_REQUIRED ${calls(r)[2]!.call}#1 `, `queue_export 4 TOOL_SUCCESS ${calls(r)[2]!.call}#2 none`,
    ]);
    expect(step('modern-mrtr', /approve_refund/).got?.text).toBe('refund of order 1001 approved: damaged in transit');
    expect(allCodes(r)).toEqual([]);
  });

  it('modern-elicitation-undeclared: a handler without `capabilities: { elicitation: {} }` is not enough; the server refuses the call with 400 -32021, which the caller gets', () => {
    const r = both('modern-elicitation-undeclared');
    expect(calls(r)).toEqual([expect.objectContaining({ tool: 'approve_refund', status: 400, outcome: 'HTTP_ERROR', serverOutcome: 'HTTP_ERROR', detail: expect.objectContaining({ errorCode: -32021 }) })]);
    expect(step('modern-elicitation-undeclared', /approve_refund/).error).toMatchObject({ code: -32021 });
  });

  it('modern-timeout: the timeout closes the stream, which on 2026-07-28 is the cancellation: CANCELLED, no NO_FINAL_RESULT (unlike timeout-abort on 2025-11-25)', () => {
    const r = both('modern-timeout');
    const [timedOut, after] = calls(r);
    expect(timedOut).toMatchObject({ tool: 'slow_report', status: null, outcome: 'NO_RESPONSE' });
    expect(codes(timedOut!)).toEqual(['CANCELLED']);
    expect(after).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(allCodes(both('timeout-abort'))).not.toContain('CANCELLED');
  });

  it('modern-503-sdk-retry: maxRetries retries on 2026-07-28 too, with a new id and no session: linked, origin unknown', () => {
    const [first, again] = calls(both('modern-503-sdk-retry'));
    expect(first).toMatchObject({ id: 1, status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true });
    expect(again).toMatchObject({ id: 2, outcome: 'TOOL_SUCCESS', call: first!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
    expect(ms(again!) - ms(first!)).toBeGreaterThanOrEqual(1900);
    expect(codes(again!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });
});

describe('the AI SDK\'s SSE transport (type: "sse", HTTP+SSE 2024-11-05)', () => {
  it('sse-transport: no discover probe, initialize id 0, every POST answered 202 and every response on the GET stream: outcomes as the caller saw them, no findings', () => {
    const r = both('sse-transport');
    expect(r.attempts.map((a) => `${a.method} ${a.id} ${a.status} ${a.outcome}`)).toEqual([
      'initialize 0 202 SUCCESS', 'tools/list 1 202 SUCCESS', 'tools/call 2 202 TOOL_SUCCESS', 'tools/call 3 202 TOOL_ERROR', 'tools/call 4 202 TOOL_ERROR',
    ]);
    expect(allCodes(r)).toEqual([]);
  });

  it('sse-transport-stream-cut: the GET stream dies mid-call; the call waits for its timeout, the next POST gets 404; SESSION_EXPIRED names the session the endpoint event announced', () => {
    const r = both('sse-transport-stream-cut');
    const [cut, after] = calls(r);
    expect(cut).toMatchObject({ tool: 'slow_report', status: 202, outcome: 'STREAM_INCOMPLETE' });
    expect(cut!.detail?.why).toMatch(/^the SSE stream \(GET\) that was to carry the response broke 0\.\d\d s after the request/);
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT']);
    expect(after).toMatchObject({ tool: 'lookup_order', status: 404, outcome: 'HTTP_ERROR' });
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired.map((f) => f.message)).toEqual([expect.stringMatching(/HTTP 404 to tools\/call lookup_order id 2 that carried the session id; the client did not re-initialize$/)]);
    // what the app lived through: a timeout, a 404, and an unhandled rejection when it closed the client
    expect(observed('sse-transport-stream-cut').steps.slice(1).map((s) => s.error?.message)).toEqual(['Request timed out after 2000ms', 'MCP SSE Transport Error: POSTing to endpoint (HTTP 404): Session not found']);
    expect(observed('sse-transport-stream-cut').unhandledRejections).toHaveLength(1);
  });

  it('findings that must not fire: SESSION_EXPIRED, RETRY_ORIGIN_AMBIGUOUS and NO_FINAL_RESULT stay out of the recordings without their cause', () => {
    for (const s of ['baseline', 'tool-error', 'jsonrpc-error', 'sse-transport', 'elicitation', 'http-503-app-retry', 'modern-baseline', 'modern-mrtr']) {
      expect([s, allCodes(both(s))]).toEqual([s, []]);
    }
    expect(allCodes(both('http-429-retry-after'))).not.toContain('NO_FINAL_RESULT');
    expect(allCodes(both('socket-destroyed'))).not.toContain('UNSAFE_RETRY');
  });
});
