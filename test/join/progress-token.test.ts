// Progress notifications count for the request whose progressToken they carry, whichever stream they came on.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, toolText } from '../helpers/analyze.js';

const S = 'sess-p';
const head = { v: 1, session: S };
const request = (t: number, xid: string, id: number, token: string | number) => ({
  ...head, kind: 'request', ts: at(t), xid, method: 'POST', requestHeaders: { 'mcp-session-id': S },
  send: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow_report', arguments: { n: id }, _meta: { progressToken: token } } },
});
const response = (t: number, xid: string) => ({ ...head, kind: 'response', ts: at(t), xid, status: 200, responseHeaders: { 'content-type': 'text/event-stream' } });
const progress = (t: number, xid: string, token: string | number, n: number) => ({
  ...head, kind: 'event', ts: at(t), xid, event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: n } }),
});
const result = (t: number, xid: string, id: number) => ({ ...head, kind: 'event', ts: at(t), xid, event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id, result: toolText('done') }) });
const end = (t: number, xid: string) => ({ ...head, kind: 'end', ts: at(t), xid, end: 'complete' });

describe('progress by token', () => {
  it("a gateway that writes every notification to the first open stream: B's progress on A's stream counts for B, and none after B ended", async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [
      request(0, 'a', 5, 5), response(5, 'a'), progress(100, 'a', 5, 1),
      request(120, 'b', 6, 6), response(125, 'b'),
      progress(200, 'a', 6, 1), progress(210, 'a', 5, 2), progress(300, 'a', 6, 2),
      result(320, 'b', 6), end(321, 'b'),
      progress(400, 'a', 6, 3), // B was already answered: the client drops it ("unknown token")
      progress(410, 'a', 5, 3), result(500, 'a', 5), end(501, 'a'),
    ] }]);
    const by = Object.fromEntries(r.attempts.map((a) => [a.id, a.sse?.progress]));
    expect(by).toEqual({ 5: 3, 6: 2 });
  });

  it('a stream whose request named no token still counts the progress it carries', async () => {
    const plain = (t: number, xid: string, id: number) => ({ ...request(t, xid, id, 0), send: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow_report', arguments: {} } } });
    const r = await analyzeInputs([{ side: 'client', lines: [plain(0, 'a', 1), response(5, 'a'), progress(100, 'a', 'tok-x', 1), result(200, 'a', 1), end(201, 'a')] }]);
    expect(r.attempts[0]!.sse?.progress).toBe(1);
  });
});
