// subscriptions/listen (2026-07-28): a request whose stream is the subscription; the client ends it by closing the stream.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const rec = (kind: string, t: number, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side: 'client', xid: 'x-1', ...extra });
const notification = (method: string) => JSON.stringify({ jsonrpc: '2.0', method, params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } } });

function listen(events: string[], end: 'aborted' | 'error' | 'timeout') {
  return [
    rec('request', 0, { method: 'POST', requestHeaders: { 'mcp-protocol-version': '2026-07-28' }, send: { jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } } }),
    rec('response', 5, { status: 200, responseHeaders: { 'content-type': 'text/event-stream' } }),
    ...events.map((m, i) => rec('event', 10 + i, { event: 'message', data: notification(m) })),
    rec('end', 500, { end, ...(end === 'error' ? { error: 'other side closed' } : {}) }),
  ];
}

async function attemptOf(lines: Record<string, unknown>[]) {
  const r = await analyzeInputs([{ side: 'client', lines }]);
  return r.attempts.find((a) => a.method === 'subscriptions/listen')!;
}

describe('subscriptions/listen', () => {
  it('acknowledged, then closed by the client: SUCCESS, no NO_FINAL_RESULT, no CANCELLED', async () => {
    const a = await attemptOf(listen(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed'], 'aborted'));
    expect(a.outcome).toBe('SUCCESS');
    expect(a.detail.why).toBe("the subscription stream (acknowledged, 2 events) was closed from the client's side: subscriptions/listen ends so");
    expect(a.findings).toEqual([]);
  });

  it('cut from the other side without its final response: a lost subscription, STREAM_INCOMPLETE', async () => {
    const a = await attemptOf(listen(['notifications/subscriptions/acknowledged'], 'error'));
    expect(a.outcome).toBe('STREAM_INCOMPLETE');
    expect(a.findings.map((f) => f.code)).toEqual(['NO_FINAL_RESULT']);
  });

  it('closed by the client before any acknowledgment (its timeout waiting for it): not a working subscription', async () => {
    const a = await attemptOf(listen([], 'timeout'));
    expect(a.outcome).toBe('STREAM_INCOMPLETE');
    expect(a.findings.map((f) => f.code)).toContain('CANCELLED');
  });
});
