// GETs with Last-Event-ID that try to resume a request's cut SSE stream: joined to that request, and said in its why when none delivered it.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const S = 'sess-1';
const rec = (kind: string, t: number, xid: string, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side: 'client', session: S, xid, ...extra });
const sseHead = { status: 200, responseHeaders: { 'content-type': 'text/event-stream', 'mcp-session-id': S } };

/** A tools/call whose stream sent a priming event and a progress event (both with ids), then was cut. */
function cutCall(): Record<string, unknown>[] {
  return [
    rec('request', 0, 'x-1', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_report', arguments: {}, _meta: { progressToken: 2 } } } }),
    rec('response', 5, 'x-1', sseHead),
    rec('event', 6, 'x-1', { id: 'ev-1', data: '' }),
    rec('event', 100, 'x-1', { id: 'ev-2', event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: 1 } }) }),
    rec('end', 120, 'x-1', { end: 'error', error: 'terminated' }),
  ];
}
const resumeGet = (t: number, xid: string, lastEventId: string) => rec('request', t, xid, { method: 'GET', requestHeaders: { 'mcp-session-id': S, 'last-event-id': lastEventId } });

describe('resumption GETs (Last-Event-ID) of a cut stream', () => {
  it('refused ones are named in the why of the request they tried to resume, with their statuses', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [
      ...cutCall(),
      resumeGet(320, 'x-2', 'ev-2'),
      rec('response', 322, 'x-2', { status: 503, responseHeaders: { 'content-type': 'text/plain' } }),
      rec('end', 323, 'x-2', { end: 'complete', recvText: 'resume unavailable' }),
      resumeGet(530, 'x-3', 'ev-2'),
      rec('end', 531, 'x-3', { end: 'error', error: 'socket hang up' }),
    ] }]);
    const [call] = r.attempts.filter((a) => a.method === 'tools/call');
    expect(call).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(call!.detail.why).toBe(
      'SSE stream ended (error) after 2 events without the response; the client tried to resume it 2 times (GET with Last-Event-ID), answered HTTP 503, no response, and none delivered it',
    );
    expect(call!.findings.map((f) => f.code)).toEqual(['NO_FINAL_RESULT']);
  });

  it('a GET whose Last-Event-ID names an event of another stream is not taken for a resumption of this one', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [
      ...cutCall(),
      resumeGet(320, 'x-2', 'ev-1'), // not the last event this stream delivered
      rec('response', 322, 'x-2', { status: 503, responseHeaders: {} }),
      rec('end', 323, 'x-2', { end: 'complete' }),
    ] }]);
    const [call] = r.attempts.filter((a) => a.method === 'tools/call');
    expect(call!.detail.why).toBe('SSE stream ended (error) after 2 events without the response; its events carried ids, yet no GET with the last of them (Last-Event-ID) asked for the rest');
  });

  it('a resumption that delivers the result still makes one successful, resumed attempt', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [
      ...cutCall(),
      resumeGet(320, 'x-2', 'ev-2'),
      rec('response', 322, 'x-2', sseHead),
      rec('event', 330, 'x-2', { id: 'ev-3', event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } }) }),
      rec('end', 331, 'x-2', { end: 'complete' }),
    ] }]);
    const [call] = r.attempts.filter((a) => a.method === 'tools/call');
    expect(call).toMatchObject({ outcome: 'TOOL_SUCCESS', resumed: true });
    expect(call!.findings).toEqual([]);
  });

  // The chaos streams profile (test/real-chaos/real-chaos-streams.test.ts): the hop cut a resumption after the server
  // had written the answer on it, and the SDK resumed again after the last event it had read.
  const srec = (kind: string, t: number, xid: string, extra: Record<string, unknown>) => ({ ...rec(kind, t, xid, extra), side: 'server' });
  const result = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'done' }] } });
  const progress = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: n } });
  function serverCut(): Record<string, unknown>[] {
    return [
      srec('request', 0, 'x-1', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_report', arguments: {}, _meta: { progressToken: 2 } } } }),
      srec('response', 5, 'x-1', sseHead),
      srec('event', 6, 'x-1', { id: 'ev-1', data: '' }),
      srec('event', 100, 'x-1', { id: 'ev-2', event: 'message', data: progress(1) }),
      srec('end', 120, 'x-1', { end: 'aborted', error: 'the connection closed before the response was complete' }),
    ];
  }
  const sget = (t: number, xid: string, lastEventId: string) => srec('request', t, xid, { method: 'GET', requestHeaders: { 'mcp-session-id': S, 'last-event-id': lastEventId } });

  it("in the server's log, a second resumption that replays an answer the first one carried (cut before the client read it) is joined to the call, no second response", async () => {
    const r = await analyzeInputs([{ side: 'server', lines: [
      ...serverCut(),
      sget(320, 'x-2', 'ev-2'),
      srec('response', 320, 'x-2', sseHead),
      srec('event', 321, 'x-2', { id: 'ev-3', event: 'message', data: progress(2) }),
      srec('event', 322, 'x-2', { id: 'ev-4', event: 'message', data: result(2) }),
      srec('end', 323, 'x-2', { end: 'aborted', error: 'the connection closed before the response was complete' }),
      // The client read ev-3 only: it resumes after it, and the server replays the answer.
      sget(500, 'x-3', 'ev-3'),
      srec('response', 500, 'x-3', sseHead),
      srec('event', 501, 'x-3', { id: 'ev-4', event: 'message', data: result(2) }),
      srec('end', 900, 'x-3', { end: 'complete' }),
    ] }]);
    const [call] = r.attempts.filter((a) => a.method === 'tools/call');
    expect(call).toMatchObject({ outcome: 'TOOL_SUCCESS', resumed: true, attempt: 1 });
    expect(call!.sources.map((s) => s.line)).toEqual(expect.arrayContaining([11, 13]));
    expect(r.findings).toEqual([]);
  });

  it('must not: a response to an answered request on a GET that resumes another stream is still a second response', async () => {
    const r = await analyzeInputs([{ side: 'server', lines: [
      ...serverCut(),
      sget(320, 'x-2', 'ev-2'),
      srec('response', 320, 'x-2', sseHead),
      srec('event', 322, 'x-2', { id: 'ev-4', event: 'message', data: result(2) }),
      srec('end', 323, 'x-2', { end: 'complete' }),
      // A GET after an event id no stream of the call carried: its answer for id 2 is a second one.
      sget(500, 'x-3', 'other-9'),
      srec('response', 500, 'x-3', sseHead),
      srec('event', 501, 'x-3', { id: 'other-10', event: 'message', data: result(2) }),
      srec('end', 900, 'x-3', { end: 'complete' }),
    ] }]);
    expect(r.findings.map((f) => f.code)).toEqual(['ORPHAN_RESPONSE']);
  });

  it("in the server's log, a resumption after an earlier event than the stream's last (the server wrote more before it noticed the cut) is joined", async () => {
    const r = await analyzeInputs([{ side: 'server', lines: [
      ...serverCut(),
      // The hop cut the client's side after ev-1: the client asks for what followed it, ev-2 again among it.
      sget(320, 'x-2', 'ev-1'),
      srec('response', 320, 'x-2', sseHead),
      srec('event', 321, 'x-2', { id: 'ev-2', event: 'message', data: progress(1) }),
      srec('end', 323, 'x-2', { end: 'aborted', error: 'the connection closed before the response was complete' }),
      sget(500, 'x-3', 'ev-2'),
      srec('response', 500, 'x-3', sseHead),
      srec('event', 501, 'x-3', { id: 'ev-3', event: 'message', data: result(2) }),
      srec('end', 900, 'x-3', { end: 'complete' }),
    ] }]);
    const [call] = r.attempts.filter((a) => a.method === 'tools/call');
    expect(call).toMatchObject({ outcome: 'TOOL_SUCCESS', resumed: true });
    expect(call!.sources.map((s) => s.line)).toEqual(expect.arrayContaining([6, 10]));
    expect(r.findings).toEqual([]);
  });

  // The chaos streams profile's HAR (test/real-chaos/real-chaos-streams.test.ts): a hop reset the connection after the
  // priming event; the HAR says the stream was aborted (net::ERR_INCOMPLETE_CHUNKED_ENCODING), the client's log `error`.
  const abortedCall = (id: string) => [
    rec('request', 0, 'x-1', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_report', arguments: {} } } }),
    rec('response', 5, 'x-1', sseHead),
    rec('event', 6, 'x-1', { ...(id ? { id } : {}), data: '' }),
    rec('end', 120, 'x-1', { end: 'aborted', error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' }),
  ];
  it('a stream aborted by a reset elsewhere says what its resumptions got', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [
      ...abortedCall('ev-1'),
      resumeGet(320, 'x-2', 'ev-1'),
      rec('response', 322, 'x-2', sseHead),
      rec('end', 400, 'x-2', { end: 'aborted', error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' }),
    ] }]);
    const [call] = r.attempts.filter((a) => a.method === 'tools/call');
    expect(call).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(call!.detail.why).toMatch(/^the stream was aborted 0\.12 s after sending it, before any response came \(its end says "net::ERR_INCOMPLETE_CHUNKED_ENCODING", not a close by the client\), and the client sent no notifications\/cancelled; 1 SSE event came before that; the client tried to resume it once \(GET with Last-Event-ID\), answered HTTP 200 \(stream aborted\), and none delivered it$/);
  });
  it('must not: an aborted stream no GET tried to resume says nothing of resumptions', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: abortedCall('ev-1') }]);
    const [call] = r.attempts.filter((a) => a.method === 'tools/call');
    expect(call!.detail.why).not.toMatch(/resume|Last-Event-ID/);
  });
});


