// A request posted again under its id after its SSE stream broke without the response (Cline 3.0.65): a re-send of it, not a reuse of an open id.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const S = 'sess-1';
const rec = (kind: string, t: number, xid: string, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side: 'client', session: S, xid, ...extra });
const sseHead = { status: 200, responseHeaders: { 'content-type': 'text/event-stream', 'mcp-session-id': S } };
const call = (t: number, xid: string, orderId: string) => rec('request', t, xid, { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId } } } });
const answered = (t: number, xid: string) => [
  rec('response', t, xid, sseHead),
  rec('event', t + 5, xid, { event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'shipped' }] } }) }),
  rec('end', t + 6, xid, { end: 'complete' }),
];
const cut = (t: number, xid: string) => [rec('response', t, xid, sseHead), rec('end', t + 20, xid, { end: 'error', error: 'terminated' })];
const calls = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.filter((a) => a.method === 'tools/call');

describe('the same request posted again under its id once its stream broke', () => {
  it('is the second attempt of that call, after the first one\'s STREAM_INCOMPLETE, with no ID_REUSED', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [call(0, 'x-1'), ...cut(80, 'x-1'), call(120, 'x-2'), ...answered(160, 'x-2')] }]);
    expect(calls(r).map((a) => `${a.outcome} ${a.call}#${a.attempt}`)).toEqual(['STREAM_INCOMPLETE c1#1', 'TOOL_SUCCESS c1#2']);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).not.toContain('ID_REUSED');
  });

  it('another request under the same id (other arguments) while the broken one still waits is still ID_REUSED', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [call(0, 'x-1'), ...cut(80, 'x-1'), rec('request', 120, 'x-2', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: 'other' } } } }), ...answered(160, 'x-2')] }]);
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).toContain('ID_REUSED');
  });
});
