// SIDE_DIVERGENCE from one log that is not the client's: the server sent the answer on the call's stream, then the client resumed that stream from an event before it and no replay carried it (the fourteenth audit's answer-dropped).
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const S = 'sess-1';
const rec = (side: string, kind: string, t: number, xid: string, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side, session: S, xid, ...extra });
const sseHead = { status: 200, responseHeaders: { 'content-type': 'text/event-stream', 'mcp-session-id': S } };
const result = JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } });
const progress = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: 1 } });
/** The call's stream as the server wrote it: priming, progress, the answer (a hop cut the client's copy before the answer). */
const answered = (side: string) => [
  rec(side, 'request', 0, 'x-1', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_report', arguments: {}, _meta: { progressToken: 2 } } } }),
  rec(side, 'response', 5, 'x-1', sseHead),
  rec(side, 'event', 6, 'x-1', { id: 'ev-1', data: '' }),
  rec(side, 'event', 300, 'x-1', { id: 'ev-2', event: 'message', data: progress }),
  rec(side, 'event', 900, 'x-1', { id: 'ev-3', event: 'message', data: result }),
  rec(side, 'end', 901, 'x-1', { end: 'complete' }),
];
/** The client's GET resuming from ev-2 (before the answer): held open with no event (the store had dropped the stream), or replaying the answer. */
const resume = (side: string, replays: boolean) => [
  rec(side, 'request', 1200, 'x-2', { method: 'GET', requestHeaders: { 'mcp-session-id': S, accept: 'text/event-stream', 'last-event-id': 'ev-2' } }),
  rec(side, 'response', 1201, 'x-2', sseHead),
  ...(replays ? [rec(side, 'event', 1202, 'x-2', { id: 'ev-3', event: 'message', data: result })] : []),
  rec(side, 'end', replays ? 1203 : 5000, 'x-2', replays ? { end: 'complete' } : { end: 'aborted', error: 'the connection closed before the response was complete' }),
];
const call = async (side: string, replays: boolean) => (await analyzeInputs([{ side: side as 'server', lines: [...answered(side), ...resume(side, replays)] }])).attempts.find((a) => a.method === 'tools/call')!;

describe('the server answered, the client resumed from before the answer, and nothing replayed it', () => {
  it("the server's log alone: TOOL_SUCCESS (what it sent) with SIDE_DIVERGENCE naming the resumption and what it got", async () => {
    const a = await call('server', false);
    expect(a.outcome).toBe('TOOL_SUCCESS');
    expect(a.findings.map((f) => [f.code, f.message])).toEqual([['SIDE_DIVERGENCE', expect.stringMatching(/^tools\/call slow_report id 2: the server sent HTTP 200 TOOL_SUCCESS on the stream, but the client then resumed that stream from an event before the response \(GET with Last-Event-ID at .*input0\.ndjson:7: it had not got it\), answered HTTP 200 with no event for 3\.80 s, until it was aborted, which replayed no response: the server sent a final result the client never got$/)]]);
  });

  it('must not: a resumption that replayed the answer (the SDK\'s event store did), nor the client\'s own log, raises it', async () => {
    expect((await call('server', true)).findings).toEqual([]);
    // (A client that had the answer on its stream does not resume it; its log would say it got it.)
    expect((await call('client', false)).findings.map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
  });
});

describe("the answer's event id sorting before the Last-Event-ID (the SDK's InMemoryEventStore: `<stream>_<ms>_<random>`)", () => {
  const ST = '3eec625c-d0ab-4df0-b7f4-c59907d68d0c';
  /** The server's log with these ids for the last progress event and the answer, the client resuming from the progress event. */
  const withIds = (progressId: string, answerId: string) => {
    const lines = [...answered('server'), ...resume('server', false)].map((l) => ({ ...l }));
    for (const l of lines as Record<string, unknown>[]) {
      if (l.id === 'ev-2') l.id = progressId;
      if (l.id === 'ev-3') l.id = answerId;
      const h = l.requestHeaders as Record<string, string> | undefined;
      if (h?.['last-event-id'] === 'ev-2') l.requestHeaders = { ...h, 'last-event-id': progressId };
    }
    return lines;
  };
  const sideDivergence = async (progressId: string, answerId: string) => (await analyzeInputs([{ side: 'server', lines: withIds(progressId, answerId) }])).attempts.find((a) => a.method === 'tools/call')!.findings.find((f) => f.code === 'SIDE_DIVERGENCE')!.message;

  it('in the same millisecond and sorting before it: the message says that store never replays it', async () => {
    expect(await sideDivergence(`${ST}_1796418686917_mu6vkzpb`, `${ST}_1796418686917_ca1s1m5o`)).toMatch(/; the response's event id \("[^"]*_1796418686917_ca1s1m5o"\) is of the form the TypeScript SDK's InMemoryEventStore makes, in the same millisecond as the Last-Event-ID \("[^"]*_1796418686917_mu6vkzpb"\) and sorting before it: that store replays the events whose ids sort after the Last-Event-ID, so it never replays this response$/);
  });

  it('must not: sorting after it, a later millisecond, or ids of another form blame no order', async () => {
    for (const [p, a] of [[`${ST}_1796418686917_ca1s1m5o`, `${ST}_1796418686917_mu6vkzpb`], [`${ST}_1796418686917_mu6vkzpb`, `${ST}_1796418686918_ca1s1m5o`], ['1.2', '1.1']]) {
      const msg = await sideDivergence(p!, a!);
      expect(msg).toMatch(/the server sent a final result the client never got$/);
    }
  });
});

describe("the client's late notifications/cancelled for an answer it never got (a log in front of the server: the Python client's timeout, the fourteenth audit's py-*-answer-dropped)", () => {
  /** A log with no side (mcp-triage record in front of the server): the call, maybe its resumption, then the client's cancellation at 5.05 s. */
  const lines = (resumed: 'none' | 'empty' | 'replayed', reason = 'timed out after 5.0s') => [
    ...answered('server'),
    ...(resumed === 'none' ? [] : resume('server', resumed === 'replayed')),
    rec('server', 'request', 5050, 'x-3', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason } } }),
    rec('server', 'response', 5052, 'x-3', { status: 202, responseHeaders: {} }),
    rec('server', 'end', 5053, 'x-3', { end: 'complete' }),
  ].map(({ side: _side, ...rest }) => rest);
  const cancelled = async (resumed: 'none' | 'empty' | 'replayed', reason?: string) => (await analyzeInputs([{ lines: lines(resumed, reason) }])).findings.filter((f) => f.code === 'CANCELLED').map((f) => f.message);

  it('says the client had resumed from before the answer and never got it, not that the answer had come', async () => {
    // Before: "that response carried the request's answer, so the cancellation came after the fact and cancelled nothing
    // (the TypeScript SDK sends one whenever the caller's AbortSignal fires, even for a request that has ended)".
    expect(await cancelled('empty')).toEqual([expect.stringMatching(/: notifications\/cancelled for id 2 4\.15 s after its response \(HTTP 200\) had ended: that response carried the request's answer, but the client then resumed the stream from an event before it \(GET with Last-Event-ID\) and no replay brought it: the client never got the answer and cancelled, most likely at its own timeout; the server had finished the request, so the cancellation cancelled nothing$/)]);
  });

  it('must not: a resumption that replayed the answer, or none at all, keeps the late cancellation of an answered request', async () => {
    for (const r of ['replayed', 'none'] as const) {
      const msgs = await cancelled(r, 'AbortError: This operation was aborted');
      expect(msgs).toHaveLength(1);
      expect(msgs[0]).toContain("that response carried the request's answer, so the cancellation came after the fact and cancelled nothing");
      expect(msgs[0]).not.toContain('never got');
    }
  });

  it("one its client's own timeout sent (\"timed out after 5.0s\") came before the answer reached the client, whatever this log saw (real-audit32's timeout races)", async () => {
    // The SDK clients clear a request's timer when its answer comes: the answer passed this log, not the client.
    for (const r of ['replayed', 'none'] as const) {
      const msgs = await cancelled(r);
      expect(msgs).toEqual([expect.stringMatching(/: notifications\/cancelled for id 2 came 4\.15 s after its answer had ended in this log, with the reason "timed out after 5\.0s": the client's own timeout ran out before the answer reached it .*its caller got the timeout error, not this result/)]);
    }
  });
});

describe('the plain GET after a resumption from before the answer that ended with no event (a log in front of the server: the fourteenth audit\'s ts-py-answer-dropped behind the hop)', () => {
  /** The answered call, its resumption from ev-2 (an empty stream ended at once, or one replaying the answer), then a plain GET refused 409 at `plainAt`. */
  const lines = (replays: boolean, plainAt: number) => [
    ...answered('server'),
    rec('server', 'request', 1200, 'x-2', { method: 'GET', requestHeaders: { 'mcp-session-id': S, accept: 'text/event-stream', 'last-event-id': 'ev-2' } }),
    rec('server', 'response', 1201, 'x-2', sseHead),
    ...(replays ? [rec('server', 'event', 1202, 'x-2', { id: 'ev-3', event: 'message', data: result })] : []),
    rec('server', 'end', 1203, 'x-2', { end: 'complete' }),
    rec('server', 'request', plainAt, 'x-3', { method: 'GET', requestHeaders: { 'mcp-session-id': S, accept: 'text/event-stream' } }),
    rec('server', 'response', plainAt + 2, 'x-3', { status: 409, responseHeaders: { 'content-type': 'application/json' } }),
    rec('server', 'end', plainAt + 3, 'x-3', { end: 'complete', recvText: JSON.stringify({ jsonrpc: '2.0', id: 'server-error', error: { code: -32000, message: 'Conflict: Only one SSE stream is allowed per session' } }) }),
  ].map(({ side: _side, ...rest }) => rest);
  const refused = async (replays: boolean, plainAt: number) => (await analyzeInputs([{ lines: lines(replays, plainAt) }])).findings.filter((f) => f.code === 'GET_STREAM_REFUSED').map((f) => f.message);

  it("GET_STREAM_REFUSED says the 409 came right after that resumption broke before its first event, not that the client lost a stream", async () => {
    const [m, ...more] = await refused(false, 1520);
    expect(more).toEqual([]);
    expect(m).toContain("it came right after a GET resuming a call's stream (Last-Event-ID) broke before its first event: the client reconnected that stream without Last-Event-ID");
    expect(m).not.toContain('may have lost');
  });

  it('must not: after a resumption that replayed the answer, or a plain GET 10 s later, the 409 is not said to be that reconnect', async () => {
    for (const [replays, at] of [[true, 1520], [false, 11_200]] as const) {
      const [m] = await refused(replays, at);
      expect(m).toContain('HTTP 409');
      expect(m).not.toContain('came right after a GET resuming');
    }
  });
});