describe('the plain GET after a resumption that broke before its first event (the chaos audit\'s streams profile)', () => {
  // The SDK 1.32.2 resumes the cut stream after ev-2; the hop resets that GET after its head, before any event; the SDK
  // then reconnects without Last-Event-ID (it read no id on that stream): a plain GET, the session's standalone stream.
  const plainGet = (t: number, xid: string) => rec('request', t, xid, { method: 'GET', requestHeaders: { 'mcp-session-id': S } });
  const broken = (events: Record<string, unknown>[] = []) => [
    ...cutCall(),
    resumeGet(220, 'x-2', 'ev-2'),
    rec('response', 222, 'x-2', sseHead),
    ...events,
    rec('end', 225, 'x-2', { end: 'error', error: 'terminated' }),
  ];
  const refused409 = (t: number, xid: string) => [
    plainGet(t, xid),
    rec('response', t + 2, xid, { status: 409, responseHeaders: { 'content-type': 'application/json' } }),
    rec('end', t + 3, xid, { end: 'complete', recvText: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Conflict: Only one SSE stream is allowed per session' }, id: null }) }),
  ];
  const cancel = rec('request', 2000, 'x-9', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'McpError: MCP error -32001: Request timed out' } } });
  const call = async (lines: Record<string, unknown>[]) => (await analyzeInputs([{ side: 'client', lines: [...lines, cancel, rec('response', 2002, 'x-9', { status: 202, responseHeaders: {} }), rec('end', 2003, 'x-9', { end: 'complete' })] }])).attempts.filter((a) => a.method === 'tools/call')[0]!;

  it('the why says the SDK then opened a plain GET (no Last-Event-ID) that could not deliver it, with its status', async () => {
    const x = await call([...broken(), ...refused409(326, 'x-3')]);
    expect(x.outcome).toBe('STREAM_INCOMPLETE');
    // Before: it ended at "answered HTTP 200 (stream error), and none delivered it".
    expect(x.detail.why).toBe(
      "SSE stream ended (error) after 2 events without the response; the client tried to resume it once (GET with Last-Event-ID), answered HTTP 200 (stream error), and none delivered it; the last one ended before its first event, so the client reconnected without Last-Event-ID (it had no event id of that stream: the TypeScript SDK, 1.x and v2, does so), a plain GET for the session's standalone stream, answered HTTP 409, which could not deliver it (a server sends a request's response there only when resuming that request's stream)",
    );
  });

  it('an accepted plain GET (the server opened a standalone stream) is named too', async () => {
    const x = await call([...broken(), plainGet(326, 'x-3'), rec('response', 328, 'x-3', sseHead)]);
    expect(x.detail.why).toMatch(/a plain GET for the session's standalone stream, answered HTTP 200, which could not deliver it/);
  });

  it('must not: a resumption that carried an event before it broke (the SDK resumes after that event) names no plain GET', async () => {
    const x = await call([...broken([rec('event', 223, 'x-2', { id: 'ev-3', event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: 2 } }) })]), ...refused409(326, 'x-3')]);
    expect(x.detail.why).not.toMatch(/plain GET/);
  });

  // v2-streams-seed-42 (the seventy-ninth audit, the v2 client 2.4.0): the session's standalone stream (a plain GET
  // answered 200) was cut at 215 ms, the resumption broke at 225 ms; the SDK reconnects each 100 ms after its break, so
  // the plain GET at 316 ms is the standalone stream's reconnect (answered 200, open), the one at 326 ms the
  // resumption's (409: one standalone stream per session).
  const standalone = (endAt: number) => [plainGet(-50, 'x-0'), rec('response', -48, 'x-0', sseHead), rec('end', endAt, 'x-0', { end: 'complete' })];
  it('a plain GET that reconnects the standalone stream, cut before the resumption broke, is not named: the next one is', async () => {
    const x = await call([...standalone(215), ...broken(), plainGet(316, 'x-8'), rec('response', 318, 'x-8', sseHead), ...refused409(326, 'x-3')]);
    // Before: "a plain GET for the session's standalone stream, answered HTTP 200" (the standalone stream's reconnect).
    expect(x.detail.why).toMatch(/, a plain GET for the session's standalone stream, answered HTTP 409, which could not deliver it/);
  });

  it('must not: a standalone stream cut after the resumption broke leaves the first plain GET to the resumption', async () => {
    const x = await call([...standalone(228), ...broken(), plainGet(316, 'x-8'), rec('response', 318, 'x-8', sseHead), ...refused409(336, 'x-3')]);
    expect(x.detail.why).toMatch(/, a plain GET for the session's standalone stream, answered HTTP 200, which could not deliver it/);
  });

  it('must not: a refused resumption (503: the SDK tries the same Last-Event-ID again), or a plain GET 10 s after (not the SDK reconnecting it), names none', async () => {
    const refused = await call([...cutCall(), resumeGet(220, 'x-2', 'ev-2'), rec('response', 222, 'x-2', { status: 503, responseHeaders: {} }), rec('end', 223, 'x-2', { end: 'complete' }), ...refused409(326, 'x-3')]);
    expect(refused.detail.why).not.toMatch(/plain GET/);
    const late = await analyzeInputs([{ side: 'client', lines: [...broken(), ...refused409(10_000, 'x-3')] }]);
    expect(late.attempts.filter((a) => a.method === 'tools/call')[0]!.detail.why).not.toMatch(/plain GET/);
  });
});

