// Unit tests for src/formats/har-entry.ts: HAR 1.2 entries from Chrome and mitmproxy mapped to canonical exchange records.
import { describe, expect, it } from 'vitest';
import { harEntryFormat, harHeaders } from '../../src/formats/har-entry.js';
import { detectJsonFormat } from '../../src/formats/index.js';
import { errorOf, exchange, records, sampleJson } from './helpers.js';

const ctx = { file: 'capture.ndjson', line: 1 };
const call = (id: number, tool = 'search') => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: { q: 'x' } } });

/** A Chrome-like entry (lowercase HTTP/2 header names, `_` fields). */
function entry(over: { id?: number; status?: number; resHeaders?: { name: string; value: string }[]; content?: Record<string, unknown>; extra?: Record<string, unknown>; response?: Record<string, unknown> } = {}) {
  const id = over.id ?? 7;
  return {
    startedDateTime: '2026-03-01T10:00:00.120Z',
    time: 842.5,
    request: {
      method: 'POST',
      url: 'https://mcp.example/mcp',
      httpVersion: 'HTTP/2',
      headers: [
        { name: 'mcp-session-id', value: 's-42' },
        { name: 'mcp-protocol-version', value: '2025-11-25' },
        { name: 'content-type', value: 'application/json' },
      ],
      postData: { mimeType: 'application/json', text: call(id) },
    },
    response: over.response ?? {
      status: over.status ?? 200,
      statusText: 'OK',
      headers: over.resHeaders ?? [{ name: 'content-type', value: 'application/json' }],
      content: over.content ?? { size: 70, mimeType: 'application/json', text: JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } }) },
    },
    timings: { send: 1, wait: 300, receive: 541 },
    _initiator: { type: 'script' },
    _resourceType: 'fetch',
    ...over.extra,
  };
}

