// `mcp-triage record` stopped by Ctrl-C ends the exchanges still open with error "recording stopped by a signal": the
// capture ended there (as a log that ends does), nobody closed the stream; no close by the client, no missing result.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const rec = (kind: string, t: number, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), xid: 'x-1', ...extra });
const progress = (n: number) => ({ event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: n, total: 10 } }) });

function call(version: string, error: string) {
  return [
    rec('request', 0, { method: 'POST', requestHeaders: { 'mcp-protocol-version': version }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_report', arguments: {}, _meta: { progressToken: 2 } } } }),
    rec('response', 100, { status: 200, responseHeaders: { 'content-type': 'text/event-stream' } }),
    rec('event', 110, progress(1)),
    rec('event', 210, progress(2)),
    rec('end', 550, { end: 'aborted', error }),
  ];
}

async function slow(side: 'client' | 'server' | undefined, version: string, error = 'recording stopped by a signal') {
  const r = await analyzeInputs([{ ...(side ? { side } : {}), lines: call(version, error) }]);
  return r.attempts.find((a) => a.method === 'tools/call')!;
}

const WHY = (error: string) => `the recording stopped 0.55 s after it was sent while the stream was still open (its end says "${error}"), before any response came (2 SSE events before that): whether the response came after is not in the log`;

describe('a stream still open when the recording proxy was stopped', () => {
  it('read as the client\'s side (the audit\'s L-proxy capture): not a close by the client, and no NO_FINAL_RESULT', async () => {
    const a = await slow('client', '2025-11-25');
    expect(a.outcome).toBe('STREAM_INCOMPLETE');
    expect(a.detail.why).toBe(WHY('recording stopped by a signal'));
    expect(a.findings.map((f) => f.code)).toEqual([]);
  });

  it('on 2026-07-28 it is no cancellation either (no CANCELLED)', async () => {
    const a = await slow('client', '2026-07-28');
    expect(a.detail.why).toBe(WHY('recording stopped by a signal'));
    expect(a.findings.map((f) => f.code)).toEqual([]);
  });

  it('side-less and server-side reads say the same; so does a stop from code ("recording stopped")', async () => {
    for (const side of [undefined, 'server'] as const) {
      const a = await slow(side, '2025-11-25');
      expect(a.detail.why).toBe(WHY('recording stopped by a signal'));
      expect(a.findings.map((f) => f.code)).toEqual([]);
    }
    expect((await slow('client', '2025-11-25', 'recording stopped')).detail.why).toBe(WHY('recording stopped'));
  });

  it('the near miss: an error that only mentions a recording is still the client\'s close', async () => {
    const a = await slow('client', '2025-11-25', 'recording stopped by a signal; then the client closed');
    expect(a.detail.why).toMatch(/^the client closed the stream/);
    expect(a.findings.map((f) => f.code)).toEqual(['NO_FINAL_RESULT']);
  });
});
