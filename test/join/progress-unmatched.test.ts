// PROGRESS_UNMATCHED: notifications/progress that reached a session when no open request of it had asked for its token.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, toolText } from '../helpers/analyze.js';

const A = 'sess-a';
const B = 'sess-b';
const rec = (s: string, kind: string, t: number, xid: string, extra: Record<string, unknown> = {}) => ({ v: 1, session: s, kind, ts: at(t), xid, ...extra });
const call = (s: string, t: number, xid: string, id: number, meta: Record<string, unknown> = { progressToken: id }, extra: Record<string, unknown> = {}) =>
  rec(s, 'request', t, xid, { method: 'POST', requestHeaders: { 'mcp-session-id': s }, send: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow_report', arguments: { n: id }, _meta: meta, ...extra } } });
const get = (s: string, t: number, xid: string, headers: Record<string, string> = {}) =>
  rec(s, 'request', t, xid, { method: 'GET', requestHeaders: { 'mcp-session-id': s, accept: 'text/event-stream', ...headers } });
const head = (s: string, t: number, xid: string) => rec(s, 'response', t, xid, { status: 200, responseHeaders: { 'content-type': 'text/event-stream' } });
const progress = (s: string, t: number, xid: string, token: string | number, n: number) =>
  rec(s, 'event', t, xid, { event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: n } }) });
const result = (s: string, t: number, xid: string, id: number) => rec(s, 'event', t, xid, { event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id, result: toolText('done') }) });
const end = (s: string, t: number, xid: string, how = 'complete') => rec(s, 'end', t, xid, { end: how });

/** A session's GET stream open from 0 ms, a call with id (and token) 1 from 10 ms, answered at 200 ms. */
const callWithStream = (s = A) => [get(s, 0, `${s}g`), head(s, 2, `${s}g`), call(s, 10, `${s}p`, 1), head(s, 12, `${s}p`)];

