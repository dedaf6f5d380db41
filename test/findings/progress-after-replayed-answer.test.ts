// PROGRESS_UNMATCHED for progress a resumption (Last-Event-ID) replayed after the response it replayed: an event store that replays out of order (the fourteenth audit's memory-reordered).
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const S = 'sess-1';
const rec = (kind: string, t: number, xid: string, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side: 'client', session: S, xid, ...extra });
const sseHead = { status: 200, responseHeaders: { 'content-type': 'text/event-stream', 'mcp-session-id': S } };
const progress = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: n, total: 3 } });
const result = JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } });
/** A call whose stream was cut after its second progress event, resumed after the tool finished; `replay` the resumption's events. */
const lines = (replay: [string, string][]) => [
  rec('request', 0, 'x-1', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'quick_report', arguments: {}, _meta: { progressToken: 2 } } } }),
  rec('response', 5, 'x-1', sseHead),
  rec('event', 6, 'x-1', { id: 's_1000_a', data: '' }),
  rec('event', 300, 'x-1', { id: 's_1300_a', event: 'message', data: progress(1) }),
  rec('event', 600, 'x-1', { id: 's_1600_a', event: 'message', data: progress(2) }),
  rec('end', 601, 'x-1', { end: 'complete' }),
  rec('request', 2100, 'x-2', { method: 'GET', requestHeaders: { 'mcp-session-id': S, accept: 'text/event-stream', 'last-event-id': 's_1600_a' } }),
  rec('response', 2101, 'x-2', sseHead),
  ...replay.map(([id, data]) => rec('event', 2102, 'x-2', { id, event: 'message', data })),
  rec('end', 2103, 'x-2', { end: 'aborted', error: 'This operation was aborted' }),
];
const run = async (replay: [string, string][]) => analyzeInputs([{ side: 'client', lines: lines(replay) }]);

describe('progress a resumption replayed after the response it replayed', () => {
  it('is PROGRESS_UNMATCHED (the client drops it), saying the store replayed the stream out of order', async () => {
    const r = await run([['s_1900_c', result], ['s_1900_m', progress(3)]]);
    expect(r.attempts.find((a) => a.method === 'tools/call')).toMatchObject({ outcome: 'TOOL_SUCCESS', resumed: true });
    expect(r.findings.map((f) => [f.code, f.message])).toEqual([['PROGRESS_UNMATCHED', expect.stringMatching(/came in the same millisecond as, and after, the response to tools\/call id 2 .*; it came on a resumption \(GET with Last-Event-ID\) after the response that resumption replayed: the server's event store replayed the stream out of order \(the TypeScript SDK's InMemoryEventStore sorts a stream's events by id, those of one millisecond by a random part\), unless the server sent it after the response$/)]]);
  });

  it('must not: a replay in order (the progress, then the response) raises nothing', async () => {
    const r = await run([['s_1900_m', progress(3)], ['s_1900_c', result]]);
    expect(r.attempts.find((a) => a.method === 'tools/call')).toMatchObject({ outcome: 'TOOL_SUCCESS', resumed: true });
    expect(r.findings).toEqual([]);
  });
});