describe('a resumption the server held open with no event (an event store that lost the Last-Event-ID: the fourteenth audit)', () => {
  // The SDK 1.32.2 server with an InMemoryEventStore-like store that evicted the id: replayEventsAfter answers '' for an
  // id it does not know, and the transport answers the GET 200 with an empty stream it keeps open; the client aborts it
  // at its timeout.
  const held = (endAt: number, how = 'aborted', events: Record<string, unknown>[] = []) => [
    ...cutCall(),
    resumeGet(1800, 'x-2', 'ev-2'),
    rec('response', 1802, 'x-2', sseHead),
    ...events,
    rec('end', endAt, 'x-2', { end: how, ...(how === 'aborted' ? { error: 'This operation was aborted' } : {}) }),
  ];
  const whyOf = async (lines: Record<string, unknown>[], side = 'client') => (await analyzeInputs([{ side, lines: side === 'client' ? lines : lines.map((l) => ({ ...l, side })) }])).attempts.find((a) => a.method === 'tools/call')!.detail.why;

  it('the why says it answered 200 with no event for how long, and that the store no longer had that id, had the events in another order, or the tool had nothing to send', async () => {
    expect(await whyOf(held(5000))).toBe(
      "SSE stream ended (error) after 2 events without the response; the client tried to resume it once (GET with Last-Event-ID), answered HTTP 200 with no event for 3.20 s, until it was aborted, and none delivered it; a resumption held open with no event replayed nothing after its Last-Event-ID: the server's event store no longer had that id (evicted or lost; the TypeScript SDK's InMemoryEventStore answers an id it does not know with an empty stream it keeps open), or had the events after it in another order (that store replays the ids that sort after it, and one stored in the same millisecond sorts by a random part), or the tool was still running with nothing to send",
    );
  });

  it('must not: a resumption that carried an event, one cut within a second, or one that ended complete is not called empty', async () => {
    const progress2 = rec('event', 1900, 'x-2', { id: 'ev-3', event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: 2 } }) });
    for (const lines of [held(5000, 'aborted', [progress2]), held(2300), held(5000, 'complete')]) {
      const why = await whyOf(lines);
      expect(why).toMatch(/the client tried to resume it once/);
      expect(why).not.toMatch(/with no event|replayed nothing/);
    }
  });
});

