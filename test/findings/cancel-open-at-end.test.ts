// A client that cancelled a call whose stream its log never saw end (it exited without closing): the cancellation came first.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const S = '1388444d-d3d3-441e-b6c9-e71ad32de4db';
const H = { 'mcp-session-id': S, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const rec = (o: Record<string, unknown>) => ({ v: 1, side: 'client', session: S, ...o });

/** A slow tools/call answered with an SSE head and one progress event; the client cancels at 500 ms. */
function lines(opts: { cancelAt: number; endAt?: number }) {
  const out: unknown[] = [
    rec({ kind: 'request', ts: at(0), xid: 'c1', method: 'POST', url: 'http://127.0.0.1:3990/mcp', requestHeaders: H, send: { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: { progressToken: 6 } } } }),
    rec({ kind: 'response', ts: at(15), xid: 'c1', status: 200, responseHeaders: { 'content-type': 'text/event-stream' } }),
    rec({ kind: 'event', ts: at(314), xid: 'c1', event: 'message', data: JSON.stringify({ method: 'notifications/progress', params: { progressToken: 6, progress: 1, total: 5 }, jsonrpc: '2.0' }) }),
    rec({ kind: 'request', ts: at(opts.cancelAt), xid: 'c2', method: 'POST', url: 'http://127.0.0.1:3990/mcp', requestHeaders: H, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 6, reason: 'McpError: MCP error -32001: Request timed out' } } }),
    rec({ kind: 'response', ts: at(opts.cancelAt + 3), xid: 'c2', status: 202, responseHeaders: {} }),
    rec({ kind: 'end', ts: at(opts.cancelAt + 3), xid: 'c2', end: 'complete' }),
  ];
  if (opts.endAt !== undefined) out.push(rec({ kind: 'end', ts: at(opts.endAt), xid: 'c1', end: 'aborted', error: 'terminated' }));
  return out;
}

describe('a cancelled call whose stream the log never saw end', () => {
  it('is CANCELLED without NO_FINAL_RESULT: the client gave up at 500 ms, while the stream was still open', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: lines({ cancelAt: 500 }) }]);
    const call = r.attempts.find((a) => a.method === 'tools/call')!;
    expect(call.outcome).toBe('STREAM_INCOMPLETE');
    expect(call.findings.map((f) => f.code)).toEqual(['CANCELLED']);
  });

  it('a stream the log saw end before the cancellation still gets NO_FINAL_RESULT (the cancellation came after)', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: lines({ cancelAt: 500, endAt: 400 }) }]);
    const call = r.attempts.find((a) => a.method === 'tools/call')!;
    expect(call.findings.map((f) => f.code)).toContain('NO_FINAL_RESULT');
  });
});
