// The canonical reader on what loggers written from the README write (the fifteenth audit): numeric xids, Node's header values, error objects, raw bodies in send/recv, fix hints.
import { describe, expect, it } from 'vitest';
import { canonicalFormat } from '../../src/formats/canonical.js';
import { loadSchemas } from '../../src/schema/lazy.js';
import { analyzeInputs, at, ok, post, sse, toolText } from '../helpers/analyze.js';
import { errorOf, exchange, records } from './helpers.js';

await loadSchemas();
const src = { file: 'log.ndjson', line: 3 };
const read = (v: Record<string, unknown>) => canonicalFormat.toRecords(v, src);
const call = (id: number, name = 'lookup_order') => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { orderId: 'A-1' } } });

describe('split records whose xid is a logger counter (a number)', () => {
  const lines = [
    { v: 1, kind: 'request', xid: 7, ts: at(0), method: 'POST', requestHeaders: { 'mcp-session-id': 's1' }, sendText: JSON.stringify(call(1)) },
    { v: 1, kind: 'response', xid: 7, ts: at(5), status: 200, responseHeaders: { 'content-type': 'text/event-stream' } },
    { v: 1, kind: 'event', xid: 7, ts: at(6), event: 'message', data: ok(1, toolText('shipped')) },
    { v: 1, kind: 'end', xid: 7, ts: at(7), end: 'complete', durationMs: 7.25 },
  ];

  it('joins them as the same exchange (the xid read as its decimal text)', async () => {
    expect((records(read(lines[0]!))[0] as { xid: string }).xid).toBe('7');
    const r = await analyzeInputs([{ side: 'client', lines }]);
    expect(r.summary.lines.unusable).toBe(0);
    expect(r.attempts.map((a) => [a.method, a.outcome])).toEqual([['tools/call', 'TOOL_SUCCESS']]);
  });

  it('must not take a fractional or boolean xid: the line is refused, with how to fix it', () => {
    for (const xid of [7.5, true]) expect(errorOf(read({ ...lines[0]!, xid }))).toMatch(/^not a valid canonical request record: xid: .*\(fix: xid joins the records of one exchange: text or an integer/);
  });
});

describe("header values as Node's objects hold them", () => {
  it('reads numbers and arrays of text as text (res.getHeaders(), req.headers)', async () => {
    const rec = post({ status: 200, session: 's1', body: ok(1, toolText('shipped')) });
    rec.responseHeaders = { 'content-type': 'application/json', 'content-length': 57, 'set-cookie': ['a=1', 'b=2'] };
    rec.requestHeaders = { 'mcp-session-id': ['s1'], 'content-length': 120 };
    const x = exchange(read(rec));
    expect(x.responseHeaders).toEqual({ 'content-type': 'application/json', 'content-length': '57', 'set-cookie': 'a=1, b=2' });
    expect(x.requestHeaders).toEqual({ 'mcp-session-id': 's1', 'content-length': '120' });
    const r = await analyzeInputs([{ side: 'server', lines: [rec] }]);
    expect(r.summary.lines.unusable).toBe(0);
    expect(r.attempts.map((a) => [a.session, a.outcome])).toEqual([['s1', 'TOOL_SUCCESS']]);
  });

  it('must not take a header value that is an object or null: refused, naming the header and how to fix it', () => {
    for (const v of [{ value: 'x' }, null]) {
      const e = errorOf(read({ ...post({ status: 200 }), responseHeaders: { 'content-type': v } }));
      expect(e).toMatch(/responseHeaders\.content-type: .*\(fix: headers are an object of names to text/);
    }
  });
});

describe('an error logged as the object it was (error: e)', () => {
  it("reads its message, with its code or its cause's", () => {
    const failed = (error: unknown) => exchange(read({ ...post({ status: null }), error })).error;
    expect(failed({ message: 'fetch failed', cause: { code: 'ECONNRESET' } })).toBe('fetch failed (ECONNRESET)');
    expect(failed({ name: 'TypeError', message: 'fetch failed' })).toBe('fetch failed');
    expect(failed({ code: 'UND_ERR_SOCKET' })).toBe('UND_ERR_SOCKET');
    expect(failed({})).toBe('{}'); // JSON.stringify(new Error('x')): nothing to say, but the exchange is kept
  });

  it('keeps the failed POST a NO_RESPONSE whose why quotes the message', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: [{ ...post({ status: null, session: 's1' }), error: { message: 'read ECONNRESET', code: 'ECONNRESET' } }] }]);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['NO_RESPONSE']);
    expect(JSON.stringify(r.attempts[0]!.detail)).toContain('ECONNRESET');
  });

  it('must not take an error that is a number or an array', () => {
    for (const error of [42, ['x']]) expect(errorOf(read({ ...post({ status: null }), error }))).toMatch(/error: /);
  });
});

