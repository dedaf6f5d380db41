// On 2026-07-28 a client closing a call's SSE stream before the result is its cancellation: CANCELLED, and no NO_FINAL_RESULT.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const rec = (kind: string, t: number, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side: 'client', xid: 'x-1', ...extra });
const progress = (n: number) => ({ event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: n, total: 10 } }) });

function call(version: string, end: 'aborted' | 'error', error?: string) {
  return [
    rec('request', 0, { method: 'POST', requestHeaders: { 'mcp-protocol-version': version }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_report', arguments: {}, _meta: { progressToken: 2 } } } }),
    rec('response', 100, { status: 200, responseHeaders: { 'content-type': 'text/event-stream' } }),
    rec('event', 110, progress(1)),
    rec('event', 210, progress(2)),
    rec('end', 300, { end, ...(error !== undefined ? { error } : end === 'error' ? { error: 'other side closed' } : {}) }),
  ];
}

async function slow(version: string, end: 'aborted' | 'error', error?: string) {
  const r = await analyzeInputs([{ side: 'client', lines: call(version, end, error) }]);
  return r.attempts.find((a) => a.method === 'tools/call')!;
}

describe('a call stream the client closed after its head', () => {
  it('on 2026-07-28: the cancellation, said in the why; CANCELLED and no NO_FINAL_RESULT', async () => {
    const a = await slow('2026-07-28', 'aborted');
    expect(a.outcome).toBe('STREAM_INCOMPLETE');
    expect(a.detail.why).toBe('the client closed the stream 0.30 s after sending it, before any response came (on 2026-07-28 that is the cancellation); 2 SSE events came before that');
    expect(a.findings.map((f) => f.code)).toEqual(['CANCELLED']);
  });

  it('on 2026-07-28, a stream cut from the other side is still one without its result', async () => {
    expect((await slow('2026-07-28', 'error')).findings.map((f) => f.code)).toEqual(['NO_FINAL_RESULT']);
  });

  it('on 2025-11-25 closing the stream is no cancellation (the client would send notifications/cancelled)', async () => {
    expect((await slow('2025-11-25', 'aborted')).findings.map((f) => f.code)).toEqual(['NO_FINAL_RESULT']);
  });

  it('on 2025-11-25 the why says it was the client that closed it, without cancelling (OpenAI Agents\' close() during a call); a cut from the other side does not', async () => {
    expect((await slow('2025-11-25', 'aborted')).detail.why).toBe('the client closed the stream 0.30 s after sending it, before any response came, and sent no notifications/cancelled; 2 SSE events came before that');
    expect((await slow('2025-11-25', 'error')).detail.why).toBe('SSE stream ended (error) after 2 events without the response');
  });

  it('a close by the client with a notifications/cancelled long after it says so, rather than "sent no notifications/cancelled"', async () => {
    const lines = [...call('2025-11-25', 'aborted'), rec('request', 5300, { xid: 'x-2', method: 'POST', send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'timed out' } } })];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    expect(r.attempts.find((a) => a.method === 'tools/call')!.detail.why).toBe('the client closed the stream 0.30 s after sending it, before any response came, and sent notifications/cancelled only 5.00 s later; 2 SSE events came before that');
  });

  it('a network failure that the capture ended as aborted (a HAR\'s _error after the head) is no close by the client, on either protocol', async () => {
    // Chrome's HAR: status 200, then _error net::ERR_INCOMPLETE_CHUNKED_ENCODING; the body up to the cut was kept.
    for (const version of ['2025-11-25', '2026-07-28']) {
      const cut = await slow(version, 'aborted', 'net::ERR_INCOMPLETE_CHUNKED_ENCODING');
      const cancel = version === '2025-11-25' ? ', and the client sent no notifications/cancelled' : '';
      expect(cut.detail.why).toBe(`the stream was aborted 0.30 s after sending it, before any response came (its end says "net::ERR_INCOMPLETE_CHUNKED_ENCODING", not a close by the client)${cancel}; 2 SSE events came before that`);
      expect(cut.findings.map((f) => f.code)).toEqual(['NO_FINAL_RESULT']);
    }
    // The near miss: net::ERR_ABORTED is the page's own abort, a close by the client.
    expect((await slow('2025-11-25', 'aborted', 'net::ERR_ABORTED')).detail.why).toMatch(/^the client closed the stream 0\.30 s after sending it/);
    expect((await slow('2026-07-28', 'aborted', 'net::ERR_ABORTED')).findings.map((f) => f.code)).toEqual(['CANCELLED']);
  });

  it('an HTTP error the client closed unread is no cancellation: the status was the answer (real-chaos-py/modern-seed-7: the Python SDK closes a 503, 429 or 502 body unread)', async () => {
    const refused = (status: number, end: 'aborted' | 'complete') => [
      rec('request', 0, { method: 'POST', requestHeaders: { 'mcp-protocol-version': '2026-07-28' }, send: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send_email', arguments: {} } } }),
      rec('response', 10, { status, responseHeaders: { 'content-type': 'text/plain' } }),
      rec('end', 12, { end }),
    ];
    const a = (await analyzeInputs([{ side: 'client', lines: refused(503, 'aborted') }])).attempts.find((x) => x.method === 'tools/call')!;
    expect(a.outcome).toBe('HTTP_ERROR');
    expect(a.findings.map((f) => f.code)).toEqual([]);
    // Must not: a 200 stream the client closed before its result is still the cancellation.
    const ok = [refused(200, 'aborted')[0], rec('response', 10, { status: 200, responseHeaders: { 'content-type': 'text/event-stream' } }), rec('end', 1500, { end: 'aborted' })];
    expect((await analyzeInputs([{ side: 'client', lines: ok }])).attempts.find((x) => x.method === 'tools/call')!.findings.map((f) => f.code)).toEqual(['CANCELLED']);
  });
});