describe('a resumption answered 200 whose stream ended with no event (the Python SDK server with a store that lost the id: the fourteenth audit, Python half)', () => {
  // The Python SDK 2.3.0 server answers a Last-Event-ID its store gives no stream for, or whose replay raised, with 200
  // and an empty stream it ends at once; its client resumes again from the same id after each, until its timeout.
  const empty = (t: number, xid: string, extra: Record<string, unknown>[] = [], status = 200, how = 'complete') => [
    resumeGet(t, xid, 'ev-2'),
    rec('response', t + 5, xid, { ...sseHead, status }),
    ...extra,
    rec('end', t + 8, xid, { end: how, ...(how === 'aborted' ? { error: 'This operation was aborted' } : {}) }),
  ];
  const whyOf = async (lines: Record<string, unknown>[]) => (await analyzeInputs([{ side: 'client', lines }])).attempts.find((a) => a.method === 'tools/call')!.detail.why!;
  const MEANING = "a resumption answered 2xx that ended with no event replayed nothing after its Last-Event-ID: the server's event store had nothing after that id (the Python SDK server ends such a stream at once when its store no longer has the id, or when the store's replay raised, which only the server's own log tells), unless something between cut it before its first event";

  it('one: said to have ended with no event, and what that means', async () => {
    expect(await whyOf([...cutCall(), ...empty(420, 'x-2')])).toBe(
      `SSE stream ended (error) after 2 events without the response; the client tried to resume it once (GET with Last-Event-ID), answered HTTP 200 (stream ended with no event), and none delivered it; ${MEANING}`,
    );
  });

  it('three and more, all alike: said once, with how many and over how long the client resumed again from the same id', async () => {
    expect(await whyOf([...cutCall(), ...empty(420, 'x-2'), ...empty(730, 'x-3'), ...empty(1040, 'x-4')])).toBe(
      `SSE stream ended (error) after 2 events without the response; the client tried to resume it 3 times (GET with Last-Event-ID), answered HTTP 200 (stream ended with no event) each time, and none delivered it; ${MEANING}; the client resumed again from the same id after each one, 3 times in 0.62 s (the Python SDK client does so at the server's retry interval, with no limit, until its own timeout)`,
    );
  });

  it('must not: a resumption that carried an event, one aborted, one refused or one that ended only after a second (the session deleted: the SDK 1.32.2 server held it open) is not said to have ended with no event; two are listed, not said once', async () => {
    const progress2 = rec('event', 425, 'x-2', { id: 'ev-3', event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: 2 } }) });
    const late = [resumeGet(420, 'x-2', 'ev-2'), rec('response', 425, 'x-2', sseHead), rec('end', 3620, 'x-2', { end: 'complete' })];
    for (const lines of [empty(420, 'x-2', [progress2]), empty(420, 'x-2', [], 200, 'aborted'), empty(420, 'x-2', [], 400), late]) {
      const why = await whyOf([...cutCall(), ...lines]);
      expect(why).toMatch(/the client tried to resume it once/);
      expect(why).not.toMatch(/ended with no event|replayed nothing/);
    }
    const two = await whyOf([...cutCall(), ...empty(420, 'x-2'), ...empty(730, 'x-3')]);
    expect(two).toContain('answered HTTP 200 (stream ended with no event), HTTP 200 (stream ended with no event), and none delivered it');
    expect(two).not.toMatch(/each time|resumed again/);
    // Mixed answers are listed one by one, and the client's repeats are not told.
    const mixed = await whyOf([...cutCall(), ...empty(420, 'x-2'), ...empty(730, 'x-3', [], 500), ...empty(1040, 'x-4')]);
    expect(mixed).toContain('answered HTTP 200 (stream ended with no event), HTTP 500, HTTP 200 (stream ended with no event), and none delivered it');
    expect(mixed).not.toMatch(/each time|resumed again/);
  });
});

