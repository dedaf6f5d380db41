// A client's answer to a request the server had already cancelled (its elicitation/create timed out) is named in the call's why.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, post, sse, toolText } from '../helpers/analyze.js';

const S = 'sess-late';
const ask = { jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: { mode: 'form', message: 'Refund order 1001?', requestedSchema: { type: 'object', properties: {} } } };
const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0, reason: 'McpError: MCP error -32001: Request timed out' } };
const failed = { jsonrpc: '2.0', id: 1, result: toolText('MCP error -32001: Request timed out', { isError: true }) };

/** The call (0 to 300 ms; a whole-exchange record dates its events at its end, 300 ms), then the client's answer to id 0 at `answerAt`. */
function log(answerAt: number | undefined, answer: unknown = { jsonrpc: '2.0', id: 0, result: { action: 'accept', content: {} } }) {
  const lines: unknown[] = [post({ t: 0, id: 1, session: S, tool: 'confirm_refund', status: 200, ct: 'text/event-stream', body: sse({ event: 'message', data: ask }, { event: 'message', data: cancel }, { event: 'message', data: failed }), durationMs: 300 })];
  if (answerAt !== undefined) {
    lines.push({ v: 1, kind: 'exchange', ts: at(answerAt), method: 'POST', requestHeaders: { 'content-type': 'application/json', 'mcp-session-id': S }, send: answer, status: 202, recvText: '', end: 'complete' });
  }
  return lines;
}

async function why(lines: unknown[]) {
  const r = await analyzeInputs([{ side: 'client', lines }]);
  const calls = r.attempts.filter((a) => a.method === 'tools/call');
  expect(calls.map((a) => a.outcome)).toEqual(['TOOL_ERROR']);
  return (calls[0] as { detail?: { why?: string } }).detail?.why;
}

describe('a late answer to a request the server cancelled', () => {
  const cancelled = "the server cancelled its own elicitation/create (id 0) 0.30 s into the call, which the client had not answered (McpError: MCP error -32001: Request timed out)";

  it('is named, with how long after the cancellation it came, for a result and for an error', async () => {
    expect(await why(log(700))).toBe(`${cancelled}; the client's answer came 0.40 s after that, when the server no longer waited for it`);
    expect(await why(log(1500, { jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'UI closed' } }))).toBe(`${cancelled}; the client's answer came 1.20 s after that, when the server no longer waited for it`);
  });

  it('is not named when no answer came, when the answer is to another id, or when it came after --window (the call was reported)', async () => {
    expect(await why(log(undefined))).toBe(cancelled);
    expect(await why(log(700, { jsonrpc: '2.0', id: 5, result: { action: 'accept' } }))).toBe(cancelled);
    expect(await why(log(120_000))).toBe(cancelled);
  });
});
