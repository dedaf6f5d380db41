// Unit tests for src/formats/inspector.ts: MCP Inspector History (protocol) and Network export entries.
import { describe, expect, it } from 'vitest';
import { detectJsonFormat } from '../../src/formats/index.js';
import { inspectorFormat, inspectorNetworkFormat } from '../../src/formats/inspector.js';
import { errorOf, exchange, messages } from './helpers.js';

const ctx = { file: 'inspector-protocol.json', line: 3 };
const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'find' } };
const answer = { jsonrpc: '2.0', id: 9, result: { resultType: 'complete', content: [], isError: false } };
const entry = (over: Record<string, unknown> = {}) => ({ id: 'm-9', timestamp: '2026-08-01T12:00:00.000Z', direction: 'request', origin: 'client', message: call, response: answer, duration: 143, ...over });
const fetchEntry = (over: Record<string, unknown> = {}) => ({
  id: 'f-1', timestamp: '2026-08-01T12:00:00.000Z', method: 'POST', url: 'http://127.0.0.1:6277/mcp',
  requestHeaders: { 'content-type': 'application/json', 'mcp-session-id': 's-1', __proto__: 'x' }, requestBody: JSON.stringify(call),
  responseStatus: 200, responseStatusText: 'OK', responseHeaders: { 'content-type': 'text/event-stream' }, responseBody: `event: message\ndata: ${JSON.stringify(answer)}\n\n`,
  duration: 120, category: 'transport', ...over,
});

describe('MCP Inspector history entries', () => {
  it('are detected before the plain JSON-RPC format (which would drop the response)', () => {
    expect(detectJsonFormat(entry())?.name).toBe('inspector');
    expect(detectJsonFormat({ direction: 'request', message: call })?.name).toBe('jsonrpc');
  });

  it('a request with its response becomes two messages, the response timed by the duration', () => {
    const [rq, rs] = messages(inspectorFormat.toRecords(entry(), ctx));
    expect(rq).toMatchObject({ direction: 'c2s', ts: '2026-08-01T12:00:00.000Z', message: call });
    expect(rs).toMatchObject({ direction: 's2c', ts: '2026-08-01T12:00:00.143Z', message: answer });
  });

  it('origin says who sent the message: a server request answered by the Inspector goes the other way', () => {
    const elicit = { jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: {} };
    const [rq, rs] = messages(inspectorFormat.toRecords(entry({ origin: 'server', message: elicit, response: { jsonrpc: '2.0', id: 0, result: { action: 'decline' } } }), ctx));
    expect([rq!.direction, rs!.direction]).toEqual(['s2c', 'c2s']);
  });

  it('a request still waiting (no response) is one message; an older export without origin reads requests as the client\'s', () => {
    expect(messages(inspectorFormat.toRecords(entry({ response: undefined, duration: undefined }), ctx))).toHaveLength(1);
    const { origin: _o, ...old } = entry();
    expect(messages(inspectorFormat.toRecords(old, ctx))[0]!.direction).toBe('c2s');
    expect(messages(inspectorFormat.toRecords({ ...old, direction: 'response', message: answer, response: undefined }, ctx))[0]!.direction).toBe('s2c');
  });

  it('a send that failed (clientError, no response) is the HTTP exchange that failed: its status and body, or its error', () => {
    const failed = exchange(inspectorFormat.toRecords(entry({ response: undefined, duration: 12, clientError: 'HTTP 503 Service Unavailable: Error POSTing to endpoint: upstream widget service unavailable' }), ctx));
    expect(failed).toMatchObject({ side: 'client', method: 'POST', status: 503, recvText: 'upstream widget service unavailable', durationMs: 12, send: call });
    expect(exchange(inspectorFormat.toRecords(entry({ response: undefined, clientError: 'fetch failed' }), ctx))).toMatchObject({ status: null, error: 'fetch failed', end: 'error' });
    // A clientError next to a response (the Inspector dropped a malformed tool from a list) leaves the wire as it was.
    expect(messages(inspectorFormat.toRecords(entry({ clientError: 'Dropped 1 malformed entry' }), ctx))).toHaveLength(2);
  });

  it('reports an entry without a timestamp', () => {
    expect(errorOf(inspectorFormat.toRecords(entry({ timestamp: undefined }), ctx))).toMatch(/without a timestamp/);
  });
});

describe('MCP Inspector network entries', () => {
  it('are detected and become whole HTTP exchanges (client side), hostile header names dropped', () => {
    expect(detectJsonFormat(fetchEntry())?.name).toBe('inspector-network');
    const ex = exchange(inspectorNetworkFormat.toRecords(fetchEntry(), ctx));
    expect(ex).toMatchObject({ side: 'client', method: 'POST', status: 200, durationMs: 120, sendText: JSON.stringify(call) });
    expect(ex.recvText).toContain('event: message');
    expect(Object.keys(ex.requestHeaders ?? {})).toEqual(['content-type', 'mcp-session-id']);
  });

  it('a failed fetch has no status and keeps the error; a long-lived GET stream has no body', () => {
    expect(exchange(inspectorNetworkFormat.toRecords(fetchEntry({ responseStatus: undefined, responseHeaders: undefined, responseBody: undefined, error: 'TypeError: fetch failed' }), ctx))).toMatchObject({ status: null, error: 'TypeError: fetch failed', end: 'error' });
    const get = exchange(inspectorNetworkFormat.toRecords(fetchEntry({ method: 'GET', requestBody: undefined, responseBody: undefined }), ctx));
    expect(get.recvText).toBeUndefined();
  });
});
