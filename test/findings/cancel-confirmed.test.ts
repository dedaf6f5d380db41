// CANCELLED when the server answers the cancelled request with -32800 (the Python SDK does, on the 2025 wire): it stopped the request without a result; what the tool did by then is done.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const S = 'sess-1';
const rec = (kind: string, t: number, xid: string, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side: 'client', session: S, xid, ...extra });

function cancelledCall(answer: unknown, reason: string | undefined = 'timed out after 0.3s'): Record<string, unknown>[] {
  return [
    rec('request', 0, 'x-1', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_report', arguments: {} } } }),
    rec('response', 5, 'x-1', { status: 200, responseHeaders: { 'content-type': 'text/event-stream' } }),
    rec('request', 300, 'x-2', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, ...(reason !== undefined ? { reason } : {}) } } }),
    rec('response', 302, 'x-2', { status: 202, responseHeaders: {} }),
    rec('end', 303, 'x-2', { end: 'complete' }),
    rec('event', 310, 'x-1', { event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id: 2, ...(answer as object) }) }),
    rec('end', 311, 'x-1', { end: 'complete' }),
  ];
}

const cancelled = async (answer: unknown, reason?: string) => {
  const r = await analyzeInputs([{ side: 'client', lines: cancelledCall(answer, ...(reason !== undefined ? [reason] : [])) }]);
  return r.attempts.find((a) => a.method === 'tools/call')!.findings.find((f) => f.code === 'CANCELLED')?.message;
};

describe('CANCELLED, and what the server answered after the cancellation', () => {
  it('-32800 after the cancellation: the server stopped the request without a result, when; what the tool did by then is not undone', async () => {
    expect(await cancelled({ error: { code: -32800, message: 'Request cancelled' } })).toBe(
      'tools/call slow_report id 2: the client sent notifications/cancelled for it after 0.30 s, with the reason "timed out after 0.3s" (its own timeout, not an answer from the server); the server then answered it with -32800 (Request cancelled) 0.01 s after that: it stopped the request without a result, but what the tool had done by then (or shields from cancellation, as a commit) is done',
    );
  });

  it('a result after the cancellation still reached nobody', async () => {
    expect(await cancelled({ result: { content: [{ type: 'text', text: 'done' }] } })).toMatch(/; its TOOL_SUCCESS result came after that, when the client had given up on it$/);
  });

  it('says the reason the client gave: its timeout, or its caller\'s decision (an AbortSignal\'s reason); without one, the usual cause', async () => {
    const answer = { error: { code: -32800, message: 'Request cancelled' } };
    expect(await cancelled(answer, 'McpError: MCP error -32001: Request timed out')).toMatch(/after 0\.30 s, with the reason "McpError: MCP error -32001: Request timed out" \(its own timeout, not an answer from the server\);/);
    expect(await cancelled(answer, 'user pressed stop')).toMatch(/after 0\.30 s, with the reason "user pressed stop" \(the caller's decision, not an answer from the server\);/);
    const lines = cancelledCall(answer).map((l) => (l.send as { method?: string } | undefined)?.method === 'notifications/cancelled' ? { ...l, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } } } : l);
    const r = await analyzeInputs([{ side: 'client', lines }]);
    expect(r.attempts.find((a) => a.method === 'tools/call')!.findings.find((f) => f.code === 'CANCELLED')!.message).toMatch(/after 0\.30 s \(often after its local timeout\);/);
  });
});
