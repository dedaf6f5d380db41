// Clients of a stateless server seen through one log without sessions or connections (a shared sessionless scope): whose cancellation, whose retry.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, ok, post, toolText } from '../helpers/analyze.js';

const TS_REASON = 'McpError: MCP error -32001: Request timed out';
const init = (t: number, name: string, session?: string) => post({
  t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1.0.0' } }, status: 200, durationMs: 5,
  body: ok(0, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'py', version: '2.3.0' } }),
  ...(session ? { session, headers: { 'mcp-session-id': session } } : {}),
});
const cancel = (t: number, id: number, reason: string, session?: string) => ({
  v: 1, kind: 'exchange', ts: at(t), method: 'POST', requestHeaders: { 'content-type': 'application/json', ...(session ? { 'mcp-session-id': session } : {}) },
  send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }, status: 202, recvText: '', end: 'complete', durationMs: 2,
});
const call = (t: number, id: number, key: string, o: { status?: number; durationMs?: number; session?: string } = {}) => post({
  t, id, tool: 'send_email', args: { key }, status: o.status ?? 200, durationMs: o.durationMs ?? 50, ...(o.session ? { session: o.session } : {}),
  body: (o.status ?? 200) === 200 ? ok(id, toolText('sent')) : 'Service Unavailable', ...((o.status ?? 200) !== 200 ? { ct: 'text/plain' } : {}),
});
const cancelledOn = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.findings.some((f) => f.code === 'CANCELLED')).map((a) => `${a.id} ${a.outcome}`);

describe('a notifications/cancelled in a sessionless scope two clients share', () => {
  it("goes to the request with that id still in flight, not to another client's that had ended (a 503), and raises no after-the-fact finding", async () => {
    // Client a's id 3 is held 2.2 s (past its 1.5 s timeout); client b's id 3 got a 503 meanwhile; a cancels at 1.5 s.
    const lines = [init(0, 'a'), init(10, 'b'), call(1000, 3, 'a-1', { durationMs: 2200 }), call(1100, 3, 'b-1', { status: 503, durationMs: 10 }), cancel(2500, 3, TS_REASON)];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    expect(cancelledOn(r)).toEqual(['3 STREAM_INCOMPLETE']);
    expect(r.findings.filter((f) => f.code === 'CANCELLED')).toEqual([]);
  });

  it('takes, of two in flight with that id, the one open longest, and a second cancellation the other', async () => {
    const lines = [init(0, 'a'), init(10, 'b'), call(1000, 4, 'a-1', { durationMs: 2200 }), call(1100, 4, 'b-1', { durationMs: 2200 }), cancel(2500, 4, TS_REASON), cancel(2600, 4, TS_REASON)];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    const byKey = Object.fromEntries(r.attempts.filter((a) => a.method === 'tools/call').map((a) => [a.ts, a.findings.find((f) => f.code === 'CANCELLED')?.message.match(/after (\d\.\d\d) s/)?.[1]]));
    expect(byKey).toEqual({ [at(1000)]: '1.50', [at(1100)]: '1.50' });
  });

  it("with the Python SDK's reason (\"timed out after 1.5s\"), takes only a request sent that long before", async () => {
    // The oldest request (3 s before the cancel) and the newest (0.1 s before) are other clients'; the one sent 1.5 s
    // before is the caller's.
    const lines = [init(0, 'a'), init(10, 'b'), init(20, 'c'), call(1000, 5, 'b-1', { durationMs: 4000 }), call(2500, 5, 'a-1', { durationMs: 2200 }), call(3900, 5, 'c-1', { durationMs: 2200 }), cancel(4000, 5, 'timed out after 1.5s')];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    const got = r.attempts.filter((a) => a.findings.some((f) => f.code === 'CANCELLED')).map((a) => a.ts);
    expect(got).toEqual([at(2500)]);
  });

  it('must not: with a session, a cancellation after its request failed is still the late, after-the-fact one', async () => {
    const S = 'sess-1';
    const lines = [init(0, 'a', S), call(1000, 3, 'a-1', { status: 503, durationMs: 10, session: S }), cancel(2500, 3, TS_REASON, S)];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    expect(cancelledOn(r)).toEqual([]);
    expect(r.findings.filter((f) => f.code === 'CANCELLED').map((f) => f.message)).toEqual([expect.stringMatching(/after its response \(HTTP 503\) had ended/)]);
  });
});

describe('retries in a sessionless scope whose initialize requests named several clients', () => {
  it("are linked by their arguments, not split by the name of whichever client's initialize came last", async () => {
    // a's call fails (503), b initializes, a retries with a new id: one call of two attempts; b's call is its own.
    const lines = [init(0, 'a'), init(10, 'b'), call(1000, 3, 'a-1', { status: 503, durationMs: 10 }), init(1100, 'c'), call(1300, 4, 'a-1'), call(1400, 3, 'b-1')];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    const calls = r.attempts.filter((a) => a.method === 'tools/call').map((a) => [a.id, a.call, a.attempt]);
    expect(calls).toEqual([[3, calls[0]![1], 1], [4, calls[0]![1], 2], [3, expect.not.stringMatching(String(calls[0]![1])), 1]]);
  });

  it('must not: one client that initialized twice (a reconnect) keeps its name', async () => {
    const lines = [init(0, 'a'), call(1000, 3, 'a-1', { status: 503, durationMs: 10 }), init(1100, 'a'), call(1300, 3, 'a-1')];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    expect(r.attempts.filter((a) => a.method === 'tools/call').map((a) => a.attempt)).toEqual([1, 2]);
  });
});