/** The findings, with the temporary folder taken out of the files they name. */
async function stray(inputs: { side: 'client' | 'server'; lines: unknown[] }[]) {
  const r = await analyzeInputs(inputs);
  const bare = (file: string) => file.replace(/^.*\//, '');
  const found = r.findings.filter((f) => f.code === 'PROGRESS_UNMATCHED')
    .map((f) => ({ ...f, message: f.message.replace(/[^ (]*\/(input\d\.ndjson)/g, '$1'), sources: f.sources.map((x) => ({ ...x, file: bare(x.file) })) }));
  return { r, found };
}

describe('PROGRESS_UNMATCHED', () => {
  it('the last step on the GET stream after the result (mcp-framework): one finding that says how late, for whose response', async () => {
    const { r, found } = await stray([{ side: 'client', lines: [
      ...callWithStream(), progress(A, 100, 'sess-ag', 1, 1), result(A, 200, 'sess-ap', 1), end(A, 200, 'sess-ap'),
      progress(A, 203, 'sess-ag', 1, 2), progress(A, 250, 'sess-ag', 1, 3), end(A, 900, 'sess-ag'),
    ] }]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', scope: 'session', session: A });
    expect(found[0]!.message).toBe(`session ${A}: notifications/progress for token 1 (2 notifications) came 3 ms after the response to tools/call id 1 (slow_report, sent at input0.ndjson:3), which had asked for it, with no other request of the session open with it: progress MUST stop when its request completes, and a client drops it (the TypeScript SDK reports "a progress notification for an unknown token")`);
    // The notification's record, then the request it was late for (a filter that keeps that call keeps the finding).
    expect(found[0]!.sources).toEqual([{ file: 'input0.ndjson', line: 8 }, { file: 'input0.ndjson', line: 3 }]);
    // The call itself is what it was: a success, the progress it had before its result counted.
    expect(r.attempts.find((a) => a.method === 'tools/call')).toMatchObject({ outcome: 'TOOL_SUCCESS', findings: [] });
  });

  it('in the same millisecond as the result, after it in the log, it counts; before it, it does not', async () => {
    const after = await stray([{ side: 'client', lines: [...callWithStream(), result(A, 200, 'sess-ap', 1), progress(A, 200, 'sess-ag', 1, 1), end(A, 200, 'sess-ap'), end(A, 900, 'sess-ag')] }]);
    expect(after.found.map((f) => f.message)).toEqual([expect.stringContaining('came in the same millisecond as, and after, the response to tools/call id 1')]);
    const before = await stray([{ side: 'client', lines: [...callWithStream(), progress(A, 200, 'sess-ag', 1, 1), result(A, 200, 'sess-ap', 1), end(A, 200, 'sess-ap'), end(A, 900, 'sess-ag')] }]);
    expect(before.found).toEqual([]);
  });

  it('normal traffic raises nothing: progress on the call\'s own stream, on the GET stream while the call is open, two calls\' progress crossed while both are open', async () => {
    const own = await stray([{ side: 'client', lines: [call(A, 0, 'p', 1), head(A, 2, 'p'), progress(A, 50, 'p', 1, 1), progress(A, 100, 'p', 1, 2), result(A, 100, 'p', 1), end(A, 101, 'p')] }]);
    expect(own.found).toEqual([]);
    const onGet = await stray([{ side: 'client', lines: [...callWithStream(), progress(A, 100, 'sess-ag', 1, 1), progress(A, 199, 'sess-ag', 1, 2), result(A, 200, 'sess-ap', 1), end(A, 200, 'sess-ap'), end(A, 900, 'sess-ag')] }]);
    expect(onGet.found).toEqual([]);
    const crossed = await stray([{ side: 'client', lines: [
      call(A, 0, 'p1', 1), head(A, 2, 'p1'), call(A, 5, 'p2', 2), head(A, 7, 'p2'),
      progress(A, 50, 'p1', 2, 1), progress(A, 60, 'p2', 1, 1), result(A, 100, 'p1', 1), end(A, 100, 'p1'), result(A, 120, 'p2', 2), end(A, 120, 'p2'),
    ] }]);
    expect(crossed.found).toEqual([]);
  });

  it('progress meant for another session\'s open request names that request (a server that writes every message to every session)', async () => {
    const { found } = await stray([{ side: 'client', lines: [
      get(A, 0, 'ag'), head(A, 2, 'ag'), ...callWithStream(B).slice(2).map((x) => ({ ...x, ts: at(20) })),
      progress(B, 50, 'sess-bp', 1, 1), progress(A, 50, 'ag', 1, 1),
      result(B, 100, 'sess-bp', 1), end(B, 100, 'sess-bp'), end(A, 900, 'ag'),
    ] }]);
    expect(found).toHaveLength(1);
    expect(found[0]!.session).toBe(A);
    expect(found[0]!.message).toBe(`session ${A}: notifications/progress for token 1 came with no request of the session open with it, nor answered in the 5 s before: a client drops it (the TypeScript SDK reports "a progress notification for an unknown token"); session ${B} had tools/call id 1 (slow_report, sent at input0.ndjson:3) open with that token then: progress meant for another session reached this one (a server that writes every message to every session's stream, as mcp-framework 0.2.22 does)`);
  });

  it('a token of a request answered long before: the memory is a few seconds; the request with that id is still named', async () => {
    // (Another call 12 s in moves the log's time on: what ended more than 5 s before that is forgotten.)
    const { found } = await stray([{ side: 'client', lines: [
      ...callWithStream(), result(A, 200, 'sess-ap', 1), end(A, 200, 'sess-ap'),
      call(A, 12_000, 'q', 2, {}), head(A, 12_002, 'q'), result(A, 12_010, 'q', 2), end(A, 12_010, 'q'),
      progress(A, 20_000, 'sess-ag', 1, 1), end(A, 20_100, 'sess-ag'),
    ] }]);
    expect(found.map((f) => f.message)).toEqual([`session ${A}: notifications/progress for token 1 came with no request of the session open with it: the session's request with id 1 (input0.ndjson:3) had ended more than 5 s before, and a client drops it (the TypeScript SDK reports "a progress notification for an unknown token")`]);
  });

  it('the same notification in the client\'s and the server\'s log is one finding (the client\'s), naming both records', async () => {
    const lines = [...callWithStream(), result(A, 200, 'sess-ap', 1), end(A, 200, 'sess-ap'), progress(A, 201, 'sess-ag', 1, 1), end(A, 900, 'sess-ag')];
    const { found } = await stray([{ side: 'server', lines }, { side: 'client', lines: lines.map((l) => ({ ...l, ts: at(Date.parse(l.ts) - Date.parse(at(0)) + 1) })) }]);
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain('sent at input1.ndjson:3');
    expect(found[0]!.sources).toEqual([{ file: 'input1.ndjson', line: 7 }, { file: 'input0.ndjson', line: 7 }, { file: 'input1.ndjson', line: 3 }]);
  });

  it('not raised: a resumption stream (Last-Event-ID), a session with tasks, a request whose stream was cut, a GET body told at its end', async () => {
    const resumed = await stray([{ side: 'client', lines: [
      call(A, 0, 'p', 1), head(A, 2, 'p'), result(A, 100, 'p', 1), end(A, 100, 'p'),
      get(A, 150, 'r', { 'last-event-id': 'ev-3' }), head(A, 152, 'r'), progress(A, 160, 'r', 1, 1), end(A, 170, 'r'),
    ] }]);
    expect(resumed.found).toEqual([]);
    const task = await stray([{ side: 'client', lines: [
      get(A, 0, 'g'), head(A, 2, 'g'), call(A, 10, 'p', 1, { progressToken: 1 }, { task: { ttl: 60_000 } }), head(A, 12, 'p'),
      rec(A, 'event', 20, 'p', { event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { task: { taskId: 't-1', status: 'working' } } }) }), end(A, 20, 'p'),
      progress(A, 300, 'g', 1, 1), end(A, 900, 'g'),
    ] }]);
    expect(task.found).toEqual([]);
    const cut = await stray([{ side: 'client', lines: [...callWithStream(), end(A, 150, 'sess-ap', 'aborted'), progress(A, 300, 'sess-ag', 1, 1), end(A, 900, 'sess-ag')] }]);
    expect(cut.found).toEqual([]);
    const whole = await stray([{ side: 'client', lines: [
      { v: 1, kind: 'exchange', ts: at(0), session: A, method: 'GET', requestHeaders: { 'mcp-session-id': A, accept: 'text/event-stream' }, status: 200, responseHeaders: { 'content-type': 'text/event-stream' }, durationMs: 900,
        recvText: `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\n` },
      call(A, 10, 'p', 1), head(A, 12, 'p'), result(A, 200, 'p', 1), end(A, 200, 'p'),
    ] }]);
    expect(whole.found).toEqual([]);
  });

  it('further tokens beyond those kept per session are counted on the last finding', async () => {
    const lines: unknown[] = [get(A, 0, 'g'), head(A, 2, 'g')];
    for (let i = 0; i < 10; i++) lines.push(progress(A, 10 + i, 'g', `t${i}`, 1));
    lines.push(end(A, 900, 'g'));
    const { found } = await stray([{ side: 'client', lines }]);
    expect(found).toHaveLength(8);
    expect(found[7]!.message).toMatch(/; 2 more such notifications for other tokens in this session$/);
  });
});
