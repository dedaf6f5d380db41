// ORPHAN_RESPONSE for a response no request was waiting for: a second one for an answered id, or one before its request.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, ok, post as exchange, toolText } from '../helpers/analyze.js';

const S = 'sess-o';
const head = { v: 1, session: S };
const post = (t: number, xid: string, id: number) => ({
  ...head, kind: 'request', ts: at(t), xid, method: 'POST', requestHeaders: { 'mcp-session-id': S },
  send: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'lookup', arguments: { id } } },
});
const get = (t: number, xid: string) => ({ ...head, kind: 'request', ts: at(t), xid, method: 'GET', requestHeaders: { 'mcp-session-id': S, accept: 'text/event-stream' } });
const head200 = (t: number, xid: string) => ({ ...head, kind: 'response', ts: at(t), xid, status: 200, responseHeaders: { 'content-type': 'text/event-stream' } });
const answer = (t: number, xid: string, id: number) => ({ ...head, kind: 'event', ts: at(t), xid, event: 'message', data: ok(id, toolText(`answer ${id}`)) });
const end = (t: number, xid: string) => ({ ...head, kind: 'end', ts: at(t), xid, end: 'complete' });

async function orphans(lines: unknown[]) {
  const r = await analyzeInputs([{ side: 'client', lines }]);
  const all = [...r.attempts.flatMap((a) => a.findings), ...r.findings];
  return { r, messages: all.filter((f) => f.code === 'ORPHAN_RESPONSE').map((f) => f.message) };
}

describe('responses no request was waiting for (a server writing every response to every stream)', () => {
  it('a second response to an id already answered is an orphan that says so; the call keeps its own answer', async () => {
    const { r, messages } = await orphans([get(0, 'g'), head200(1, 'g'), post(10, 'p', 1), head200(12, 'p'), answer(20, 'p', 1), end(21, 'p'), answer(30, 'g', 1), end(500, 'g')]);
    expect(messages).toEqual([`session ${S}: response with id 1 came after the request with that id in the session had been answered or had ended: a second response, which a client drops as unknown`]);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
  });

  it('a response on the GET stream before any request with its id is an orphan, and the later request keeps its own answer', async () => {
    const { r, messages } = await orphans([get(0, 'g'), head200(1, 'g'), answer(5, 'g', 2), post(50, 'p', 2), head200(52, 'p'), answer(60, 'p', 2), end(61, 'p'), end(500, 'g')]);
    expect(messages).toEqual([`session ${S}: response with id 2 came before any request with that id was sent in the session: no request was waiting for it (a client drops it as unknown)`]);
    expect(r.attempts).toMatchObject([{ id: 2, outcome: 'TOOL_SUCCESS' }]);
    expect((r.attempts[0] as { resumed?: boolean }).resumed).toBeUndefined();
  });

  it('the same stray response in the client\'s and the server\'s log is one finding; two in one log stay two', async () => {
    const lines = (extra: unknown[] = []) => [get(0, 'g'), head200(1, 'g'), post(10, 'p', 1), head200(12, 'p'), answer(20, 'p', 1), end(21, 'p'), answer(30, 'g', 1), ...extra, end(500, 'g')];
    const r = await analyzeInputs([{ side: 'client', lines: lines() }, { side: 'server', lines: lines() }]);
    expect(r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE')).toHaveLength(1);
    const twice = await analyzeInputs([{ side: 'client', lines: lines([answer(40, 'g', 1)]) }, { side: 'server', lines: lines() }]);
    expect(twice.findings.filter((f) => f.code === 'ORPHAN_RESPONSE')).toHaveLength(2);
  });

  it('near misses: a response on the GET stream for a request still waiting, and a duplicated log row', async () => {
    expect((await orphans([get(0, 'g'), head200(1, 'g'), post(10, 'p', 3), head200(12, 'p'), end(13, 'p'), answer(40, 'g', 3), end(500, 'g')])).messages).toEqual([]);
    // a log export that duplicated a whole exchange row: DUPLICATE_RECORD, and its response is no second response
    const row = exchange({ t: 0, id: 5, session: S, status: 200, body: ok(5, toolText('ok')) });
    const dup = await analyzeInputs([{ side: 'server', lines: [row, row] }]);
    expect(dup.findings.map((f) => f.code)).toEqual(['DUPLICATE_RECORD']);
    // a duplicated event row of a split record: DUPLICATE_RECORD too
    const rows = await analyzeInputs([{ side: 'client', lines: [post(0, 'p', 6), head200(2, 'p'), answer(10, 'p', 6), answer(10, 'p', 6), end(11, 'p')] }]);
    expect([...rows.attempts.flatMap((a) => a.findings), ...rows.findings].map((f) => f.code)).toEqual(['DUPLICATE_RECORD']);
    const msg = (t: number, direction: string, message: unknown) => ({ v: 1, kind: 'message', ts: at(t), conn: 'stdio-1', direction, message });
    const request = msg(0, 'c2s', { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'lookup', arguments: {} } });
    const response = msg(10, 's2c', JSON.parse(ok(4, toolText('ok'))));
    expect((await orphans([request, response, response])).messages).toEqual([]);
    const again = (await orphans([request, response, msg(20, 's2c', JSON.parse(ok(4, toolText('ok'))))])).messages;
    expect(again).toHaveLength(1);
    expect(again[0]).toMatch(/response with id 4 came after the request with that id/);
  });

  it('a log without an HTTP layer: a second answer with other content in the same millisecond is a second response, the same row repeated is a duplicate', async () => {
    const msg = (t: number, direction: string, message: unknown) => ({ v: 1, kind: 'message', ts: at(t), conn: 'stdio-1', direction, message });
    const request = (id: number) => msg(0, 'c2s', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'lookup', arguments: { id } } });
    const result = (id: number, text: string) => msg(10, 's2c', JSON.parse(ok(id, toolText(text))));
    const error = (id: number) => msg(10, 's2c', { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } });
    const codes = async (lines: unknown[]) => {
      const r = await analyzeInputs([{ side: 'client', lines }]);
      return { outcomes: r.attempts.map((a) => a.outcome), codes: [...r.attempts.flatMap((a) => a.findings), ...r.findings].map((f) => f.code) };
    };
    // a hop that put an error before the result, both written in the same millisecond
    expect(await codes([request(7), error(7), result(7, 'ok')])).toEqual({ outcomes: ['JSONRPC_ERROR'], codes: ['ORPHAN_RESPONSE'] });
    // the result written twice with other text
    expect(await codes([request(8), result(8, 'first'), result(8, 'second')])).toEqual({ outcomes: ['TOOL_SUCCESS'], codes: ['ORPHAN_RESPONSE'] });
    // a row a log export repeated: same content, same time
    expect(await codes([request(9), result(9, 'ok'), result(9, 'ok')])).toEqual({ outcomes: ['TOOL_SUCCESS'], codes: ['DUPLICATE_RECORD'] });
    // another session's answer in the same millisecond in between does not hide the repeat
    const other = { ...msg(10, 's2c', JSON.parse(ok(9, toolText('other')))), conn: 'stdio-2' };
    const otherRequest = { ...request(9), conn: 'stdio-2' };
    expect(await codes([request(9), otherRequest, result(9, 'ok'), other, result(9, 'ok')])).toEqual({ outcomes: ['TOOL_SUCCESS', 'TOOL_SUCCESS'], codes: ['DUPLICATE_RECORD'] });
  });
});