describe("a server-side recording proxy's log (the Python SDK server's), where a hop closed the stream and the client resumed it", () => {
  // mcp-triage record --side server in front of the Python server: the hop's cut is its peer closing the connection.
  const closed = cutCall().map((l) => ({ ...l, side: 'server', ...(l.kind === 'end' ? { end: 'aborted', error: 'the client closed the connection' } : {}) }));
  const resume = [resumeGet(1820, 'x-2', 'ev-2'), rec('response', 1830, 'x-2', sseHead), rec('end', 1832, 'x-2', { end: 'complete' })].map((l) => ({ ...l, side: 'server' }));
  const whyOf = async (lines: Record<string, unknown>[]) => (await analyzeInputs([{ side: 'server', lines }])).attempts.find((a) => a.method === 'tools/call')!.detail.why!;

  it('the why says the connection closed, then names the resumptions', async () => {
    expect(await whyOf([...closed, ...resume])).toBe(
      "the connection closed 0.12 s after the request came, before the response was sent (the server's log cannot tell the client from something between them), and no notifications/cancelled came; 2 SSE events went out before that; the client tried to resume it once (GET with Last-Event-ID), answered HTTP 200 (stream ended with no event), and none delivered it; a resumption answered 2xx that ended with no event replayed nothing after its Last-Event-ID: the server's event store had nothing after that id (the Python SDK server ends such a stream at once when its store no longer has the id, or when the store's replay raised, which only the server's own log tells), unless something between cut it before its first event",
    );
  });

  it('must not: a stream closed and never resumed names no resumption', async () => {
    expect(await whyOf(closed)).toBe("the connection closed 0.12 s after the request came, before the response was sent (the server's log cannot tell the client from something between them), and no notifications/cancelled came; 2 SSE events went out before that");
  });
});