describe('HAR entry adapter', () => {
  it('is detected on a jq -c .log.entries[] line and not on other shapes', () => {
    expect(detectJsonFormat(entry())?.name).toBe('har');
    expect(harEntryFormat.detect({ jsonrpc: '2.0', id: 1, method: 'tools/call' })).toBe(false);
    // a Kong log object also has request/response objects, with header objects instead of lists
    expect(harEntryFormat.detect({ request: { method: 'POST', headers: {} }, response: { status: 200 } })).toBe(false);
  });

  it('maps a successful call: headers, bodies, status, session, duration', () => {
    const r = exchange(harEntryFormat.toRecords(entry(), ctx));
    expect(r).toMatchObject({
      ts: '2026-03-01T10:00:00.120Z', method: 'POST', url: 'https://mcp.example/mcp', status: 200, end: 'complete',
      durationMs: 842.5, session: 's-42', sendText: call(7),
    });
    expect(r.requestHeaders?.['mcp-protocol-version']).toBe('2025-11-25');
    expect(JSON.parse(r.recvText!)).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [] } });
    expect(r).not.toHaveProperty('_initiator');
  });

  it('keeps a JSON-RPC error body for the analyzer', () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 8, error: { code: -32602, message: 'Invalid params' } });
    const r = exchange(harEntryFormat.toRecords(entry({ id: 8, content: { size: body.length, mimeType: 'application/json', text: body } }), ctx));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.recvText!).error.code).toBe(-32602);
  });

  it('decodes a base64 SSE body carrying a tool error', () => {
    const sse = 'id: e1\ndata: \n\nevent: message\ndata: {"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"ünïcode"}],"isError":true}}\n\n';
    const r = exchange(harEntryFormat.toRecords(entry({
      id: 9,
      resHeaders: [{ name: 'content-type', value: 'text/event-stream' }],
      content: { size: Buffer.byteLength(sse), mimeType: 'text/event-stream', text: Buffer.from(sse).toString('base64'), encoding: 'base64' },
    }), ctx));
    expect(r.recvText).toBe(sse);
    expect(r.responseHeaders?.['content-type']).toBe('text/event-stream');
  });

  it('decodes a request body a proxy exported as base64 (postData.encoding), as it does a response body', () => {
    const e = entry({ id: 11 });
    e.request.postData = { mimeType: 'application/json', text: Buffer.from(call(11, 'ünïcode_tool')).toString('base64'), encoding: 'base64' } as typeof e.request.postData;
    const r = exchange(harEntryFormat.toRecords(e, ctx));
    expect(JSON.parse(r.sendText!)).toMatchObject({ id: 11, method: 'tools/call', params: { name: 'ünïcode_tool' } });
    // without the encoding, the same text is taken as it is (and is no JSON-RPC message)
    const plain = entry({ id: 12 });
    plain.request.postData = { mimeType: 'application/json', text: Buffer.from(call(12)).toString('base64') };
    expect(JSON.stringify(harEntryFormat.toRecords(plain, ctx))).not.toContain('"tools/call"');
  });

  it('refuses a status of another type with a clear error, not as a request that got no response', () => {
    const text = harEntryFormat.toRecords(entry({ response: { status: '200', statusText: 'OK', headers: [], content: { size: 2, mimeType: 'application/json', text: '{}' } } }), ctx);
    expect(errorOf(text)).toMatch(/response\.status is text, not a number/);
    expect(errorOf(text)).not.toContain('200');
    const inf = harEntryFormat.toRecords(entry({ response: { status: { code: 200 }, headers: [], content: { size: 0, mimeType: '' } } }), ctx);
    expect(errorOf(inf)).toMatch(/response\.status is an object, not a number/);
    // A numeric status and a null one (no response) are read as before.
    expect(exchange(harEntryFormat.toRecords(entry({ status: 503 }), ctx)).status).toBe(503);
    expect(exchange(harEntryFormat.toRecords(entry({ response: { status: null, headers: [], content: { size: 0, mimeType: '' } } }), ctx)).status).toBeNull();
  });

  it('reads mitmproxy status 0 with _error as no HTTP response', () => {
    const r = exchange(harEntryFormat.toRecords(entry({
      response: { status: 0, statusText: '', headers: [], content: { size: 0, mimeType: '' }, _error: 'Connection reset by peer' },
    }), ctx));
    expect(r.status).toBeNull();
    expect(r.end).toBe('error');
    expect(r.error).toBe('Connection reset by peer');
    expect(r.recvText).toBeUndefined();
  });

  it('keeps the status of a response whose stream then failed (Chrome _error), marked aborted', () => {
    const r = exchange(harEntryFormat.toRecords(entry({ extra: {}, response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { size: -1, mimeType: 'text/event-stream' }, _error: 'net::ERR_ABORTED' } }), ctx));
    expect(r.status).toBe(200);
    expect(r.end).toBe('aborted');
    expect(r.recvText).toBeUndefined();
  });

  it('leaves recvText undefined when the body was not kept, and empty when the body was empty', () => {
    const absent = exchange(harEntryFormat.toRecords(entry({ content: { size: 151, mimeType: 'text/event-stream' } }), ctx));
    expect(absent.recvText).toBeUndefined();
    const empty = exchange(harEntryFormat.toRecords(entry({ status: 202, content: { size: 0, mimeType: 'x-unknown' } }), ctx));
    expect(empty.recvText).toBe('');
    expect(harEntryFormat.limits.notes.join(' ')).toMatch(/bodies absent/);
  });

  it('takes the session from the initialize response header in any case', () => {
    const e = entry();
    e.request.headers = e.request.headers.filter((h) => h.name !== 'mcp-session-id');
    e.response.headers = [{ name: 'Mcp-Session-Id', value: 'fresh-1' }, { name: 'content-type', value: 'application/json' }];
    expect(exchange(harEntryFormat.toRecords(e, ctx)).session).toBe('fresh-1');
  });

  it('joins repeated header names with ", " and ignores malformed header items', () => {
    expect(harHeaders([{ name: 'Set-Cookie', value: 'a=1' }, { name: 'set-cookie', value: 'b=2' }, { name: 5, value: 'x' }, null, { name: '__proto__', value: 'x' }]))
      .toEqual({ 'set-cookie': 'a=1, b=2' });
  });

  it('skips entries that are not MCP traffic (page assets)', () => {
    const asset = { startedDateTime: '2026-03-01T10:00:00Z', time: 3, request: { method: 'GET', url: 'https://mcp.example/logo.png', headers: [] }, response: { status: 200, headers: [], content: { size: 10, mimeType: 'image/png' } } };
    expect(records(harEntryFormat.toRecords(asset, ctx))).toEqual([]);
  });

  it('reports a broken entry (no request method) as an error', () => {
    expect(errorOf(harEntryFormat.toRecords({ startedDateTime: '2026-03-01T10:00:00Z', request: { url: 'x', headers: [] }, response: {} }, ctx))).toMatch(/request\.method/);
  });

  it('maps every line of the sample', () => {
    const out = sampleJson('har-entries.ndjson').flatMap((v) => records(harEntryFormat.toRecords(v, ctx)));
    expect(out).toHaveLength(5); // the favicon entry is skipped
    expect(out.map((r) => (r.kind === 'exchange' ? r.status : 'x'))).toEqual([200, 200, 200, 200, null]);
  });
});