describe('a raw body logged in send or recv', () => {
  it('reads a send that is the request text as sendText, and a recv that is the response text as recvText', async () => {
    const rec = post({ status: 200, session: 's1', ct: 'text/event-stream' });
    rec.send = JSON.stringify(call(4));
    rec.recv = sse({ event: 'message', data: ok(4, toolText('shipped')) });
    const r = await analyzeInputs([{ side: 'client', lines: [rec] }]);
    expect(r.attempts.map((a) => [a.id, a.outcome])).toEqual([[4, 'TOOL_SUCCESS']]);
    expect(r.findings.map((f) => f.code)).not.toContain('ORPHAN_RESPONSE');
  });

  it('must not read a send that is text but no JSON as a request', async () => {
    const rec = post({ status: 200, session: 's1', body: ok(4, toolText('shipped')) });
    rec.send = 'tools/call lookup_order';
    const r = await analyzeInputs([{ side: 'client', lines: [rec] }]);
    expect(r.attempts.filter((a) => a.method === 'tools/call')).toEqual([]);
  });
});

describe('the fix hint of a refused line', () => {
  it('says what an exchange without status needs', () => {
    const rec = post({ status: 200 });
    delete rec.status;
    expect(errorOf(read(rec))).toBe('not a valid canonical exchange record: status: Invalid input: expected number, received undefined (fix: status is the HTTP status as a number; on an exchange, null when no response came (a failed fetch))');
  });

  it('says what events take', () => {
    expect(errorOf(read({ ...post({ status: 200, ct: 'text/event-stream' }), events: [{ data: { jsonrpc: '2.0' } }] }))).toMatch(/^not a valid canonical exchange record: events\[0\]\.data: .*\(fix: events are objects with data/);
  });

  it('a non-boolean endUnknown goes to zod and is refused there (the cheap guard let it through before)', () => {
    expect(errorOf(read({ ...post({ status: 200, body: '' }), endUnknown: 'yes' }))).toMatch(/^not a valid canonical exchange record: endUnknown: /);
  });

  it('must not add a hint for a field it has none for', () => {
    const e = errorOf(read({ v: 1, kind: 'event', xid: 'x1', data: '{}', retry: 'soon' }));
    expect(e).toMatch(/^not a valid canonical event record: retry: /);
    expect(e).not.toContain('fix:');
  });
});

describe("an event record whose data is the SSE chunk as the server wrote it (a logger wrapping res.write)", () => {
  const frame = `event: message\ndata: ${ok(1, toolText('shipped'))}\n\n`;
  const split = (event: Record<string, unknown>) => [
    { v: 1, kind: 'request', xid: 'x1', ts: at(0), method: 'POST', requestHeaders: { 'mcp-session-id': 's1' }, send: call(1) },
    { v: 1, kind: 'response', xid: 'x1', ts: at(5), status: 200, responseHeaders: { 'content-type': 'text/event-stream' } },
    { v: 1, kind: 'event', xid: 'x1', ts: at(6), ...event },
    { v: 1, kind: 'end', xid: 'x1', ts: at(7), end: 'complete' },
  ];
  const outcome = async (event: Record<string, unknown>) => (await analyzeInputs([{ side: 'server', lines: split(event) }])).attempts.map((a) => a.outcome);

  it('reads the events in it (a priming event and the answer in one chunk too)', async () => {
    expect(await outcome({ data: frame })).toEqual(['TOOL_SUCCESS']);
    expect(await outcome({ data: `id: p1\nretry: 300\ndata: \n\n${frame}` })).toEqual(['TOOL_SUCCESS']);
  });

  it('must not re-read a data field the logger parsed itself (it named the event), nor a chunk cut before its blank line', async () => {
    expect(await outcome({ event: 'message', data: frame })).toEqual(['MALFORMED_JSON']);
    expect(await outcome({ data: frame.trimEnd() })).toEqual(['MALFORMED_JSON']);
    expect(await outcome({ data: ok(1, toolText('shipped')) })).toEqual(['TOOL_SUCCESS']);
  });
});