describe('a proxy log in front of the server, where a hop closed the stream as the client side and the client resumed it', () => {
  // mcp-triage record's log (no side): the hop in front of the client cut the POST stream, which the proxy sees as its
  // client closing the connection; then the client's resumption GET passed it.
  const lines = cutCall().map((l) => {
    const { side: _side, ...rest } = l as Record<string, unknown>;
    return rest.kind === 'end' ? { ...rest, end: 'aborted', error: 'the client closed the connection' } : rest;
  });
  const resume = [
    { ...resumeGet(320, 'x-2', 'ev-2'), side: undefined },
    { v: 1, kind: 'response', ts: at(322), session: S, xid: 'x-2', status: 500, responseHeaders: { 'content-type': 'application/json' } },
    { v: 1, kind: 'end', ts: at(323), session: S, xid: 'x-2', end: 'complete' },
  ].map(({ side: _side, ...rest }) => rest);

  it('the why says the client closed it, then names its resumptions', async () => {
    const r = await analyzeInputs([{ lines: [...lines, ...resume] }]);
    const call = r.attempts.find((a) => a.method === 'tools/call')!;
    expect(call.outcome).toBe('STREAM_INCOMPLETE');
    expect(call.detail.why).toBe('the client closed the stream 0.12 s after sending it, before any response came, and sent no notifications/cancelled; 2 SSE events came before that; the client tried to resume it once (GET with Last-Event-ID), answered HTTP 500, and none delivered it');
  });

  it('must not: a stream the client closed and never resumed names no resumption', async () => {
    const r = await analyzeInputs([{ lines }]);
    expect(r.attempts.find((a) => a.method === 'tools/call')!.detail.why).toBe('the client closed the stream 0.12 s after sending it, before any response came, and sent no notifications/cancelled; 2 SSE events came before that');
  });
});
