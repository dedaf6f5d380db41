// Every finding: a fixture that fires it and a near miss that must not.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, ok, post, sse, toolText, type TestInput } from './helpers/analyze.js';
import type { FindingCode } from '../src/findings/types.js';

/** A valid initialize result (the SDK clients refuse one without capabilities or serverInfo). */
const INIT_RESULT = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1.0.0' } };

const S = 'sess-f';
const good = (id: number) => ok(id, toolText('ok'));
const toolsList = (t: number, tools: unknown[]) => post({ t, id: 100, method: 'tools/list', session: S, status: 200, body: ok(100, { tools }) });

async function codes(inputs: TestInput[], options = {}): Promise<FindingCode[]> {
  const r = await analyzeInputs(inputs, options);
  return [...r.attempts.flatMap((a) => a.findings.map((f) => f.code as FindingCode)), ...r.findings.map((f) => f.code)];
}
const one = (lines: unknown[]): TestInput[] => [{ side: 'client', lines }];

describe('findings fire on their fixture and not on the near miss', () => {
  it('NO_FINAL_RESULT: 200 SSE with no response; not when a resumption delivers it', async () => {
    const cut = post({ t: 0, id: 1, session: S, status: 200, ct: 'text/event-stream', body: 'id: e1\ndata:\n\n' });
    expect(await codes(one([cut]))).toEqual(['NO_FINAL_RESULT']);
    const resumed = { v: 1, kind: 'exchange', ts: at(1000), method: 'GET', requestHeaders: { 'mcp-session-id': S, 'last-event-id': 'e1' }, status: 200, responseHeaders: { 'content-type': 'text/event-stream' }, recvText: sse({ id: 'e2', data: JSON.parse(good(1)) }) };
    expect(await codes(one([cut, resumed]))).toEqual([]);
  });

  it('SIDE_DIVERGENCE: server sent a result the client never got; not when both agree', async () => {
    const server = [post({ t: 5, id: 1, session: S, status: 200, ct: 'text/event-stream', body: sse({ data: JSON.parse(good(1)) }) })];
    expect(await codes([{ side: 'client', lines: [post({ t: 0, id: 1, session: S, status: 200, ct: 'text/event-stream', body: '', end: 'aborted' })] }, { side: 'server', lines: server }])).toContain('SIDE_DIVERGENCE');
    expect(await codes([{ side: 'client', lines: [post({ t: 0, id: 1, session: S, status: 200, ct: 'text/event-stream', body: sse({ data: JSON.parse(good(1)) }) })] }, { side: 'server', lines: server }])).toEqual([]);
  });

  it('SIDE_DIVERGENCE: a 200 turned into 503 between them', async () => {
    const c = await codes([{ side: 'client', lines: [post({ t: 0, id: 1, session: S, status: 503, body: '' })] }, { side: 'server', lines: [post({ t: 5, id: 1, session: S, status: 200, body: good(1) })] }]);
    expect(c).toContain('SIDE_DIVERGENCE');
  });

  it('SIDE_DIVERGENCE: not when the client gave up before any head and the server sent no result; still when its connection failed', async () => {
    // The server's log has a 200 head it set but never sent (the tool was still running), and no result.
    const server = [post({ t: 5, id: 1, status: 200, ct: 'text/event-stream', body: '', end: 'aborted' })];
    const client = (end: 'aborted' | 'timeout' | 'error') => ({ side: 'client' as const, lines: [post({ t: 0, id: 1, status: null, body: undefined, end, error: end === 'error' ? 'fetch failed' : 'This operation was aborted' })] });
    expect(await codes([client('aborted'), { side: 'server', lines: server }])).not.toContain('SIDE_DIVERGENCE');
    expect(await codes([client('timeout'), { side: 'server', lines: server }])).not.toContain('SIDE_DIVERGENCE');
    expect(await codes([client('error'), { side: 'server', lines: server }])).toContain('SIDE_DIVERGENCE');
    // A result the server did send still counts, however the client ended.
    const answered = [post({ t: 5, id: 1, status: 200, ct: 'text/event-stream', body: sse({ data: JSON.parse(good(1)) }) })];
    expect(await codes([client('aborted'), { side: 'server', lines: answered }])).toContain('SIDE_DIVERGENCE');
  });

  it('OUTCOME_MISMATCH: the claim says success, the wire says JSON-RPC error; not when they agree', async () => {
    const wire = post({ t: 0, id: 4, session: S, status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad' } }) });
    const claim = (outcome: string) => ({ ts: at(100), session: S, method: 'tools/call', postCount: 1, httpStatuses: [200], jsonrpc: { id: 4, errorCode: -32602 }, outcome, retryOrigin: 'none' });
    expect(await codes(one([wire, claim('TOOL_SUCCESS')]))).toContain('OUTCOME_MISMATCH');
    expect(await codes(one([wire, claim('JSONRPC_ERROR')]))).toEqual([]);
  });

  it('LOCAL_ERROR: the claim carries -32001 that no response had; not when the wire carried it', async () => {
    const cut = post({ t: 0, id: 6, session: S, status: 200, ct: 'text/event-stream', body: '' });
    const claim = { ts: at(60_000), session: S, method: 'tools/call', jsonrpc: { id: 6, errorCode: -32001 }, outcome: 'JSONRPC_ERROR', retryOrigin: 'none' };
    const c1 = await codes(one([cut, claim]));
    expect(c1).toContain('LOCAL_ERROR');
    const notFound = post({ t: 0, id: 6, session: S, status: 404, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }) });
    expect(await codes(one([notFound, { ...claim, outcome: 'HTTP_ERROR' }]))).not.toContain('LOCAL_ERROR');
  });

  it('RETRY_ORIGIN_AMBIGUOUS: a repeat nobody claims; not when the client log says the app retried', async () => {
    const lines = [post({ t: 0, id: 1, status: 503, body: '' }), post({ t: 500, id: 2, status: 200, body: good(2) })];
    expect(await codes(one(lines))).toContain('RETRY_ORIGIN_AMBIGUOUS');
    const claim = { ts: at(600), method: 'tools/call', postCount: 2, httpStatuses: [503, 200], jsonrpc: { id: 2, errorCode: null }, outcome: 'TOOL_SUCCESS', retryOrigin: 'app' };
    expect(await codes(one([...lines, claim]))).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

  it('RETRY_ORIGIN_AMBIGUOUS: not for the same id re-sent after 404 by a client that re-initialized itself; still when a new client reuses the number', async () => {
    // The Go SDK on 404: initialize again with id "reinitialize-1" (its numbering goes on), then the same request again.
    const reinit = (initId: string | number) => [
      post({ t: 0, id: 0, method: 'initialize', status: 200, headers: { 'mcp-session-id': 'old' }, body: ok(0, { protocolVersion: '2025-11-25' }) }),
      post({ t: 100, id: 3, session: 'old', status: 404, ct: 'text/plain; charset=utf-8', body: 'session not found\n' }),
      post({ t: 200, id: initId, method: 'initialize', status: 200, headers: { 'mcp-session-id': 'new' }, body: ok(initId, { protocolVersion: '2025-11-25' }) }),
      post({ t: 300, id: 3, session: 'new', status: 200, body: good(3) }),
    ];
    const go = await analyzeInputs(one(reinit('reinitialize-1')));
    const retry = go.attempts.find((a) => a.id === 3 && a.status === 200)!;
    expect(retry).toMatchObject({ attempt: 2, retryOrigin: { origin: 'sdk' } });
    expect(retry.retryOrigin!.how).toMatch(/by the client library, which re-initialized it \(initialize id reinitialize-1\)/);
    expect(retry.findings.map((f) => f.code)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
    // rmcp re-sends its saved initialize under its old id 0, then the old request: id 3 with no id 1 or 2 before it.
    const rust = await analyzeInputs(one(reinit(0)));
    expect(rust.attempts.find((a) => a.id === 3 && a.status === 200)!.retryOrigin).toMatchObject({ origin: 'sdk' });
    // mcp-remote re-initializes with a string id of its own, "mcp-remote-reinit-1", then re-sends the desktop client's id.
    const bridge = await analyzeInputs(one(reinit('mcp-remote-reinit-1')));
    const resent = bridge.attempts.find((a) => a.id === 3 && a.status === 200)!;
    expect(resent.retryOrigin).toMatchObject({ origin: 'sdk' });
    expect(resent.findings.map((f) => f.code)).toEqual([]);
    // A new client starts again at 0, lists tools (id 1, 2) and reaches id 3 again: nothing says who sent it.
    const fresh = await analyzeInputs(one([...reinit(0).slice(0, 3), post({ t: 220, id: 1, method: 'tools/list', session: 'new', status: 200, body: ok(1, { tools: [] }) }), post({ t: 240, id: 2, method: 'ping', session: 'new', status: 200, body: ok(2, {}) }), reinit(0)[3]!]));
    const again = fresh.attempts.find((a) => a.id === 3 && a.status === 200)!;
    expect(again.retryOrigin).toMatchObject({ origin: 'unknown' });
    expect(again.retryOrigin!.how).toMatch(/ids started again/);
    expect(again.findings.map((f) => f.code)).toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

  it('RETRY_ORIGIN_AMBIGUOUS: a claimed postCount shorter than the POSTs seen', async () => {
    const lines = [post({ t: 0, id: 1, status: 503, body: '' }), post({ t: 500, id: 2, status: 200, body: good(2) })];
    const claim = { ts: at(600), method: 'tools/call', postCount: 1, httpStatuses: [200], jsonrpc: { id: 2 }, outcome: 'TOOL_SUCCESS', retryOrigin: 'app' };
    expect(await codes(one([...lines, claim]))).toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

  it('UNSAFE_RETRY: an unannotated tool retried after a cut stream; not a read-only tool', async () => {
    const lines = (tool: string) => [
      toolsList(0, [{ name: 'charge', inputSchema: {} }, { name: 'lookup', inputSchema: {}, annotations: { readOnlyHint: true } }]),
      post({ t: 100, id: 1, session: S, tool, status: 200, ct: 'text/event-stream', body: '' }),
      post({ t: 5000, id: 2, session: S, tool, status: 200, body: good(2) }),
    ];
    expect(await codes(one(lines('charge')))).toContain('UNSAFE_RETRY');
    expect(await codes(one(lines('lookup')))).not.toContain('UNSAFE_RETRY');
  });

  it('UNSAFE_RETRY: --idempotent declares a tool safe; a 429 proves nothing ran', async () => {
    const lines = [post({ t: 100, id: 1, tool: 'charge', status: 200, ct: 'text/event-stream', body: '' }), post({ t: 5000, id: 2, tool: 'charge', status: 200, body: good(2) })];
    expect(await codes(one(lines))).toContain('UNSAFE_RETRY');
    expect(await codes(one(lines), { idempotent: ['charge'] })).not.toContain('UNSAFE_RETRY');
    const r429 = [post({ t: 100, id: 1, tool: 'charge', status: 429, body: '' }), post({ t: 5000, id: 2, tool: 'charge', status: 200, body: good(2) })];
    expect(await codes(one(r429))).not.toContain('UNSAFE_RETRY');
  });

  it('UNSAFE_RETRY is an error when the server view proves the first attempt ran', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [post({ t: 0, id: 1, session: S, tool: 'charge', status: 200, ct: 'text/event-stream', body: '', end: 'aborted' }), post({ t: 5000, id: 2, session: S, tool: 'charge', status: 200, body: good(2) })] },
      { side: 'server', lines: [post({ t: 3, id: 1, session: S, tool: 'charge', status: 200, ct: 'text/event-stream', body: sse({ data: JSON.parse(good(1)) }) }), post({ t: 5003, id: 2, session: S, tool: 'charge', status: 200, body: good(2) })] },
    ]);
    const f = r.attempts.find((a) => a.id === 2)!.findings.find((x) => x.code === 'UNSAFE_RETRY')!;
    expect(f.severity).toBe('error');
    expect(f.message).toMatch(/server view shows/);
  });

  it('RETRY_AFTER_IGNORED: retried before Retry-After passed; not when it waited', async () => {
    const first = post({ t: 0, id: 1, status: 429, headers: { 'retry-after': '2' }, body: '', durationMs: 10 });
    expect(await codes(one([first, post({ t: 500, id: 2, status: 200, body: good(2) })]))).toContain('RETRY_AFTER_IGNORED');
    expect(await codes(one([first, post({ t: 2100, id: 2, status: 200, body: good(2) })]))).not.toContain('RETRY_AFTER_IGNORED');
  });

  it('RETRY_AFTER_IGNORED reads an HTTP date', async () => {
    const first = post({ t: 0, id: 1, status: 503, headers: { 'retry-after': new Date(Date.parse(at(0)) + 5000).toUTCString() }, body: '' });
    expect(await codes(one([first, post({ t: 1000, id: 2, status: 200, body: good(2) })]))).toContain('RETRY_AFTER_IGNORED');
  });

  it('RETRY_POLICY: a third retry, and one sooner than 200 ms; not a patient second retry', async () => {
    const storm = [0, 300, 700, 1500].map((t, i) => post({ t, id: i + 1, status: i < 3 ? 503 : 200, body: i < 3 ? '' : good(i + 1) }));
    expect((await codes(one(storm))).filter((c) => c === 'RETRY_POLICY')).toHaveLength(1);
    expect(await codes(one([post({ t: 0, id: 1, status: 503, body: '' }), post({ t: 50, id: 2, status: 200, body: good(2) })]))).toContain('RETRY_POLICY');
    expect(await codes(one([post({ t: 0, id: 1, status: 503, body: '' }), post({ t: 300, id: 2, status: 503, body: '' }), post({ t: 1000, id: 3, status: 200, body: good(3) })]))).not.toContain('RETRY_POLICY');
  });

  it('RETRY_POLICY judges delays only after failures that call for a backoff: 429, 408, 5xx, no response, not a corrected 4xx', async () => {
    const quick = (status: number | null, extra: object = {}) => one([post({ t: 0, id: 1, status, body: '', ...extra }), post({ t: 30, id: 2, status: 200, body: good(2) })]);
    for (const status of [429, 408, 500, 503, null]) expect(await codes(quick(status)), `after ${status}`).toContain('RETRY_POLICY');
    // A re-send with credentials after 401, after a 403 or another refusal: the delay is no backoff and is not judged.
    for (const status of [401, 403, 400, 404, 406]) expect(await codes(quick(status)), `after ${status}`).not.toContain('RETRY_POLICY');
    // The count is judged whatever the status: four 401s in a row are still too many retries.
    const storm = [0, 10, 20, 30].map((t, i) => post({ t, id: i + 1, status: 401, body: '' }));
    expect((await codes(one(storm))).filter((c) => c === 'RETRY_POLICY')).toHaveLength(1);
  });

  it('ID_REUSED: an id reused while the first is open; not after it completed', async () => {
    const open = [post({ t: 0, id: 2, session: S, status: 200, body: good(2), durationMs: 400, args: { q: 'a' } }), post({ t: 100, id: 2, session: S, status: 200, body: good(2), args: { q: 'b' } })];
    expect(await codes(one(open))).toContain('ID_REUSED');
    const later = [post({ t: 0, id: 2, session: S, status: 200, body: good(2), durationMs: 50, args: { q: 'a' } }), post({ t: 100, id: 2, session: S, status: 200, body: good(2), args: { q: 'b' } })];
    expect(await codes(one(later))).not.toContain('ID_REUSED');
  });

  it('ID_REUSED: an MRTR follow-up that reuses the id; a continuation with a new id is fine and is not a retry', async () => {
    const first = post({ t: 0, id: 1, tool: 'approve', args: { n: 1 }, status: 200, body: ok(1, { resultType: 'input_required', requestState: 'st' }) });
    const follow = (id: number) => post({ t: 2000, id, send: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'approve', arguments: { n: 1 }, inputResponses: { a: { action: 'accept' } }, requestState: 'st' } }, status: 200, body: good(id) });
    expect(await codes(one([first, follow(1)]))).toContain('ID_REUSED');
    const r = await analyzeInputs(one([first, follow(2)]));
    expect(r.attempts.flatMap((a) => a.findings)).toEqual([]);
    expect(r.attempts[1]).toMatchObject({ call: r.attempts[0]!.call, attempt: 2, retryOrigin: { origin: 'none' } });
  });

  it('MRTR: two chains of the same tool and arguments in flight are told apart by the requestState each follow-up echoes', async () => {
    const ask = (t: number, id: number, state: string) => post({ t, id, tool: 'refund', args: { order: 1001 }, status: 200, body: ok(id, { resultType: 'input_required', inputRequests: { ok: { method: 'elicitation/create', params: {} } }, requestState: state }) });
    const answer = (t: number, id: number, state: string) => post({ t, id, send: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'refund', arguments: { order: 1001 }, inputResponses: { ok: { action: 'accept' } }, requestState: state } }, status: 200, body: good(id) });
    // Chain A (ids 1, 3) minted "rs-a", chain B (ids 2, 4) minted "rs-b"; B's input_required came last, yet A's
    // follow-up echoes "rs-a" and belongs to A.
    const r = await analyzeInputs(one([ask(0, 1, 'rs-a'), ask(10, 2, 'rs-b'), answer(2000, 3, 'rs-a'), answer(2100, 4, 'rs-b')]));
    const byId = new Map(r.attempts.map((a) => [a.id, a]));
    expect([byId.get(3)!.call, byId.get(3)!.attempt, byId.get(3)!.continuation]).toEqual([byId.get(1)!.call, 2, true]);
    expect([byId.get(4)!.call, byId.get(4)!.attempt, byId.get(4)!.continuation]).toEqual([byId.get(2)!.call, 2, true]);
    expect(byId.get(1)!.call).not.toBe(byId.get(2)!.call);
    expect(r.summary).toMatchObject({ calls: 2, retries: 0 });
    expect(r.attempts.flatMap((a) => a.findings)).toEqual([]);
    // A follow-up that echoes a state no result minted (its input_required was not logged) joins the latest waiting
    // call of that tool and arguments, as before: it is still a continuation, not a new call.
    const unknown = await analyzeInputs(one([ask(0, 1, 'rs-a'), answer(2000, 3, 'rs-zzz')]));
    expect(unknown.attempts.map((a) => [a.call, a.attempt, a.continuation ?? false])).toEqual([['c1', 1, false], ['c1', 2, true]]);
    // A real retry (a failed attempt repeated) still counts as one, and is no continuation.
    const retried = await analyzeInputs(one([post({ t: 0, id: 1, status: 503, body: '' }), post({ t: 1000, id: 2, status: 200, body: good(2) })]));
    expect(retried.summary.retries).toBe(1);
    expect(retried.attempts[1]!.continuation).toBeUndefined();
  });

  it('ORPHAN_RESPONSE: a response id no request had; not the error body of an HTTP rejection, whatever its id', async () => {
    expect(await codes(one([post({ t: 0, id: 4, status: 200, body: good(99) })]))).toContain('ORPHAN_RESPONSE');
    expect(await codes(one([post({ t: 0, id: 4, status: 400, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request' } }) })]))).not.toContain('ORPHAN_RESPONSE');
    // The Python SDK's placeholder id on every HTTP rejection (400 missing session, 404 session not found, 406, 415...).
    const python = (status: number, message: string) => post({ t: 0, id: 4, status, body: JSON.stringify({ jsonrpc: '2.0', id: 'server-error', error: { code: -32600, message } }) });
    expect(await codes(one([python(400, 'Bad Request: Missing session ID')]))).not.toContain('ORPHAN_RESPONSE');
    expect(await codes(one([python(404, 'Session not found')]))).not.toContain('ORPHAN_RESPONSE');
    // The same placeholder on a 200 is a response to no request: still an orphan.
    expect(await codes(one([python(200, 'Session not found')]))).toContain('ORPHAN_RESPONSE');
  });

  it('ORPHAN_RESPONSE: one result for two sessions\' requests with the same id, open at once, for other tools; not for the same request, nor one after the other, nor different results', async () => {
    const result = ok(2, toolText('order 2002: shipped'));
    const call = (t: number, session: string, tool: string, args: Record<string, unknown>, durationMs: number, body = result) =>
      post({ t, id: 2, session, tool, args, status: 200, body, durationMs });
    const crossed = await analyzeInputs(one([call(0, 'A', 'slow_report', { steps: 3 }, 45), call(30, 'B', 'lookup_order', { orderId: '2002' }, 22)]));
    const found = crossed.attempts.flatMap((a) => a.findings);
    expect(found.map((f) => f.code)).toEqual(['ORPHAN_RESPONSE']);
    expect(found[0]!.message).toMatch(/^tools\/call lookup_order id 2: its result is identical to the one tools\/call slow_report id 2 .*names "2002", which only this request carried: that call took this one's answer/);
    expect(await codes(one([call(0, 'A', 'lookup_order', { orderId: '2002' }, 45), call(30, 'B', 'lookup_order', { orderId: '2002' }, 22)]))).toEqual([]);
    expect(await codes(one([call(0, 'A', 'slow_report', { steps: 3 }, 45), call(500, 'B', 'lookup_order', { orderId: '2002' }, 22)]))).toEqual([]);
    expect(await codes(one([call(0, 'A', 'slow_report', { steps: 3 }, 45, ok(2, toolText('report of 3 steps'))), call(30, 'B', 'lookup_order', { orderId: '2002' }, 22)]))).toEqual([]);
  });

  it('ORPHAN_RESPONSE (crossed answer): not for concurrent healthy sessions whose different calls rightly got the same generic result', async () => {
    const call = (t: number, session: string, tool: string, args: Record<string, unknown>, durationMs: number, text: string) =>
      post({ t, id: 1, session, tool, args, status: 200, body: ok(1, toolText(text)), durationMs });
    // four clients, each numbering from 0, write a setting at once: "ok" for each (test/fixtures/real-healthy)
    expect(await codes(one(['A', 'B', 'C', 'D'].map((c, i) => call(i, c, 'update_setting', { key: 'theme', value: `agent-${c}` }, 10 + i, 'ok'))))).toEqual([]);
    // two tools that both answer "ok"
    expect(await codes(one([call(0, 'A', 'record_event', { name: 'login-a' }, 12, 'ok'), call(2, 'B', 'update_setting', { key: 'lang', value: 'de' }, 9, 'ok')]))).toEqual([]);
    // a result that names what both asked for (the same order, another label) says nothing of whose it was
    expect(await codes(one([call(0, 'A', 'lookup_order', { orderId: '1001', label: 'alpha' }, 20, 'order 1001: shipped'), call(5, 'B', 'lookup_order', { orderId: '1001', label: 'beta' }, 15, 'order 1001: shipped')]))).toEqual([]);
    // a number that only appears inside a longer one is not named: 100 in "order 1001"
    expect(await codes(one([call(0, 'A', 'slow_report', { stepMs: 100 }, 20, 'order 1001: shipped'), call(5, 'B', 'lookup_order', { orderId: '1001' }, 15, 'order 1001: shipped')]))).toEqual(['ORPHAN_RESPONSE']);
    expect(await codes(one([call(0, 'A', 'slow_report', { stepMs: 100 }, 20, 'order 1001: shipped'), call(5, 'B', 'lookup_order', { orderId: '2002' }, 15, 'order 1001: shipped')]))).toEqual([]);
  });

  it('CALL_NEVER_SENT: initialize fails and no tools/call follows; not when the client recovers', async () => {
    const init = (t: number, status: number, sid?: string) => post({ t, id: 0, method: 'initialize', client: 'probe', status, headers: sid ? { 'mcp-session-id': sid } : {}, body: status === 200 ? ok(0, INIT_RESULT) : '' });
    expect(await codes(one([init(0, 503)]))).toEqual(['CALL_NEVER_SENT']);
    const recovered = [init(0, 503), init(1000, 200, 'S2'), post({ t: 2000, id: 1, client: 'probe', session: 'S2', status: 200, body: good(1) })];
    expect(await codes(one(recovered))).not.toContain('CALL_NEVER_SENT');
  });

  it('SESSION_EXPIRED: 404 to a request with a session id, and says the client re-initialized and retried', async () => {
    const lines = [
      post({ t: 0, id: 5, session: S, tool: 'lookup', status: 404, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }) }),
      post({ t: 300, id: 0, method: 'initialize', status: 200, headers: { 'mcp-session-id': 'S-new' }, body: ok(0, INIT_RESULT) }),
      post({ t: 600, id: 1, session: 'S-new', tool: 'lookup', status: 200, body: good(1) }),
    ];
    const r = await analyzeInputs(one(lines));
    const f = r.findings.find((x) => x.code === 'SESSION_EXPIRED')!;
    expect(f.message).toMatch(/re-initialized and retried/);
    expect(r.attempts.find((a) => a.session === 'S-new' && a.method === 'tools/call')!.attempt).toBe(2);
    expect(await codes(one([post({ t: 0, id: 5, status: 404, body: '' })]))).not.toContain('SESSION_EXPIRED');
    // Codex re-initializes in the very millisecond its 404 ended: that is after it too.
    const atOnce = [{ ...lines[0]!, durationMs: 5 }, post({ t: 5, id: 0, method: 'initialize', status: 200, headers: { 'mcp-session-id': 'S-new' }, body: ok(0, INIT_RESULT) }), lines[2]!];
    const same = (await analyzeInputs(one(atOnce))).findings.find((x) => x.code === 'SESSION_EXPIRED')!;
    expect(same.message).toMatch(/the client re-initialized and retried the call/);
  });

  it('SESSION_EXPIRED: a call retried only in the expired session (404 again), the re-initialization later without it, is not "re-initialized and retried"', async () => {
    // As LangChain over HTTP+SSE after a restart: the app invokes the tool twice (404, 404); close() then reconnects.
    const expired = (t: number, id: number) => post({ t, id, session: S, tool: 'lookup', status: 404, body: 'Session not found' });
    const init = (t: number, sid: string) => post({ t, id: 0, method: 'initialize', status: 200, headers: { 'mcp-session-id': sid }, body: ok(0, INIT_RESULT) });
    const r = await analyzeInputs(one([init(-100, S), expired(0, 5), expired(10, 6), init(300, 'S-new')]));
    expect(r.findings.filter((x) => x.code === 'SESSION_EXPIRED').map((f) => f.message.replace(/^.*?the session id, /, ''))).toEqual([
      'over 0.01 s (tools/call lookup id 5, re-sent as id 6 into the expired session); then the client re-initialized but retried the call only in the expired session, before that',
    ]);
  });

  it('CANCELLED: notifications/cancelled for an open request; not for a different id', async () => {
    const call = post({ t: 0, id: 3, session: S, status: 200, ct: 'text/event-stream', body: '', end: 'aborted' });
    const cancel = (rid: number) => post({ t: 30_000, session: S, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: rid } }, status: 202, body: '' });
    expect(await codes(one([call, cancel(3)]))).toContain('CANCELLED');
    const r = await analyzeInputs(one([call, cancel(4)]));
    expect(r.attempts[0]!.findings.map((f) => f.code)).not.toContain('CANCELLED');
  });

  it('CANCELLED: for a request whose HTTP error had answered it seconds before (rmcp waits out a 503 with an id-null error body); not when the two crossed', async () => {
    const refused = post({ t: 0, id: 2, session: S, status: 503, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Service Unavailable' } }) });
    const cancel = (t: number) => post({ t, session: S, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'MCP request cancelled by caller' } }, status: 202, body: '' });
    const late = await analyzeInputs(one([refused, cancel(3000)]));
    expect(late.findings.map((f) => [f.code, f.severity])).toEqual([['CANCELLED', 'info']]);
    expect(late.findings[0]!.message).toMatch(/notifications\/cancelled for id 2 3\.00 s after its response \(HTTP 503\) had ended: the client had not taken that as the request's answer/);
    expect(late.attempts[0]).toMatchObject({ status: 503, outcome: 'HTTP_ERROR' });
    expect((await analyzeInputs(one([refused, cancel(20)]))).findings).toEqual([]);
    // A server's view of the same only shows a cancellation that crossed what it had sent: nothing to say there.
    expect((await analyzeInputs([{ side: 'server', lines: [refused, cancel(3000)] }])).findings).toEqual([]);
  });

  it('CANCELLED: a late cancellation of a request its response had answered says it cancelled nothing (opencode: the SDK\'s abort listener outlives the call)', async () => {
    const answered = post({ t: 0, id: 2, session: S, tool: 'lookup_order', status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'order A-1: shipped' }] } }) });
    const cancel = post({ t: 800, session: S, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'AbortError: The operation was aborted.' } }, status: 202, body: '' });
    const r = await analyzeInputs(one([answered, cancel]));
    expect(r.findings.map((f) => [f.code, f.severity])).toEqual([['CANCELLED', 'info']]);
    expect(r.findings[0]!.message).toMatch(/after its response \(HTTP 200\) had ended: that response carried the request's answer, so the cancellation came after the fact and cancelled nothing/);
    expect(r.findings[0]!.message).not.toMatch(/had not taken/);
    expect(r.attempts[0]).toMatchObject({ outcome: 'TOOL_SUCCESS' });
  });

  it('CANCELLED: a late cancellation after an HTTP error without a JSON-RPC body, or a failed connection, says the request had failed there (not that the client waited on)', async () => {
    const cancel = (t: number) => post({ t, session: S, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'AbortError: The operation was aborted.' } }, status: 202, body: '' });
    const refused = post({ t: 0, id: 2, session: S, tool: 'lookup_order', status: 503, ct: 'text/plain', body: 'upstream unavailable' });
    const r = await analyzeInputs(one([refused, cancel(800)]));
    expect(r.findings.map((f) => f.code)).toEqual(['CANCELLED']);
    expect(r.findings[0]!.message).toMatch(/after its response \(HTTP 503\) had ended: the request had failed there, with no answer left to wait for, so the cancellation came after the fact/);
    // a JSON body that is no JSON-RPC message (no id) is no answer the client could have mistaken either
    const rateLimited = post({ t: 0, id: 2, session: S, tool: 'lookup_order', status: 429, body: '{"error":"rate limited"}' });
    expect((await analyzeInputs(one([rateLimited, cancel(800)]))).findings[0]!.message).toMatch(/the request had failed there/);
    const idNull = post({ t: 0, id: 2, session: S, status: 503, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Service Unavailable' } }) });
    expect((await analyzeInputs(one([idNull, cancel(800)]))).findings[0]!.message).toMatch(/had not taken that as the request's answer/);
  });

  it('CANCELLED: on 2026-07-28 the client closing the response before the result; not on 2025 versions, nor after the result', async () => {
    const closed = (version: string, body?: string) => post({ t: 0, id: 3, requestHeaders: { 'mcp-protocol-version': version }, status: body === undefined ? null : 200, ct: 'text/event-stream', body, end: 'aborted', durationMs: 60_000 });
    const r = await analyzeInputs(one([closed('2026-07-28')]));
    expect(r.attempts[0]!.findings.map((f) => [f.code, f.severity])).toEqual([['CANCELLED', 'warning']]);
    expect(r.attempts[0]!.findings[0]!.message).toMatch(/closed the response after 60\.0 s before the result/);
    expect(await codes(one([closed('2025-11-25')]))).not.toContain('CANCELLED'); // an HTTP disconnect is no cancellation there
    expect(await codes(one([closed('2026-07-28', sse({ data: JSON.parse(good(3)) }))]))).not.toContain('CANCELLED');
  });

  it('CANCELLED: a tasks/cancel the server accepted, in the call of the task; not one it refused', async () => {
    const created = post({ t: 0, id: 1, session: S, tool: 'index', send: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'index', arguments: {}, task: { ttl: 60000 } } }, status: 200, body: ok(1, { task: { taskId: 't-9', status: 'working' } }) });
    const cancel = (body: string) => post({ t: 500, id: 2, session: S, method: 'tasks/cancel', params: { taskId: 't-9' }, status: 200, body });
    const r = await analyzeInputs(one([created, cancel(ok(2, { taskId: 't-9', status: 'cancelled' }))]));
    expect(r.attempts.map((a) => [a.method, a.outcome, a.call, a.continuation ?? false, a.findings.map((f) => f.code)])).toEqual([
      ['tools/call', 'TASK_CREATED', 'c1', false, []],
      ['tasks/cancel', 'SUCCESS', 'c1', true, ['CANCELLED']],
    ]);
    const refused = await analyzeInputs(one([created, cancel(JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'task already completed' } }))]));
    expect(refused.attempts[1]!.findings.map((f) => f.code)).not.toContain('CANCELLED');
  });

  it('DUPLICATE_RECORD: a duplicated export row is counted once and is not a retry; a real repeat is', async () => {
    const row = post({ t: 0, id: 1, session: S, status: 503, body: '' });
    const r = await analyzeInputs(one([row, row]));
    expect(r.attempts).toHaveLength(1);
    expect(r.findings.map((f) => f.code)).toEqual(['DUPLICATE_RECORD']);
    const repeat = await analyzeInputs(one([row, post({ t: 700, id: 2, session: S, status: 200, body: good(2) })]));
    expect(repeat.findings.map((f) => f.code)).not.toContain('DUPLICATE_RECORD');
    expect(repeat.attempts).toHaveLength(2);
  });

  it('every finding carries evidence: file and line', async () => {
    const r = await analyzeInputs(one([post({ t: 0, id: 1, status: 503, body: '' }), post({ t: 500, id: 2, status: 200, body: good(2) })]));
    const f = r.attempts[1]!.findings[0]!;
    expect(f.code).toBe('RETRY_ORIGIN_AMBIGUOUS');
    expect(r.attempts[1]!.sources[0]).toMatchObject({ line: 2 });
  });
});
